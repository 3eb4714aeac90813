"""The table's record on disk is for the service and its group only: the journal (it holds
players' cards, wagers and staff ids), its ``-wal`` and ``-shm``, its checkpoint, the pit's
cursor and the journal's archives are created with `PRIVATE_MODE` (0640) or tighter (the
umask may take more away), whatever the umask of whoever started the table. A file of
these found more open than that, and owned by this process's user, is tightened when it
is opened (docs/security.md, "Files").

SQLite creates a database's ``-wal`` and ``-shm`` with the database file's own mode, so
the database file is made here, empty (an empty file is a new SQLite database), before
SQLite opens it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["PRIVATE_MODE", "create_private", "open_private", "private_database", "tighten"]

PRIVATE_MODE = 0o640
_TOO_OPEN = 0o7777 & ~PRIVATE_MODE  # any bit beyond rw for the user, r for the group


def tighten(path: Path) -> None:
    """Take from ``path`` every permission beyond `PRIVATE_MODE`, if it is this user's
    (another's file is left as it is: only its owner or root may change it)."""
    try:
        status = os.stat(path)
    except FileNotFoundError:
        return
    if status.st_mode & _TOO_OPEN and status.st_uid == os.geteuid():
        os.chmod(path, stat.S_IMODE(status.st_mode) & PRIVATE_MODE)


def create_private(path: Path) -> None:
    """Make ``path`` an empty file with `PRIVATE_MODE` if there is none; else tighten it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    except FileExistsError:
        tighten(path)
    else:
        os.close(fd)


def private_database(path: Path) -> None:
    """A SQLite database about to be opened for writing: its folder made if need be, the
    file itself made `PRIVATE_MODE` (SQLite gives the ``-wal`` and ``-shm`` it creates the
    same mode), and an existing one and its ``-wal`` and ``-shm`` tightened."""
    path.parent.mkdir(parents=True, exist_ok=True)
    create_private(path)
    for suffix in ("-wal", "-shm"):
        tighten(path.with_name(path.name + suffix))


def open_private(path: Path) -> int:
    """``path`` opened for writing from its start (created or emptied), with no
    permission beyond `PRIVATE_MODE` (a leftover file of another mode included): a file
    descriptor the caller closes."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_MODE)
    try:
        mode = stat.S_IMODE(os.fstat(fd).st_mode)
        if mode & _TOO_OPEN:
            os.fchmod(fd, mode & PRIVATE_MODE)
    except OSError:
        os.close(fd)
        raise
    return fd
