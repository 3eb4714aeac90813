"""The journal: durable, append-only, in a keyed hash chain; the check names the bad row,
checks at open only what its checkpoint does not vouch for, and sees rows cut off the end."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import json
import os
import sqlite3
from pathlib import Path

import pytest

from controller.cards import Card
from controller.journal.store import (
    GENESIS,
    Head,
    Journal,
    JournalCorrupt,
    JournalError,
    checkpoint_path,
    plain_row_hash,
    row_hash,
)
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton

KEY = bytes(range(32))
OTHER_KEY = bytes(range(1, 33))


@pytest.fixture
def journal(tmp_path: Path) -> Journal:
    j = Journal(tmp_path / "table.sqlite", key=KEY)
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
    reopened = Journal(journal.path, key=KEY)
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
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 3


def test_a_deleted_row_is_named(journal: Journal) -> None:
    tamper(journal.path, "DELETE FROM journal WHERE seq = 4")
    with pytest.raises(JournalCorrupt, match="row 5") as caught:
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 5


def test_deleting_the_newest_row_is_not_visible_to_the_chain_alone(journal: Journal) -> None:
    """Deleting the newest row leaves a valid shorter chain; a checkpoint or a head seen
    elsewhere (the pit, `journal verify --head`) is what catches that."""
    head = journal.head
    tamper(journal.path, "DELETE FROM journal WHERE seq = 6")
    assert Journal(journal.path, key=KEY).verify() == 5
    with pytest.raises(JournalCorrupt, match="row 6: missing: the journal ends at row 5"):
        Journal(journal.path, key=KEY, readonly=True, check=False).verify(head=head)
    with pytest.raises(JournalCorrupt, match="row 6: missing"):
        Journal(journal.path, key=KEY, readonly=True, head=head)


def test_a_swapped_pair_of_rows_is_named(journal: Journal) -> None:
    tamper(
        journal.path,
        "UPDATE journal SET seq = -2 WHERE seq = 2",
        "UPDATE journal SET seq = 2 WHERE seq = 3",
        "UPDATE journal SET seq = 3 WHERE seq = -2",
    )
    with pytest.raises(JournalCorrupt, match="row 2") as caught:
        Journal(journal.path, key=KEY).verify()
    assert caught.value.seq == 2


def test_a_missing_journal_is_an_error_when_reading(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "nope.sqlite", key=KEY, readonly=True)


def test_entries_by_round(journal: Journal) -> None:
    journal.record(
        ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS),
        source="console",
        round=2,
    )
    assert journal.rounds() == [1, 2]
    assert [e.seq for e in journal.entries(round=2)] == [7]


def test_events_read_back_equal_the_events_written(tmp_path: Path) -> None:
    from controller.journal.store import decode_event
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
    with Journal(tmp_path / "j.sqlite", key=KEY) as journal:
        for event in written:
            journal.record(event, source=event.source)
        assert [decode_event(e) for e in journal.entries()] == written


# --- the key --------------------------------------------------------------------------


def test_the_hash_is_hmac_sha256_under_the_key(journal: Journal) -> None:
    first = next(journal.entries())
    fields = [first.seq, first.wall, first.mono, first.round, first.source, first.kind,
              first.payload, first.actor]  # fmt: skip
    message = (GENESIS + json.dumps(fields, sort_keys=True, separators=(",", ":"))).encode()
    assert first.hash == hmac.new(KEY, message, hashlib.sha256).hexdigest()
    assert first.hash == row_hash(KEY, GENESIS, fields)


def test_another_key_finds_the_first_row_forged(journal: Journal) -> None:
    with pytest.raises(JournalCorrupt, match="row 1: content changed") as caught:
        Journal(journal.path, key=OTHER_KEY, readonly=True)
    assert caught.value.seq == 1


def _forge(path: Path, seq: int, digest: object) -> None:
    """Change row ``seq`` and recompute it and every row after it with ``digest``
    (plain SHA-256, or HMAC under a wrong key): a consistent chain, made without the key."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    rows = db.execute(
        "SELECT seq, wall, mono, round, source, kind, payload, actor, prev_hash FROM journal "
        "WHERE seq >= ? ORDER BY seq",
        (seq,),
    ).fetchall()
    prev = rows[0][8]
    for number, wall, mono, round_, source, kind, payload, actor, _ in rows:
        data = json.loads(payload)
        if number == seq:
            data["card"] = "Ah"
        fields = [number, wall, mono, round_, source, kind, data, actor]
        new = digest(prev, fields)  # type: ignore[operator]
        db.execute(
            "UPDATE journal SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
            (json.dumps(data, sort_keys=True, separators=(",", ":")), prev, new, number),
        )
        prev = new
    db.close()


@pytest.mark.parametrize(
    "digest",
    [plain_row_hash, lambda prev, fields: row_hash(OTHER_KEY, prev, fields)],
    ids=["plain-sha256", "wrong-key"],
)
def test_a_row_forged_without_the_key_is_named(journal: Journal, digest: object) -> None:
    _forge(journal.path, 3, digest)
    with pytest.raises(JournalCorrupt, match="row 3: content changed") as caught:
        Journal(journal.path, key=KEY)
    assert caught.value.seq == 3


def test_a_journal_from_before_the_key_is_refused(journal: Journal) -> None:
    db = sqlite3.connect(journal.path, isolation_level=None)
    db.execute("PRAGMA user_version = 0")
    db.close()
    with pytest.raises(JournalCorrupt, match="row 1: the journal's chain is not keyed"):
        Journal(journal.path, key=KEY)


def test_a_short_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match="16"):
        Journal(tmp_path / "j.sqlite", key=b"short")


# --- the checkpoint ---------------------------------------------------------------------


def _grow(journal: Journal, n: int) -> None:
    for i in range(n):
        journal.record(ButtonPressed(source="console", button=ConsoleButton.NEXT),
                       source="console", round=i)  # fmt: skip


def test_open_checks_only_the_rows_after_the_checkpoint(journal: Journal) -> None:
    assert not checkpoint_path(journal.path).exists()
    reopened = Journal(journal.path, key=KEY)  # no checkpoint: a full check, then one
    assert reopened.checked_from == 0
    assert json.loads(checkpoint_path(journal.path).read_text())["seq"] == 6
    _grow(reopened, 4)
    again = Journal(journal.path, key=KEY)
    assert again.checked_from == 5  # the checkpoint's own row (6) and rows 7 to 10
    assert again.check() == 1  # its checkpoint moved to row 10 when it opened
    reopened.checkpoint()
    assert json.loads(checkpoint_path(journal.path).read_text())["seq"] == 10


def test_a_row_changed_after_the_checkpoint_is_refused_at_open(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    _grow(journal, 3)
    tamper(journal.path, "UPDATE journal SET round = 99 WHERE seq = 8")
    with pytest.raises(JournalCorrupt, match="row 8: content changed"):
        Journal(journal.path, key=KEY)


def test_an_older_row_is_seen_by_the_full_check_not_by_the_open(journal: Journal) -> None:
    """What the checkpoint vouches for is not read again at open; the table checks it in
    the background after starting (`BackgroundCheck`), and `verify` always does."""
    Journal(journal.path, key=KEY).close()
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    opened = Journal(journal.path, key=KEY, readonly=True)
    with pytest.raises(JournalCorrupt, match="row 2: content changed"):
        opened.verify(upto=(opened.checked_from or 0) + 1)


def test_rows_cut_off_before_the_checkpoint_are_refused(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    tamper(journal.path, "DELETE FROM journal WHERE seq >= 5")
    with pytest.raises(JournalCorrupt, match="row 5: missing: the journal ends at row 4 "
                       "but the checkpoint is at row 6"):  # fmt: skip
        Journal(journal.path, key=KEY)


def test_a_rewritten_end_is_refused(journal: Journal) -> None:
    """Rows cut off and new ones written in their place (with the key: the controller
    itself, run on a copy) leave a valid chain that the checkpoint does not know."""
    Journal(journal.path, key=KEY).close()  # checkpoint at row 6
    saved = checkpoint_path(journal.path).read_text()
    tamper(journal.path, "DELETE FROM journal WHERE seq = 6")
    checkpoint_path(journal.path).unlink()
    rewritten = Journal(journal.path, key=KEY)
    _grow(rewritten, 1)
    rewritten.close()
    checkpoint_path(journal.path).write_text(saved)
    with pytest.raises(JournalCorrupt, match="row 6: its hash is not the one the checkpoint"):
        Journal(journal.path, key=KEY)


def test_a_forged_checkpoint_is_refused(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()
    body = json.loads(checkpoint_path(journal.path).read_text())
    body["seq"], body["hash"] = 1, next(journal.entries()).hash  # skip the check of 2..6
    body["mac"] = hashlib.sha256(json.dumps(body).encode()).hexdigest()
    checkpoint_path(journal.path).write_text(json.dumps(body))
    with pytest.raises(JournalCorrupt, match=r"row 1: the checkpoint .* \(forged"):
        Journal(journal.path, key=KEY)


def test_a_missing_or_torn_checkpoint_means_a_full_check(journal: Journal) -> None:
    Journal(journal.path, key=KEY).close()
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    for damage in ("", "{not json"):
        checkpoint_path(journal.path).write_text(damage)
        with pytest.raises(JournalCorrupt, match="row 2: content changed"):
            Journal(journal.path, key=KEY)
    os.unlink(checkpoint_path(journal.path))
    with pytest.raises(JournalCorrupt, match="row 2: content changed"):
        Journal(journal.path, key=KEY)


def test_a_row_marked_broken_is_refused_at_every_open(journal: Journal) -> None:
    journal.mark_broken(3, "content changed since it was written")
    journal.checkpoint()  # nothing is vouched for after that
    with pytest.raises(JournalCorrupt, match=r"row 3: content changed .* after an earlier"):
        Journal(journal.path, key=KEY)
    with pytest.raises(JournalCorrupt, match="row 3"):
        Journal(journal.path, key=KEY, readonly=True, check=False).verify()


def _files(folder: Path) -> dict[str, bytes]:
    """The journal's files byte for byte (not the -shm, SQLite's shared-memory index,
    which every reader writes its read marks to)."""
    return {p.name: p.read_bytes() for p in folder.iterdir() if not p.name.endswith("-shm")}


def test_a_refused_journal_is_left_untouched(journal: Journal) -> None:
    """Not even its dropped guards are put back: the evidence stays as it was found."""
    tamper(journal.path, """UPDATE journal SET payload = '{"card":"Ah"}' WHERE seq = 2""")
    before = _files(journal.path.parent)
    with pytest.raises(JournalCorrupt):
        Journal(journal.path, key=KEY)
    assert _files(journal.path.parent) == before


def test_head_parse() -> None:
    head = Head.parse("12:" + "Ab" * 32)
    assert head == Head(12, "ab" * 32) and str(head) == "12:" + "ab" * 32
    for bad in ("12", "x:" + "a" * 64, "-1:" + "a" * 64, "3:abc"):
        with pytest.raises(ValueError, match="SEQ:HASH"):
            Head.parse(bad)


def test_the_head_given_must_match(journal: Journal) -> None:
    with pytest.raises(JournalCorrupt, match="row 4: its hash is not the one the head given"):
        journal.verify(head=Head(4, "0" * 64))
    assert journal.verify(head=Head(4, journal.row_hash_at(4) or "")) == 6
