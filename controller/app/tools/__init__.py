"""The device tools: shoe and RFID monitors, the deck file, the simulated shoe, io-test and
the shoe conformance kit."""
