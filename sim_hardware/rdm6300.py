"""A simulated RDM6300 RFID reader: writes real RDM6300 frames to a real byte line.

By default it makes a pseudo-terminal (``os.openpty``), puts the slave in raw mode
(``tty.setraw``: otherwise the line discipline would echo bytes and could take 0x03 for
Ctrl-C) and writes to the master; the driver opens the slave path, exactly as it would open
``/dev/ttyUSB0``. Given ``link=``, the slave is reached through a symbolic link at that path,
the way ``/dev/serial/by-id/...`` reaches a real adapter, so `unplug` and `replug` can pull
the line and bring a new one up under the same name. It can also write to any open file
descriptor or any object with ``write(bytes)`` (a pyserial port, a socket file).

A real reader repeats the frame while the tag is in its field: `present(tag, repeats=N)`
writes it N times. Faults: ``bad_checksum=True``, or `send` any bytes (junk, split frames).
"""

from __future__ import annotations

import logging
import os
import tty
from pathlib import Path
from typing import Protocol

from firmware_bridge.rdm6300 import encode

log = logging.getLogger(__name__)


class Writable(Protocol):
    def write(self, data: bytes, /) -> object: ...


class SimulatedRdm6300:
    """A simulated reader on its own pty (default), a file descriptor or a writable."""

    def __init__(self, target: int | Writable | None = None, *, link: str | Path | None = None):
        self._link = Path(link) if link is not None else None
        self._target: int | Writable | None = target
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path: str | None = None
        if target is None:
            self._open_pty()
            log.info("simulated RDM6300 reader (not real hardware) at %s", self.path)
        elif self._link is not None:
            raise ValueError("link= is only for the simulator's own pty")

    @property
    def path(self) -> str:
        """What the driver opens: the link if there is one, else the pty slave."""
        if self._link is not None:
            return str(self._link)
        if self._slave_path is None:
            raise ValueError("this simulated reader writes to a given target, not a pty")
        return self._slave_path

    def present(self, tag: str, repeats: int = 3, *, bad_checksum: bool = False) -> None:
        """Hold ``tag`` (10 hex digits) in the field long enough for ``repeats`` frames."""
        self.send(encode(tag, bad_checksum=bad_checksum) * repeats)

    def send(self, data: bytes) -> None:
        """Write raw bytes to the line (junk, half frames, anything)."""
        target = self._master if self._target is None else self._target
        if target is None:
            raise OSError("simulated reader is unplugged")
        if isinstance(target, int):
            view = memoryview(data)
            while view:
                view = view[os.write(target, view) :]
        else:
            target.write(data)

    def unplug(self) -> None:
        """Pull the line: the driver's reads fail, and the link goes, as udev's would."""
        if self._target is not None:
            raise ValueError("only the simulator's own pty can be unplugged")
        if self._link is not None:
            # Removed first: a dangling link could name another process's new pty.
            self._link.unlink(missing_ok=True)
        self._close_pty()
        log.info("simulated RDM6300 reader unplugged")

    def replug(self) -> None:
        """Bring up a new line under the same link (needs ``link=``)."""
        if self._link is None:
            raise ValueError("replug needs link=: a new pty has a new path")
        self._close_pty()
        self._open_pty()
        log.info("simulated RDM6300 reader plugged in again at %s", self.path)

    def close(self) -> None:
        """Close the pty (if it is ours) and remove the link. The target is left open."""
        self._close_pty()
        if self._link is not None:
            self._link.unlink(missing_ok=True)

    def __enter__(self) -> SimulatedRdm6300:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open_pty(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self._slave_path = os.ttyname(self._slave)
        if self._link is not None:
            temporary = self._link.with_name(self._link.name + ".new")
            temporary.unlink(missing_ok=True)
            temporary.symlink_to(self._slave_path)
            os.replace(temporary, self._link)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
