"""`tablectl journal`: what surveillance and the regulator ask of a table's journal.

Every action reads the journal's key (``PATH.key``, or ``--key-file``; readable by the
table's service user only, so run these as that user). ``PATH`` that is not there is
"no such journal: PATH" (exit 2).

- ``verify PATH [--head SEQ:HASH]``: the full check: SQLite's own check of each file (a
  damaged page or index), then every row of the keyed chain; names the first bad row (exit
  1) or says how many rows check out and the head (``SEQ:HASH``). With ``--head`` (a head
  seen earlier, e.g. on the pit), a journal that no longer reaches that row with that
  hash is refused: rows were cut off the end, or the end was rewritten.
- ``export PATH [--round N] [--format jsonl|csv]``: every row (checked first), or one
  round's, to stdout; CSV has a column per payload field.
- ``replay PATH [--json]``: rebuild the table from the journal, as the controller does after
  a power cut, and summarise the state it comes back in (``--json``: all of it).
- ``last PATH [-n 10]``: last-game recall (GLI-24): each of the last rounds with its cards,
  wagers, settlements and violations.
- ``dealers PATH [--json]``: which dealer (signed in at the console) dealt which rounds.
- ``reopen --config FILE --staff ID --reason TEXT``: a supervisor (PIN from the terminal,
  or a line on stdin) opens a new journal for a table whose journal was refused, keeping
  the old one beside it (`controller.app.cli.journal_reopen`); also how the key is rotated.

``last``, ``export --round``, ``replay`` and ``dealers`` check the journal as the table's
start does, from its authenticated checkpoint, and every row they read as they read it
(`controller.journal.reads`): on a long journal they take as long as what they show,
not the whole chain. ``--full`` checks every row first, as ``verify`` does. A journal that
does not check out is refused with one line naming the first bad row (exit 1), and
nothing of it is printed. Long work shows a progress bar when stderr is a terminal
(`controller.app.cli.progress`).
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from controller import game as games
from controller.app.cli.progress import progress_bar
from controller.app.config import rules_from_dict
from controller.app.runtime import snapshots
from controller.app.runtime.journal_files import read_key
from controller.app.runtime.loop import TableLoop
from controller.errors import TableError
from controller.game.arguments import at_least
from controller.game.table import TableGame
from controller.journal.dealers import list_dealers
from controller.journal.fileset import (
    ARCHIVE_SUFFIX,
    entries,
    first_seq_of,
    is_member,
    read_file,
    set_files,
    verify_set,
)
from controller.journal.reads import SetRows, integrity_problem
from controller.journal.store import Entry, Head, JournalCorrupt, JournalError
from controller.journal.views import brief, replay_summary, write_csv
from controller.rating import RatingSettings, settings_from_json


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    verify = sub.add_parser("verify", help="check the keyed hash chain and the SQLite file")
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
    export.add_argument("--round", type=at_least(1), default=None, help="one round's rows")
    export.add_argument("--format", choices=("jsonl", "csv"), default="jsonl")
    replay = sub.add_parser("replay", help="rebuild the table and print its state")
    replay.add_argument("path", type=Path)
    replay.add_argument("--json", action="store_true", help="the whole state as JSON")
    last = sub.add_parser("last", help="last-game recall: the last rounds")
    last.add_argument("path", type=Path)
    last.add_argument("-n", type=at_least(1), default=10, help="how many rounds (default 10)")
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
    for action in (export, replay, last, dealers):
        action.add_argument(
            "--full", action="store_true", help="check every row first, as verify does"
        )


def _head(text: str) -> Head:
    try:
        return Head.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.journal_command == "reopen":  # controller/app/cli/journal_reopen.py
        return _reopen(args, out)
    files: list[Path] = []
    key = b""
    quiet = getattr(args, "json", False)  # --json: nothing on stderr but a refusal
    try:
        files, key = _files(args.path, getattr(args, "key_file", None),
                            getattr(args, "archive", None))  # fmt: skip
        command = args.journal_command
        if command == "verify":
            return _verify(files, key, args.head, out)
        if getattr(args, "full", False) or (command == "export" and args.round is None):
            _full_check(files, key, quiet=quiet)  # a whole export reads every row: first
        with SetRows(files, key) as reader:
            if command == "export":
                return _export(reader, args, out)
            if command == "replay":
                return _replay(reader, out, as_json=quiet)
            if command == "dealers":  # controller/journal/dealers.py
                return list_dealers(_every_row(reader, quiet=quiet), out, as_json=quiet)
            return _last(reader, args.n, out)
    except JournalCorrupt as exc:  # a changed row, a forged checkpoint, an unkeyed journal
        if files and not isinstance(exc, FirstBreak):
            exc = _first_break(files, key, exc, quiet)
        print(f"tablectl journal: {args.path}: {exc}", file=sys.stderr)
        return 1
    except TableError as exc:  # no journal, no key (ConfigError), an unreadable file
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2


class FirstBreak(JournalCorrupt):
    """The full check's finding: the first row that does not check out."""


def _full_check(
    files: list[Path], key: bytes, head: Head | None = None, *, quiet: bool = False
) -> Any:
    """Every row of every file (`verify_set`), a bar on a terminal; `FirstBreak` if not."""
    rows = _rows_in(files, key)
    with progress_bar(rows, "checking the journal", "rows", quiet=quiet) as bar:
        try:
            return verify_set(files, key, head=head, pace=lambda: bar.update(1000))
        except JournalCorrupt as exc:
            raise FirstBreak(exc.seq, exc.reason) from None


def _first_break(
    files: list[Path], key: bytes, found: JournalCorrupt, quiet: bool
) -> JournalCorrupt:
    """What a read found broken, as the first row of the set that does not check out (the
    full check names it), else as found."""
    try:
        _full_check(files, key, quiet=quiet)
    except JournalCorrupt as exc:
        return exc
    except JournalError:  # the full check cannot read it: say what the read found
        return found
    return found


def _rows_in(files: list[Path], key: bytes) -> int:
    """About how many rows the files hold (for a progress bar): by their names and the
    last row of the last one."""
    with read_file(files[-1], key) as live:
        return max(live.last_seq - first_seq_of(files[0]) + 1, 0)


def _files(path: Path, key_file: Path | None, archive: Path | None) -> tuple[list[Path], bytes]:
    """The files a command reads: a set's own name (``journal.sqlite``) is every file of
    the set at the table, and with ``--archive DIR`` the archived ones before them; a
    rotated file's or an archive's name is that file alone."""
    if is_member(path):
        if not path.exists():
            raise JournalError(f"no such journal: {path}")
        return [path], read_key(path, key_file)
    files = set_files(path)
    if archive is not None:
        begins = first_seq_of(files[0]) if files else None
        archived = sorted(archive.glob(f"{path.name}.*{ARCHIVE_SUFFIX}"), key=first_seq_of)
        files = [a for a in archived if begins is None or first_seq_of(a) < begins] + files
    if not files:
        raise JournalError(f"no such journal: {path}")
    return files, read_key(path, key_file)


def _reopen(args: argparse.Namespace, out: TextIO) -> int:
    from controller.app.cli.journal_reopen import run_reopen
    from controller.app.config import load_config

    try:
        return run_reopen(load_config(args.config), args.staff, args.reason, out)
    except TableError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2


def _verify(files: list[Path], key: bytes, head: Head | None, out: TextIO) -> int:
    """A whole set: SQLite's own check of each file (a damaged page or index, which the
    table's start refuses), then the keyed chain of each file, and each beginning where
    the one before it ends; a break is named by its file and row."""
    for path in files:
        problem = integrity_problem(path, key)
        if problem is not None:
            print(f"BROKEN: {path.name}: SQLite's check of the file fails: {problem}", file=out)
            return 1
    try:
        report = _full_check(files, key, head)
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


def _export(reader: SetRows, args: argparse.Namespace, out: TextIO) -> int:
    """One round's rows (those rows read and checked, and the rows either side of them),
    or every row (checked first, `_full_check`), as JSON lines or CSV."""
    rows: Iterable[Entry]
    if args.round is None:
        fields = set()
        if args.format == "csv":
            fields = reader.payload_fields(reader.first_seq, reader.last_seq)
        rows = _counted(entries(reader.files, reader.key), reader, "exporting")
    else:
        span = reader.round_span(args.round)
        if span is None:
            print(f"tablectl journal: no row of round {args.round} in {args.path}",
                  file=sys.stderr)  # fmt: skip
            return 1
        rows = [e for e in reader.rows(*span) if e.round == args.round]
        fields = {name for e in rows for name in e.payload}
    if args.format == "csv":
        write_csv(rows, fields, out)
        return 0
    for entry in rows:
        print(json.dumps(entry.as_dict(), sort_keys=True), file=out)
    return 0


def _counted(rows: Iterable[Entry], reader: SetRows, what: str) -> Iterable[Entry]:
    total = reader.last_seq - reader.first_seq + 1
    with progress_bar(total, what, "rows") as bar:
        for count, entry in enumerate(rows, 1):
            if count % 1000 == 0:
                bar.update(1000)
            yield entry


def _every_row(reader: SetRows, *, quiet: bool) -> Iterable[Entry]:
    total = reader.last_seq - reader.first_seq + 1
    with progress_bar(total, "reading the journal", "rows", quiet=quiet) as bar:
        yield from reader.rows(reader.first_seq, progress=bar.update)


class _Replaying:
    """The set as a replay reads it, the rows after the snapshot counted on a bar."""

    def __init__(self, reader: SetRows, quiet: bool) -> None:
        self.reader = reader
        self.quiet = quiet

    def last_authentic(self, kind: str) -> Entry | None:
        return self.reader.last_authentic(kind)

    def entries(self, *, since: int = 0) -> Iterable[Entry]:
        first = max(since + 1, self.reader.first_seq)
        total = self.reader.last_seq - first + 1
        with progress_bar(total, "replaying", "rows", quiet=self.quiet) as bar:
            yield from self.reader.rows(first, progress=bar.update)


def _replay(reader: SetRows, out: TextIO, *, as_json: bool) -> int:
    """As the table comes back: from the last snapshot (if this code can use it) and the
    rows after it, else every row of the files given; a summary, or the state as JSON."""
    try:
        started = reader.last_authentic("TableStarted")
        if started is None:
            raise JournalError("no TableStarted row: this journal does not say which game it is")
        rules = game_rules(started)
        game = games.spec(started.payload["game"]).make(rules)
        rating = RatingSettings()
        if isinstance(game, TableGame) and started.payload.get("rating"):
            try:
                rating = settings_from_json(started.payload["rating"])
            except (TypeError, ValueError) as exc:
                raise JournalError(f"its TableStarted row's rating settings: {exc}") from None
            game.rate(rating)  # rated as it was
        under = snapshots.taken_under(rules, rating)
        loop = TableLoop(game, reader.live, queue.Queue(), rules=under)
    except TableError as exc:
        print(f"tablectl journal: {exc}", file=sys.stderr)
        return 2
    count = loop.replay(_Replaying(reader, quiet=as_json))
    state = loop.snapshot()
    if not as_json:
        print("\n".join(replay_summary(state, count, loop.restored_from)), file=out)
        return 0
    state["restored_from_snapshot"] = loop.restored_from
    print(json.dumps({"events_replayed": count, **state}, indent=2, sort_keys=True), file=out)
    return 0


def game_rules(started: Entry) -> Any:
    return rules_from_dict(started.payload["game"], started.payload["rules"])


def _last(reader: SetRows, n: int, out: TextIO) -> int:
    """The last ``n`` rounds: only their rows (and those after them) are read."""
    rounds = reader.last_rounds(n)
    first = reader.first_row_from(rounds[0]) if rounds else None
    if first is None:
        print("no rounds in this journal", file=out)
        return 0
    by_round: dict[int, list[Entry]] = {r: [] for r in rounds}
    for entry in reader.rows(first):
        if entry.round in by_round:
            by_round[entry.round].append(entry)
    for round_no, rows in by_round.items():
        if not rows:
            continue
        cards = [e.payload["card"] for e in rows if e.kind == "CardDrawn"]
        print(f"round {round_no}: {rows[0].wall} .. {rows[-1].wall}", file=out)
        print(f"  cards: {' '.join(cards) or '-'}", file=out)
        for entry in rows:
            if entry.source == "controller" or entry.actor:
                who = f" by {entry.actor}" if entry.actor else ""
                print(f"  {entry.kind}{who}: {brief(entry)}", file=out)
    return 0
