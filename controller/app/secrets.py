"""Per-table secrets in files: created once at install, read at every start.

A table has secrets that must never be in its config (which is copied, pasted into
tickets and kept in version control): the console secret that the kiosk presents
(docs/security.md) and the journal's HMAC key. Each lives in a file of its own, holding 32
random bytes written as 64 hexadecimal digits and a newline.

- `create_secret` writes a new one atomically (a temporary file in the same folder,
  flushed and renamed over), with mode 0o600 from the start, so there is never a moment
  when the file exists with looser permissions or half its content. It refuses to replace
  an existing secret unless told to (rotation is a decision, never an accident).
- `read_secret` reads one back and refuses, with a `ConfigError` naming the file, a secret
  that is missing, unreadable, malformed, or readable by others ("other" permission bits).
  Group-readable is allowed: the kiosk user reads the console secret through the
  service's group.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
import tempfile
from pathlib import Path

from controller.errors import ConfigError
from controller.journal.fileset import sync_folder

SECRET_BYTES = 32
FILE_MODE = 0o600


def create_secret(path: str | Path, *, overwrite: bool = False, mode: int = FILE_MODE) -> bytes:
    """Write a new random secret to ``path`` and return it.

    Refuses (`ConfigError`) when the file exists and ``overwrite`` is False, or when its
    folder does not exist (a typo in the config must not scatter secrets about). ``mode``
    may add group read (0o640) for a secret the kiosk user's group must read; never more.
    """
    p = Path(path)
    if mode & 0o077 & ~0o040:
        raise ConfigError(f"{p}: a secret file's mode may allow group read at most")
    if not p.parent.is_dir():
        raise ConfigError(f"{p}: cannot create the secret: the folder {p.parent} does not exist")
    if p.exists() and not overwrite:
        raise ConfigError(f"{p}: a secret is already there (rotate it to replace it)")
    value = secrets.token_bytes(SECRET_BYTES)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        os.fchmod(fd, mode)  # mkstemp already makes it 0o600; a group-readable one is asked
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(value.hex() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ConfigError(f"{p}: cannot write the secret: {exc.strerror}") from exc
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    sync_folder(p.parent)  # the rename durable
    return value


def read_secret(path: str | Path, what: str) -> bytes:
    """The secret in ``path``; ``what`` says what it is for the error ("the console
    secret"). A `ConfigError` naming the file when it is missing, unreadable, malformed
    or readable by others."""
    p = Path(path)
    try:
        with open(p, "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            data = handle.read(4 * SECRET_BYTES + 2)
    except FileNotFoundError:
        raise ConfigError(
            f"{p}: {what} is missing (create it with tablectl secrets --config ...)"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read {what}: {exc.strerror}") from exc
    if not stat.S_ISREG(mode):
        raise ConfigError(f"{p}: {what} is not a regular file")
    if mode & 0o007:
        raise ConfigError(
            f"{p}: {what} is readable by others (mode {stat.S_IMODE(mode):04o}): "
            f"chmod o-rwx {p}, then rotate it (tablectl secrets --rotate)"
        )
    text = data.strip()
    try:
        value = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        value = b""
    if len(value) != SECRET_BYTES:
        raise ConfigError(
            f"{p}: {what} is malformed (expected {2 * SECRET_BYTES} hexadecimal digits)"
        )
    return value
