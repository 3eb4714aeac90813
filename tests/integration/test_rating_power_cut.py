"""Pulling the plug mid-rating: a real `tablectl run` blackjack process rating two boxes,
SIGKILLed at seeded points and restarted on the same journal, then stopped in order.

The ratings must survive every kill open (no second start, the marks on the page as they
were), and when the orderly stop closes them, every figure must be what the journal's own
rows say, recomputed here outside the rating code: each counted round's wagers from the
round's payouts, the time from the rows' wall times, the totals from the rounds
(docs/ratings.md)."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from controller.app.runtime.journal_files import open_journal
from controller.journal.rows import Entry
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import write_config
from tests.integration.power_cuts import check_shoe_rows, deal_with_cuts, table_process

KILLS = 6
SEED = 20261202
RATING = '\n[rating]\nenabled = true\nempty_rounds = 1000\nblackjack_edge = "1/200"\n'


@pytest.fixture
def shoe() -> Iterator[SimulatedShoe]:
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(SEED)) as device:
        yield device


def _at(wall: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(wall)


def recomputed(rows: list[Entry], rating: str) -> dict[str, object]:
    """A rating's figures from the journal's rows alone: the rounds it counted, their
    wagers from the payouts of the box holder between round ends, its time from the round
    ends' wall times, the theo from the handle at the configured edges."""
    started = next(r for r in rows if r.kind == "RatingStarted" and r.payload["rating"] == rating)
    box = started.payload["box"]
    counted = {
        r.payload["round"]: r
        for r in rows
        if r.kind == "RatingRound" and r.payload["rating"] == rating
    }
    handle: dict[str, int] = {}
    result = 0
    micros = 0
    stakes: dict[str, int] = {}
    won = 0
    last_end: str | None = None
    for row in rows:
        if row.kind == "Payout" and row.payload["box"] == box and row.payload["person"] == 1:
            bet = (
                "insurance"
                if row.payload["kind"] == "insurance"
                else ("even_money" if row.payload["outcome"] == "even_money" else "main")
            )
            stakes[bet] = stakes.get(bet, 0) + row.payload["stake"]
            won += row.payload["won"] - row.payload["lost"]
        if row.kind == "RoundSettled":
            number = row.payload["round"]
            if number in counted:
                assert counted[number].payload["wagers"] == stakes, (number, stakes)
                for bet, chips in stakes.items():
                    handle[bet] = handle.get(bet, 0) + chips
                result += won
                since = started.wall
                if last_end is not None and _at(last_end) > _at(since):
                    since = last_end
                micros += (_at(row.wall) - _at(since)) // datetime.timedelta(microseconds=1)
            stakes, won, last_end = {}, 0, row.wall
    theo = sum(Fraction(chips, 200) for chips in handle.values())
    return {
        "rounds": len(counted),
        "handle": sum(handle.values()),
        "handle_by_bet": dict(sorted(handle.items())),
        "win_loss": result,
        "seconds": micros // 1_000_000,
        "theo_hundredths": int(theo * 100 + Fraction(1, 2)),
    }


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigkill_mid_rating_restores_the_ratings_and_their_figures_exactly(
    tmp_path: Path, shoe: SimulatedShoe
) -> None:
    client, controller, hands = table_process(
        shoe, lambda port: write_config(tmp_path, shoe.link.url, port, RATING)
    )
    rng = random.Random(SEED)
    dealer = BlackjackDealer(hands, client.state, rng, insurance_sensors=False)
    try:
        state = controller.start()
        hands.console("start_rating", box=1, player="")
        hands.console("start_rating", box=2, player="Guest 2")
        run = deal_with_cuts(
            controller, client, dealer, rng, client.state(),
            shoe=shoe, kills=KILLS, rounds=5, in_flight=0.3, at_rest=0.3,
        )  # fmt: skip
        assert run.kills == KILLS
        assert [mark["box"] for mark in client.state()["view"]["rated"]] == [1, 2]
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()  # SIGTERM: the orderly close ends the ratings
    assert code == 0 and state["view"].get("rated") == []

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    check_shoe_rows(rows, shoe)
    assert sum(row.kind == "TableStarted" for row in rows) == KILLS + 1
    assert [r.payload["rating"] for r in rows if r.kind == "RatingStarted"] == ["r1", "r2"]
    ended = {r.payload["rating"]: r.payload for r in rows if r.kind == "RatingEnded"}
    assert set(ended) == {"r1", "r2"}
    for rating, figures in ended.items():
        assert figures["reason"] == "closed"
        again = recomputed(rows, rating)
        assert again["rounds"] > 0
        assert {k: figures[k] for k in again} == again, rating
        assert figures["average_bet"] == figures["handle"] // figures["rounds"]
