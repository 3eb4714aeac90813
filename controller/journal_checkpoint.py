"""The journal's checkpoint on disk: ``<journal>.checkpoint``, a small JSON file carrying the
last row known good (or a row found broken) and an HMAC of it under the journal key.

Kept apart from `controller.journal` (the file under its key) so that module stays one
reason to change and under 500 lines.

The checkpoint is a small file of its own rather than a table in the journal so that
writing it never touches the journal file (no second fsync per event: it is written
without one, by rename, after a successful check at open and when a round ends, never
ahead of the rows it names, which are already on disk), and so that a journal found
broken while the table runs can be marked so (`Journal.mark_broken`) without writing to
the journal file.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import os
from pathlib import Path

from controller.file_modes import open_private
from controller.journal_rows import Checkpoint, JournalCorrupt, JournalError, checkpoint_path


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
    path = checkpoint_path(journal)
    mac = hmac.digest(key, checkpoint.message(), "sha256").hex()
    body = {**dataclasses.asdict(checkpoint), "mac": mac}
    tmp = path.with_name(path.name + ".tmp")
    try:
        with os.fdopen(open_private(tmp), "w", encoding="utf-8") as handle:
            handle.write(json.dumps(body, sort_keys=True) + "\n")
        os.replace(tmp, path)
    except OSError as exc:
        raise JournalError(f"cannot write the checkpoint {path}: {exc}") from exc
