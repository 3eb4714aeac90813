"""Simulated devices that speak the real wire protocol over real byte transports."""
