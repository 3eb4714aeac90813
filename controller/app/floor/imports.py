"""`tablectl pit --import-journal TABLE=FILE --site SITE`: a table's journal export into the
pit's store. A lost store takes the shift's rows with it, and the broker keeps
no event to rebuild them from; the tables' journals keep every row, so a table's `tablectl
journal export` put here gives the figures and the alarm log back (then set the shift's
start on the page), and the players' ratings, checked as on their topic (the retention
erases the names of those that ended long ago at the view's start)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from controller import game as games
from controller.app.floor.ratings import refusal
from controller.app.floor.store import PitStore
from controller.app.pit.players import RATING_KINDS
from controller.app.pit.privacy import Marks, public_payload
from controller.errors import ConfigError, TableError

log = logging.getLogger(__name__)

ROW_FIELDS = ("seq", "wall", "round", "source", "kind", "payload", "actor", "hash")


def import_rating(store: PitStore, site: str, table: str, row: dict[str, Any]) -> int:
    """A rating row of a journal export, as the floor view takes one from the table's
    ``restricted/rating`` topic (`floor.ratings.refusal`, the witness, the ratings): 1 if
    it was new, 0 if it was kept already or refused (one log line)."""
    body = {"v": 1, "table": table, "site": site, **{k: row.get(k) for k in ROW_FIELDS}}
    body["redacted"] = []
    problem = refusal(body)
    if problem:
        log.warning("table %s/%s: refused rating row %s of the export: %s",
                    site, table, repr(row.get("seq"))[:24], problem)  # fmt: skip
        return 0
    seen, _ = store.take_row(site, table, body)
    if seen is not None and not seen.kept:
        return 0  # a row of a rewritten journal
    store.ratings.take(site, table, body)  # each row once, by its hash
    return 1 if seen is None or seen.counts else 0


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
        if kind in RATING_KINDS:
            added += import_rating(store, site, table, row)
            continue
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
