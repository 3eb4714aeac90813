"""Pulling the plug: a real `tablectl run` process, SIGKILLed at 50 seeded points across
several blackjack rounds and restarted each time on the same journal.

The shoe is a simulated shoe in this process on a real pty (it survives the controller, as
a real shoe would, and resends what was not acknowledged); the dealer's console inputs go
through the table's console API. After every restart the table must come back where it was;
at the end no card the controller acknowledged is missing from the journal, none is there
twice, the chain verifies, and every settled round balances.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.journal_files import open_journal
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle, write_config

KILLS = 50
SEED = 20261129


@pytest.fixture
def shoe() -> Iterator[SimulatedShoe]:
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(SEED)) as device:
        yield device


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigkill_at_50_points_loses_nothing_and_recovers_exactly(
    tmp_path: Path, shoe: SimulatedShoe
) -> None:
    port = free_port()
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    controller = ControllerProcess(write_config(tmp_path, shoe.link.url, port), client)
    rng = random.Random(SEED)
    hands = RemoteHands(client, shoe, pin="2468")  # the example config's demo PIN
    dealer = BlackjackDealer(hands, client.state, rng, insurance_sensors=False)
    state = controller.start()
    kills = 0
    exact = 0
    try:
        while kills < KILLS:
            seen = state.get("journal_seq", 0)
            did = dealer.step()
            if rng.random() < 0.25:  # a cut while the action is on its way in
                controller.kill()
                state = controller.start()
                assert state["recovered"] is True
                kills += 1
                continue
            state = settle(client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
            if rng.random() < 0.2:  # a cut at rest: the table must come back as it was
                controller.kill()
                after = controller.start()
                assert after["view"] == state["view"], (state["view"], after["view"])
                assert after["round"] == state["round"]
                state = after
                kills += 1
                exact += 1
        while dealer.rounds_finished < 6:
            seen = state.get("journal_seq", 0)
            dealer.step()
            state = settle(client, seen)
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0
    assert exact >= 5

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    from_shoe = [
        row.payload["seq"]
        for row in rows
        if row.source == "shoe" and row.payload.get("seq") is not None
    ]
    # everything the shoe sent was acknowledged (above), hence journaled: exactly once each,
    # in order, with nothing missing
    assert from_shoe == list(range(1, len(from_shoe) + 1))
    assert len(from_shoe) == shoe.session.counters.sent
    assert sum(row.kind == "CardDrawn" for row in rows) > 50
    assert sum(row.kind == "TableStarted" for row in rows) == KILLS + 1
    assert not [row for row in rows if row.kind == "ControllerFault"]
    settled = [row.payload for row in rows if row.kind == "RoundSettled"]
    assert len(settled) >= 6
    for round_ in settled:
        assert round_["wagers_in"] == round_["paid_out"] + round_["house_result"], round_
