"""Ratings through the real loop and journal: the book is told each event's wall time,
the one its journal row gets, so a table killed mid-rating and replayed from its journal
(from a snapshot, or every row) has the same open ratings with the same figures, to the
microsecond, and ends them alike (docs/ratings.md)."""

from __future__ import annotations

import dataclasses
import datetime
import pickle
import random
from pathlib import Path
from typing import Any

from controller.app.cli.demo import demo_config
from controller.app.runtime import snapshots
from controller.app.runtime.games import make_game
from controller.app.runtime.loop import TableLoop
from controller.journal.store import Journal
from controller.ports import ConsoleAction, TableClosed
from controller.rating import RatingSettings
from sim_hardware.dealer import BlackjackDealer
from tests.support.loop_play import KEY, RecordingHands

RATED = RatingSettings(enabled=True, empty_rounds=1000)
START = datetime.datetime(2026, 12, 2, 18, 0, tzinfo=datetime.UTC)


class Clock:
    """The journal's wall clock: 1.37 s later at every reading."""

    def __init__(self) -> None:
        self.ticks = 0

    def __call__(self) -> str:
        self.ticks += 1
        return (START + datetime.timedelta(seconds=1.37 * self.ticks)).isoformat()


def rated_loop(journal: Journal, **kwargs: Any) -> TableLoop:
    config = dataclasses.replace(demo_config("blackjack", journal.path, port=0), rating=RATED)
    return TableLoop(make_game(config), journal, events=None, **kwargs)


def console(action: str, **args: Any) -> ConsoleAction:
    return ConsoleAction(source="console", action=action, args=args, actor="d01")


def play_rated(journal: Journal, rounds: int, **kwargs: Any) -> TableLoop:
    """Ratings opened at boxes 1 to 3, then ``rounds`` rounds and a few steps more (the
    kill comes mid-round)."""
    loop = rated_loop(journal, **kwargs)
    for box in (1, 2, 3):
        loop.step(console("start_rating", box=box, player="" if box == 2 else f"Guest {box}"))
    rng = random.Random(30)
    dealer = BlackjackDealer(RecordingHands(loop, rng, decks=6), loop.snapshot, rng)
    while dealer.rounds_finished < rounds:
        dealer.step()
    for _ in range(3):
        dealer.step()
    return loop


def test_the_journal_row_has_the_wall_time_the_rating_was_told(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite", key=KEY, wall=Clock()) as journal:
        loop = rated_loop(journal)
        loop.step(console("start_rating", box=4, player=""))
        action, started = list(journal.entries())[-2:]
    assert started.kind == "RatingStarted" and action.kind == "ConsoleAction"
    assert started.payload["start"] == action.wall == started.wall


def test_a_table_killed_mid_rating_comes_back_with_its_ratings_open_and_exact(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, key=KEY, wall=Clock()) as journal:
        killed = play_rated(journal, rounds=6, snapshot_every=4)
        rows = list(journal.entries())
    counted = [r for r in rows if r.kind == "RatingRound"]
    assert counted and any(r.payload["seconds"] > 0 for r in counted)
    assert not [r for r in rows if r.kind == "RatingEnded"]  # killed: nothing closed them
    for full in (False, True):
        alive = pickle.loads(pickle.dumps(killed.game))  # the table as it was, kept alive
        live = alive.ratings
        with Journal(path, key=KEY, wall=Clock()) as journal:
            loop = rated_loop(journal, snapshot_every=4)
            loop.replay(full=full)
            assert (loop.restored_from is None) is full
            back = loop.game.ratings  # type: ignore[attr-defined]
            assert back.open == live.open and back.started == live.started
            assert back.open[1].micros > 0 and back.open[1].rounds > 0
            # closed after the restart: the same figures as the table that never died
            wall = "2026-12-02T19:00:00+00:00"
            for game in (alive, loop.game):
                game.at(wall, None)
            closed = loop.game.handle(TableClosed(source="controller"))
            assert closed == alive.handle(TableClosed(source="controller"))
            assert [e.reason for e in closed] == ["closed"] * 3  # type: ignore[attr-defined]


def test_a_snapshot_taken_under_other_rating_settings_is_not_used(tmp_path: Path) -> None:
    """A table that starts rating (or changes `[rating]`) replays its whole journal under
    the new settings: a snapshot's open ratings were worked out under the old ones."""
    path = tmp_path / "journal.sqlite"
    config = demo_config("blackjack", path, port=0)
    before = snapshots.taken_under(config.rules, RATED)
    with Journal(path, key=KEY, wall=Clock()) as journal:
        play_rated(journal, rounds=3, snapshot_every=1, rules=before)
    for rating, used in ((RATED, True), (dataclasses.replace(RATED, empty_rounds=5), False),
                         (RatingSettings(), False)):  # fmt: skip
        with Journal(path, key=KEY, wall=Clock()) as journal:
            loop = rated_loop(journal, rules=snapshots.taken_under(config.rules, rating))
            loop.replay()
            assert (loop.restored_from is not None) is used, rating
