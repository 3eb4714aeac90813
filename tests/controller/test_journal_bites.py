"""The journal's edges that a silent slip would pass (issue 20): the row a broken chain is
named by, `append` itself, read-only opening, a path in folders that do not exist yet."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.journal import (
    FORMAT,
    GENESIS,
    MIN_KEY_BYTES,
    Head,
    Journal,
    JournalCorrupt,
    JournalError,
    row_hash,
)

KEY = bytes(range(32))


def clock() -> tuple[object, object]:
    ticks = iter(range(1, 10_000))
    return (lambda: "2026-12-01T00:00:00.000000+00:00"), (lambda: float(next(ticks)))


def filled(path: Path, rows: int = 4) -> Journal:
    wall, mono = clock()
    j = Journal(path, key=KEY, wall=wall, mono=mono)  # type: ignore[arg-type]
    for i in range(1, rows + 1):
        j.append("Note", {"n": i}, source="test", round=1 + i // 3, actor="dealer 7")
    return j


def tamper(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("DROP TRIGGER journal_no_delete")
    for statement in statements:
        db.execute(statement)
    db.close()


def test_journal_append_writes_one_chained_row_and_returns_it(tmp_path: Path) -> None:
    wall, mono = clock()
    j = Journal(tmp_path / "t.sqlite", key=KEY, wall=wall, mono=mono)  # type: ignore[arg-type]
    entry = j.append("Note", {"text": "é", "n": 1}, source="console", round=4, actor="sup 3")
    assert (entry.seq, entry.round, entry.source, entry.kind, entry.actor) == (
        1,
        4,
        "console",
        "Note",
        "sup 3",
    )
    assert entry.payload == {"text": "é", "n": 1} and entry.prev_hash == GENESIS
    assert entry.wall == "2026-12-01T00:00:00.000000+00:00" and entry.mono == 1.0
    assert entry.hash == row_hash(
        KEY, GENESIS, [1, entry.wall, 1.0, 4, "console", "Note", {"text": "é", "n": 1}, "sup 3"]
    )
    assert j.head == Head(1, entry.hash) and j.last_seq == 1
    second = j.append("Note", {}, source="console")
    assert second.seq == 2 and second.prev_hash == entry.hash and second.round is None
    assert list(j.entries()) == [entry, second]
    assert [e.seq for e in j.entries(since=1)] == [2]
    assert [e.seq for e in j.entries(round=4)] == [1]
    assert j.rounds() == [4]
    j.close()
    with Journal(tmp_path / "t.sqlite", key=KEY) as again:
        assert again.verify() == 2 and again.head == Head(2, second.hash)


def test_journal_append_many_of_nothing_changes_nothing(tmp_path: Path) -> None:
    with filled(tmp_path / "t.sqlite") as j:
        head = j.head
        assert j.append_many([]) == []
        assert j.head == head


def test_journal_a_path_in_folders_that_do_not_exist_is_made(tmp_path: Path) -> None:
    path = tmp_path / "var" / "lib" / "tablectl" / "t.sqlite"
    with Journal(path, key=KEY) as j:
        j.append("Note", {}, source="test")
    assert path.exists()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == FORMAT
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_journal_read_only_opening_reads_and_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    with Journal(path, key=KEY, readonly=True) as j:
        assert j.readonly and j.last_seq == 4
        assert [e.payload["n"] for e in j.entries()] == [1, 2, 3, 4]
        with pytest.raises(JournalError, match="open read-only"):
            j.append("Note", {}, source="test")
        with pytest.raises(JournalError, match="open read-only"):
            j.append_many([("Note", {}, "test", None, None)])
        j.checkpoint()  # nothing: read-only
    with pytest.raises(JournalError, match="no journal at"):
        Journal(tmp_path / "absent.sqlite", key=KEY, readonly=True)
    assert not (tmp_path / "absent.sqlite").exists()


def test_journal_read_only_opening_of_a_broken_journal_names_the_row(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = '{\"n\":9}' WHERE seq = 3")
    Path(str(path) + ".checkpoint").unlink(missing_ok=True)
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, readonly=True)
    assert broken.value.seq == 3 and "content changed" in broken.value.reason


def test_journal_verify_names_the_row_whose_payload_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = 'not json' WHERE seq = 2")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 2
    assert broken.value.reason == "a column holds what was never written there"


def test_journal_verify_names_a_missing_row_by_the_row_that_follows_the_gap(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "DELETE FROM journal WHERE seq = 2")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 3
    assert broken.value.reason == "follows row 1: rows missing or moved"


def test_journal_verify_names_a_row_that_does_not_follow(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, f"UPDATE journal SET prev_hash = '{'1' * 64}' WHERE seq = 3")
    with Journal(path, key=KEY, check=False) as j, pytest.raises(JournalCorrupt) as broken:
        j.verify()
    assert broken.value.seq == 3 and "does not follow the row before it" in broken.value.reason


def test_journal_verify_upto_checks_only_that_far(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    tamper(path, "UPDATE journal SET payload = '{\"n\":9}' WHERE seq = 4")
    with Journal(path, key=KEY, check=False) as j:
        assert j.verify(upto=3) == 3
        with pytest.raises(JournalCorrupt) as broken:
            j.verify()
        assert broken.value.seq == 4


def test_journal_verify_paces_every_pace_rows(tmp_path: Path) -> None:
    calls: list[int] = []
    with filled(tmp_path / "t.sqlite", rows=7) as j:
        assert j.verify(pace=lambda: calls.append(1), pace_rows=3) == 7
    assert len(calls) == 2


def test_journal_cut_off_rows_are_named_by_the_first_missing_one(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    j = filled(path)
    head = j.head
    j.close()
    tamper(path, "DELETE FROM journal WHERE seq = 4")
    Path(str(path) + ".checkpoint").unlink(missing_ok=True)
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, head=head)
    assert broken.value.seq == 4
    assert broken.value.reason == (
        "missing: the journal ends at row 3 but the head given is at row 4 (rows cut off the end)"
    )


def test_journal_a_head_with_another_hash_is_a_rewritten_journal(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()
    with pytest.raises(JournalCorrupt) as broken:
        Journal(path, key=KEY, head=Head(2, "0" * 64))
    assert broken.value.seq == 2 and "the head given holds" in broken.value.reason
    with Journal(path, key=KEY, head=Head(0, "0" * 64)) as j:  # row 0: nothing to reach
        assert j.last_seq == 4


def test_journal_key_shorter_than_the_minimum_is_refused(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=f"must be {MIN_KEY_BYTES}\\+ bytes"):
        Journal(tmp_path / "t.sqlite", key=bytes(MIN_KEY_BYTES - 1))
    with pytest.raises(JournalError, match="bytes"):
        Journal(tmp_path / "t.sqlite", key="x" * 32)  # type: ignore[arg-type]
    Journal(tmp_path / "t.sqlite", key=bytes(MIN_KEY_BYTES)).close()


def test_journal_check_at_open_counts_only_rows_after_the_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    filled(path).close()  # written from empty: no checkpoint yet
    with Journal(path, key=KEY) as j:
        assert j.checked_from == 0  # no checkpoint: the full check
        j.append("Note", {}, source="test")
        j.checkpoint()
    with Journal(path, key=KEY) as j:
        assert j.checked_from == 4  # from the checkpoint (row 5), its own row included
        assert j.check() == 1
