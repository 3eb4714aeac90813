"""`tablectl journal`: what surveillance and the regulator ask of a table's journal.

Every action reads the journal's key (``PATH.key``, or ``--key-file``; readable by the
table's service user only, so run these as that user) and checks the whole keyed chain
first: a journal that does not check out is refused with one line naming the row (exit
1), and nothing of it is printed.

- ``verify PATH [--head SEQ:HASH]``: check the keyed chain; names the first bad row (exit
  1) or says how many rows check out and the head (``SEQ:HASH``). With ``--head`` (a head
  seen earlier, e.g. on the pit), a journal that no longer reaches that row with that
  hash is refused: rows were cut off the end, or the end was rewritten.
- ``export PATH [--round N] [--format jsonl|csv]``: every row, or one round's, to stdout.
- ``replay PATH``: rebuild the table from the journal, as the controller does after a power
  cut, and print the state it comes back in.
- ``last PATH [-n 10]``: last-game recall (GLI-24): each of the last rounds with its cards,
  wagers, settlements and violations.
- ``dealers PATH [--json]``: which dealer (signed in at the console) dealt which rounds.
- ``reopen --config FILE --staff ID --reason TEXT``: a supervisor (PIN from the terminal,
  or a line on stdin) opens a new journal for a table whose journal was refused, keeping
  the old one beside it (`controller.app.journal_reopen`); also how the key is rotated.
"""

from __future__ import annotations

import argparse
import csv
import json
import queue
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from controller import game as games
from controller.app.config import rules_from_dict
from controller.app.journal_dealers import list_dealers
from controller.app.journal_files import read_key
from controller.app.loop import TableLoop
from controller.errors import TableError
from controller.game import Game
from controller.journal import Entry, Head, Journal, JournalCorrupt, JournalError
from controller.journal_set import (
    ARCHIVE_SUFFIX,
    SetReader,
    entries,
    first_seq_of,
    is_member,
    read_file,
    set_files,
    verify_set,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    verify = sub.add_parser("verify", help="check the keyed hash chain")
    verify.add_argument("path", type=Path)
    verify.add_argument(
        "--archive",
        type=Path,
        default=None,
        metavar="DIR",
        help="also the set's archived files in DIR ([journal] archive_dir), oldest first",
    )
    verify.add_argument(
        "--head",
        type=_head,
        default=None,
        metavar="SEQ:HASH",
        help="a head seen earlier (the pit shows it): the journal must still reach it",
    )
    export = sub.add_parser("export", help="print the rows as JSON lines or CSV")
    export.add_argument("path", type=Path)
    export.add_argument("--round", type=int, default=None)
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    replay = sub.add_parser("replay", help="rebuild the table and print its state")
    replay.add_argument("path", type=Path)
    last = sub.add_parser("last", help="last-game recall: the last rounds")
    last.add_argument("path", type=Path)
    last.add_argument("-n", type=int, default=10, help="how many rounds (default 10)")
    dealers = sub.add_parser("dealers", help="which dealer dealt which rounds")
    dealers.add_argument("path", type=Path)
    dealers.add_argument("--json", action="store_true", help="as JSON: each stretch on duty")
    reopen = sub.add_parser(
        "reopen", help="a supervisor opens a new journal, keeping the refused one beside it"
    )
    reopen.add_argument("--config", required=True, type=Path, help="the table config (TOML)")
    reopen.add_argument("--staff", required=True, help="the supervisor's [[staff]] id")
    reopen.add_argument("--reason", required=True, help="why (journaled in the new journal)")
    for action in (verify, export, replay, last, dealers):
        action.add_argument(
            "--key-file",
            type=Path,
            default=None,
            help="the journal's key (default: PATH.key)",
        )


def _head(text: str) -> Head:
    try:
        return Head.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.journal_command == "reopen":  # controller/app/journal_reopen.py
        return _reopen(args, out)
    try:
        files, key = _files(args.path, getattr(args, "key_file", None),
                            getattr(args, "archive", None))  # fmt: skip
        command = args.journal_command
        if command == "verify":
            return _verify(files, key, getattr(args, "head", None), out)
        try:
            verify_set(files, key)
        except JournalCorrupt as exc:
            print(f"tablectl journal: {args.path}: {exc}", file=sys.stderr)
            return 1
        rows = entries(files, key)
        if command == "export":
            return _export(rows, args.round, args.format, out)
        if command == "replay":
            with read_file(files[-1], key) as live:
                return _replay(live, SetReader(files, key), out)
        if command == "dealers":  # controller/app/journal_dealers.py
            return list_dealers(rows, out, as_json=args.json)
        return _last(rows, args.n, out)
    except JournalCorrupt as exc:  # a forged checkpoint, an unkeyed journal
        print(f"tablectl journal: {args.path}: {exc}", file=sys.stderr)
        return 1
    except TableError as exc:  # no journal, no key (ConfigError), an unreadable file
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2


def _files(path: Path, key_file: Path | None, archive: Path | None) -> tuple[list[Path], bytes]:
    """The files a command reads: a set's own name (``journal.sqlite``) is every file of
    the set at the table, and with ``--archive DIR`` the archived ones before them; a
    rotated file's or an archive's name is that file alone (issue 16)."""
    key = read_key(path, key_file)
    if is_member(path):
        if not path.exists():
            raise JournalError(f"no journal at {path}")
        return [path], key
    files = set_files(path)
    if archive is not None:
        begins = first_seq_of(files[0]) if files else None
        archived = sorted(archive.glob(f"{path.name}.*{ARCHIVE_SUFFIX}"), key=first_seq_of)
        files = [a for a in archived if begins is None or first_seq_of(a) < begins] + files
    if not files:
        raise JournalError(f"no journal at {path}")
    return files, key


def _reopen(args: argparse.Namespace, out: TextIO) -> int:
    from controller.app.config import load_config
    from controller.app.journal_reopen import run_reopen

    try:
        return run_reopen(load_config(args.config), args.staff, args.reason, out)
    except TableError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2


def _verify(files: list[Path], key: bytes, head: Head | None, out: TextIO) -> int:
    """A whole set: each file, and each beginning where the one before it ends; a break
    is named by its file and row."""
    try:
        report = verify_set(files, key, head=head)
    except JournalCorrupt as exc:
        print(f"BROKEN: {exc}", file=out)
        return 1
    reaches = f", reaches the head given (row {head.seq})" if head is not None else ""
    spread = "" if report.files == 1 else f" in {report.files} files, chained across them"
    begins = (
        f" (rows 1-{report.first - 1} are not among these files: archived, --archive DIR)"
        if report.first > 1
        else ""
    )
    print(f"ok: {report.rows} rows{spread}, keyed chain intact{reaches}, head {report.head}"
          f"{begins}", file=out)  # fmt: skip
    return 0


def _export(found: Iterable[Entry], round_no: int | None, fmt: str, out: TextIO) -> int:
    rows = (e.as_dict() for e in found if round_no is None or e.round == round_no)
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


def game_of(rows: Iterable[Entry]) -> Game:
    """The game and rules the table last started with (its TableStarted row)."""
    started = None
    for entry in rows:
        if entry.kind == "TableStarted":
            started = entry
    if started is None:
        raise JournalError("no TableStarted row: this journal does not say which game it is")
    name = started.payload["game"]
    return games.spec(name).make(rules_from_dict(name, started.payload["rules"]))


def _replay(live: Journal, history: SetReader, out: TextIO) -> int:
    """As the table comes back: from the last snapshot in the live file (if this code can
    use it) and the rows after it, else every row of the files given."""
    try:
        game = game_of(history.entries())
        started = [e for e in history.entries() if e.kind == "TableStarted"][-1]
        loop = TableLoop(game, live, queue.Queue(), rules=game_rules(started))
    except TableError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2
    count = loop.replay(history)
    state = loop.snapshot()
    state["restored_from_snapshot"] = loop.restored_from
    print(json.dumps({"events_replayed": count, **state}, indent=2, sort_keys=True), file=out)
    return 0


def game_rules(started: Entry) -> Any:
    return rules_from_dict(started.payload["game"], started.payload["rules"])


def _last(rows: Iterable[Entry], n: int, out: TextIO) -> int:
    by_round: dict[int, list[Entry]] = {}
    for entry in rows:
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
