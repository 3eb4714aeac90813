"""Every read the pit publisher makes of the table's journal, in one place.

The publisher never writes the journal: it opens it read-only with its own SQLite
connection (WAL lets a reader run beside the controller thread's writer) and asks it four
things: the first row's hash (the cursor's key: a new journal starts from its row 1), the
last seq, the rows after a seq (in order, a window at a time), and the rows of the hand
that a hand-end row closes (the delayed reveal). A change in how the journal is kept
(its file, its rotation) changes this module and nothing else of the pit.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

ROW = "seq, wall, round, source, kind, payload, actor, hash"
"""The columns of a row as `PitPublisher.row_messages` takes it, in this order."""


class JournalReader:
    """A read-only connection to one journal file. Opening raises `sqlite3.Error` when the
    file is not there or not a journal; the publisher says which file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = sqlite3.connect(
            path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False
        )
        self.first_hash()  # a file that is not a journal fails here, at the start

    def first_hash(self) -> str:
        """The hash of row 1 (``""`` for an empty journal)."""
        first = self._query("SELECT hash FROM journal WHERE seq = 1")
        return str(first[0][0]) if first else ""

    def last_seq(self) -> int:
        """The journal's last seq (0 when empty or closed)."""
        if self._db is None:
            return 0
        return int(self._query("SELECT COALESCE(MAX(seq), 0) FROM journal")[0][0])

    def rows_after(self, seq: int, limit: int) -> list[tuple[Any, ...]]:
        """At most ``limit`` rows after ``seq``, in order, as `ROW` names their columns."""
        return self._query(
            f"SELECT {ROW} FROM journal WHERE seq > ? ORDER BY seq LIMIT ?", (seq, limit)
        )

    def hand_rows(self, hand_end: str | None, end_seq: int) -> list[tuple[int, str, str]]:
        """``(seq, kind, payload JSON)`` of the rows between the previous ``hand_end`` row
        (or the journal's start) and the one at ``end_seq``, both left out."""
        start = self._query(
            "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE kind = ? AND seq < ?",
            (hand_end, end_seq),
        )[0][0]
        return [
            (int(seq), str(kind), str(text))
            for seq, kind, text in self._query(
                "SELECT seq, kind, payload FROM journal WHERE seq > ? AND seq < ? ORDER BY seq",
                (start, end_seq),
            )
        ]

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        if self._db is None:
            raise sqlite3.ProgrammingError(f"the pit's reader of {self.path} is closed")
        return self._db.execute(sql, params).fetchall()
