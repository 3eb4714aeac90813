"""The journal's checkpoint on disk: ``<journal>.checkpoint``, a small JSON file carrying the
last row known good (or a row found broken) and an HMAC of it under the journal key.

Kept apart from `controller.journal.store` (the file under its key) so that module stays one
reason to change.

The checkpoint is a small file of its own rather than a table in the journal so that
writing it never touches the journal file (no second fsync per event: it is written
without one, by rename, after a successful check at open and when a round ends, never
ahead of the rows it names, which are already on disk), and so that a journal found
broken while the table runs can be marked so (`Journal.mark_broken`) without writing to
the journal file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hmac
import json
import os
from pathlib import Path

from controller.file_modes import open_private
from controller.journal.rows import Checkpoint, JournalCorrupt, JournalError, checkpoint_path


def read_checkpoint(journal: Path, key: bytes) -> Checkpoint | None:
    """The checkpoint beside ``journal`` if its MAC checks out; None if there is none (or it
    cannot be parsed: a torn write is a missing checkpoint, a full check); a
    `JournalCorrupt` naming the row it claims when the MAC does not check out."""
    path = checkpoint_path(journal)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"cannot read the checkpoint {path}: {exc}") from exc
    try:
        body = json.loads(data)
        checkpoint = Checkpoint(
            int(body["seq"]),
            str(body["hash"]),
            None if body.get("broken_seq") is None else int(body["broken_seq"]),
            None if body.get("broken") is None else str(body["broken"]),
        )
        mac = str(body["mac"])
    except (ValueError, KeyError, TypeError, ArithmeticError):  # torn, or not ours
        return None
    expected = hmac.digest(key, checkpoint.message(), "sha256").hex()
    if not hmac.compare_digest(mac.encode(), expected.encode()):
        raise JournalCorrupt(
            checkpoint.seq,
            f"the checkpoint {path.name} that vouches for it does not carry the journal "
            "key's MAC (forged, or made with another key)",
        )
    return checkpoint


def write_checkpoint(journal: Path, key: bytes, checkpoint: Checkpoint) -> None:
    """Write by rename (never a half-written file in place), without an fsync."""
    with CheckpointFile(journal, key) as file:
        file.write(checkpoint)


class CheckpointFile:
    """The checkpoint of one writable journal, written by rename (never a half-written file
    in place), without an fsync, from a file held open: ``<checkpoint>.tmp`` is opened
    ahead, so writing a checkpoint opens nothing new (a process out of file descriptors
    still writes it: its web servers can never take the journal's, docs/security.md). The
    next one is opened at once in the descriptor the written one frees. ``seq``: the row
    of the checkpoint on disk (0: none); once ``broken`` is marked, no other is written."""

    def __init__(self, journal: Path, key: bytes) -> None:
        self.journal = journal
        self.path = checkpoint_path(journal)
        self._tmp = self.path.with_name(self.path.name + ".tmp")
        self._key = key
        self._fd: int | None = None
        self.seq = 0
        self.broken = False

    def read(self) -> Checkpoint | None:
        checkpoint = read_checkpoint(self.journal, self._key)
        if checkpoint is not None:
            self.seq = checkpoint.seq
        return checkpoint

    def write(self, checkpoint: Checkpoint) -> None:
        mac = hmac.digest(self._key, checkpoint.message(), "sha256").hex()
        body = {**dataclasses.asdict(checkpoint), "mac": mac}
        data = (json.dumps(body, sort_keys=True) + "\n").encode()
        self.broken = self.broken or checkpoint.broken_seq is not None  # even if it fails
        try:
            fd = self._held() or self._open()
            self._fd = None
            try:
                if os.pwrite(fd, data, 0) != len(data):
                    raise OSError(f"wrote less than the {len(data)} bytes of {self._tmp.name}")
                os.replace(self._tmp, self.path)
            finally:
                os.close(fd)  # now the checkpoint itself: its descriptor is the next one's
        except OSError as exc:
            raise JournalError(f"cannot write the checkpoint {self.path}: {exc}") from exc
        self.seq = checkpoint.seq
        with contextlib.suppress(OSError):  # else the next write opens it itself
            self._fd = self._open()

    def _held(self) -> int | None:
        """The file held open, if it still is ``<checkpoint>.tmp`` (another writer of the
        same journal, a test's or a tool's, may have renamed it into place since)."""
        fd = self._fd
        if fd is None:
            return None
        try:
            held, named = os.fstat(fd), os.stat(self._tmp)
            if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
                return fd
        except OSError:
            pass
        os.close(fd)
        self._fd = None
        return None

    def _open(self) -> int:
        return open_private(self._tmp)  # 0640 (file_modes), a leftover of another mode too

    def close(self) -> None:
        """Close the file held open, and remove it (it holds nothing yet)."""
        fd = self._held()
        if fd is not None:
            os.close(fd)
            self._fd = None
            with contextlib.suppress(OSError):
                self._tmp.unlink()

    def __enter__(self) -> CheckpointFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
