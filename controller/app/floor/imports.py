"""`tablectl pit --import-journal TABLE=FILE --site SITE`: a table's journal export into the
pit's store. A lost store takes the shift's rows with it, and the broker keeps
no event to rebuild them from; the tables' journals keep every row, so a table's `tablectl
journal export` put here gives the figures and the alarm log back (then set the shift's
start on the page)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from controller import game as games
from controller.app.floor.store import PitStore
from controller.app.pit.privacy import Marks, public_payload
from controller.errors import ConfigError, TableError


def import_journal(store: PitStore, site: str, table: str, lines: Iterable[str]) -> int:
    """A table's journal, as `tablectl journal export` writes it, into the pit's store: the
    rows the figures and the alarm log are made of (each once, as if it had been published:
    a private game's cards withheld as on the public topic, `public_payload`). Returns how many
    rows were new. Each row goes through the pit's witness (`floor.witness`), as a published
    one does: a row at a seq the pit witnessed with another hash is not kept."""
    added, marks = 0, None  # a private game's marks, from its TableStarted row on
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            kind = row["kind"]
        except (ValueError, KeyError, TypeError) as exc:
            raise ConfigError(f"line {number}: not a journal export row ({exc})") from exc
        if kind == "TableStarted":
            spec = games.spec(str(row["payload"].get("game")))
            marks = Marks.for_game(spec) if spec.private_cards else None
        payload = row.get("payload")
        if marks is not None:
            payload = public_payload(marks, kind, payload, json.dumps(payload), {})
        added += store.take_row(site, table, {**row, "payload": payload})[1]
    return added


def import_journals(args: argparse.Namespace, out: TextIO) -> int:
    if not args.site:
        print("tablectl pit: --import-journal needs the tables' --site", file=sys.stderr)
        return 2
    store = PitStore(Path(args.store))
    try:
        for item in args.import_journal:
            table, _, name = str(item).partition("=")
            if not table or not name:
                raise ConfigError(f"--import-journal {item}: expected TABLE=FILE")
            with open(name, encoding="utf-8") as lines:
                added = import_journal(store, args.site, table, lines)
            print(f"{table}: {added} rows kept from {name}", file=out)
    except (TableError, OSError) as exc:
        print(f"tablectl pit: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    return 0
