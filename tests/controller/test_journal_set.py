"""A journal as a set of files: the chain goes on across a rotation, a set is
verified whole and the first break is named by file and row, rows read across files."""

from __future__ import annotations

import lzma
import sqlite3
from pathlib import Path

import pytest

from controller.journal.fileset import (
    SetBroken,
    base_of,
    entries,
    live_path,
    open_live,
    rotate,
    segment_path,
    set_files,
    verify_set,
)
from controller.journal.store import ROTATED, Journal, JournalCorrupt

KEY = b"journal-set-test-key-32-bytes!!!"


def _fill(journal: Journal, n: int, round_no: int = 1) -> None:
    for i in range(n):
        journal.append("Note", {"i": i, "text": "x" * 40}, source="console", round=round_no)


def _three_files(tmp_path: Path) -> list[Path]:
    base = tmp_path / "journal.sqlite"
    journal = Journal(base, key=KEY)
    _fill(journal, 5)
    journal = rotate(journal, KEY, "trading day", 1)
    _fill(journal, 4, 2)
    journal = rotate(journal, KEY, "size", 2)
    _fill(journal, 3, 3)
    journal.close()
    return set_files(base)


def test_rotation_goes_on_with_the_next_seq_and_the_last_hash(tmp_path: Path) -> None:
    files = _three_files(tmp_path)
    base = tmp_path / "journal.sqlite"
    assert files == [base, segment_path(base, 6), segment_path(base, 11)]
    assert live_path(base) == files[-1] and base_of(files[-1]) == base
    with Journal(files[0], key=KEY, readonly=True) as first:
        head = first.head
        origin = first.row_hash_at(1)
    with Journal(files[1], key=KEY, readonly=True) as second:
        rotated = next(second.entries())
    assert rotated.kind == ROTATED and rotated.seq == 6 and rotated.prev_hash == head.hash
    assert rotated.payload["prev_file"] == "journal.sqlite"
    assert rotated.payload["prev_seq"] == 5 and rotated.payload["origin"] == origin
    rows = list(entries(files, KEY))
    assert [e.seq for e in rows] == list(range(1, 15))
    assert [e.seq for e in entries(files, KEY, since=9)] == list(range(10, 15))
    report = verify_set(files, KEY)
    assert (report.files, report.rows, report.first, report.head.seq) == (3, 14, 1, 14)


def test_verify_names_the_file_and_row_of_the_first_break(tmp_path: Path) -> None:
    files = _three_files(tmp_path)
    db = sqlite3.connect(files[1])
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("UPDATE journal SET payload = '{\"i\":99}' WHERE seq = 8")
    db.commit()
    db.close()
    with pytest.raises(SetBroken) as caught:
        verify_set(files, KEY)
    assert caught.value.file == files[1] and caught.value.seq == 8
    assert files[1].name in str(caught.value) and "row 8" in str(caught.value)


def test_a_missing_file_in_the_middle_is_named_where_the_chain_breaks(tmp_path: Path) -> None:
    files = _three_files(tmp_path)
    with pytest.raises(SetBroken) as caught:
        verify_set([files[0], files[2]], KEY)
    assert caught.value.file == files[2] and caught.value.seq == 11
    assert "does not follow journal.sqlite" in str(caught.value)
    later = verify_set(files[1:], KEY)  # older files archived: the set begins later
    assert later.first == 6 and later.rows == 9


def test_a_file_that_lost_its_first_rows_is_refused(tmp_path: Path) -> None:
    files = _three_files(tmp_path)
    db = sqlite3.connect(files[1])
    db.execute("DROP TRIGGER journal_no_delete")
    db.execute("DELETE FROM journal WHERE seq = 6")
    db.commit()
    db.close()
    with pytest.raises(JournalCorrupt, match="without a JournalRotated row") as caught:
        Journal(files[1], key=KEY, readonly=True)
    assert caught.value.seq == 7


def test_a_rotation_cut_short_is_finished_at_the_next_open(tmp_path: Path) -> None:
    base = tmp_path / "journal.sqlite"
    with Journal(base, key=KEY) as journal:
        _fill(journal, 3)
        head = journal.head
    Journal(segment_path(base, 4), key=KEY, start=head).close()  # made, no row yet
    with open_live(base, KEY) as live:
        assert live.path == segment_path(base, 4)
        assert live.last_seq == 4
        first = next(live.entries())
        assert first.kind == ROTATED and first.prev_hash == head.hash
    assert verify_set(set_files(base), KEY).rows == 4


def test_a_rotation_cut_before_the_new_file_had_its_table_is_finished(tmp_path: Path) -> None:
    """The power cut came after SQLite made the new file (it exists, in WAL mode) and
    before its schema was committed: the next open finds a file with no table in it."""
    base = tmp_path / "journal.sqlite"
    with Journal(base, key=KEY) as journal:
        _fill(journal, 3)
        head = journal.head
    bare = sqlite3.connect(segment_path(base, 4))
    bare.execute("PRAGMA journal_mode=WAL")
    bare.close()
    with open_live(base, KEY) as live:
        assert live.path == segment_path(base, 4)
        assert live.last_seq == 4
        assert next(live.entries()).prev_hash == head.hash
    assert verify_set(set_files(base), KEY).rows == 4


def test_a_file_verified_beside_its_writer_is_not_called_broken(tmp_path: Path) -> None:
    """The archive's pass verifies the live file read-only while the controller goes on
    writing it: rows and a checkpoint added after the reader opened are not "missing"."""
    base = tmp_path / "journal.sqlite"
    writer = Journal(base, key=KEY)
    _fill(writer, 3)
    writer.checkpoint()
    with Journal(base, key=KEY, readonly=True, check=False) as reader:
        _fill(writer, 4)
        writer.checkpoint()  # at row 7, ahead of what the reader saw when it opened
        assert reader.verify() == 7
    writer.close()


def test_an_archived_file_reads_and_verifies_as_it_was(tmp_path: Path) -> None:
    files = _three_files(tmp_path)
    archive = tmp_path / (files[1].name + ".xz")
    archive.write_bytes(lzma.compress(files[1].read_bytes()))
    report = verify_set([files[0], archive, files[2]], KEY)
    assert report.rows == 14
    assert [e.seq for e in entries([archive], KEY)] == [6, 7, 8, 9, 10]
