"""The journal: every event, written durably before it is acknowledged, hash-chained.

One SQLite file in WAL mode with ``synchronous=FULL``: when `Journal.append` returns, the
row is on disk, so the controller may acknowledge the event to its device. Rows are never
updated or deleted (triggers refuse it). Each row carries the SHA-256 of its own content
and of the row before it, so `verify` finds a changed, deleted, inserted or swapped row and
names it. Surveillance and the regulator read it with ``tablectl journal``.

A row is: ``seq`` (1, 2, 3... with no gaps), wall-clock time (UTC, ISO 8601), monotonic
time, the round it belongs to, the source device (or ``console`` / ``supervisor`` /
``controller``), the kind (an event class name such as ``CardDrawn``, or a record such as
``Violation``), the payload (canonical JSON), and the actor for console and supervisor
actions. ``hash = sha256(prev_hash || canonical JSON of the other fields)``, hex; the first
row's ``prev_hash`` is 64 zeros.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import ports
from controller.cards import Card
from controller.errors import TableError

GENESIS = "0" * 64

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


class JournalError(TableError, OSError):
    """The journal cannot be opened or written."""


class JournalCorrupt(JournalError):
    """The hash chain is broken. ``seq`` names the first row that does not check out."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"journal row {seq}: {message}")
        self.seq = seq


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    wall: str
    mono: float
    round: int | None
    source: str
    kind: str
    payload: dict[str, Any]
    actor: str | None
    prev_hash: str
    hash: str

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def to_jsonable(value: Any) -> Any:
    """Events and records as plain JSON values: dataclasses become objects (with their
    class name under ``"type"``), cards their text, enums their value."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {"type": type(value).__name__}
        for f in dataclasses.fields(value):
            out[f.name] = to_jsonable(getattr(value, f.name))
        return out
    if isinstance(value, list | tuple | frozenset | set):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value


def _event_types() -> dict[str, type[ports.Event]]:
    found: dict[str, type[ports.Event]] = {}
    todo = [ports.Event]
    while todo:
        for cls in todo.pop().__subclasses__():
            found[cls.__name__] = cls
            todo.append(cls)
    return found


EVENT_TYPES = _event_types()
_FIELD_PARSERS: dict[str, Callable[[Any], Any]] = {
    "card": Card.parse,
    "button": ports.ConsoleButton,
    "fault": ports.Fault,
}


def decode_event(entry: Entry) -> ports.Event | None:
    """The device or console event a journal row holds, or None for a controller record
    (a payout, a violation): those are re-derived when the events are replayed."""
    cls = EVENT_TYPES.get(entry.kind)
    if cls is None:
        return None
    try:
        values = {
            name: _FIELD_PARSERS[name](value) if name in _FIELD_PARSERS else value
            for name, value in entry.payload.items()
        }
        return cls(**values)
    except (TypeError, ValueError, AttributeError) as exc:  # CardError is a ValueError
        raise JournalError(
            f"journal row {entry.seq}: its payload is not a {entry.kind}: {exc}"
        ) from exc


Row = tuple[str, dict[str, Any], str, "int | None", "str | None"]
"""A row to append: (kind, payload, source, round, actor)."""


def as_row(item: Any, *, source: str, round: int | None = None, actor: str | None = None) -> Row:
    """An event or record (a dataclass) as a row, under its class name."""
    payload = to_jsonable(item)
    kind = payload.pop("type")
    return (kind, payload, source, round, actor)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def row_hash(prev_hash: str, fields: list[Any]) -> str:
    return hashlib.sha256((prev_hash + canonical(fields)).encode()).hexdigest()


def _utc_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="microseconds")


class Journal:
    def __init__(
        self,
        path: str | Path,
        *,
        wall: Callable[[], str] = _utc_now,
        mono: Callable[[], float] = time.monotonic,
        readonly: bool = False,
    ) -> None:
        self.path = Path(path)
        self._wall = wall
        self._mono = mono
        try:
            if readonly:
                if not self.path.exists():
                    raise JournalError(f"no journal at {self.path}")
                uri = f"file:{self.path}?mode=ro"
                self._db = sqlite3.connect(
                    uri, uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # One thread at a time: the start-up replay, then the controller thread.
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
                self._db.executescript(_SCHEMA)
            row = self._db.execute(
                "SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1"
            ).fetchone()
        except (sqlite3.Error, ValueError) as exc:  # ValueError: text that is not UTF-8
            raise JournalError(f"cannot open the journal {self.path}: {exc}") from exc
        self.last_seq: int = row[0] if row else 0
        self.last_hash: str = row[1] if row else GENESIS

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    def append_many(self, rows: list[Row]) -> list[Entry]:
        """Write rows ``(kind, payload, source, round, actor)`` in one transaction: one
        wait for the disk, all or none of them."""
        entries: list[Entry] = []
        seq, prev = self.last_seq, self.last_hash
        for kind, payload, source, round_, actor in rows:
            seq += 1
            wall = self._wall()
            mono = self._mono()
            digest = row_hash(prev, [seq, wall, mono, round_, source, kind, payload, actor])
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

    def entries(self, *, since: int = 0, round: int | None = None) -> Iterator[Entry]:
        query = "SELECT * FROM journal WHERE seq > ?"
        args: list[Any] = [since]
        if round is not None:
            query += " AND round = ?"
            args.append(round)
        try:
            for row in self._db.execute(query + " ORDER BY seq", args):
                seq, wall, mono, round_, source, kind, payload, actor, prev_hash, digest = row
                yield Entry(
                    seq, wall, mono, round_, source, kind, json.loads(payload), actor, prev_hash,
                    digest,
                )  # fmt: skip
        except (sqlite3.Error, TypeError, ValueError) as exc:
            raise JournalError(f"the journal {self.path} cannot be read: {exc}") from exc

    def rounds(self) -> list[int]:
        rows = self._db.execute(
            "SELECT DISTINCT round FROM journal WHERE round IS NOT NULL ORDER BY round"
        )
        return [r[0] for r in rows]

    def verify(self) -> int:
        """Check the whole chain; returns the number of rows. Raises `JournalCorrupt`
        naming the first row that is changed, missing, inserted or out of place, or
        `JournalError` when SQLite cannot read the file at all."""
        prev = GENESIS
        expected_seq = None
        count = 0
        try:
            for row in self._db.execute(f"SELECT {_COLUMNS} FROM journal ORDER BY rowid"):
                seq = row[0]
                count += 1
                if expected_seq is not None and seq != expected_seq:
                    raise JournalCorrupt(
                        seq, f"follows row {expected_seq - 1}: rows missing or moved"
                    )
                expected_seq = seq + 1
                prev = _check_row(row, prev)
        except sqlite3.Error as exc:
            raise JournalError(f"the journal {self.path} is damaged: {exc}") from exc
        except TypeError as exc:  # a column of the wrong type (a rowid that is not a number)
            raise JournalCorrupt(
                expected_seq or 0, f"a column holds the wrong type: {exc}"
            ) from exc
        return count


# By name: a damaged schema page can make ``SELECT *`` return other columns (fuzzing).
_COLUMNS = "seq, wall, mono, round, source, kind, payload, actor, prev_hash, hash"


def _check_row(row: tuple[Any, ...], prev: str) -> str:
    """Check one row against the hash before it; return its own hash."""
    seq, wall, mono, round_, source, kind, payload_text, actor, prev_hash, digest = row
    if prev_hash != prev:
        raise JournalCorrupt(
            seq, "does not follow the row before it (deleted, inserted or swapped rows)"
        )
    try:
        payload = json.loads(payload_text)
        fields = [seq, wall, mono, round_, source, kind, payload, actor]
        intact = row_hash(prev_hash, fields) == digest
    except (TypeError, ValueError):  # not JSON, not text, a value JSON cannot hold
        raise JournalCorrupt(seq, "a column holds what was never written there") from None
    if not intact:
        raise JournalCorrupt(seq, "content changed since it was written")
    return str(digest)
