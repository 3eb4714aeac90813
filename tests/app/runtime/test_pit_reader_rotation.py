"""The pit's reader across a rotated journal: the cursor (a seq) and its key (the
set's row 1) survive a rotation and the archiving of the first file, rows are read on
across files in order, and a snapshot's pickled state never reaches the pit."""

from __future__ import annotations

import json
from pathlib import Path

from controller.app.pit.reader import SNAPSHOT_WITHHELD, JournalReader
from controller.journal.fileset import rotate, set_files
from controller.journal.store import Journal

KEY = b"pit-reader-rotation-key-32-bytes"


def _set(tmp_path: Path) -> tuple[Path, str]:
    base = tmp_path / "journal.sqlite"
    journal = Journal(base, key=KEY)
    for i in range(4):
        journal.append("Note", {"i": i}, source="console", round=1)
    first = journal.row_hash_at(1) or ""
    journal = rotate(journal, KEY, "size", 1)
    journal.append("Snapshot", {"state": "c2VjcmV0IGNhcmRz"}, source="controller", round=2)
    journal.append("Note", {"i": 9}, source="console", round=2)
    journal = rotate(journal, KEY, "trading day", 2)
    journal.append("Note", {"i": 10}, source="console", round=3)
    journal.close()
    return base, first


def test_rows_are_read_on_across_files_and_the_cursor_key_stays(tmp_path: Path) -> None:
    base, first = _set(tmp_path)
    reader = JournalReader(base)
    try:
        assert reader.first_hash() == first
        assert reader.last_seq() == 9
        rows = reader.rows_after(0, 100)
        assert [r[0] for r in rows] == list(range(1, 10))
        assert [r[0] for r in reader.rows_after(3, 3)] == [4, 5, 6]  # over the boundary
        assert [r[0] for r in reader.rows_after(7, 100)] == [8, 9]
        snapshot = next(r for r in rows if r[4] == "Snapshot")
        assert snapshot[5] == SNAPSHOT_WITHHELD and "c2VjcmV0" not in json.dumps(rows)
    finally:
        reader.close()
    for item in base.parent.glob("journal.sqlite*"):  # the first file archived, deleted
        if item.name in ("journal.sqlite", "journal.sqlite.checkpoint"):
            item.unlink()
    assert set_files(base)[0].name == "journal.sqlite.000000000005"
    again = JournalReader(base)
    try:
        assert again.first_hash() == first  # the cursor's key: the set's row 1, carried on
        assert [r[0] for r in again.rows_after(0, 100)] == list(range(5, 10))
    finally:
        again.close()
