"""The table config: one TOML file per table, checked whole before anything starts.

One module per section, one shared checker (`checker.Checker`: unknown keys, missing
keys, types, and the line of each mistake). Sections (examples/blackjack-table.toml and
examples/poker-table.toml are complete ones):

- ``[table]``, ``[limits]``: `table` (also `TableConfig`, the whole checked config).
- ``[<game>]`` (``[blackjack]``, ``[poker]``...): `rules`; the game's `GameSpec`'s
  ``rules`` type, any field left out keeps its default (the game's docs).
- ``[shoe]``: `shoe`.
- ``[pins]``: `pins`, the GPIO pin map (docs/wiring.md), checked against what the game's
  `GameSpec` needs wired; it builds the typed pin specs the drivers take
  (`drivers.pinmap`). ``tablectl run --sim`` puts it, and the shoe, on the simulators
  instead (a simulator is chosen
  explicitly, never as a fallback).
- ``[display]``: `display`.
- ``[journal]``: `journal`.
- ``[[staff]]`` and ``[supervisor]``: `staff`.
- ``[pit]`` (optional): `pit`.
- ``[chips]`` (optional): `chips`, the casino's chip inventory, into the rules.
- ``[board]`` (optional): `board`, the players' board (name, casino, colours, language).
- ``[[player_cards]]`` (any number): `player_cards`, the players' card readers at the boxes.

`loader` reads the file and checks the sections in a fixed order. Every error names the
key and its line, and `load_config` raises one `ConfigError` naming every problem found,
one line each, in that order: a wrong type, an unknown key, a missing section, a limit
whose minimum is above its maximum, a pin used twice.

Adding a key: put it in its section module's ``SCHEMA`` and read it there. Adding a
section: a new module with its ``SCHEMA`` and ``parse_x(check, doc)``, one entry in
`loader.SECTIONS`, one call in `loader.parse_config`, and its config on `TableConfig`.
"""

from __future__ import annotations

from controller.app.config.display import LOOPBACK
from controller.app.config.loader import load_config, parse_config
from controller.app.config.pit import PitConfig
from controller.app.config.rules import rules_from_dict
from controller.app.config.shoe import ShoeConfig
from controller.app.config.staff import ROLES, STAFF_ID, StaffMember, SupervisorConfig
from controller.app.config.table import TableConfig

__all__ = [
    "LOOPBACK",
    "ROLES",
    "STAFF_ID",
    "PitConfig",
    "ShoeConfig",
    "StaffMember",
    "SupervisorConfig",
    "TableConfig",
    "load_config",
    "parse_config",
    "rules_from_dict",
]
