"""The pit publisher's durable cursor: the last journal seq the broker acknowledged, kept
in a small SQLite file beside the journal, so a restarted publisher resumes after it
instead of sending the whole journal again (or, worse, skipping rows)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.file_modes import create_private


class Cursor:
    """The last journal seq the broker acknowledged, durable beside the journal. It may lag
    the truth (a row is then sent again) but is never ahead of it. ``key`` names the broker,
    the topic base and the journal's first row, so a new journal or broker starts over."""

    def __init__(self, path: Path, key: str) -> None:
        self.path = path
        self.key = key
        create_private(path)  # 0640, and SQLite's -wal and -shm with it (file_modes)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # a lost update only resends rows
        self._db.execute("CREATE TABLE IF NOT EXISTS cursor (key TEXT PRIMARY KEY, seq INTEGER)")
        row = self._db.execute("SELECT seq FROM cursor WHERE key = ?", (key,)).fetchone()
        self.seq: int = row[0] if row else 0

    def save(self, seq: int) -> None:
        self._db.execute("INSERT OR REPLACE INTO cursor VALUES (?, ?)", (self.key, seq))
        self.seq = seq

    def close(self) -> None:
        self._db.close()


def cursor_path(journal_path: Path) -> Path:
    """Where a journal's cursor file lives: beside it, named after it."""
    return journal_path.with_name(journal_path.name + ".pit-cursor")


def acknowledged(journal_path: Path, first_hash: str) -> int:
    """The highest row of the journal whose row 1 is ``first_hash`` that the pit's broker
    acknowledged, as its cursor file says (whatever broker and topics: each key ends with
    the journal's row 1), read only; 0 when there is no cursor file or no entry for it."""
    path = cursor_path(journal_path)
    if not first_hash or not path.exists():
        return 0
    db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT key, seq FROM cursor").fetchall()
    finally:
        db.close()
    return max((int(seq) for key, seq in rows if str(key).rsplit("|", 1)[-1] == first_hash),
               default=0)  # fmt: skip


def behind_cursor(last_seq: int, acked: int, journal_path: Path) -> str:
    """What a journal whose last row is behind its own pit cursor is, in words ('' if it
    is not): the pit saw rows this journal no longer has."""
    if acked <= last_seq:
        return ""
    return (
        f"the journal ends at row {last_seq}, but its pit cursor "
        f"{cursor_path(journal_path).name} says the pit's broker acknowledged rows up to "
        f"row {acked}: the journal was rolled back (an older copy put back, or rows cut off "
        "the end)"
    )
