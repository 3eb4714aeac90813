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

from controller.app.runtime.journal_files import open_journal
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import write_config
from tests.integration.power_cuts import (
    check_shoe_rows,
    deal_with_cuts,
    settled_rounds,
    table_process,
)

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
    client, controller, hands = table_process(
        shoe, lambda port: write_config(tmp_path, shoe.link.url, port)
    )
    rng = random.Random(SEED)
    dealer = BlackjackDealer(hands, client.state, rng, insurance_sensors=False)
    try:
        run = deal_with_cuts(
            controller, client, dealer, rng, controller.start(),
            shoe=shoe, kills=KILLS, rounds=6, in_flight=0.25, at_rest=0.2,
        )  # fmt: skip
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0
    assert run.exact >= 5

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    check_shoe_rows(rows, shoe)
    assert sum(row.kind == "CardDrawn" for row in rows) > 50
    assert sum(row.kind == "TableStarted" for row in rows) == KILLS + 1
    assert len(settled_rounds(rows, "RoundSettled")) >= 6
