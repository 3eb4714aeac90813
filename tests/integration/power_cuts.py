"""What the power-cut tests share: a real `tablectl run` process on a simulated shoe (on a
real pty, so it outlives the controller and resends what was not acknowledged), a
scripted dealer driving it through the console, the plug pulled at seeded points, and the
journal's checks afterwards. Each test brings its own game, config, seed and odds.

A cut "in flight" comes just after the dealer acted, before the table settled: the table
must come back recovered. A cut "at rest" comes once it settled: it must come back
exactly where it was (the same view and round, its restart journaled after the rest).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from controller.journal.rows import Entry
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle

DEMO_PIN = "2468"  # the example configs' demo supervisor PIN


class Dealer(Protocol):
    """A scripted dealer (sim_hardware's `BlackjackDealer`, `BaccaratDealer`)."""

    rounds_finished: int

    def step(self) -> str: ...


def table_process(
    shoe: SimulatedShoe, config: Callable[[int], Path]
) -> tuple[ConsoleClient, ControllerProcess, RemoteHands]:
    """The console client, the controller process (``config(port)`` writes its config for
    the status server's port) and the dealer's hands on ``shoe`` and that console."""
    port = free_port()
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    controller = ControllerProcess(config(port), client)
    return client, controller, RemoteHands(client, shoe, pin=DEMO_PIN)


@dataclasses.dataclass
class Cuts:
    """How a run went: the last state seen, the cuts made, those made at rest."""

    state: dict[str, Any]
    kills: int = 0
    exact: int = 0


def deal_with_cuts(
    controller: ControllerProcess,
    client: ConsoleClient,
    dealer: Dealer,
    rng: random.Random,
    state: dict[str, Any],
    *,
    shoe: SimulatedShoe,
    kills: int,
    rounds: int,
    in_flight: float,
    at_rest: float,
) -> Cuts:
    """Let ``dealer`` deal on the started ``controller`` (its first ``state``) until
    ``kills`` cuts were made, each step cut in flight with odds ``in_flight`` and at rest
    with odds ``at_rest`` (drawn from ``rng``), and ``rounds`` rounds are finished.

    After a cut in flight the dealer waits until the restarted table has taken what the
    shoe resends (the shoe's outbox acknowledged) and settled, as a dealer at the table
    waits for the screen: acting on the state from before the resend would deal a card the
    table no longer asks for."""
    run = Cuts(state)
    while run.kills < kills or dealer.rounds_finished < rounds:
        seen = run.state.get("journal_seq", 0)
        did = dealer.step()
        cutting = run.kills < kills
        if cutting and rng.random() < in_flight:
            controller.kill()
            started = controller.start()
            assert started["recovered"] is True
            assert shoe.wait_until_acknowledged(10.0)
            run.state = settle(client, started["journal_seq"] - 1)
            run.kills += 1
            continue
        run.state = settle(client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
        if cutting and rng.random() < at_rest:
            before = run.state
            controller.kill()
            after = controller.start()
            assert after["view"] == before["view"], (before["view"], after["view"])
            assert after["round"] == before["round"]
            assert after["journal_seq"] > before["journal_seq"]  # its TableStarted
            run.state = after
            run.kills += 1
            run.exact += 1
    return run


def check_shoe_rows(rows: Sequence[Entry], shoe: SimulatedShoe) -> None:
    """Everything the shoe sent was acknowledged, hence journaled: exactly once each, in
    order, with nothing missing; and the controller never faulted."""
    from_shoe = [
        row.payload["seq"]
        for row in rows
        if row.source == "shoe" and row.payload.get("seq") is not None
    ]
    assert from_shoe == list(range(1, len(from_shoe) + 1))
    assert len(from_shoe) == shoe.session.counters.sent
    assert not [row for row in rows if row.kind == "ControllerFault"]


def settled_rounds(rows: Sequence[Entry], round_end: str) -> list[dict[str, Any]]:
    """The round-end rows' payloads, each checked to balance: wagers in = paid out + the
    house's result (docs/architecture.md: money balances)."""
    settled = [dict(row.payload) for row in rows if row.kind == round_end]
    for round_ in settled:
        assert round_["wagers_in"] == round_["paid_out"] + round_["house_result"], round_
    return settled
