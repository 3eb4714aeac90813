"""The RDM6300 125 kHz RFID reader on a serial line (9600 baud), as a stream of table events.

One reader thread reads the line, decodes frames (`firmware_bridge.rdm6300`), turns the
reader's repeats into one read per presentation of a card, looks the tag up in the deck
enrolment and puts events on the controller's queue:

- an enrolled tag: `CardDrawn(source=name, card=..., seq=None)`; the reader has no
  acknowledgement, so the event has no sequence number. A card that leaves the shoe is
  always reported, whether or not the rules allow it now (rule 4.2 and docs/architecture.md: the
  controller cannot undo physics and must never drop a card);
- a tag not in the deck: `DeviceFault(fault=Fault.UNKNOWN_TAG, detail=tag)`, once per
  presentation, like a card;
- a frame with a bad checksum or a broken layout: `DeviceFault(fault=Fault.BAD_CHECKSUM)`
  or `Fault.MALFORMED`, counted in `stats` and logged;
- the line fails (cable pulled, USB adapter gone): `DeviceLost(reason=...)`, then the port is
  reopened with exponential backoff, and `DeviceRestored` once it is back;
- the reader loses its power while its serial adapter stays up: an RDM6300 sends nothing
  without a card in its field, so silence alone cannot tell a dead reader from a quiet
  shoe. With ``power_line`` (``"cts"``, ``"dsr"`` or ``"cd"``: the adapter's input wired
  to the reader's supply, docs/rfid.md) a low line is `DeviceLost`, and high again
  `DeviceRestored`.

The life cycle (start, the reader thread, reconnect with backoff, lost and restored,
close) is `drivers.card_source.CardSource`'s; the tag lookup and the one-read-per-pass
filter are `drivers.tag_reader.TagReader`'s. This module only opens the line and decodes
its bytes. The clock (monotonic seconds) is injected for the presence filter, so tests
replay exactly.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable
from typing import Protocol

import serial

from controller.ports import Event, Fault
from drivers.deck import DeckEnrolment
from drivers.errors import DeviceClosed
from drivers.tag_reader import TagReader, tag_event
from drivers.transport import close_quietly, open_transport
from firmware_bridge.rdm6300 import BAUDRATE, FrameProblem, ProblemKind, Rdm6300Decoder

__all__ = ["ByteLine", "Rdm6300Reader", "open_rdm6300", "tag_event"]

log = logging.getLogger(__name__)

POWER_LINES = ("cts", "dsr", "cd")  # the adapter's modem inputs a supply can be wired to

_FAULTS = {ProblemKind.BAD_CHECKSUM: Fault.BAD_CHECKSUM, ProblemKind.MALFORMED: Fault.MALFORMED}


class ByteLine(Protocol):
    """What the reader needs of a port (a pyserial `SerialBase` is one)."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


Opener = Callable[[str], ByteLine]


def open_rdm6300(url: str) -> ByteLine:
    """Open ``url`` at the RDM6300's 9600 baud (exclusively, via `open_transport`)."""
    port: ByteLine = open_transport(url, baudrate=BAUDRATE, timeout=0.05)
    return port


class Rdm6300Reader(TagReader):
    """An RDM6300 reader at ``url`` feeding ``events``. `start()`, then `close()`."""

    protocol = "rdm6300"

    def __init__(
        self,
        url: str,
        deck: DeckEnrolment,
        events: queue.Queue[Event],
        *,
        name: str = "rfid",
        clock: Callable[[], float] = time.monotonic,
        hold: float = 1.0,
        backoff: tuple[float, float] = (0.05, 2.0),
        opener: Opener = open_rdm6300,
        power_line: str | None = None,
    ) -> None:
        super().__init__(
            events, deck, name=name, where=url, clock=clock, hold=hold, backoff=backoff
        )
        if power_line is not None and power_line not in POWER_LINES:
            raise ValueError(f"power_line must be one of {', '.join(POWER_LINES)}")
        self.url = url
        self.power_line = power_line
        self._open = opener
        self._port: ByteLine | None = None
        self._decoder = Rdm6300Decoder()

    def _open_line(self) -> None:
        self._port = self._open(self.url)

    def _line_opened(self) -> None:
        self._decoder = Rdm6300Decoder()  # a partial frame does not survive a reconnect

    def _read(self) -> list[Event]:
        port = self._port
        if port is None:
            raise DeviceClosed(f"{self.url} is closed")
        try:
            chunk = port.read(max(1, port.in_waiting))
        except (serial.SerialException, OSError) as exc:
            raise DeviceClosed(f"read failed on {self.url}: {exc}") from exc
        if self.power_line is not None and not self._powered(port):
            return []  # what a browning-out reader sends is not a card
        if not chunk:
            return []
        decoder = self._decoder
        skipped = decoder.skipped
        produced: list[Event] = []
        for item in decoder.feed(chunk):
            if isinstance(item, FrameProblem):
                detail = f"{item.detail} (bytes {item.raw.hex(' ')})"
                produced.append(self._fault(_FAULTS[item.kind], detail))
            else:
                produced += self._tag_read(item.tag)
        if decoder.skipped > skipped:
            self.stats["junk-bytes"] += decoder.skipped - skipped
        return produced

    def _powered(self, port: ByteLine) -> bool:
        """Whether the reader's supply is up, on the adapter's ``power_line``; reports
        the reader lost while it is down, and restored when it is back."""
        line = str(self.power_line)
        try:
            powered = bool(getattr(port, line))
        except (serial.SerialException, OSError) as exc:
            raise DeviceClosed(f"cannot read {line.upper()} on {self.url}: {exc}") from exc
        if powered:
            self._report_restored()
        else:
            self._report_lost(f"the reader has no power ({line.upper()} is low on {self.url})")
        return powered

    def _close_line(self) -> None:
        port, self._port = self._port, None
        close_quietly(port, self.url)
