"""Sealed journal files to the archive, then off the table, so its disk never fills.

A file rotation sealed is never written again. With ``[journal] archive_dir`` set, a
thread of its own (`Archiver`) takes each sealed file, oldest first, through these steps,
and stops at the first that does not pass:

1. **verify**: the file's whole chain under the key, and that the next file begins where
   it ends (`controller.journal.fileset.verify_set` over the two): a broken file is never
   archived or deleted; it stays where it is, and the table stops as it does for a broken
   row the background check finds (`JournalBroken`, then a supervisor's reopen);
2. **archive**: a consistent copy (SQLite's backup API, so a ``-wal`` still beside it is
   folded in) compressed with xz to ``<archive_dir>/<journal>.<first seq>.xz``, written
   under a temporary name, fsynced, renamed, the folder fsynced; then read back from the
   archive and verified again, and its last row must be the file's;
3. **keep the last rounds** (GLI-24's last-game recall): the file is deleted from the table
   only if the files after it still hold at least ``keep_rounds`` (10 or more) whole
   rounds besides the one being played;
4. **keep what the pit has not acknowledged**: on a table with a pit feed, the file is
   deleted only once the pit's broker has acknowledged its last row (the publisher's
   durable cursor, `pit.cursor`): until then the rows the pit is still to be sent stay
   where the publisher reads them;
5. **delete** the file and its ``-wal``, ``-shm`` and checkpoint.

Never before: a file is deleted only after it verified and its archive verified. The key
is not copied to the archive (whoever reads the archive must not be able to forge it):
reading an archived day takes the key file (docs/install.md, "Reading an archived day").
"""

from __future__ import annotations

import logging
import lzma
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from controller.app.config.journal import JournalKeeping
from controller.file_modes import open_private
from controller.journal.fileset import (
    ARCHIVE_SUFFIX,
    read_file,
    segment_path,
    set_files,
    sync_folder,
    verify_set,
)
from controller.journal.store import Journal, JournalCorrupt, JournalError, checkpoint_path

log = logging.getLogger(__name__)


def archive_path(folder: Path, base: Path, first_seq: int) -> Path:
    return folder / (segment_path(base, first_seq).name + ARCHIVE_SUFFIX)


def _rounds(path: Path, key: bytes) -> set[int]:
    with Journal(path, key=key, readonly=True, check=False) as journal:
        return set(journal.rounds())


def write_archive(path: Path, target: Path) -> None:
    """A consistent copy of ``path``, xz-compressed to ``target`` (by rename, fsynced)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tablectl-archive-") as folder:
        plain = Path(folder) / path.name
        try:
            source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
            copy = sqlite3.connect(plain)
            try:
                source.backup(copy)
            finally:
                copy.close()
                source.close()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot copy {path} for the archive: {exc}") from exc
        partial = target.with_name(target.name + ".partial")
        try:
            with (
                plain.open("rb") as src,
                os.fdopen(open_private(partial), "wb") as raw,  # 0640: it holds the cards
                lzma.open(raw, "wb", preset=6) as dst,
            ):
                while chunk := src.read(1 << 20):
                    dst.write(chunk)
            with partial.open("rb") as done:
                os.fsync(done.fileno())
            os.replace(partial, target)
            sync_folder(target.parent, strict=True)
        except OSError as exc:
            raise JournalError(f"cannot write the archive {target}: {exc}") from exc


def _delete(path: Path) -> None:
    for item in (
        path,
        path.with_name(path.name + "-wal"),
        path.with_name(path.name + "-shm"),
        checkpoint_path(path),
    ):
        item.unlink(missing_ok=True)


def archive_sealed(
    base: Path,
    key: bytes,
    keeping: JournalKeeping,
    acknowledged: Callable[[], int] | None = None,
) -> list[Path]:
    """One pass: archive and delete what may go; returns the archives written or found.
    ``acknowledged``: the last row the pit's broker acknowledged (None: no pit feed).
    Raises `JournalCorrupt` (naming the file) for a file that does not verify."""
    folder = keeping.archive_dir
    if folder is None:
        return []
    done: list[Path] = []
    files = set_files(base)
    for index, path in enumerate(files[:-1]):
        later = files[index + 1 :]
        report = verify_set([path, later[0]], key)  # the file, and that the next follows it
        first = report.first
        with Journal(path, key=key, readonly=True, check=False) as journal:
            head = journal.head
        target = archive_path(folder, base, first)
        if not target.exists():
            write_archive(path, target)
        with read_file(target, key) as archived:
            archived.verify()
            if archived.head != head:
                raise JournalCorrupt(
                    head.seq, f"the archive {target} does not end where {path.name} does"
                )
        done.append(target)
        rounds: set[int] = set()
        for other in later:
            rounds |= _rounds(other, key)
        if len(rounds) < keeping.keep_rounds + 1:  # the round being played, and 10 whole
            log.info("journal archive: %s archived, kept at the table (GLI-24: %d rounds "
                     "after it, %d kept)", path.name, len(rounds), keeping.keep_rounds)  # fmt: skip
            break
        acked = None if acknowledged is None else acknowledged()
        if acked is not None and acked < head.seq:
            log.info("journal archive: %s archived, kept at the table: the pit has "
                     "acknowledged rows up to %d, the file ends at row %d", path.name, acked,
                     head.seq)  # fmt: skip
            break
        _delete(path)
        log.warning("journal archive: %s verified, archived to %s and deleted from the table",
                    path.name, target)  # fmt: skip
    return done


class Archiver:
    """`archive_sealed` on a thread of its own: at the start, and when woken (a rotation)."""

    def __init__(
        self,
        base: Path,
        key: bytes,
        keeping: JournalKeeping,
        on_broken: Callable[[JournalCorrupt], None] | None = None,
        acknowledged: Callable[[], int] | None = None,
    ) -> None:
        self.base = base
        self.acknowledged = acknowledged  # by the pit's broker (None: no pit feed)
        self.on_broken = on_broken  # a sealed file that does not verify: the table stops
        self._key = key
        self.keeping = keeping
        self.error: JournalError | None = None
        self.passes = 0
        self.archived: list[Path] = []
        self.pass_done = threading.Condition()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="journal-archive", daemon=True)

    def start(self) -> Archiver:
        self._wake.set()
        self._thread.start()
        return self

    def wake(self, _sealed: Path | None = None) -> None:
        self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=30)

    def wait_passes(self, count: int, timeout: float) -> bool:
        with self.pass_done:
            return self.pass_done.wait_for(lambda: self.passes >= count, timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait()
            self._wake.clear()
            if self._stop.is_set():
                return
            started = time.monotonic()
            try:
                self.archived = archive_sealed(
                    self.base, self._key, self.keeping, self.acknowledged
                )
                self.error = None
            except JournalCorrupt as exc:  # a broken row, as the background check finds one
                self.error = exc
                log.critical("journal archive: a sealed file does not verify, nothing is "
                             "archived or deleted: %s", exc)  # fmt: skip
                if self.on_broken is not None:
                    self.on_broken(exc)
            except JournalError as exc:  # the archive folder cannot be written: try again later
                self.error = exc
                log.error("journal archive: nothing more is archived or deleted: %s", exc)
            log.debug("journal archive pass in %.2f s", time.monotonic() - started)
            with self.pass_done:
                self.passes += 1
                self.pass_done.notify_all()
