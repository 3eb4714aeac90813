"""The journal's last mutation survivors (`make mutate`, docs/testing.md): what opening a
journal whose append-only guards cannot be put back says; where a file's chain begins
(`origin`, for the rotation) and the last row of a kind checked when it is read
(`last_authentic`). The other survivors are listed as equivalent in docs/testing.md."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.journal.store import GENESIS, ROTATED, Head, Journal, JournalCorrupt, JournalError

KEY = bytes(range(32))


def _journal_as_a_view(path: Path) -> None:
    """A journal whose rows check out but whose ``journal`` is a view over them: the
    append-only guards (an index and two triggers) cannot be made on a view."""
    j = Journal(path, key=KEY)
    j.append("Note", {"n": 1}, source="test")
    j.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("ALTER TABLE journal RENAME TO kept")
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("DROP TRIGGER journal_no_delete")
    db.execute("DROP INDEX journal_round")
    db.execute("CREATE VIEW journal AS SELECT * FROM kept")
    db.close()


def test_journal_guards_that_cannot_be_restored_refuse_the_open_by_name(tmp_path: Path) -> None:
    """The rows check out, but the append-only guards cannot be put back (a table has
    taken the index's name): the open is refused with SQLite's reason."""
    path = tmp_path / "squatted.sqlite"
    j = Journal(path, key=KEY)
    j.append("Note", {"n": 1}, source="test")
    j.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP INDEX journal_round")
    db.execute("CREATE TABLE journal_round (x)")
    db.close()
    with pytest.raises(JournalError) as caught:
        Journal(path, key=KEY)
    assert str(caught.value) == (
        f"cannot open the journal {path}: there is already a table named journal_round"
    )
    # the failed open let go of the file: it can be opened (read-only) at once
    reader = Journal(path, key=KEY, readonly=True)
    assert [e.payload for e in reader.entries()] == [{"n": 1}]
    reader.close()


# --- where a file's chain begins (the rotation) and the last row of a kind -----------------

HEAD = Head(41, "ab" * 32)


def _rotated(path: Path, first: tuple[str, dict[str, object]]) -> Journal:
    """A file that goes on from row 41 of another (``start``), its first row ``first``."""
    j = Journal(path, key=KEY, start=HEAD)
    j.append(first[0], first[1], source="controller")
    return j


def test_journal_origin_of_a_first_file_and_of_an_empty_one(tmp_path: Path) -> None:
    j = Journal(tmp_path / "a.sqlite", key=KEY)
    assert j.origin() == Head(0, GENESIS)
    j.append("Note", {"n": 1}, source="test")
    assert j.origin() == Head(0, GENESIS)
    j.close()
    empty = Journal(tmp_path / "b.sqlite", key=KEY, start=HEAD)
    assert empty.origin() == HEAD  # nothing written yet: where it will go on from
    empty.close()


def test_journal_origin_of_a_rotated_file_is_the_row_its_first_row_names(tmp_path: Path) -> None:
    payload = {"prev_file": "j", "prev_seq": 41, "prev_hash": HEAD.hash, "origin": "o"}
    j = _rotated(tmp_path / "r.sqlite", (ROTATED, payload))
    assert j.origin() == HEAD
    j.close()


def test_journal_origin_refuses_a_file_that_begins_mid_chain_naming_the_row(
    tmp_path: Path,
) -> None:
    good = {"prev_seq": 41, "prev_hash": HEAD.hash}
    for n, first in enumerate(
        [
            ("Note", good),  # not a rotation row
            (ROTATED, {**good, "prev_seq": 40}),  # names another row
            (ROTATED, {**good, "prev_hash": "cd" * 32}),  # names another hash
            (ROTATED, {"prev": [41]}),  # names nothing
        ]
    ):
        path = tmp_path / f"m{n}.sqlite"
        j = _rotated(path, first)
        with pytest.raises(JournalCorrupt) as caught:
            j.origin()
        assert caught.value.seq == 42
        assert caught.value.reason == (
            f"the file {path.name} begins at row 42 without a {ROTATED} row naming the row "
            "before it (rows cut off its start, or not a journal's first file)"
        )
        j.close()


def test_journal_last_authentic_row_of_a_kind_checked_now(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    j = Journal(path, key=KEY)
    assert j.last_authentic("Snapshot") is None
    j.append("Snapshot", {"n": 1}, source="test", round=3, actor="a")
    j.append("Snapshot", {"n": 2}, source="test", round=4, actor="b")
    j.append("Note", {"n": 3}, source="test")
    last = j.last_authentic("Snapshot")
    assert last is not None
    assert (last.seq, last.kind, last.payload, last.round, last.actor, last.source) == (
        2,
        "Snapshot",
        {"n": 2},
        4,
        "b",
        "test",
    )
    assert last.prev_hash == j.row_hash_at(1) and last.hash == j.row_hash_at(2)
    assert isinstance(last.wall, str) and last.wall.endswith("+00:00")
    assert isinstance(last.mono, float)
    j.close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP TRIGGER journal_no_update")
    db.execute("""UPDATE journal SET payload = '{"n": 9}' WHERE seq = 2""")
    db.close()
    reader = Journal(path, key=KEY, readonly=True, check=False)
    with pytest.raises(JournalCorrupt) as caught:
        reader.last_authentic("Snapshot")  # the changed row is caught here and now
    assert caught.value.seq == 2
    reader.close()


def test_journal_a_checkpoint_on_the_first_row_after_the_origin_trusts_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.sqlite"
    j = Journal(path, key=KEY)
    j.append("Note", {"n": 1}, source="test")
    j.checkpoint()
    j.close()
    again = Journal(path, key=KEY)
    assert again.checked_from == 0  # row 1 is the checkpoint's own: checked, nothing trusted
    again.close()
    rotated = tmp_path / "r.sqlite"
    payload = {"prev_seq": 41, "prev_hash": HEAD.hash}
    j = _rotated(rotated, (ROTATED, payload))
    j.checkpoint()
    j.close()
    again = Journal(rotated, key=KEY, start=HEAD)
    assert again.checked_from == 0
    again.close()


def test_journal_a_rotated_file_is_checkpointed_only_once_it_has_a_row(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    j = Journal(path, key=KEY, start=HEAD)
    j.checkpoint()
    assert j.read_checkpoint() is None  # no row of its own yet: nothing to vouch for
    j.append(ROTATED, {"prev_seq": 41, "prev_hash": HEAD.hash}, source="controller")
    j.checkpoint()
    checkpoint = j.read_checkpoint()
    assert checkpoint is not None and checkpoint.seq == 42
    j.close()


def test_journal_a_checkpoint_vouches_for_the_rows_before_its_own(tmp_path: Path) -> None:
    path = tmp_path / "c2.sqlite"
    j = Journal(path, key=KEY)
    j.append("Note", {"n": 1}, source="test")
    j.append("Note", {"n": 2}, source="test")
    j.checkpoint()
    j.close()
    again = Journal(path, key=KEY)
    assert again.checked_from == 1  # row 1 taken on the checkpoint's word, row 2 checked
    again.close()


def _journal_view_without_actor(path: Path) -> None:
    """A journal whose ``journal`` is a view that lacks a column: SQLite refuses the
    queries that name it, and the journal says the file is damaged."""
    _journal_as_a_view(path)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("DROP VIEW journal")
    db.execute(
        "CREATE VIEW journal AS SELECT seq, wall, mono, round, source, kind, payload, "
        "prev_hash, hash FROM kept"
    )
    db.close()


def test_journal_a_file_sqlite_cannot_read_is_named_damaged(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    _journal_view_without_actor(path)
    with pytest.raises(JournalError) as caught:
        Journal(path, key=KEY, readonly=True)  # the check at open reads every column
    assert str(caught.value) == f"the journal {path} is damaged: no such column: actor"
    reader = Journal(path, key=KEY, readonly=True, check=False)
    with pytest.raises(JournalError) as caught:
        reader.last_authentic("Note")
    assert str(caught.value) == f"the journal {path} is damaged: no such column: actor"
    reader.close()


def test_journal_a_rotation_row_is_known_by_its_written_name(tmp_path: Path) -> None:
    """The rotation row's kind is part of the file format: a file another version wrote,
    whose first row is named "JournalRotated", still begins where that row says."""
    payload = {"prev_seq": 41, "prev_hash": HEAD.hash}
    j = _rotated(tmp_path / "w.sqlite", ("JournalRotated", payload))
    assert j.origin() == HEAD
    j.close()


# --- verify beside a writer (the archive's pass over the live file) -------------------------


def _forged(path: Path) -> None:
    """Three rows, a checkpoint at row 3, and then the checkpoint's MAC forged."""
    j = Journal(path, key=KEY)
    for n in range(3):
        j.append("Note", {"n": n}, source="test")
    j.checkpoint()
    j.close()
    cp = Path(str(path) + ".checkpoint")
    body = json.loads(cp.read_text())
    body["mac"] = "0" * 64
    cp.write_text(json.dumps(body))


def test_journal_verify_names_a_forged_checkpoint_after_the_rows(tmp_path: Path) -> None:
    path = tmp_path / "f.sqlite"
    _forged(path)
    reader = Journal(path, key=KEY, readonly=True, check=False)
    with pytest.raises(JournalCorrupt) as caught:
        reader.verify()
    assert caught.value.seq == 3 and "forged" in caught.value.reason
    assert reader.verify(upto=2) == 2  # up to a row: the checkpoint is not consulted
    reader.close()


def test_journal_verify_up_to_a_row_reads_no_further(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite"
    writer = Journal(path, key=KEY)
    writer.append("Note", {"n": 1}, source="test")
    reader = Journal(path, key=KEY, readonly=True)
    writer.append("Note", {"n": 2}, source="test")  # written after the reader opened
    assert reader.verify(upto=1) == 1 and reader.last_seq == 1
    assert reader.verify() == 2 and reader.last_seq == 2  # the whole file: as it is now
    reader.close()
    writer.close()


def test_journal_verify_names_the_file_sqlite_cannot_read(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    j = Journal(path, key=KEY)
    j.append("Note", {"n": 1}, source="test")
    j.close()
    reader = Journal(path, key=KEY, readonly=True, check=False)
    db = sqlite3.connect(path, isolation_level=None)  # the file changed under the reader
    db.execute("ALTER TABLE journal RENAME TO kept")
    db.execute("CREATE VIEW journal AS SELECT seq, kind, payload, prev_hash FROM kept")
    db.close()
    with pytest.raises(JournalError) as caught:
        reader.verify()
    assert str(caught.value) == f"the journal {path} is damaged: no such column: hash"
    reader.close()
