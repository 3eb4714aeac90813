"""The tests' shared scaffolding, imported as ``tests.support.<module>``:

- `cli`: `tablectl(...)`, the command line in a subprocess from the repository root, and
  the command it runs (`tablectl_command`);
- `refusals`: `refusal(action)`, the rule and reason of a refused action, word for word;
- `blackjack`, `poker`, `baccarat`: builders of a table of each game at a chosen point;
- `browser`: a simulated table with test staff, and hands that act on it and wait;
- `chromium`: the browser the tests drive and its switches;
- `pit`: mosquitto brokers on loopback, an MQTT recorder, pit table configs, a demo table.

A free TCP port is `sim_hardware.testbed.free_port`.
"""
