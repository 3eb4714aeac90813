"""What `tablectl journal last`, ``export --round``, ``replay`` and ``dealers`` read of a set
of journal files, and how each row they show is checked, without the whole chain first.

**The check at open** is the one the table makes when it starts (`Journal.check`): the
live file's rows after its authenticated checkpoint, and that the checkpoint's row is still
there with its hash. A file older than the live one is checked the same way (a sealed
file's checkpoint names its last row) when a command reads from it.

**Every row shown** is checked as it is read: its HMAC under the key, its seq the one after
the row before, its ``prev_hash`` that row's hash. The rows read run from the row before
the first one shown (so a row cut from the front is seen) to the end of the set (``last``,
``replay``: so what is shown is chained to the checkpoint) or to the row after the last one
shown (``export --round``). A row changed outside what a command shows is not seen here:
``tablectl journal verify`` checks every row, and ``--full`` on these commands runs it first.

A check that fails names the row it found; the command then runs the full check, so the
line it prints names the first row that does not check out.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.journal.fileset import first_seq_of, read_file
from controller.journal.rows import COLUMNS, check_row, entry_from_sql
from controller.journal.store import Entry, Journal, JournalCorrupt, JournalError


@dataclass
class _File:
    path: Path
    journal: Journal
    db: sqlite3.Connection
    first: int  # the seq of its first row
    origin_hash: str  # the hash its first row follows

    @property
    def last(self) -> int:
        return self.journal.last_seq


class SetRows:
    """A set's files (chain order, the live one last) read a row range at a time. Use it as
    a context manager: the files it opened are closed at the end."""

    def __init__(self, files: list[Path], key: bytes) -> None:
        if not files:
            raise JournalError("no journal files to read")
        self.files = files
        self.key = key
        self._stack = contextlib.ExitStack()
        self._open: dict[Path, _File] = {}

    def __enter__(self) -> SetRows:
        try:
            self.live  # noqa: B018 - opens and checks the live file, as the table's start does
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    @property
    def live(self) -> Journal:
        """The live file (the set's last), checked from its checkpoint."""
        return self._file(len(self.files) - 1).journal

    @property
    def last_seq(self) -> int:
        return self.live.last_seq

    def _file(self, index: int) -> _File:
        path = self.files[index]
        found = self._open.get(path)
        if found is None:
            journal = self._stack.enter_context(read_file(path, self.key))
            journal.check()  # read-only: the checkpoint is read, never written
            origin = journal.origin()
            db = sqlite3.connect(f"{journal.path.resolve().as_uri()}?mode=ro", uri=True)
            self._stack.callback(db.close)
            found = self._open[path] = _File(path, journal, db, origin.seq + 1, origin.hash)
        return found

    def _index_of(self, seq: int) -> int:
        """The file that holds row ``seq``, by the files' names (each names its first row)."""
        index = 0
        for i, path in enumerate(self.files):
            if first_seq_of(path) <= seq:
                index = i
        return index

    @property
    def first_seq(self) -> int:
        """The first row of the set's first file (by its name: not opened for this)."""
        return first_seq_of(self.files[0])

    # --- finding what to show, by the round index -------------------------------------

    def last_rounds(self, n: int) -> list[int]:
        """The ``n`` highest round numbers (rounds go up with the rows: newest file first,
        until ``n`` are found)."""
        found: set[int] = set()
        for index in reversed(range(len(self.files))):
            rows = self._query(
                index,
                "SELECT DISTINCT round FROM journal WHERE round IS NOT NULL "
                "ORDER BY round DESC LIMIT ?",
                (n,),
            )
            found.update(r[0] for r in rows)
            if len(found) >= n:
                break
        return sorted(found)[-n:]

    def first_row_from(self, round_no: int) -> int | None:
        """The first row of round ``round_no`` or a later one (None: there is none)."""
        best: int | None = None
        for index in reversed(range(len(self.files))):
            # +seq: by the round index, not SQLite's MIN(rowid) walk up the whole table
            row = self._query(index, "SELECT MIN(+seq) FROM journal WHERE round >= ?", (round_no,))
            if row[0][0] is None:
                break
            best = int(row[0][0])
        return best

    def round_span(self, round_no: int) -> tuple[int, int] | None:
        """The first and last row of round ``round_no`` (None: no row of it)."""
        spans = [
            (int(row[0]), int(row[1]))
            for index in range(len(self.files))
            for row in self._query(
                index, "SELECT MIN(+seq), MAX(+seq) FROM journal WHERE round = ?", (round_no,)
            )
            if row[0] is not None
        ]
        if not spans:
            return None
        return min(s[0] for s in spans), max(s[1] for s in spans)

    def payload_fields(self, first: int, last: int, round_no: int | None = None) -> set[str]:
        """The names of the payload fields of rows ``first`` to ``last`` (of round
        ``round_no`` only, when given): the columns of a CSV export."""
        sql = (
            "SELECT DISTINCT field.key FROM journal, json_each(journal.payload) AS field "
            "WHERE journal.seq >= ? AND journal.seq <= ?"
        )
        args: tuple[Any, ...] = (first, last)
        if round_no is not None:
            sql += " AND journal.round = ?"
            args = (first, last, round_no)
        names: set[str] = set()
        for index in range(self._index_of(first), self._index_of(last) + 1):
            names.update(str(row[0]) for row in self._query(index, sql, args))
        return names

    def _query(self, index: int, sql: str, args: tuple[Any, ...]) -> list[Any]:
        found = self._file(index)
        try:
            return found.db.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {found.path} is damaged: {exc}") from exc

    # --- reading rows, each checked ---------------------------------------------------

    def rows(
        self,
        first: int,
        last: int | None = None,
        *,
        progress: Callable[[int], None] | None = None,
    ) -> Iterator[Entry]:
        """Rows ``first`` to ``last`` (None: the end of the set), each checked as the module
        says; ``progress(n)`` is told every thousand rows read."""
        start = max(first - 1, self.first_seq)
        end = self.last_seq if last is None else min(last + 1, self.last_seq)
        expected = start
        prev: str | None = None
        count = 0
        for index in range(self._index_of(start), len(self.files)):
            if expected > end:
                break
            found = self._file(index)
            if expected == found.first:
                prev = found.origin_hash if prev is None else prev
            query = f"SELECT {COLUMNS} FROM journal WHERE seq >= ? AND seq <= ? ORDER BY seq"
            try:
                for raw in found.db.execute(query, (expected, end)):
                    seq = raw[0]
                    if seq != expected:
                        raise JournalCorrupt(
                            seq, f"follows row {expected - 1}: rows missing or moved"
                        )
                    prev = check_row(self.key, raw, raw[8] if prev is None else prev)
                    expected += 1
                    count += 1
                    if progress is not None and count % 1000 == 0:
                        progress(1000)
                    if seq >= first and (last is None or seq <= last):
                        yield entry_from_sql(raw)
            except sqlite3.Error as exc:
                raise JournalError(f"the journal {found.path} is damaged: {exc}") from exc
            except TypeError as exc:  # a column of the wrong type
                raise JournalCorrupt(expected, f"a column holds the wrong type: {exc}") from exc
        if expected - 1 < end:
            raise JournalCorrupt(expected, "missing (the rows do not reach the journal's end)")
        if progress is not None:
            progress(count % 1000)

    # --- what a replay reads (`controller.app.runtime.loop.History`) ---------------------------

    def last_authentic(self, kind: str) -> Entry | None:
        """The last row of ``kind`` in the newest file that has one, its HMAC checked."""
        for index in reversed(range(len(self.files))):
            found = self._file(index).journal.last_authentic(kind)
            if found is not None:
                return found
        return None

    def entries(self, *, since: int = 0) -> Iterator[Entry]:
        return self.rows(max(since + 1, self.first_seq))


def integrity_problem(path: Path, key: bytes) -> str | None:
    """SQLite's own check of a journal file's pages and indexes (``PRAGMA
    integrity_check``): None when it is sound, else its first complaint. The keyed chain
    cannot see a damaged index page, which the table's start refuses. On a 5,000,000-row
    file it took 4 s of CPU (quick_check, which does not match the index against the
    rows, 2 s) beside minutes for the chain: the weaker check is not worth having."""
    with read_file(path, key) as journal:
        uri = f"{journal.path.resolve().as_uri()}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True)
            try:
                found = [str(row[0]) for row in db.execute("PRAGMA integrity_check(1)")]
            finally:
                db.close()
        except sqlite3.Error as exc:
            return str(exc)
    if found == ["ok"]:
        return None
    lines = [x.strip() for row in found for x in row.splitlines()]
    return "; ".join(x for x in lines if x and not x.startswith("***"))  # one line
