"""Group commit: the events already queued when the controller thread wakes are applied in
order, journaled in ONE transaction, and only then carried out, acknowledged and
published; a journal that fails on the burst leaves all of it unacknowledged."""

from __future__ import annotations

import queue
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from controller.app.runtime.loop import BURST, Stop, TableLoop
from controller.journal.store import Journal, JournalError
from controller.ports import CardDrawn, Command, Event, LockShoe
from tests.support.loop_play import KEY, new_loop, play


class Outside:
    """Everything that may leave the controller (commands, acknowledgements, published
    states), each noted with how many rows were durable in the journal file when it did,
    read through a connection of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.durable_at: list[tuple[str, int]] = []
        self.acknowledged: list[int] = []
        self.executed: list[Command] = []
        self.states: list[dict[str, Any]] = []

    def rows_on_disk(self) -> int:
        db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
        finally:
            db.close()

    # a Device for every source
    def handles(self, command: Command) -> bool:
        return True

    def execute(self, command: Command) -> None:
        self.durable_at.append(("command", self.rows_on_disk()))
        self.executed.append(command)

    def acknowledge(self, seq: int) -> None:
        self.durable_at.append(("ack", self.rows_on_disk()))
        self.acknowledged.append(seq)

    def publish(self, state: dict[str, Any]) -> None:
        self.durable_at.append(("state", self.rows_on_disk()))
        self.states.append(state)


def rows_of(journal: Journal) -> list[tuple[Any, ...]]:
    return [(e.round, e.source, e.kind, e.payload, e.actor) for e in journal.entries()]


def queued(events: list[Event]) -> queue.Queue[Any]:
    q: queue.Queue[Any] = queue.Queue()
    for event in events:
        q.put(event)
    q.put(Stop())
    return q


def counting(journal: Journal) -> list[int]:
    """Count the journal's transactions (rows in each)."""
    calls: list[int] = []
    append_many = journal.append_many

    def counted(rows: list[Any], walls: list[str] | None = None) -> Any:
        calls.append(len(rows))
        return append_many(rows, walls)

    journal.append_many = counted  # type: ignore[method-assign]
    return calls


@pytest.mark.parametrize("game", ["blackjack", "poker"])
def test_a_burst_is_one_transaction_and_nothing_leaves_before_it(tmp_path: Path, game: str) -> None:
    played = play(game, tmp_path / "one-by-one.sqlite", rounds=1, seed=7)
    burst = played.events[:BURST]
    assert sum(isinstance(e, CardDrawn) and e.seq is not None for e in burst) >= 5
    with Journal(tmp_path / "one-by-one.sqlite", key=KEY) as journal:
        one_by_one = rows_of(journal)

    path = tmp_path / "burst.sqlite"
    with Journal(path, key=KEY) as journal:
        outside = Outside(path)
        loop = new_loop(game, journal, events=queued(burst), publish=outside.publish)
        loop.devices = {"shoe": outside}
        transactions = counting(journal)
        loop.run()
        assert loop.failed is None
        rows = rows_of(journal)

    assert transactions == [len(rows)]  # the whole burst: one transaction
    assert loop.processed == len(burst)
    # the same rows as the events stepped one at a time
    assert rows == one_by_one[: len(rows)]
    assert [r[2] for r in rows if r[1] != "controller"] == [type(e).__name__ for e in burst]
    # before the burst: only the state the loop starts with; after: the burst, durable,
    # before any command, acknowledgement or state
    first, *after = outside.durable_at
    assert first == ("state", 0)
    assert after and all(durable == len(rows) for _, durable in after), after
    assert outside.acknowledged == [e.seq for e in burst if getattr(e, "seq", None) is not None]
    assert [what for what, _ in after].count("state") == 1  # one state for the burst
    assert outside.states[-1]["journal_seq"] == len(rows)


def test_a_journal_failure_in_a_burst_acknowledges_none_of_it(tmp_path: Path) -> None:
    played = play("blackjack", tmp_path / "one-by-one.sqlite", rounds=1, seed=8)
    burst = played.events[:BURST]
    path = tmp_path / "burst.sqlite"
    with Journal(path, key=KEY) as journal:
        outside = Outside(path)
        loop = new_loop("blackjack", journal, events=queued(burst), publish=outside.publish)
        loop.devices = {"shoe": outside}

        def disk_full(rows: list[Any], walls: list[str] | None = None) -> Any:
            raise JournalError("cannot write to the journal: database or disk is full")

        journal.append_many = disk_full  # type: ignore[method-assign]
        loop.run()

    assert loop.failed is not None and "disk is full" in loop.failed
    assert outside.rows_on_disk() == 0
    assert outside.acknowledged == []  # the shoe sends them all again after the restart
    assert outside.executed == [LockShoe()]  # the fail-safe, and nothing the burst caused
    assert len(outside.states) == 1  # the state before the burst, nothing after
    assert loop.processed == 0


def test_events_queued_before_a_stop_are_done_and_the_stop_is_kept(tmp_path: Path) -> None:
    played = play("blackjack", tmp_path / "one-by-one.sqlite", rounds=1, seed=9)
    events: queue.Queue[Any] = queue.Queue()
    for event in played.events[:5]:
        events.put(event)
    events.put(Stop())
    events.put(played.events[5])  # after the Stop: not taken
    with Journal(tmp_path / "burst.sqlite", key=KEY) as journal:
        loop: TableLoop = new_loop("blackjack", journal, events=events)
        loop.run()
    assert loop.processed == 5
    assert events.qsize() == 1
