"""Helpers for the browser tests: a table on the simulators, and hands that act on it and
wait until the controller has taken the action in (never a sleep)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from controller.app.config import SupervisorConfig, TableConfig
from controller.app.demo import SimHands, demo_config
from controller.app.supervisor import hash_pin
from controller.app.table import RunningTable
from controller.cards import Card

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PIN = "7391"
PIN_HASH = hash_pin(PIN, log2_n=10)  # cheap for tests; the real default is 2**14
LOCKOUT_TRIES = 5


def table_config(journal: Path, port: int = 0) -> TableConfig:
    config = demo_config("blackjack", journal, port=port)
    return dataclasses.replace(
        config,
        supervisor=SupervisorConfig(
            pin_hash=PIN_HASH, lockout_tries=LOCKOUT_TRIES, lockout_seconds=60
        ),
    )


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


FILLER = cards("2c 3c 4c 5c 6c 7c 8c 9c") * 20


class Hands:
    """The dealer's hands on a running simulated table; each call returns once the table
    has processed what the device reported."""

    def __init__(self, table: RunningTable) -> None:
        self.table = table
        self.sim = SimHands(table)

    def stack(self, shoe: Iterable[Card]) -> None:
        devices = self.table.devices
        if devices is None or devices.sim_shoe is None:
            raise RuntimeError("no simulated shoe")
        devices.sim_shoe.load([*shoe, *FILLER])

    def _settle(self, seen: int) -> None:
        table = self.table
        if table.devices is not None:
            table.devices.io.wait_quiet(timeout=10.0)
        table.loop.wait_processed(seen, timeout=10.0)
        table.loop.wait_idle(timeout=10.0)

    def press(self, button: str) -> None:
        seen = self.table.loop.processed
        self.sim.press(button)
        self._settle(seen)

    def wager(self, box: int, on: bool = True) -> None:
        seen = self.table.loop.processed
        self.sim.wager(box, on)
        self._settle(seen)

    def chips(self, spot: str, on: bool = True) -> None:
        """Chips on (or off) a named spot: ``box1.p2`` is a second person on box 1."""
        seen = self.table.loop.processed
        self.sim._chips(spot, on)
        self._settle(seen)

    def insurance(self, box: int, on: bool = True) -> None:
        seen = self.table.loop.processed
        self.sim.insurance(box, on)
        self._settle(seen)

    def draw(self) -> str:
        seen = self.table.loop.processed
        card = self.sim.draw()
        self._settle(seen)
        return card

    @property
    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.table.state.get("view", {})
        return view
