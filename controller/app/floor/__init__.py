"""The pit floor view: a program of its own that reads every table's MQTT topics and shows
the floor to the pit."""
