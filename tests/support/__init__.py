"""The tests' shared scaffolding, imported as ``tests.support.<module>``:

- `cli`: `tablectl(...)`, the command line in a subprocess from the repository root, and
  the command it runs (`tablectl_command`);
- `refusals`: `refusal(action)`, the rule and reason of a refused action, word for word;
- `blackjack`, `poker`, `baccarat`: builders of a table of each game at a chosen point;
  `blackjack_script`: scripted blackjack rounds (`ScriptedTable`);
- `browser`: a simulated table with test staff, hands that act on it and wait, the state a
  table publishes (`published`) and a status server showing it (`serve`);
  `poker_scenes`, `blackjack_scenes`, `baccarat_view`: games played (or a view worked by
  hand) to the moment a page test or a screenshot shows;
- `chromium`: the browser the tests drive and its switches;
- `pit`: mosquitto brokers on loopback, an MQTT recorder, pit table configs, a demo table,
  and the fixtures that stop them; `floor`, `floor_scene`: the floor view's rows and
  staff, and a floor mid-shift; `poker_play`: poker hands through the real
  loop and journal (the privacy tests);
- `processes`: a child process whose output is kept line by line, to wait on;
- `loop_play`: rounds through the real game, loop and journal (the loop's tests);
- `fuzzing`: hypothesis run for a time budget, and the game fuzzers' shared parts;
- `gpio`: the machine as one without the Pi's GPIO.

A free TCP port is `sim_hardware.testbed.free_port`.
"""
