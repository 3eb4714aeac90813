"""``[journal]``: the journal file and its HMAC key.

``path`` of the journal file (on a writable partition), ``key_file``: its HMAC key
(default: the journal's path + ``.key``; `controller.app.runtime.journal_files`). Relative paths
are relative to the config file, so a table's folder can be moved whole.

Keeping it at scale (docs/install.md, "Sizing"): ``snapshot_every`` rounds
between snapshots (`controller.app.runtime.snapshots`; 0: none), ``rotate_daily`` and
``day_starts`` ("HH:MM", local time: the trading day a file holds), ``rotate_mb`` (a file
rolls over past this size; 0: never by size), ``archive_dir`` (where sealed files go,
compressed; "": they stay at the table), ``keep_rounds`` (the rounds that always stay at
the table: at least 10, GLI-24's last-game recall).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema

__all__ = ["SCHEMA", "JournalConfig", "JournalKeeping", "read_journal"]

SCHEMA: Schema = {
    "path": (str, REQUIRED),
    "key_file": (str, ""),
    "snapshot_every": (int, 5),
    "rotate_daily": (bool, True),
    "day_starts": (str, "06:00"),
    "rotate_mb": (int, 512),
    "archive_dir": (str, ""),
    "keep_rounds": (int, 10),
}
GLI_ROUNDS = 10  # GLI-24: the last 10 rounds stay at the table for recall


@dataclass(frozen=True)
class JournalKeeping:
    """Snapshots, rotation and archive of the journal: what keeps it fast at scale."""

    snapshot_every: int = 5
    rotate_daily: bool = True
    day_starts: tuple[int, int] = (6, 0)  # hour, minute (local time)
    rotate_bytes: int = 512 * 1024 * 1024  # 0: never by size
    archive_dir: Path | None = None  # None: sealed files stay at the table
    keep_rounds: int = GLI_ROUNDS


@dataclass(frozen=True)
class JournalConfig:
    """The checked ``[journal]``; `TableConfig` carries its fields flat."""

    path: Path
    key: Path | None  # None: the journal's path + ".key"
    keeping: JournalKeeping = field(default_factory=JournalKeeping)


def read_journal(check: Checker, doc: dict[str, Any], base: Path | None) -> JournalConfig:
    journal = check.section(doc, "journal", SCHEMA)
    path = Path(journal["path"]).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    key = Path(journal["key_file"]).expanduser() if journal["key_file"] else None
    if key is not None and base is not None and not key.is_absolute():
        key = base / key
    return JournalConfig(path, key, _keeping(check, journal, base))


def _keeping(check: Checker, journal: dict[str, Any], base: Path | None) -> JournalKeeping:
    for name in ("snapshot_every", "rotate_mb"):
        if journal[name] < 0:
            raise check.error("must be 0 or more", "journal", name)
    if journal["keep_rounds"] < GLI_ROUNDS:
        raise check.error(
            f"must be at least {GLI_ROUNDS}: GLI-24 keeps the last {GLI_ROUNDS} rounds at the "
            "table for recall",
            "journal",
            "keep_rounds",
        )
    hour, _, minute = journal["day_starts"].partition(":")
    if not (hour.isdigit() and minute.isdigit() and int(hour) < 24 and int(minute) < 60):
        raise check.error(
            f"must be HH:MM (local time), not {journal['day_starts']!r}", "journal", "day_starts"
        )
    archive = Path(journal["archive_dir"]).expanduser() if journal["archive_dir"] else None
    if archive is not None and base is not None and not archive.is_absolute():
        archive = base / archive
    return JournalKeeping(
        journal["snapshot_every"],
        journal["rotate_daily"],
        (int(hour), int(minute)),
        journal["rotate_mb"] * 1024 * 1024,
        archive,
        journal["keep_rounds"],
    )
