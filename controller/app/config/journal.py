"""``[journal]``: the journal file and its HMAC key.

``path`` of the journal file (on a writable partition), ``key_file``: its HMAC key
(default: the journal's path + ``.key``; `controller.app.journal_files`). Relative paths
are relative to the config file, so a table's folder can be moved whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema

__all__ = ["SCHEMA", "JournalConfig", "read_journal"]

SCHEMA: Schema = {"path": (str, REQUIRED), "key_file": (str, "")}


@dataclass(frozen=True)
class JournalConfig:
    """The checked ``[journal]``; `TableConfig` carries its fields flat."""

    path: Path
    key: Path | None  # None: the journal's path + ".key"


def read_journal(check: Checker, doc: dict[str, Any], base: Path | None) -> JournalConfig:
    journal = check.section(doc, "journal", SCHEMA)
    path = Path(journal["path"]).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    key = Path(journal["key_file"]).expanduser() if journal["key_file"] else None
    if key is not None and base is not None and not key.is_absolute():
        key = base / key
    return JournalConfig(path, key)
