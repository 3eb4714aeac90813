"""`tablectl journal reopen --config FILE --staff ID --reason TEXT`: a new journal, opened by
a supervisor.

A table whose journal does not check out does not play, and nothing in the controller
mends or deletes a journal. The way back is a new journal, opened by a supervisor who says
why, with the old one kept beside it:

1. the supervisor is identified by their ``[[staff]]`` id and PIN (read from the terminal
   without echo, or one line on stdin), with ``role = "supervisor"``;
2. the old journal is checked once more, to say what is wrong with it and where its last
   good row is (the row before the first one that does not check out);
3. every file of the old journal (the journal, its ``-wal`` and ``-shm``, its checkpoint
   and its key, and the rotated files of its set with theirs) is renamed, never deleted,
   to ``<journal>.refused-<UTC time>`` plus the file's own ending, so that
   ``tablectl journal verify <journal>.refused-<time>`` still finds its key and reads it
   as it was;
4. a new journal is created with a new key, and its first row, `JournalReopened`, names
   the old file, its last good head, what was wrong, who and why.

The same is how the journal key is rotated: a new journal (the reason says so). It is
also the way on for a journal behind its own pit cursor (rolled back: `tablectl run`
refuses it): the cursor file moves aside with the old journal, so the new journal starts
a cursor of its own and the pit is sent the new journal from its row 1 (the pit sees the
new journal, and says so).

Stop the table first (``systemctl stop tablectl``): the files must not be moved under a
running controller. A reopen takes the journal's lock (`journal.lock`) the running table
holds, and is refused, naming what runs, while it is held.
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import sys
from pathlib import Path
from typing import TextIO

from controller.app.cli.prompt import ask_hidden
from controller.app.config import TableConfig
from controller.app.pit.cursor import cursor_path
from controller.app.runtime.journal_files import (
    journal_files,
    key_path,
    open_journal,
    pit_cursor_problem,
    read_key,
)
from controller.errors import ConfigError
from controller.journal.fileset import set_files, verify_set
from controller.journal.lock import JournalInUse, JournalLock
from controller.journal.store import GENESIS, Head, Journal, JournalCorrupt, JournalError

MAX_REASON = 200


@dataclasses.dataclass(frozen=True, slots=True)
class JournalReopened:
    """The first row of a journal opened in place of one that was refused (or to rotate
    the key): the old file (renamed aside, kept), how far it checked out, what was wrong
    with it, the supervisor who opened this one and why."""

    old_file: str
    old_rows: int
    last_good_seq: int
    last_good_hash: str
    refused: str
    staff_id: str
    reason: str


def read_pin(stdin: TextIO) -> str:
    """The PIN: from the terminal without echo, or one line on stdin (scripts, tests)."""
    if stdin.isatty():
        return ask_hidden("supervisor PIN: ")
    return stdin.readline().rstrip("\n")


def check_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON or not reason.isprintable():
        raise ConfigError(f"--reason: say why, in 1 to {MAX_REASON} printable characters")
    return reason


def examine(path: Path, key_file: Path | None) -> tuple[int, Head, str]:
    """The old journal's row count, its last good head and what is wrong with it ("" when
    it checks out: a key rotation). A rotated journal is its set of files: the
    set is checked whole, the rows and the last good head are its live file's."""
    files = set_files(path)
    if not files:
        return 0, Head(0, GENESIS), "the journal is missing"
    live = files[-1]
    try:
        key = read_key(path, key_file)
        journal = Journal(live, key=key, readonly=True, check=False)
    except (ConfigError, JournalError) as exc:  # no key, an unkeyed or unreadable file
        return 0, Head(0, GENESIS), str(exc)
    with journal:
        rows = journal.last_seq
        problem = ""
        try:
            Journal(live, key=key, readonly=True).close()  # the start's own check
            verify_set(files, key)
            problem = pit_cursor_problem(path)
        except JournalError as exc:
            problem = str(exc)
        try:
            journal.verify(upto=journal.last_seq)  # the rows alone, without the checkpoint
            good = journal.head
        except JournalCorrupt as exc:
            seq = max(exc.seq - 1, 0)
            good = Head(seq, journal.row_hash_at(seq) or GENESIS)
        except JournalError:
            good = Head(0, GENESIS)
    return rows, good, problem


def set_aside(path: Path, key_file: Path | None, stamp: str) -> Path:
    """Rename every file of the journal, and its pit cursor, to
    ``<journal>.refused-<stamp>`` + its ending."""
    aside = path.with_name(f"{path.name}.refused-{stamp}")
    key = key_path(path, key_file)
    moved: list[str] = []
    cursor = cursor_path(path)
    cursors = [cursor, *(cursor.with_name(cursor.name + end) for end in ("-wal", "-shm"))]
    for item in [*journal_files(path, key_file), *(c for c in cursors if c.exists())]:
        if item == key:
            target = aside.with_name(aside.name + ".key")
        else:
            target = aside.with_name(aside.name + item.name.removeprefix(path.name))
        if target.exists():
            raise JournalError(f"{target} is already there: not moving {item} over it")
        try:
            os.rename(item, target)
        except OSError as exc:
            raise JournalError(
                f"cannot move {item} aside ({exc.strerror}); moved so far: "
                f"{', '.join(moved) or 'nothing'}"
            ) from exc
        moved.append(f"{item.name} -> {target.name}")
    return aside


def reopen(
    config: TableConfig,
    staff_id: str,
    reason: str,
    *,
    now: datetime.datetime | None = None,
) -> tuple[Path, JournalReopened]:
    """Set the journal aside and open a new one whose first row says so. The caller has
    identified ``staff_id`` as a supervisor."""
    path = config.journal_path
    lock = JournalLock(path).acquire("tablectl journal reopen")  # no table runs on it
    try:
        rows, good, problem = examine(path, config.journal_key)
        stamp = (now or datetime.datetime.now(datetime.UTC)).strftime("%Y%m%dT%H%M%SZ")
        aside = set_aside(path, config.journal_key, stamp)
        record = JournalReopened(
            old_file=str(aside),
            old_rows=rows,
            last_good_seq=good.seq,
            last_good_hash=good.hash,
            refused=problem or "nothing: it checked out (the key was rotated)",
            staff_id=staff_id,
            reason=reason,
        )
        with open_journal(path, key_file=config.journal_key, create=True) as journal:
            journal.record(record, source="supervisor", actor=staff_id)
            journal.checkpoint()
    finally:
        lock.release()
    return aside, record


def run_reopen(config: TableConfig, staff_id: str, reason: str, out: TextIO) -> int:
    from controller.app.console.supervisor import IdentityRefused, identify

    reason = check_reason(reason)
    try:  # before the PIN: a running table is named at once
        JournalLock(config.journal_path).acquire("tablectl journal reopen").release()
    except JournalInUse as exc:
        print(f"tablectl journal: reopen refused: {exc}", file=sys.stderr)
        return 1
    pin = read_pin(sys.stdin)
    try:
        member = identify(config, staff_id, pin, "supervisor")
    except IdentityRefused as exc:
        print(f"tablectl journal: reopen refused: {exc}", file=sys.stderr)
        return 1
    try:
        aside, record = reopen(config, member.id, reason)
    except JournalInUse as exc:
        print(f"tablectl journal: reopen refused: {exc}", file=sys.stderr)
        return 1
    print(
        f"kept the old journal as {aside} ({record.old_rows} rows, last good row "
        f"{record.last_good_seq}:{record.last_good_hash}; {record.refused})",
        file=out,
    )
    print(
        f"new journal {config.journal_path}, opened by {member.id}: {reason}",
        file=out,
    )
    return 0
