"""The journal: durable, append-only, hash-chained; the chain check names the bad row."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

import pytest

from controller.cards import Card
from controller.journal import GENESIS, Journal, JournalCorrupt, JournalError
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal(tmp_path / "table.sqlite")
    for i, card in enumerate(["As", "Kd", "7c", "7h", "2s"], start=1):
        j.record(CardDrawn(source="shoe", card=Card.parse(card), seq=i), source="shoe", round=1)
    j.record(
        ButtonPressed(source="console", button=ConsoleButton.NEXT),
        source="console",
        round=1,
        actor="dealer 17",
    )
    return j


def tamper(path: Path, *statements: str) -> None:
    """What someone with the file and sqlite3 could do: drop the guards and edit rows."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        db.execute(statement)
    db.close()


def test_rows_are_chained_and_read_back(journal: Journal) -> None:
    rows = list(journal.entries())
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5, 6]
    assert rows[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(rows))
    assert rows[0].kind == "CardDrawn" and rows[0].payload["card"] == "As"
    assert rows[5].actor == "dealer 17" and rows[5].payload["button"] == "next"
    assert journal.verify() == 6


def test_the_journal_is_durable_and_settings_are_wal_full(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reopened = Journal(journal.path)
    assert reopened.last_seq == 6 and reopened.last_hash == journal.last_hash
    entry = reopened.record(
        ButtonPressed(source="console", button=ConsoleButton.NEXT), source="console"
    )
    assert entry.seq == 7 and entry.prev_hash == journal.last_hash


def test_rows_cannot_be_updated_or_deleted_through_sqlite(journal: Journal) -> None:
    db = sqlite3.connect(journal.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE journal SET payload = '{}' WHERE seq = 2")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM journal WHERE seq = 2")


def test_a_changed_row_is_named(journal: Journal) -> None:
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 3""")
    with pytest.raises(JournalCorrupt, match="row 3: content changed") as caught:
        Journal(journal.path).verify()
    assert caught.value.seq == 3


def test_a_deleted_row_is_named(journal: Journal) -> None:
    tamper(journal.path, "DELETE FROM journal WHERE seq = 4")
    with pytest.raises(JournalCorrupt, match="row 5") as caught:
        Journal(journal.path).verify()
    assert caught.value.seq == 5


def test_deleting_the_newest_row_is_not_visible_to_the_chain_alone(journal: Journal) -> None:
    """Deleting the newest row leaves a valid shorter chain; the row count and last hash
    published elsewhere (MQTT, the display) are what catch that, so verify reports counts."""
    tamper(journal.path, "DELETE FROM journal WHERE seq = 6")
    assert Journal(journal.path).verify() == 5


def test_a_swapped_pair_of_rows_is_named(journal: Journal) -> None:
    tamper(
        journal.path,
        "UPDATE journal SET seq = -2 WHERE seq = 2",
        "UPDATE journal SET seq = 2 WHERE seq = 3",
        "UPDATE journal SET seq = 3 WHERE seq = -2",
    )
    with pytest.raises(JournalCorrupt, match="row 2") as caught:
        Journal(journal.path).verify()
    assert caught.value.seq == 2


def test_a_missing_journal_is_an_error_when_reading(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "nope.sqlite", readonly=True)


def test_entries_by_round(journal: Journal) -> None:
    journal.record(
        ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS),
        source="console",
        round=2,
    )
    assert journal.rounds() == [1, 2]
    assert [e.seq for e in journal.entries(round=2)] == [7]


def test_events_read_back_equal_the_events_written(tmp_path: Path) -> None:
    from controller.journal import decode_event
    from controller.ports import (
        ConsoleAction,
        DeviceFault,
        Fault,
        SpotOccupied,
        SupervisorAction,
    )

    written = [
        CardDrawn(source="shoe", card=Card.parse("Td"), seq=65535, device_ms=12),
        ButtonPressed(source="table", button=ConsoleButton.SUPERVISOR, held=True),
        SpotOccupied(source="table", spot="box3.p2"),
        DeviceFault(source="shoe", fault=Fault.BAD_CARD, detail="Zz", seq=4),
        ConsoleAction(source="console", action="raise_", args={"seat": 4, "amount": 10}),
        SupervisorAction(source="console", who="sup 3", decision="void_hand", reason="misdeal"),
    ]
    with Journal(tmp_path / "j.sqlite") as journal:
        for event in written:
            journal.record(event, source=event.source)
        assert [decode_event(e) for e in journal.entries()] == written
