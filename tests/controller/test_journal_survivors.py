"""The journal's last mutation survivors (issue 20, docs/testing.md): what opening a
journal whose append-only guards cannot be put back says. The other survivors are listed
as equivalent in docs/testing.md, each with why."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from controller.journal import Journal, JournalError

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
    path = tmp_path / "view.sqlite"
    _journal_as_a_view(path)
    with pytest.raises(JournalError) as caught:
        Journal(path, key=KEY)
    assert str(caught.value) == f"cannot open the journal {path}: views may not be indexed"
    # the failed open let go of the file: it can be opened (read-only) at once
    reader = Journal(path, key=KEY, readonly=True)
    assert [e.payload for e in reader.entries()] == [{"n": 1}]
    reader.close()
