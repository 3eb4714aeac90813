"""A table's journal files, opened together: the journal, its key, its checkpoint.

``controller.journal.store`` takes the key as bytes; this module finds it. The key is 32 random
bytes in a file only the service can read (`controller.app.secrets`), named by
``[journal] key_file`` in the config, by default the journal's path + ``.key``.

- A **new** journal (no file yet) gets its key with it: the key file is created then,
  unless ``tablectl secrets`` made it at install (`create_journal_key`), in which case
  that one is used.
- An **existing** journal whose key is missing is refused: its rows cannot be checked, so
  the table must not trust them. So is one whose checkpoint is there but whose journal is
  gone (the journal was moved or deleted, not started afresh).
- Opening checks the journal (`controller.journal.store.Journal.check`): a journal that does not
  check out raises `JournalCorrupt` naming the row, and is left as it is.
- `BackgroundCheck`: after a start that checked only the rows after the checkpoint, the
  rows before it are checked in the background, on a read-only connection of their own.

Every refusal is one line: a `ConfigError` naming the key file, or a `JournalError` /
`JournalCorrupt` naming the journal or its row.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from controller.app.config import TableConfig
from controller.app.secrets import create_secret, read_secret
from controller.errors import ConfigError
from controller.journal.fileset import SetReader, base_of, live_path, open_live, set_files
from controller.journal.store import (
    Entry,
    Head,
    Journal,
    JournalCorrupt,
    JournalError,
    checkpoint_path,
)

log = logging.getLogger(__name__)

KEY_WHAT = "the journal key"


def key_path(journal: Path, key_file: Path | None = None) -> Path:
    """The key file: the one named, else the journal's path + ``.key`` (one key for the
    whole set of files: a rotated file's is its set's, `controller.journal.fileset`)."""
    if key_file is not None:
        return key_file
    base = base_of(journal)
    return base.with_name(base.name + ".key")


def journal_key_path(config: TableConfig) -> Path:
    return key_path(config.journal_path, config.journal_key)


def journal_files(journal: Path, key_file: Path | None = None) -> list[Path]:
    """Every file that belongs to a journal (those that exist): what is kept together,
    the rotated files of its set included."""
    names = [
        item
        for member in [journal, *(p for p in set_files(journal) if p != journal)]
        for item in (
            member,
            member.with_name(member.name + "-wal"),
            member.with_name(member.name + "-shm"),
            checkpoint_path(member),
        )
    ]
    names.append(key_path(journal, key_file))
    return [p for p in names if p.exists()]


def create_journal_key(config: TableConfig) -> Path:
    """For ``tablectl secrets``: make the journal key of a table whose journal is not yet
    there (at install). Refuses when the journal exists (a new key cannot check its rows:
    rotating the key means a new journal, ``tablectl journal reopen``) or the key does."""
    path = journal_key_path(config)
    if config.journal_path.exists():
        raise ConfigError(
            f"{path}: the journal {config.journal_path} already exists, and a new key could "
            "not check it (a new key comes with a new journal: tablectl journal reopen)"
        )
    create_secret(path)
    return path


def read_key(journal: Path, key_file: Path | None = None) -> bytes:
    """The key of an existing journal; a `ConfigError` naming the file if it is missing
    (the journal cannot be checked without it), unreadable, malformed or open to others."""
    path = key_path(journal, key_file)
    if not path.exists():
        raise ConfigError(
            f"{path}: the key of the journal {journal} is missing, so the journal cannot be "
            "checked and is not used (a new journal: tablectl journal reopen)"
        )
    return read_secret(path, KEY_WHAT)


def open_journal(
    journal: Path,
    *,
    key_file: Path | None = None,
    readonly: bool = False,
    create: bool = False,
    check: bool = True,
    head: Head | None = None,
) -> Journal:
    """Open (and check) a journal with its key; with ``create``, a new journal and its key
    where there is none."""
    if journal.exists():
        key = read_key(journal, key_file)
    elif not create or readonly:
        raise JournalError(f"no journal at {journal}")
    else:
        marker = checkpoint_path(journal)
        if marker.exists():
            raise JournalError(
                f"no journal at {journal}, but its checkpoint {marker.name} is there: the "
                "journal was moved or deleted (put it back, or open a new one with "
                "tablectl journal reopen)"
            )
        path = key_path(journal, key_file)
        key = read_secret(path, KEY_WHAT) if path.exists() else create_secret(path)
    return Journal(journal, key=key, readonly=readonly, check=check, head=head)


def open_table_journal(config: TableConfig) -> Journal:
    """The running table's journal, the live file of its set (`controller.journal.fileset`):
    created with its key when new, checked when not. A journal that does not check out is
    refused in one line that names the row and says what happens next."""
    base = config.journal_path
    try:
        if live_path(base) != base:  # rotated: the set's last file, a rotation finished
            return open_live(base, read_key(base, config.journal_key))
        return open_journal(base, key_file=config.journal_key, create=True)
    except JournalCorrupt as exc:
        raise JournalCorrupt(
            exc.seq, f"{exc.reason}; {REFUSED.format(config.journal_path)}"
        ) from None


def pit_cursor_problem(path: Path) -> str:
    """'' when the journal (its set, read only) is not behind its own pit cursor
    (`pit_cursor.behind_cursor`), else what is wrong, in words. A journal that cannot be
    read is left to the journal's own check; a cursor file that cannot be read says so."""
    import sqlite3

    from controller.app.pit.cursor import acknowledged, behind_cursor
    from controller.app.pit.reader import JournalReader

    if not set_files(path):
        return ""  # a new journal
    try:
        reader = JournalReader(path)
        try:
            first, last = reader.first_hash(), reader.last_seq()
        finally:
            reader.close()
    except sqlite3.Error:
        return ""  # not a journal that opens: its own check says why
    try:
        acked = acknowledged(path, first)
    except sqlite3.Error as exc:
        return f"its pit cursor cannot be read ({exc})"
    return behind_cursor(last, acked, path)


def check_pit_cursor(config: TableConfig) -> None:
    """Refuse a journal whose last row is behind its own pit cursor: the pit's broker
    acknowledged rows this journal no longer has, so it was rolled back (docs/security.md,
    "The journal"). Checked before the journal is opened for writing; one line naming
    both rows; the files are left as they are."""
    problem = pit_cursor_problem(config.journal_path)
    if problem:
        raise JournalError(f"{problem}; {REFUSED.format(config.journal_path)}")


class TableHistory(SetReader):
    """The table's set of files at the table, as its start replays it: the last snapshot
    in the newest file that has one; a replay of every row refused (before a row is
    applied) when the set no longer begins at row 1 because older files went to the
    archive."""

    def __init__(self, config: TableConfig) -> None:
        self.base = config.journal_path
        super().__init__(set_files(self.base), read_key(self.base, config.journal_key))

    def entries(self, *, since: int = 0) -> Iterator[Entry]:
        if since == 0 and self.files:
            with Journal(self.files[0], key=self._key, readonly=True, check=False) as first:
                begins = first.origin().seq + 1
            if begins != 1:
                raise JournalError(
                    f"the table cannot come back: it has no snapshot it can use (see the log "
                    f"line before this) and rows 1-{begins - 1} are in the archive, not at "
                    f"the table; put those files back beside {self.base.name} "
                    "(docs/install.md, 'Reading an archived day') and start again"
                )
        return super().entries(since=since)


REFUSED = (
    "the table does not play on it, and {} is left as it is (a supervisor opens a new "
    "journal: tablectl journal reopen)"
)


class BackgroundCheck:
    """The full check of the rows an incremental start-up check took on trust (those up to
    the checkpoint), on a thread and a read-only connection of its own. A broken row calls
    ``on_broken(exc)`` (the table stops); a check that cannot run is logged.

    It yields the interpreter every few dozen rows, so that the controller thread is not
    kept waiting for the GIL while a card comes in."""

    PACE_ROWS = 64  # about half a millisecond of work between yields (x86)

    def __init__(
        self,
        journal: Journal,
        key_file: Path | None,
        on_broken: Callable[[JournalCorrupt], None],
    ) -> None:
        self.path = journal.path
        self.key_file = key_file
        self.upto = (journal.checked_from or 0) + 1  # the checkpoint's row
        self.on_broken = on_broken
        self.rows = 0
        self.seconds = 0.0
        self.done = threading.Event()
        self.error: JournalError | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-check", daemon=True)

    def start(self) -> BackgroundCheck:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _pace(self) -> None:
        if self._stop.is_set():
            raise _Stopped
        time.sleep(0)

    def _run(self) -> None:
        started = time.monotonic()
        try:
            journal = open_journal(self.path, key_file=self.key_file, readonly=True, check=False)
            try:
                self.rows = journal.verify(
                    upto=self.upto, pace=self._pace, pace_rows=self.PACE_ROWS
                )
            finally:
                journal.close()
            self.seconds = time.monotonic() - started
            log.info("journal: rows 1-%d checked in the background in %.1f s", self.upto,
                     self.seconds)  # fmt: skip
        except _Stopped:
            pass
        except JournalCorrupt as exc:
            self.error = exc
            log.critical("the journal's full check found a broken row: %s", exc)
            self.on_broken(exc)
        except (JournalError, ConfigError) as exc:
            log.error("the journal's background check could not run: %s", exc)
        finally:
            self.done.set()


class _Stopped(Exception):
    """The table is stopping: the background check gives up."""
