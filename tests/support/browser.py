"""Helpers for the browser tests: a table on the simulators, hands that act on it and
wait until the controller has taken the action in (never a sleep), and a game's state as
the table publishes it (`published`) on a status server of its own (`serve`)."""

from __future__ import annotations

import dataclasses
import os
import queue
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from controller.app.cli.demo import SimHands, demo_config
from controller.app.config import StaffMember, SupervisorConfig, TableConfig
from controller.app.console.supervisor import hash_pin
from controller.app.console.web import StatusServer
from controller.app.runtime.table import RunningTable
from controller.cards import Card
from controller.ports import ConsoleAction, DealerSignedIn
from sim_hardware.shoe import SimulatedShoe

PIN = "7391"  # the supervisor's
SUPERVISOR = StaffMember("s14", "Aroha Ngata", "supervisor", hash_pin(PIN, log2_n=10))
DEALER_PIN = "2580"
DEALER = StaffMember("d07", "Tane Rewi", "dealer", hash_pin(DEALER_PIN, log2_n=10))
LOCKOUT_TRIES = 5


def table_config(journal: Path, port: int = 0) -> TableConfig:
    """The demo's blackjack table with test staff (cheap PIN hashes: 2**10, not 2**14);
    its console secret is created beside the journal when the table starts."""
    config = demo_config("blackjack", journal, port=port)
    return dataclasses.replace(
        config,
        staff=(DEALER, SUPERVISOR),
        supervisor=SupervisorConfig(lockout_tries=LOCKOUT_TRIES, lockout_seconds=60),
    )


def console_url(table: RunningTable, path: str = "/") -> str:
    """Where the kiosk opens the dealer's page: once through the console URL (which sets
    the console cookie and sends it on to ``/``); any other path as it is."""
    server = table.server
    if server is None or server.console_url is None:
        raise RuntimeError("the table serves no console")
    return server.console_url if path == "/" else server.url + path


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


FILLER = cards("2c 3c 4c 5c 6c 7c 8c 9c") * 20
BURN = cards("Qd")  # the card burned after the shuffle, ahead of every stacked shoe


class Hands:
    """The dealer's hands on a running simulated table; each call returns once the table
    has processed what the device reported."""

    def __init__(self, table: RunningTable) -> None:
        self.table = table
        self.sim = SimHands(table)

    def stack(self, shoe: Iterable[Card]) -> None:
        """Load the shoe with ``shoe`` behind the burn card (`shuffled` burns it)."""
        devices = self.table.devices
        if devices is None or devices.sim_shoe is None:
            raise RuntimeError("no simulated shoe")
        devices.sim_shoe.load([*BURN, *shoe, *FILLER])

    def shuffled(self) -> None:
        """The dealer confirms the shuffle at the console (7.1: NEXT never does), signed in
        as the test dealer if nobody is, then burns the card after the shuffle."""
        loop, events = self.table.loop, self.table.events
        seen = loop.processed
        if loop.dealer is None:
            events.put(DealerSignedIn(source="console", staff_id=DEALER.id, name=DEALER.name))
        events.put(ConsoleAction(source="console", action="shuffled"))
        self._settle(seen)
        while self.view.get("burns_due"):
            self.draw()

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
        # The card itself must be in: another event (the shoe's status after a gate
        # command) can satisfy the count while the card is still on the line, and a
        # caller that reads the view next (`shuffled`'s burns) would draw one too many.
        # The shoe is ACKed only once the card is journaled, in the burst that publishes.
        shoe = self.table.devices.sim_shoe if self.table.devices is not None else None
        if isinstance(shoe, SimulatedShoe) and not shoe.wait_until_acknowledged(10.0):
            raise AssertionError(f"the controller never acknowledged {card}")
        self._settle(seen)
        return card

    @property
    def view(self) -> dict[str, Any]:
        view: dict[str, Any] = self.table.state.get("view", {})
        return view


def published(
    game: str,
    round_no: int,
    view: dict[str, Any],
    *,
    table: str = "toy-01",
    limits: tuple[int, int] = (1, 10),
    **more: Any,
) -> dict[str, Any]:
    """The state a simulated table publishes to its page (the loop's ``publish``), around
    a game's ``view`` at round ``round_no``: the one builder of the browser tests' states,
    whichever game. ``table`` and ``limits`` (minimum, maximum) are what the page's header
    shows; ``more`` adds or replaces fields (``demo_pins``, ``journal_seq``...)."""
    minimum, maximum = limits
    return {
        "table": table,
        "simulated": True,
        "limits": {"minimum": minimum, "maximum": maximum},
        "journal_seq": 0,
        "events_processed": 0,
        "recovered": False,
        "devices": {"shoe": "ok"},
        "notices": [],
        "game": game,
        "round": round_no,
        "view": view,
        **more,
    }


def serve(state: dict[str, Any], game: str = "poker") -> StatusServer:
    """A status server showing ``state``; its console secret is a random one (open
    ``server.console_url`` to be its console)."""
    server = StatusServer(queue.Queue(), port=0, game=game, secret=os.urandom(32)).start()
    server.publish(state)
    return server
