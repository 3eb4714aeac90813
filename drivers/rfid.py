"""The RDM6300 125 kHz RFID reader on a serial line (9600 baud), as a stream of table events.

One reader thread reads the line, decodes frames (`firmware_bridge.rdm6300`), turns the
reader's repeats into one read per presentation of a card, looks the tag up in the deck
enrolment and puts events on the controller's queue:

- an enrolled tag: `CardDrawn(source=name, card=..., seq=None)`; the reader has no
  acknowledgement, so the event has no sequence number. A card that leaves the shoe is
  always reported, whether or not the rules allow it now (rule 4.2 and DESIGN.md: the
  controller cannot undo physics and must never drop a card);
- a tag not in the deck: `DeviceFault(fault=Fault.UNKNOWN_TAG, detail=tag)`, once per
  presentation, like a card;
- a frame with a bad checksum or a broken layout: `DeviceFault(fault=Fault.BAD_CHECKSUM)`
  or `Fault.MALFORMED`, counted in `stats` and logged;
- the line fails (cable pulled, USB adapter gone): `DeviceLost(reason=...)`, then the port is
  reopened with exponential backoff, and `DeviceRestored` once it is back.

The port is opened by `start()` in the caller's thread, so a missing reader at start-up is
a `DeviceNotFound` for the caller (never a silent fallback to nothing); only a line that
fails later is retried. Only the reader thread touches the port after that. The clock
(monotonic seconds) is injected for the presence filter, so tests replay exactly.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Protocol

import serial

from controller.ports import CardDrawn, DeviceFault, DeviceLost, DeviceRestored, Event, Fault
from drivers.deck import DeckEnrolment
from drivers.errors import DeviceError
from drivers.transport import open_transport
from firmware_bridge.rdm6300 import (
    BAUDRATE,
    FrameProblem,
    PresenceFilter,
    ProblemKind,
    Rdm6300Decoder,
    TagFrame,
)

log = logging.getLogger(__name__)

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


def tag_event(source: str, deck: DeckEnrolment, tag: str) -> Event:
    """The event for one presentation of ``tag``: a card, or an unknown-tag fault."""
    card = deck.card_for(tag)
    if card is None:
        log.warning("%s: tag %s is not enrolled in %s", source, tag, deck.name)
        return DeviceFault(source=source, fault=Fault.UNKNOWN_TAG, detail=tag)
    return CardDrawn(source=source, card=card)


class Rdm6300Reader:
    """An RDM6300 reader at ``url`` feeding ``events``. `start()`, then `close()`."""

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
    ) -> None:
        self.url = url
        self.name = name
        self.deck = deck
        self._events = events
        self._clock = clock
        self._presence = PresenceFilter(hold)
        self._backoff_first, self._backoff_max = backoff
        self._open = opener
        self._port: ByteLine | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.stats: Counter[str] = Counter()
        """Counts of ``reads``, ``repeats``, ``bad-checksum``, ``malformed``,
        ``unknown-tag``, ``junk-bytes``, ``lost``, ``restored``."""

    def start(self) -> None:
        """Open the port (raising `DeviceError` if it cannot) and start the reader thread."""
        if self._thread is not None:
            raise DeviceError(f"{self.name}: reader already started")
        self._port = self._open(self.url)
        log.info("%s: RDM6300 reader on %s, %d tags enrolled", self.name, self.url, len(self.deck))
        self._thread = threading.Thread(target=self._run, name=f"rfid-{self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the reader thread and close the port. Safe to call twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            if self._thread.is_alive():
                log.error("%s: reader thread did not stop", self.name)
        self._close_port()

    def __enter__(self) -> Rdm6300Reader:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the reader thread --------------------------------------------------------------

    def _run(self) -> None:
        decoder = Rdm6300Decoder()
        try:
            while not self._stop.is_set():
                port = self._port
                if port is None:
                    decoder = Rdm6300Decoder()  # a partial frame does not survive a reconnect
                    self._reconnect()
                    continue
                try:
                    chunk = port.read(max(1, port.in_waiting))
                except (serial.SerialException, OSError) as exc:
                    self._lose(f"read failed on {self.url}: {exc}")
                    continue
                if chunk:
                    skipped = decoder.skipped
                    for item in decoder.feed(chunk):
                        self._handle(item)
                    if decoder.skipped > skipped:
                        self.stats["junk-bytes"] += decoder.skipped - skipped
        except Exception:  # a bug here must not die silently in a daemon thread
            log.exception("%s: reader thread failed", self.name)
            self._events.put(DeviceLost(source=self.name, reason="reader thread failed"))
        finally:
            self._close_port()

    def _handle(self, item: TagFrame | FrameProblem) -> None:
        if isinstance(item, FrameProblem):
            fault = _FAULTS[item.kind]
            self.stats[str(fault)] += 1
            detail = f"{item.detail} (bytes {item.raw.hex(' ')})"
            log.warning("%s: %s frame: %s", self.name, fault, detail)
            self._events.put(DeviceFault(source=self.name, fault=fault, detail=detail))
            return
        if not self._presence.seen(item.tag, self._clock()):
            self.stats["repeats"] += 1
            return
        event = tag_event(self.name, self.deck, item.tag)
        self.stats["reads" if isinstance(event, CardDrawn) else "unknown-tag"] += 1
        self._events.put(event)

    def _lose(self, reason: str) -> None:
        log.error("%s: device lost: %s", self.name, reason)
        self.stats["lost"] += 1
        self._close_port()
        self._events.put(DeviceLost(source=self.name, reason=reason))

    def _reconnect(self) -> None:
        """Reopen with exponential backoff until it works or `close()` is called."""
        delay = self._backoff_first
        while not self._stop.wait(delay):
            try:
                self._port = self._open(self.url)
            except DeviceError as exc:
                log.debug("%s: reopen failed: %s", self.name, exc)
                delay = min(delay * 2, self._backoff_max)
                continue
            log.info("%s: device restored on %s", self.name, self.url)
            self.stats["restored"] += 1
            self._events.put(DeviceRestored(source=self.name))
            return

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as exc:
                log.debug("%s: error closing %s: %s", self.name, self.url, exc)
