"""The journal's rows as data: their JSON form, their hash, an event read back from one,
the head someone outside saw, and the checkpoint (`controller.journal.store` keeps them on disk).

Kept apart from the journal file's code so that anything that only reads or writes rows
(the loop, the pit, the export) has a small module to import, and so that journal.py stays
one reason to change: the file under its key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import ports
from controller.cards import Card
from controller.errors import TableError
from controller.game.jsonable import to_jsonable


class JournalError(TableError, OSError):
    """The journal cannot be opened or written."""


class JournalCorrupt(JournalError):
    """The hash chain is broken. ``seq`` names the first row that does not check out."""

    def __init__(self, seq: int, message: str) -> None:
        super().__init__(f"journal row {seq}: {message}")
        self.seq = seq
        self.reason = message


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


# By name: a damaged schema page can make ``SELECT *`` return other columns (fuzzing).
COLUMNS = "seq, wall, mono, round, source, kind, payload, actor, prev_hash, hash"


def entry_from_sql(row: Any) -> Entry:
    """A row as SQLite gives it (`COLUMNS`), its payload parsed."""
    seq, wall, mono, round_, source, kind, payload, actor, prev_hash, digest = row
    return Entry(
        seq, wall, mono, round_, source, kind, json.loads(payload), actor, prev_hash, digest
    )


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


def row_hash(key: bytes, prev_hash: str, fields: list[Any]) -> str:
    """The keyed hash of one row: HMAC-SHA256 under the table's journal key."""
    message = (prev_hash + canonical(fields)).encode()
    return hmac.digest(key, message, "sha256").hex()


def plain_row_hash(prev_hash: str, fields: list[Any]) -> str:
    """The unkeyed hash of journals from before the chain was keyed (refused; named in errors)."""
    return hashlib.sha256((prev_hash + canonical(fields)).encode()).hexdigest()


_CHECKPOINT_LABEL = b"tablectl journal checkpoint\0"


@dataclass(frozen=True, slots=True)
class Head:
    """A journal's last row as someone outside saw it: its seq and its hash."""

    seq: int
    hash: str

    @classmethod
    def parse(cls, text: str) -> Head:
        """``SEQ:HASH`` (as `tablectl journal verify` prints and the pit shows)."""
        seq_text, _, digest = text.partition(":")
        try:
            seq = int(seq_text)
        except ValueError:
            seq = -1
        digest = digest.strip().lower()
        if seq < 0 or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise ValueError(f"expected SEQ:HASH (a row number and 64 hex digits), not {text!r}")
        return cls(seq, digest)

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """The last row known good (``seq``, its ``hash``), or a row found broken
    (``broken_seq``, ``broken``) by the full check after a start."""

    seq: int
    hash: str
    broken_seq: int | None = None
    broken: str | None = None

    def message(self) -> bytes:
        body = [self.seq, self.hash, self.broken_seq, self.broken]
        return _CHECKPOINT_LABEL + canonical(body).encode()


def checkpoint_path(path: Path) -> Path:
    return path.with_name(path.name + ".checkpoint")


def check_row(key: bytes, row: tuple[Any, ...], prev: str) -> str:
    """Check one row against the hash before it; return its own hash."""
    seq, wall, mono, round_, source, kind, payload_text, actor, prev_hash, digest = row
    if prev_hash != prev:
        raise JournalCorrupt(
            seq, "does not follow the row before it (deleted, inserted or swapped rows)"
        )
    try:
        payload = json.loads(payload_text)
        fields = [seq, wall, mono, round_, source, kind, payload, actor]
        intact = hmac.compare_digest(row_hash(key, prev_hash, fields), digest)
    except (TypeError, ValueError):  # not JSON, not text, a value JSON cannot hold
        raise JournalCorrupt(seq, "a column holds what was never written there") from None
    if not intact:
        raise JournalCorrupt(
            seq, "content changed since it was written (or the row was made without the key)"
        )
    return str(digest)
