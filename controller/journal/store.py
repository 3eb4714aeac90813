"""The journal: every event, written durably before it is acknowledged, in a keyed chain.

One SQLite file in WAL mode with ``synchronous=FULL``: when `Journal.append` returns, the
row is on disk, so the controller may acknowledge the event to its device. Rows are never
updated or deleted (triggers refuse it). Surveillance and the regulator read it with
``tablectl journal``.

A row is: ``seq`` (1, 2, 3... with no gaps), wall-clock time (UTC, ISO 8601), monotonic
time, the round it belongs to, the source device (or ``console`` / ``supervisor`` /
``controller``), the kind (an event class name such as ``CardDrawn``, or a record such
as ``Violation``), the payload (canonical JSON), and the actor for console and supervisor actions.

**The keyed chain**. Each row carries
``hash = HMAC-SHA256(key, prev_hash || canonical JSON of the other fields)``, hex; the
first row's ``prev_hash`` is 64 zeros. ``key`` is the table's own 32 random bytes, kept in
a file only the service can read (`controller.app.runtime.journal_files`; this module only takes
the bytes). The triggers stop an accident; the key stops a person: whoever changes,
deletes, inserts or swaps a row, or writes a whole new chain, needs the key to make the
hashes check out again, and a row recomputed with plain SHA-256 or another key is named as
changed. A journal written before the chain was keyed (``PRAGMA user_version`` 0, plain
SHA-256) is refused: it cannot be checked.

**Checked at every open** (`Journal.check`), before anything is replayed or appended. A
full check takes seconds (bench/journal_check.py), so a **checkpoint** beside the file
(`controller.journal.checkpoint`) names the last row checked or written, its hash, and an
HMAC of both under the key. Opening checks only that row and the rows after it, and
refuses a journal that ends before it (rows cut off) or holds another hash there (the end
rewritten). No checkpoint means a full check; a forged one is refused.

**Rotation** (`controller.journal.fileset`): a file rotation opens begins with a
`ROTATED` row going on from the file before it, so the chain runs across files.

What the checkpoint cannot see: a row older than it changed while the table was off (a
full check runs in the background after every start), and a journal and checkpoint both
replaced by older copies, or rewritten with the key (the pit's watch on each table's head
and ``tablectl journal verify --head`` catch that). A journal that does not check out is
never mended here: a supervisor opens a new one (`controller.app.cli.journal_reopen`).
docs/security.md, "The journal".
"""

from __future__ import annotations

import contextlib
import datetime
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from controller.file_modes import private_database
from controller.journal.checkpoint import CheckpointFile
from controller.journal.rows import (  # the rows as data (journal_rows.py), re-exported
    COLUMNS,
    EVENT_TYPES,
    Checkpoint,
    Entry,
    Head,
    JournalCorrupt,
    JournalError,
    Row,
    as_row,
    canonical,
    check_row,
    checkpoint_path,
    decode_event,
    entry_from_sql,
    plain_row_hash,
    row_hash,
)

__all__ = [
    "EVENT_TYPES", "FORMAT", "GENESIS", "MIN_KEY_BYTES", "ROTATED", "Checkpoint", "Entry", "Head",
    "Journal", "JournalCorrupt", "JournalError", "Row", "as_row", "canonical", "checkpoint_path",
    "decode_event", "plain_row_hash", "row_hash",
]  # fmt: skip

GENESIS = "0" * 64
ROTATED = "JournalRotated"
"""The kind of a rotated file's first row (`controller.journal.fileset`)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq       INTEGER PRIMARY KEY,
    wall      TEXT    NOT NULL,
    mono      REAL    NOT NULL,
    round     INTEGER,
    source    TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    payload   TEXT    NOT NULL,
    actor     TEXT,
    prev_hash TEXT    NOT NULL,
    hash      TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS journal_round ON journal(round);
CREATE TRIGGER IF NOT EXISTS journal_no_update BEFORE UPDATE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS journal_no_delete BEFORE DELETE ON journal
BEGIN SELECT RAISE(ABORT, 'the journal is append-only'); END;
"""


_HAS_TABLE = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal'"
_LAST = "ORDER BY seq DESC LIMIT 1"
_SIZE = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"
FORMAT = 2
"""``PRAGMA user_version`` of a journal whose chain is keyed (0: plain SHA-256)."""
MIN_KEY_BYTES = 16


@contextlib.contextmanager
def _reading(path: Path) -> Iterator[None]:
    """SQLite's errors in a read as the journal's own."""
    try:
        yield
    except sqlite3.Error as exc:
        raise JournalError(f"the journal {path} is damaged: {exc}") from exc


def _utc_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="microseconds")


class Journal:
    """One journal file under its key. Opening checks it (`check`): a journal that does
    not check out raises `JournalCorrupt` naming the row, before anything can be read or
    written, and nothing is written to it (``check=False`` is for `verify`, which checks
    everything itself)."""

    def __init__(
        self,
        path: str | Path,
        *,
        key: bytes,
        wall: Callable[[], str] = _utc_now,
        mono: Callable[[], float] = time.monotonic,
        readonly: bool = False,
        check: bool = True,
        head: Head | None = None,
        start: Head | None = None,
    ) -> None:
        self.path = Path(path)
        self._start = start  # a new file that goes on from another's last row (rotation)
        if not isinstance(key, bytes) or len(key) < MIN_KEY_BYTES:
            raise JournalError(f"the journal key for {self.path} must be {MIN_KEY_BYTES}+ bytes")
        self._key = key
        self._wall = wall
        self._mono = mono
        self.readonly = readonly
        self.checked_from: int | None = None  # the seq the last check started after
        self._checkpoints = CheckpointFile(self.path, key)  # held open: no new fd to write
        try:
            if readonly:
                if not self.path.exists():
                    raise JournalError(f"no journal at {self.path}")
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self._db = sqlite3.connect(
                    uri, uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                private_database(self.path)  # 0640, its folder made (file_modes)
                # One thread at a time: the start-up replay, then the controller thread.
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.execute("PRAGMA temp_store=MEMORY")  # no temporary file to open
                # new by its tables, not its file: a cut before the schema's commit (a
                # rotation cut short) leaves a file with no table, a new empty journal
                if not self._db.execute(_HAS_TABLE).fetchone():
                    self._db.executescript(_SCHEMA)
                    self._db.execute(f"PRAGMA user_version={FORMAT}")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            row = self._db.execute(f"SELECT seq, hash FROM journal {_LAST}").fetchone()
        except (sqlite3.Error, ValueError) as exc:  # ValueError: text that is not UTF-8
            self._close_quietly()
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from exc
        begin = start or Head(0, GENESIS)
        self.last_seq: int = row[0] if row else begin.seq
        self.last_hash: str = row[1] if row else begin.hash
        if version != FORMAT and row is not None:
            self._close_quietly()
            raise JournalCorrupt(
                1,
                "the journal's chain is not keyed (written by an older tablectl, with plain "
                "SHA-256): it cannot be checked; open a new journal",
            )
        try:
            if version != FORMAT and row is None and not readonly:
                self._db.execute(f"PRAGMA user_version={FORMAT}")  # empty: as good as new
            if check:
                self.check(head=head)
            if not readonly:
                # only now, on a journal that checked out: the guards, if they were dropped
                self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            self._close_quietly()
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from exc
        except JournalError:
            self._close_quietly()
            raise

    def _close_quietly(self) -> None:
        with contextlib.suppress(AttributeError):  # no _db: it never opened
            self._db.close()
        self._checkpoints.close()

    def close(self) -> None:
        self._close_quietly()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def head(self) -> Head:
        return Head(self.last_seq, self.last_hash)

    # --- writing -----------------------------------------------------------------------

    def append(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        source: str,
        round: int | None = None,
        actor: str | None = None,
    ) -> Entry:
        """Write one row durably and return it. Raises `JournalError` if it cannot: the
        caller must then not acknowledge the event."""
        return self.append_many([(kind, payload, source, round, actor)])[0]

    def now(self) -> str:
        """The wall time (UTC, ISO 8601) the journal's clock says now."""
        return self._wall()

    def append_many(self, rows: list[Row], walls: list[str] | None = None) -> list[Entry]:
        """Write rows ``(kind, payload, source, round, actor)`` in one transaction: one
        wait for the disk, all or none of them. ``walls``: each row's wall time, as the
        game was told it (`now`); by default the clock's when written."""
        if self.readonly:
            raise JournalError(f"the journal {self.path} is open read-only")
        if walls is not None and len(walls) != len(rows):
            raise ValueError(f"{len(rows)} rows but {len(walls)} wall times")
        entries: list[Entry] = []
        seq, prev = self.last_seq, self.last_hash
        key = self._key
        for index, (kind, payload, source, round_, actor) in enumerate(rows):
            seq += 1
            wall = self._wall() if walls is None else walls[index]
            mono = self._mono()
            digest = row_hash(key, prev, [seq, wall, mono, round_, source, kind, payload, actor])
            entries.append(
                Entry(seq, wall, mono, round_, source, kind, payload, actor, prev, digest)
            )
            prev = digest
        try:
            with self._db:  # BEGIN ... COMMIT, or ROLLBACK on error
                self._db.execute("BEGIN")
                self._db.executemany(
                    "INSERT INTO journal VALUES (?,?,?,?,?,?,?,?,?,?)",
                    [
                        (e.seq, e.wall, e.mono, e.round, e.source, e.kind, canonical(e.payload),
                         e.actor, e.prev_hash, e.hash)
                        for e in entries
                    ],
                )  # fmt: skip
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write to the journal {self.path}: {exc}") from exc
        if entries:
            self.last_seq, self.last_hash = entries[-1].seq, entries[-1].hash
        return entries

    def record(
        self, item: Any, *, source: str, round: int | None = None, actor: str | None = None
    ) -> Entry:
        """Append an event or record (a dataclass), under its class name."""
        return self.append_many([as_row(item, source=source, round=round, actor=actor)])[0]

    # --- reading -----------------------------------------------------------------------

    def entries(self, *, since: int = 0, round: int | None = None) -> Iterator[Entry]:
        query = f"SELECT {COLUMNS} FROM journal WHERE seq > ?"
        args: list[Any] = [since]
        if round is not None:
            query += " AND round = ?"
            args.append(round)
        try:
            for row in self._db.execute(query + " ORDER BY seq", args):
                yield entry_from_sql(row)
        except (sqlite3.Error, TypeError, ValueError) as exc:
            raise JournalError(f"the journal {self.path} cannot be read: {exc}") from exc

    def rounds(self) -> list[int]:
        rows = self._db.execute(
            "SELECT DISTINCT round FROM journal WHERE round IS NOT NULL ORDER BY round"
        )
        return [r[0] for r in rows]

    def row_hash_at(self, seq: int) -> str | None:
        """The stored hash of row ``seq`` (unchecked), or None if there is no such row."""
        with _reading(self.path):
            row = self._db.execute("SELECT hash FROM journal WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else str(row[0])

    # --- checking ----------------------------------------------------------------------

    def check(self, *, head: Head | None = None) -> int:
        """The check at open: the rows after the checkpoint (all of them without one),
        the checkpoint's own row, and that nothing was cut off before the checkpoint or
        the ``head`` given. Returns how many rows were checked. On a writable journal the
        checkpoint then moves to the last row (so the next open checks only newer rows)."""
        checkpoint = self.read_checkpoint()
        origin = self.origin()
        if checkpoint is None or (checkpoint.seq <= origin.seq and checkpoint.broken_seq is None):
            count = self._verify_rows(origin.seq, origin.hash)
            self.checked_from = 0
        else:
            if checkpoint.broken_seq is not None:
                raise JournalCorrupt(
                    checkpoint.broken_seq,
                    f"{checkpoint.broken} (found by the full check after an earlier start)",
                )
            self._check_reaches(checkpoint.seq, checkpoint.hash, "the checkpoint")
            count = self._verify_rows(checkpoint.seq - 1, None)
            trusted = checkpoint.seq - 1 > origin.seq  # rows before the checkpoint's own
            self.checked_from = checkpoint.seq - 1 if trusted else 0
        if head is not None:
            self._check_reaches(head.seq, head.hash, "the head given")
        if not self.readonly:
            self.checkpoint()
        return count

    def verify(
        self,
        *,
        head: Head | None = None,
        upto: int | None = None,
        pace: Callable[[], None] | None = None,
        pace_rows: int = 1000,
    ) -> int:
        """Check the whole chain (or its rows up to ``upto``); returns the number of rows.
        Raises `JournalCorrupt` naming the first row changed, missing, inserted, moved or
        forged, or the row it should reach (its checkpoint, the ``head`` given) when rows
        were cut off; `JournalError` when SQLite cannot read it. ``pace`` is called every
        ``pace_rows`` rows (a background check yields there, or raises to stop).

        Beside a writer (the archive's pass over the live file) the checkpoint is read
        first, then the rows as they are now, which it never runs ahead of; a forged
        checkpoint is told after the rows, so that a changed row is named first."""
        origin = self.origin()
        try:
            checkpoint, forged = (self.read_checkpoint() if upto is None else None), None
        except JournalCorrupt as exc:
            checkpoint, forged = None, exc
        if upto is None and self.readonly:
            with _reading(self.path):
                row = self._db.execute(f"SELECT seq, hash FROM journal {_LAST}").fetchone()
            self.last_seq, self.last_hash = row or (self.last_seq, self.last_hash)
        count = self._verify_rows(
            origin.seq, origin.hash, upto=upto or self.last_seq, pace=pace, pace_rows=pace_rows
        )
        if forged is not None:
            raise forged
        if upto is None:
            if checkpoint is not None and checkpoint.broken_seq is not None:
                raise JournalCorrupt(checkpoint.broken_seq, checkpoint.broken or "broken")
            if checkpoint is not None:
                self._check_reaches(checkpoint.seq, checkpoint.hash, "the checkpoint")
            if head is not None:
                self._check_reaches(head.seq, head.hash, "the head given")
        return count

    def origin(self) -> Head:
        """Where this file's chain begins: row 0 (``GENESIS``) for a table's first file;
        for a file rotation opened, the last row of the file before it, as its first row
        (`ROTATED`, under the key like every row) names it. A file that begins anywhere
        else lost its first rows, or was never a journal's start: refused, naming the row."""
        with _reading(self.path):
            row = self._db.execute(
                "SELECT seq, kind, payload, prev_hash FROM journal ORDER BY seq LIMIT 1"
            ).fetchone()
        if row is None:
            return self._start or Head(0, GENESIS)
        seq, kind, payload, prev_hash = row
        if seq == 1:
            return Head(0, GENESIS)
        try:
            body = json.loads(payload)
        except (TypeError, ValueError):
            body = None
        if (
            kind == ROTATED
            and isinstance(body, dict)
            and isinstance(seq, int)
            and body.get("prev_seq") == seq - 1
            and body.get("prev_hash") == prev_hash
        ):
            return Head(seq - 1, str(prev_hash))
        raise JournalCorrupt(
            seq,
            f"the file {self.path.name} begins at row {seq} without a {ROTATED} row naming "
            "the row before it (rows cut off its start, or not a journal's first file)",
        )

    def last_authentic(self, kind: str) -> Entry | None:
        """The last row of ``kind`` (a snapshot), its own HMAC checked here and now, so a
        row the start-up check took on trust is never used unchecked; None if there is
        none. Found by a backward scan: as cheap as the rows after it."""
        with _reading(self.path):
            row = self._db.execute(
                f"SELECT {COLUMNS} FROM journal WHERE kind = ? {_LAST}", (kind,)
            ).fetchone()
        if row is None:
            return None
        check_row(self._key, row, row[8])
        return entry_from_sql(row)

    def _check_reaches(self, seq: int, digest: str, what: str) -> None:
        """The journal still holds row ``seq`` with hash ``digest``."""
        if seq == 0:
            return
        if self.last_seq < seq:
            raise JournalCorrupt(
                self.last_seq + 1,
                f"missing: the journal ends at row {self.last_seq} but {what} is at row {seq} "
                "(rows cut off the end)",
            )
        if self.row_hash_at(seq) != digest:
            raise JournalCorrupt(
                seq, f"its hash is not the one {what} holds (the journal was rewritten)"
            )

    def _verify_rows(
        self,
        after: int,
        prev: str | None,
        *,
        upto: int | None = None,
        pace: Callable[[], None] | None = None,
        pace_rows: int = 1000,
    ) -> int:
        """Check the rows after ``after`` (up to ``upto``) in order: consecutive seqs, each
        following the one before (``prev``: the hash row ``after`` must have, or None to
        take the first row's own ``prev_hash`` on trust, as the checkpoint then names the
        first row's hash), each hash the key's."""
        expected = after + 1
        count = 0
        key = self._key
        query = f"SELECT {COLUMNS} FROM journal WHERE seq > ?"
        args: list[Any] = [after]
        if upto is not None:
            query += " AND seq <= ?"
            args.append(upto)
        try:
            for row in self._db.execute(query + " ORDER BY seq", args):
                seq = row[0]
                if seq != expected:
                    raise JournalCorrupt(seq, f"follows row {expected - 1}: rows missing or moved")
                if prev is None:
                    prev = row[8]
                prev = check_row(key, row, prev)
                expected += 1
                count += 1
                if pace is not None and count % pace_rows == 0:
                    pace()
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {self.path} is damaged: {exc}") from exc
        except TypeError as exc:  # a column of the wrong type (a rowid that is not a number)
            raise JournalCorrupt(expected, f"a column holds the wrong type: {exc}") from exc
        last = self.last_seq if upto is None else min(upto, self.last_seq)
        if expected - 1 != last:
            raise JournalCorrupt(expected, "missing (the rows do not reach the journal's end)")
        return count

    # --- the checkpoint ----------------------------------------------------------------

    def read_checkpoint(self) -> Checkpoint | None:
        """The checkpoint beside the journal (`controller.journal.checkpoint`)."""
        return self._checkpoints.read()

    def checkpoint(self) -> None:
        """Vouch for every row up to the last one (checked at open or written here since):
        the next open checks only the rows after it. Written by rename, without an fsync:
        after a power cut it is this one or the one before, never ahead of the rows."""
        if self.readonly or self._checkpoints.broken or self.last_seq == self._checkpoints.seq:
            return
        if self._start is not None and self.last_seq == self._start.seq:
            return  # a rotated file with no row of its own yet
        self._write_checkpoint(Checkpoint(self.last_seq, self.last_hash))

    def mark_broken(self, seq: int, message: str) -> None:
        """A check after the open found row ``seq`` broken: the checkpoint says so, so the
        next open refuses at once, naming it (the journal is not written); no other after."""
        self._write_checkpoint(Checkpoint(self.last_seq, self.last_hash, seq, message))

    def _write_checkpoint(self, checkpoint: Checkpoint) -> None:
        self._checkpoints.write(checkpoint)

    def data_bytes(self) -> int:
        """Its data's size: its pages, those still in its WAL included (on its connection)."""
        with _reading(self.path):
            return int(self._db.execute(_SIZE).fetchone()[0])
