"""The table's side of the pit: the MQTT publisher, its cursor, what it may publish, and
its signatures."""
