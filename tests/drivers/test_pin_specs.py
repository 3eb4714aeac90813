"""The drivers take typed pin specs and nothing else (the config is the one validator).

The ``[pins]`` text is checked by the config (`controller.app.config.pins`); the drivers
get a `PinMap` of frozen records, so they neither read config text nor know a game. These
tests fail if the drivers start to need the config again, or if the import contract that
keeps the app and the game registry out of them is dropped.
"""

from __future__ import annotations

import queue
import tomllib
from pathlib import Path

from controller.ports import ConsoleButton, Event, Lamp, SpotOccupied
from drivers.gpio import TableIO
from drivers.pinmap import ButtonInput, LampOutput, PinMap, SpotInput
from sim_hardware.table import SimTable

ROOT = Path(__file__).resolve().parents[2]


def test_the_drivers_run_a_pin_map_built_in_code_without_any_config() -> None:
    pinmap = PinMap(
        game="a game the drivers have never heard of",
        spots=(SpotInput("box1", 5, "up", False, 0.005, None),),
        buttons=(ButtonInput(ConsoleButton.NEXT, 6, "up", False, 0.005, None, None),),
        lamps=(LampOutput(Lamp.HOLD, 13, False, True, None),),
        gate=None,
        position=None,
        limit_sign=None,
        source="<built in code>",
    )
    sim = SimTable(pinmap)
    events: queue.Queue[Event] = queue.Queue()
    io = TableIO(pinmap, events, pin_factory=sim.pin_factory, report_initial=False)
    try:
        sim.place_chips("box1")
        assert io.wait_quiet(3.0), "the spot never settled"
        assert events.get(timeout=3.0) == SpotOccupied(source="table", spot="box1")
    finally:
        io.close()
        sim.close()


def test_drivers_may_import_neither_the_app_nor_the_game_registry() -> None:
    """A forbidden contract in pyproject.toml (checked by lint-imports, tests/test_layering)
    keeps ``controller.app`` (the config) and ``controller.game`` (the registry, which
    knows the games) out of every driver."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    forbidden: set[str] = set()
    for contract in config["contracts"]:
        if contract["type"] == "forbidden" and "drivers" in contract["source_modules"]:
            forbidden |= set(contract["forbidden_modules"])
    assert {"controller.app", "controller.game"} <= forbidden, forbidden
