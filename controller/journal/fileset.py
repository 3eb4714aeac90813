"""A table's journal as a set of files: rotation without a break in the chain.

A table that plays around the clock would otherwise grow one file without end. The
journal rolls over to a new file (by trading day or size: `controller.app.runtime.journal_rotation`
decides when, always at a round boundary); the old one is sealed, never written again, and
may later be archived and deleted from the table (`controller.app.runtime.journal_archive`).

**Names.** The config names the set, ``[journal] path`` (``journal.sqlite``): that file is
the set's first (its row 1). Each file rotation opens is named after it and its first row:
``journal.sqlite.000000017790`` (12 digits, so the names sort in chain order). The file
with the highest first row is the live one, the only one the controller writes. No file
is ever renamed: a reader with a file open (the pit feed, a background check) never finds
another file under its name, and no file's SQLite ``-wal`` and ``-shm`` are shared.

**The chain across files.** A rotated file's first row is a ``JournalRotated`` record
(`controller.journal.store.ROTATED`) with the seq that follows the previous file's last row and
that row's hash as its ``prev_hash``; its payload names the previous file, its last seq
and hash (``prev_seq``, ``prev_hash``) and the hash of the set's row 1 (``origin``: what
the pit's cursor is keyed by, so it survives a rotation). It is under the key like every
row, so the seqs and the chain simply go on: `verify_set` checks every file and that each
begins where the one before it ends, and names the file and the row of the first break.
"""

from __future__ import annotations

import lzma
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from controller.journal.store import (
    GENESIS,
    ROTATED,
    Entry,
    Head,
    Journal,
    JournalCorrupt,
    JournalError,
    Row,
)

DIGITS = 12
ARCHIVE_SUFFIX = ".xz"
_SEGMENT = re.compile(r"(?P<base>.+)\.(?P<first>\d{" + str(DIGITS) + r"})(?P<xz>\.xz)?")


def segment_path(base: Path, first_seq: int) -> Path:
    """The name of the file whose first row is ``first_seq``."""
    return base.with_name(f"{base.name}.{first_seq:0{DIGITS}d}")


def base_of(path: Path) -> Path:
    """The set a file belongs to: ``journal.sqlite.000000017790(.xz)`` -> ``journal.sqlite``
    (in the same folder); any other name is a set's own name."""
    found = _SEGMENT.fullmatch(path.name)
    return path.with_name(found["base"]) if found else path


def first_seq_of(path: Path) -> int:
    """The first row a file of a set holds, by its name (a set's own name: row 1)."""
    found = _SEGMENT.fullmatch(path.name)
    return int(found["first"]) if found else 1


def is_member(path: Path) -> bool:
    """A rotated file, or an archive of one (not the set's own name)."""
    return _SEGMENT.fullmatch(path.name) is not None or path.name.endswith(ARCHIVE_SUFFIX)


def set_files(base: Path) -> list[Path]:
    """The set's files at the table, in chain order: ``base`` (if it is still there) and
    every rotated file beside it."""
    found: list[tuple[int, Path]] = []
    if base.exists():
        found.append((1, base))
    if base.parent.is_dir():
        for item in base.parent.iterdir():
            match = _SEGMENT.fullmatch(item.name)
            if match and match["base"] == base.name and not match["xz"]:
                found.append((int(match["first"]), item))
    return [path for _, path in sorted(found)]


def live_path(base: Path) -> Path:
    """The file the controller writes: the last of the set (``base`` for a new set)."""
    files = set_files(base)
    return files[-1] if files else base


def set_origin(journal: Journal) -> str:
    """The hash of the set's row 1 ("" for an empty set): a rotated file's first row
    carries it forward."""
    first = next(journal.entries(), None)
    if first is None:
        return ""
    if first.seq == 1:
        return first.hash
    return str(first.payload.get("origin", ""))


def open_live(base: Path, key: bytes, *, head: Head | None = None) -> Journal:
    """Open (and check) the set's live file. A rotation cut short by a power cut (its new
    file made but still empty) is finished here: the file gets its first row."""
    files = set_files(base)
    if len(files) < 2:
        return Journal(base, key=key, head=head)
    live = Journal(files[-1], key=key, head=head)
    if live.last_seq > 0:
        return live
    live.close()
    with Journal(files[-2], key=key, readonly=True, check=False) as before:
        previous, origin = before.head, set_origin(before)
    journal = Journal(files[-1], key=key, start=previous)
    write_rotated(journal, files[-2], previous, origin, "finished after a power cut", None)
    return journal


def write_rotated(
    journal: Journal,
    previous: Path,
    head: Head,
    origin: str,
    reason: str,
    round_no: int | None,
    then: Sequence[Row] = (),
) -> None:
    payload = {
        "prev_file": previous.name,
        "prev_seq": head.seq,
        "prev_hash": head.hash,
        "origin": origin,
        "reason": reason,
    }
    journal.append_many([(ROTATED, payload, "controller", round_no, None), *then])
    journal.checkpoint()


def rotate(
    journal: Journal,
    key: bytes,
    reason: str,
    round_no: int | None,
    then: Sequence[Row] = (),
) -> Journal:
    """Seal ``journal`` (the live file) and open the set's next file, whose first row goes
    on from its last, and ``then`` (the loop's snapshot) in the same transaction, so the
    new file never holds the one without the other. Returns the new live journal;
    ``journal`` is closed."""
    base = base_of(journal.path)
    head = journal.head
    if head.seq == 0:
        raise JournalError(f"{journal.path} has no rows: nothing to rotate")
    target = segment_path(base, head.seq + 1)
    if target.exists():
        raise JournalError(f"{target} is already there: the journal does not rotate over it")
    origin = set_origin(journal)
    journal.checkpoint()
    journal.close()
    new = Journal(target, key=key, start=head)
    write_rotated(new, journal.path, head, origin, reason, round_no, then)
    sync_folder(target.parent)
    return new


def sync_folder(folder: Path, *, strict: bool = False) -> None:
    """Make a name just made or renamed in ``folder`` durable (a power cut keeps the file).
    A folder that cannot be synced is passed over, unless ``strict`` (then `OSError`)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        if strict:
            raise


@contextmanager
def read_file(path: Path, key: bytes) -> Iterator[Journal]:
    """One file of a set read-only and unchecked (the caller verifies): an archive
    (``.xz``) is decompressed into a temporary folder first."""
    if not path.name.endswith(ARCHIVE_SUFFIX):
        with Journal(path, key=key, readonly=True, check=False) as journal:
            yield journal
        return
    with tempfile.TemporaryDirectory(prefix="tablectl-journal-") as folder:
        plain = Path(folder) / path.name.removesuffix(ARCHIVE_SUFFIX)
        try:
            with lzma.open(path) as src, plain.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
        except (OSError, lzma.LZMAError) as exc:
            raise JournalError(f"cannot read the archive {path}: {exc}") from exc
        with Journal(plain, key=key, readonly=True, check=False) as journal:
            yield journal


def entries(files: list[Path], key: bytes, *, since: int = 0) -> Iterator[Entry]:
    """Every row after ``since`` across ``files``, in order."""
    for path in files:
        with read_file(path, key) as journal:
            if journal.last_seq <= since:
                continue
            yield from journal.entries(since=since)


class SetReader:
    """A set's rows as a replay reads them (`controller.app.runtime.loop.History`): the last row
    of a kind (a snapshot) found in the newest file that has one, its HMAC checked; the
    rows after a seq across the files."""

    def __init__(self, files: list[Path], key: bytes) -> None:
        self.files = files
        self._key = key

    def last_authentic(self, kind: str) -> Entry | None:
        for path in reversed(self.files):
            with read_file(path, self._key) as journal:
                found = journal.last_authentic(kind)
            if found is not None:
                return found
        return None

    def entries(self, *, since: int = 0) -> Iterator[Entry]:
        return entries(self.files, self._key, since=since)


@dataclass(frozen=True)
class SetReport:
    files: int
    rows: int
    first: int  # the seq the set begins at (1, or later when older files are archived)
    head: Head


class SetBroken(JournalCorrupt):
    """A file of the set does not check out, or does not follow the one before it:
    ``file`` names it, ``seq`` the row."""

    def __init__(self, file: Path, exc: JournalCorrupt, *, alone: bool = False) -> None:
        super().__init__(exc.seq, exc.reason if alone else f"in {file.name}: {exc.reason}")
        self.file = file


def verify_set(
    files: list[Path],
    key: bytes,
    *,
    head: Head | None = None,
    pace: Callable[[], None] | None = None,
) -> SetReport:
    """Check every file's chain and that each begins where the one before it ends;
    ``pace`` is called every thousand rows (a progress bar)."""
    if not files:
        raise JournalError("no journal files to verify")
    rows, first = 0, 0
    previous: tuple[Path, Head] | None = None
    end = Head(0, GENESIS)
    for index, path in enumerate(files):
        last = index == len(files) - 1
        with read_file(path, key) as journal:
            try:
                origin = journal.origin()
                if previous is not None and origin != previous[1]:
                    raise JournalCorrupt(
                        origin.seq + 1,
                        f"does not follow {previous[0].name}: it goes on from row "
                        f"{origin.seq}, but {previous[0].name} ends at row {previous[1].seq} "
                        "(a file missing, or one rewritten)",
                    )
                rows += journal.verify(head=head if last else None, pace=pace)
            except JournalCorrupt as exc:
                raise SetBroken(path, exc, alone=len(files) == 1) from None
            if previous is None:
                first = origin.seq + 1
            previous = (path, journal.head)
            end = journal.head
    return SetReport(len(files), rows, first, end)
