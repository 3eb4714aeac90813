"""Journal rows as the pit receives them, for the tests of its figures and store: one
table's row at a number of seconds into a fixed shift (START), so that the figures'
hours and the store's order are the same on every run."""

from __future__ import annotations

import datetime
from typing import Any

START = 1_800_000_000.0  # 2027-01-15T08:00:00Z


def at(seconds: float) -> str:
    """The wall-clock text of ``seconds`` after START, as a journal row carries it."""
    return datetime.datetime.fromtimestamp(START + seconds, datetime.UTC).isoformat()


def row(
    table: str,
    seconds: float,
    row_kind: str,
    actor: str | None = "d01",
    round_: int = 1,
    **payload: Any,
) -> dict[str, Any]:
    """A row of ``table``'s journal, ``seconds`` into the shift (its seq too); the row's
    kind is ``row_kind``, so that a payload may have a ``kind`` of its own (a mismatch's)."""
    return {"table": table, "site": "s", "seq": int(seconds), "wall": at(seconds),
            "round": round_, "kind": row_kind, "actor": actor, "payload": payload}  # fmt: skip
