"""`tablectl journal`: what surveillance and the regulator ask of a table's journal.

- ``verify PATH``: check the hash chain; names the first bad row (exit 1) or says how many
  rows check out.
- ``export PATH [--round N] [--format jsonl|csv]``: every row, or one round's, to stdout.
- ``replay PATH``: rebuild the table from the journal, as the controller does after a power
  cut, and print the state it comes back in.
- ``last PATH [-n 10]``: last-game recall (GLI-24): each of the last rounds with its cards,
  wagers, settlements and violations.
"""

from __future__ import annotations

import argparse
import csv
import json
import queue
import sys
from pathlib import Path
from typing import Any, TextIO

from controller.app.config import rules_from_dict
from controller.app.games import BlackjackGame, Game, PokerGame
from controller.app.loop import TableLoop
from controller.blackjack.rules import Variants
from controller.errors import TableError
from controller.journal import Entry, Journal, JournalCorrupt, JournalError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    verify = sub.add_parser("verify", help="check the hash chain")
    verify.add_argument("path", type=Path)
    export = sub.add_parser("export", help="print the rows as JSON lines or CSV")
    export.add_argument("path", type=Path)
    export.add_argument("--round", type=int, default=None)
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    replay = sub.add_parser("replay", help="rebuild the table and print its state")
    replay.add_argument("path", type=Path)
    last = sub.add_parser("last", help="last-game recall: the last rounds")
    last.add_argument("path", type=Path)
    last.add_argument("-n", type=int, default=10, help="how many rounds (default 10)")


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        with Journal(args.path, readonly=True) as journal:
            command = args.journal_command
            if command == "verify":
                return _verify(journal, out)
            if command == "export":
                return _export(journal, args.round, args.format, out)
            if command == "replay":
                return _replay(journal, out)
            return _last(journal, args.n, out)
    except JournalError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2


def _verify(journal: Journal, out: TextIO) -> int:
    try:
        count = journal.verify()
    except JournalCorrupt as exc:
        print(f"BROKEN: {exc}", file=out)
        return 1
    print(f"ok: {count} rows, chain intact, last hash {journal.last_hash}", file=out)
    return 0


def _export(journal: Journal, round_no: int | None, fmt: str, out: TextIO) -> int:
    rows = (entry.as_dict() for entry in journal.entries(round=round_no))
    if fmt == "jsonl":
        for row in rows:
            print(json.dumps(row, sort_keys=True), file=out)
        return 0
    writer = csv.writer(out)
    fields = list(Entry.__dataclass_fields__)
    writer.writerow(fields)
    for row in rows:
        writer.writerow([json.dumps(row[f]) if f == "payload" else row[f] for f in fields])
    return 0


def game_of(journal: Journal) -> Game:
    """The game and rules the table last started with (its TableStarted row)."""
    started = None
    for entry in journal.entries():
        if entry.kind == "TableStarted":
            started = entry
    if started is None:
        raise JournalError("no TableStarted row: this journal does not say which game it is")
    rules = rules_from_dict(started.payload["game"], started.payload["rules"])
    if isinstance(rules, Variants):
        return BlackjackGame(rules)
    return PokerGame(rules)


def _replay(journal: Journal, out: TextIO) -> int:
    try:
        loop = TableLoop(game_of(journal), journal, queue.Queue())
    except TableError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2
    count = loop.replay()
    state = loop.snapshot()
    print(json.dumps({"events_replayed": count, **state}, indent=2, sort_keys=True), file=out)
    return 0


def _last(journal: Journal, n: int, out: TextIO) -> int:
    by_round: dict[int, list[Entry]] = {}
    for entry in journal.entries():
        if entry.round is not None:
            by_round.setdefault(entry.round, []).append(entry)
    for round_no in sorted(by_round)[-n:]:
        entries = by_round[round_no]
        cards = [e.payload["card"] for e in entries if e.kind == "CardDrawn"]
        print(f"round {round_no}: {entries[0].wall} .. {entries[-1].wall}", file=out)
        print(f"  cards: {' '.join(cards) or '-'}", file=out)
        for entry in entries:
            if entry.source == "controller" or entry.actor:
                who = f" by {entry.actor}" if entry.actor else ""
                print(f"  {entry.kind}{who}: {_brief(entry.payload)}", file=out)
    return 0


def _brief(payload: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in payload.items() if k != "source")
