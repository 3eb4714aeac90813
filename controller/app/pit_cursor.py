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
