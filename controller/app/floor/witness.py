"""The pit as a durable witness of every table's journal: each row's hash it has seen, kept
in the pit's own SQLite file (`floor.store`), never a bounded memory.

Per table it keeps:

- ``witnessed``: one row per journal seq, the hash the pit saw there, and whether the row
  itself came (``row``) or only a head said it (the table's current line of rows: a
  rewrite that the pit has already raised an alarm for replaces the rows from where it
  forked, which move to ``superseded``);
- ``superseded``: the rows a rewrite or a new journal replaced, as evidence, with the
  journal (``line``) they were witnessed in;
- ``witness_heads``: the table's witnessed head (the highest row it has witnessed in its
  current journal, seq and hash), the last head the table said in its state (``said``),
  and which journal it is on (``line``: 0 for the first, one more at each
  `JournalReopened`).

A row the table publishes is one indexed lookup and an insert, in one transaction with the
figures' row (`PitStore.take_row`). What it can be:

- ``new``: never witnessed at that seq in this journal: it counts in the figures;
- ``same``: the hash witnessed there (a row sent twice after a cut);
- ``fork``: another hash than the one witnessed at that seq: the journal was rewritten (a
  rollback, a row changed). A journal alarm; the rows from there on move to ``superseded``;
- ``rewritten``: a row at a seq the pit witnessed before a fork it has already raised: part
  of the same rewrite, so no second alarm, and it does not count (a (table, seq) counts in
  the figures once, never twice);
- ``reopened``: row 1 of a new journal, a `JournalReopened` row a supervisor's
  ``tablectl journal reopen`` wrote (docs/security.md, "The journal"): the table's rows so
  far move to ``superseded`` and its new journal counts from its row 1. A journal alarm
  too: the floor sees every new journal.

A head (the ``journal_seq`` and ``journal_hash`` of the table's retained state) below the
last one the table said raises the head-went-back alarm; a head's hash other than the one
witnessed at its seq is a fork.
"""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS witnessed (
    site TEXT NOT NULL, tbl TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL,
    row INTEGER NOT NULL, PRIMARY KEY (site, tbl, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS superseded (
    site TEXT NOT NULL, tbl TEXT NOT NULL, line INTEGER NOT NULL, seq INTEGER NOT NULL,
    hash TEXT NOT NULL, PRIMARY KEY (site, tbl, line, seq, hash)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS witness_heads (
    site TEXT NOT NULL, tbl TEXT NOT NULL, line INTEGER NOT NULL, seq INTEGER NOT NULL,
    hash TEXT NOT NULL, said INTEGER NOT NULL, PRIMARY KEY (site, tbl)) WITHOUT ROWID;
"""

SEQ_MAX = 2**53  # a journal row's seq as JSON carries it exactly; more is not a row
HASH_MAX = 128  # a row's hash in hex (SHA-256: 64)
REOPENED = "JournalReopened"


@dataclass(frozen=True, slots=True)
class Witnessed:
    """What the pit made of one row or head: ``status`` (module docstring), the hash
    witnessed before at that seq (a fork), and the head the table had said before (a head
    that went back) or the witnessed head of the journal a new one replaced."""

    status: str
    seq: int
    digest: str
    known: str = ""
    said: int = 0
    old_head: int = 0

    @property
    def counts(self) -> bool:
        """A row seen for the first time in its journal: the figures count it."""
        return self.status in ("new", "reopened")

    @property
    def kept(self) -> bool:
        """A row the floor keeps (the figures, the alarm log): new, or the same again."""
        return self.status in ("new", "same", "reopened")


def checked(seq: Any, digest: Any) -> tuple[int, str] | None:
    """A row's seq and hash as published, or None when there is nothing to witness (a
    table that publishes no hash) or they are not a row's (refused, not remembered)."""
    if isinstance(seq, bool) or not isinstance(seq, int) or not 1 <= seq <= SEQ_MAX:
        return None
    if not isinstance(digest, str) or not 0 < len(digest) <= HASH_MAX:
        return None
    return seq, digest


class Witness:
    """The witness's reads and writes on the pit store's connection (under its lock; the
    caller holds a transaction around a row and its figures' row: `PitStore.take_row`)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock
        db.executescript(SCHEMA)

    def _head(self, site: str, table: str) -> tuple[int, int, str, int]:
        found = self._db.execute(
            "SELECT line, seq, hash, said FROM witness_heads WHERE site = ? AND tbl = ?",
            (site, table),
        ).fetchone()
        return (0, 0, "", 0) if found is None else (found[0], found[1], found[2], found[3])

    def _set_head(self, site: str, table: str, line: int, seq: int, digest: str, said: int) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO witness_heads VALUES (?, ?, ?, ?, ?, ?)",
            (site, table, line, seq, digest, said),
        )

    def _top(self, site: str, table: str) -> tuple[int, str]:
        """The highest row witnessed (0, '' for none)."""
        found = self._db.execute(
            "SELECT seq, hash FROM witnessed WHERE site = ? AND tbl = ? ORDER BY seq DESC LIMIT 1",
            (site, table),
        ).fetchone()
        return (0, "") if found is None else (int(found[0]), str(found[1]))

    def _supersede(self, site: str, table: str, line: int, from_seq: int) -> None:
        """Move the witnessed rows from ``from_seq`` on to ``superseded`` (evidence)."""
        where = "site = ? AND tbl = ? AND seq >= ?"
        self._db.execute(
            "INSERT OR IGNORE INTO superseded SELECT site, tbl, ?, seq, hash FROM witnessed "
            f"WHERE {where}",
            (line, site, table, from_seq),
        )
        self._db.execute(f"DELETE FROM witnessed WHERE {where}", (site, table, from_seq))

    def _find(self, site: str, table: str, seq: int) -> tuple[str, int] | None:
        found = self._db.execute(
            "SELECT hash, row FROM witnessed WHERE site = ? AND tbl = ? AND seq = ?",
            (site, table, seq),
        ).fetchone()
        return None if found is None else (str(found[0]), int(found[1]))

    def _insert(self, site: str, table: str, seq: int, digest: str, row: bool) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO witnessed VALUES (?, ?, ?, ?, ?)",
            (site, table, seq, digest, int(row)),
        )

    def row(self, site: str, table: str, seq: int, digest: str, kind: str) -> Witnessed:
        """One published journal row (the caller holds the lock and the transaction)."""
        line, head, _, said = self._head(site, table)
        found = self._find(site, table, seq)
        if found is not None and found == (digest, 1):
            return Witnessed("same", seq, digest)
        if seq == 1 and kind == REOPENED and head > 0 and (found is None or found[0] != digest):
            self._supersede(site, table, line, 1)  # a supervisor's new journal
            self._insert(site, table, 1, digest, True)
            self._set_head(site, table, line + 1, 1, digest, 0)
            return Witnessed("reopened", seq, digest, found[0] if found else "", said, head)
        if found is not None and found[0] != digest:  # the journal was rewritten
            self._supersede(site, table, line, seq)
            self._insert(site, table, seq, digest, True)
            self._set_head(site, table, line, seq, digest, said)
            return Witnessed("fork", seq, digest, found[0], said, head)
        self._insert(site, table, seq, digest, True)  # new, or its head was said before
        if seq > head:
            self._set_head(site, table, line, seq, digest, said)
        before = self._db.execute(
            "SELECT 1 FROM superseded WHERE site = ? AND tbl = ? AND line = ? AND seq = ? LIMIT 1",
            (site, table, line, seq),
        ).fetchone()
        return Witnessed("rewritten" if before else "new", seq, digest)

    def head(self, site: str, table: str, seq: int, digest: str) -> Witnessed:
        """The head a table's state says (the caller holds the lock and the transaction)."""
        line, head, head_hash, said = self._head(site, table)
        found = self._find(site, table, seq)
        status = "same"
        if found is not None and found[0] != digest:
            self._supersede(site, table, line, seq)  # its row, when it comes: the rewrite's
            head, head_hash = self._top(site, table)
            status = "fork"
        elif seq < said:
            status = "back"
        if found is None or status == "fork":
            self._insert(site, table, seq, digest, False)  # its row is still to come
            if seq > head:
                head, head_hash = seq, digest
        self._set_head(site, table, line, head, head_hash, seq)
        return Witnessed(status, seq, digest, "" if found is None else found[0], said, head)

    def witnessed_head(self, site: str, table: str) -> tuple[int, str] | None:
        """The highest row the pit has witnessed of the table's current journal (seq,
        hash), or None for a table it has witnessed nothing of."""
        with self._lock:
            _, seq, digest, _ = self._head(site, table)
        return (seq, digest) if seq > 0 else None
