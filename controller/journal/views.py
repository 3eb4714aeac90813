"""The journal's rows and a replayed table written for people: a row in one line for
`tablectl journal last` (a snapshot summarised, not its 4 KB of state), the state a replay
rebuilt as a short summary (the table, the round, each box or seat and what it is owed),
and the rows as a spreadsheet reads them (one column per payload field).

No game is named here: the summary reads the game's own view, its boxes or its
seats, and says each field in words.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from typing import Any, TextIO

from controller import game as games
from controller.errors import ConfigError
from controller.journal.store import Entry, canonical

SNAPSHOT = "Snapshot"  # `controller.app.runtime.snapshots.KIND`

# --- one row in one line (`journal last`) ------------------------------------------------


def brief(entry: Entry) -> str:
    """A row's payload in one line: ``field=value, ...`` (its ``source`` left out, the row
    says it); a snapshot as what it is, never its pickled state."""
    payload = entry.payload
    if entry.kind == SNAPSHOT:
        state = str(payload.get("state", ""))
        modules = payload.get("modules")
        count = len(modules) if isinstance(modules, list) else 0
        return (
            f"the {payload.get('game', '?')} game and the loop's state, for a restart "
            f"(format {payload.get('format', '?')}, {len(state):,} bytes, {count} modules, "
            f"code {str(payload.get('code', ''))[:12]})"
        )
    return ", ".join(f"{k}={v}" for k, v in payload.items() if k != "source")


# --- a replayed table (`journal replay`) -------------------------------------------------


def replay_summary(state: dict[str, Any], replayed: int, snapshot_row: int | None) -> list[str]:
    """The state a replay rebuilt, in a few lines for surveillance."""
    view = state.get("view") or {}
    name = str(state.get("game", ""))
    words, round_word, state_words = name.capitalize(), "round", {}
    try:
        spec = games.spec(name)
        words, round_word, state_words = spec.words, spec.round_word, dict(spec.state_words)
    except ConfigError:
        pass
    phase = str(view.get("state", ""))
    phase_words = state_words.get(phase) or phase.replace("_", " ").capitalize()
    lines = [f"{words} table, {round_word} {state.get('round')}: {phase_words or '-'}"]
    source = (
        f"rebuilt from the snapshot at row {snapshot_row} and the {replayed} events after it"
        if snapshot_row is not None
        else f"rebuilt from all {replayed} events"
    )
    lines.append(f"  journal: up to row {state.get('journal_seq')}, {source}")
    dealer = state.get("dealer")
    lines.append(
        f"  dealer: {dealer['name']} ({dealer['id']})" if dealer else "  dealer: nobody signed in"
    )
    if view.get("hold"):
        lines.append(f"  HOLD: {view.get('hold_text') or _words('', view['hold'])}")
    if view.get("next_action"):
        lines.append(f"  next: {view['next_action']}")
    if "gate_locked" in view:
        lines.append(f"  shoe gate: {'locked' if view['gate_locked'] else 'open'}")
    for key, value in view.items():
        if isinstance(value, dict) and "cards" in value:
            lines.append(f"  {_name(key)}'s hand: {_hand(value) or 'no cards'}")
    places = [("box", b) for b in view.get("boxes") or []] + [
        ("seat", s) for s in view.get("seats") or []
    ]
    for word, place in places:
        number = place.get("number", place.get("seat", "?"))
        parts = [_words(k, v) for k, v in place.items() if k not in ("number", "seat", "type")]
        lines.append(f"  {word} {number}: {'; '.join(p for p in parts if p) or 'nothing on it'}")
    if not places:
        lines.append("  no box or seat in play")
    return lines


def _name(key: str) -> str:
    return key.replace("_", " ")


def _hand(hand: dict[str, Any]) -> str:
    cards = " ".join(str(c) for c in hand.get("cards") or [])
    total = hand.get("total")
    return f"{cards} ({total})" if cards and total not in (None, "") else cards


def _words(key: str, value: Any) -> str:
    """One field of a box or seat in words; "" for nothing worth saying (zero, empty, no)."""
    if value is True:
        return _name(key)
    if value is None or value is False or value == 0 or value in ("", [], {}):
        return ""
    if isinstance(value, int | float | str):
        return f"{_name(key)} {value}"
    if isinstance(value, dict):
        inner = [f"{k} {v}" for k, v in value.items() if isinstance(v, int | float | str)]
        return f"{_name(key)} {', '.join(inner)}" if inner else ""
    if isinstance(value, list | tuple):
        if all(isinstance(v, dict) and "cards" in v for v in value):
            return ", ".join(f"hand {_hand(v) or '-'}" for v in value)
        if all(isinstance(v, int | float | str) for v in value):
            return f"{_name(key)} {' '.join(str(v) for v in value)}"
    return ""  # nested records (each person's line, each payout): --json has them


# --- the rows as a spreadsheet reads them (`journal export --format csv`) ----------------

ROW_COLUMNS = ("seq", "wall", "mono", "round", "source", "kind", "actor")
HASH_COLUMNS = ("prev_hash", "hash")
PAYLOAD = "payload."


def write_csv(rows: Iterable[Entry], fields: Iterable[str], out: TextIO) -> None:
    """The row's columns, then one column per payload field (``payload.NAME``, the names in
    sorted order: the same columns whatever order the rows come in), then the hashes. A
    field a row does not have is empty; a list or an object is its JSON."""
    names = sorted(set(fields))
    writer = csv.writer(out)
    writer.writerow([*ROW_COLUMNS, *(PAYLOAD + n for n in names), *HASH_COLUMNS])
    for entry in rows:
        payload = entry.payload
        writer.writerow(
            [
                *(_cell(getattr(entry, c)) for c in ROW_COLUMNS),
                *(_cell(payload.get(n)) for n in names),
                entry.prev_hash,
                entry.hash,
            ]
        )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool | list | dict):
        return canonical(value)
    return json.dumps(value)
