"""The composition root: the only place that wires drivers and simulators to the rules."""
