"""The running table's lock on its journal: ``<journal>.lock``, beside it.

A table (`tablectl run`, `tablectl demo`) holds an exclusive `flock` on the lock file for
as long as it runs, with what it is and its pid written in it; the kernel lets go when the
process ends, however it ends. A second table on the same journal is refused, and so is
``tablectl journal reopen`` (the files must not be moved under a running controller): each
tries the lock and, when it is held, says in one line what runs.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from controller.journal.fileset import base_of
from controller.journal.store import JournalError


class JournalInUse(JournalError):
    """A table is running on the journal (it holds the lock)."""


def lock_path(journal: Path) -> Path:
    base = base_of(journal)
    return base.with_name(base.name + ".lock")


class JournalLock:
    """An exclusive lock on a journal's lock file, held until `release`."""

    def __init__(self, journal: Path) -> None:
        self.journal = base_of(journal)
        self.path = lock_path(journal)
        self._fd: int | None = None

    def acquire(self, holder: str) -> JournalLock:
        """Take the lock as ``holder`` (e.g. "the table bj-01"), or raise `JournalInUse`
        naming what holds it."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o640)
        except OSError as exc:
            what = f"cannot open the journal's lock {self.path}: {exc.strerror}"
            raise JournalError(what) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            running = os.pread(fd, 200, 0).decode(errors="replace").strip() or "a process"
            os.close(fd)
            raise JournalInUse(
                f"{running} is running on the journal {self.journal} (it holds "
                f"{self.path.name}): stop it first (systemctl stop tablectl)"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{holder} (pid {os.getpid()})\n".encode(), 0)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.close(self._fd)  # closing the descriptor lets go of the lock
            self._fd = None

    def __del__(self) -> None:  # a table whose start failed half-way lets go too
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
