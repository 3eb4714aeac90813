"""Every read the pit publisher makes of the table's journal, in one place.

The publisher never writes the journal: it opens it read-only with its own SQLite
connection (WAL lets a reader run beside the controller thread's writer) and asks it four
things: the first row's hash (the cursor's key: a new journal starts from its row 1), the
last seq, the rows after a seq (in order, a window at a time), and the rows of the hand
that a hand-end row closes (the delayed reveal). A change in how the journal is kept
(its file, its rotation) changes this module and nothing else of the pit: the journal's
rotation did (a set of files, read across).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from controller.journal.fileset import first_seq_of, set_files

ROW = "seq, wall, round, source, kind, payload, actor, hash"
"""The columns of a row as `PitPublisher.row_messages` takes it, in this order."""


SNAPSHOT_WITHHELD = '{"withheld":"the table state a snapshot holds"}'
"""A snapshot row's payload as the pit sees it: the pickled game holds every card."""
SEQ_END = 2**63 - 1  # past every row's seq (SQLite's largest integer)
_ROW_OUT = ROW.replace("payload", "CASE WHEN kind = 'Snapshot' THEN ? ELSE payload END")


class JournalReader:
    """Read-only connections to the files of one journal's set (the journal
    rotates, `controller.journal.fileset`): the set's own name is ``path``; each read goes to
    the file that holds its rows, and on to the next file when one ends, so the cursor (a
    seq) and its key (the set's row 1, carried forward by each rotated file's first row)
    survive a rotation. Opening raises `sqlite3.Error` when there is no journal or the
    file is not one; the publisher says which file. A snapshot row's payload is withheld
    (`SNAPSHOT_WITHHELD`): a poker table's pickled state holds the players' cards."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._open: dict[Path, sqlite3.Connection] = {}
        self._closed = False
        self.first_hash()  # a file that is not a journal fails here, at the start

    def _members(self) -> list[tuple[int, Path]]:
        found = [(first_seq_of(p), p) for p in set_files(self.path)]
        return found or [(1, self.path)]

    def _db(self, path: Path) -> sqlite3.Connection:
        if self._closed:
            raise sqlite3.ProgrammingError(f"the pit's reader of {self.path} is closed")
        db = self._open.get(path)
        if db is None:
            db = sqlite3.connect(
                path.resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=False
            )
            self._open[path] = db
        return db

    def first_hash(self) -> str:
        """The hash of the set's row 1 (``""`` for an empty journal)."""
        first, path = self._members()[0]
        if first == 1:
            row = self._query(path, "SELECT hash FROM journal WHERE seq = 1")
            return str(row[0][0]) if row else ""
        row = self._query(path, "SELECT payload FROM journal ORDER BY seq LIMIT 1")
        return str(json.loads(row[0][0]).get("origin", "")) if row else ""

    def last_seq(self) -> int:
        """The journal's last seq, in its live file (0 when empty or closed)."""
        if self._closed:
            return 0
        members = self._members()
        live = {path for _, path in members}
        for gone in [p for p in self._open if p not in live]:  # archived and deleted
            self._open.pop(gone).close()
        path = members[-1][1]
        return int(self._query(path, "SELECT COALESCE(MAX(seq), 0) FROM journal")[0][0])

    def hash_at(self, seq: int) -> str | None:
        """Row ``seq``'s stored hash, from the file of the set that holds it (None: none)."""
        held = [p for first, p in self._members() if first <= seq]
        if not held:
            return None
        row = self._query(held[-1], "SELECT hash FROM journal WHERE seq = ?", (seq,))
        return str(row[0][0]) if row else None

    def rows_after(self, seq: int, limit: int) -> list[tuple[Any, ...]]:
        """At most ``limit`` rows after ``seq``, in order, as `ROW` names their columns,
        from as many files as they are in."""
        out: list[tuple[Any, ...]] = []
        members = self._members()
        for index, (_, path) in enumerate(members):
            following = members[index + 1][0] if index + 1 < len(members) else None
            if following is not None and following <= seq + 1:
                continue  # this file ends before the rows asked for
            rows = self._query(
                path,
                f"SELECT {_ROW_OUT} FROM journal WHERE seq > ? ORDER BY seq LIMIT ?",
                (SNAPSHOT_WITHHELD, seq, limit - len(out)),
            )
            out += rows
            if rows:
                seq = int(rows[-1][0])
            if len(out) >= limit:
                break
        return out

    def hand_rows(self, hand_end: str | None, end_seq: int) -> list[tuple[int, str, str]]:
        """``(seq, kind, payload JSON)`` of the rows between the previous ``hand_end`` row
        (or the start of the file holding ``end_seq``: the journal rotates only between
        hands) and the one at ``end_seq``, both left out."""
        path = [p for first, p in self._members() if first <= end_seq][-1]
        start = self._query(
            path,
            "SELECT COALESCE(MAX(seq), 0) FROM journal WHERE kind = ? AND seq < ?",
            (hand_end, end_seq),
        )[0][0]
        return [
            (int(seq), str(kind), str(text))
            for seq, kind, text in self._query(
                path,
                "SELECT seq, kind, payload FROM journal WHERE seq > ? AND seq < ? "
                "AND kind != 'Snapshot' ORDER BY seq",
                (start, end_seq),
            )
        ]

    def kinds_after(
        self, seq: int, kinds: frozenset[str], until: int | None = None
    ) -> list[tuple[str, str]]:
        """``(kind, payload JSON)`` of every row of ``kinds`` after ``seq`` (up to
        ``until``), in order, from every file of the set that holds rows after it (the
        rating rows whose players the other topics withhold: `pit.players`)."""
        last = SEQ_END if until is None else until
        marks = ", ".join("?" * len(kinds))
        out: list[tuple[str, str]] = []
        members = self._members()
        for index, (_, path) in enumerate(members):
            following = members[index + 1][0] if index + 1 < len(members) else None
            if following is not None and following <= seq + 1:
                continue
            out += [
                (str(kind), str(text))
                for kind, text in self._query(
                    path,
                    "SELECT kind, payload FROM journal WHERE seq > ? AND seq <= ? "
                    f"AND kind IN ({marks}) ORDER BY seq",
                    (seq, last, *sorted(kinds)),
                )
            ]
        return out

    def close(self) -> None:
        self._closed = True
        for db in self._open.values():
            db.close()
        self._open.clear()

    def _query(self, path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._db(path).execute(sql, params).fetchall()
