"""Card sources: every device that reports cards leaving the shoe, behind one base.

python-can's ``BusABC`` is the model: the public life cycle is written once here, and a
back-end supplies only the few operations that differ between devices. What `CardSource`
does for every back-end:

- `start` opens the line in the caller's thread: a source that is configured but not there
  is a `DeviceNotFound` (or `DeviceError`) for the caller, never a silent nothing
  (docs/architecture.md: no fallback). Only a line that fails *later* is retried;
- one reader thread reads, puts the events a read produced on the controller's queue, and
  when the line fails closes it, reports `DeviceLost` (once per outage), and reopens it
  with exponential backoff;
- `DeviceRestored` is reported once the device is back: on reopening the line for a reader
  that only talks (an RFID reader), or when the device is heard again for one that answers
  (our serial protocol: `restored_on_reopen = False`, and the back-end calls
  `_report_restored` itself);
- `acknowledge(seq)`, which the controller calls after journaling an event that carried a
  sequence number: a no-op here, for readers that have no acknowledgement and cannot resend
  (docs/architecture.md: a gap in their stream holds the table instead);
- `handles`/`execute` for the commands the device carries out (none, by default);
- `close`, safe twice; a bug in a back-end's read is logged and reported as `DeviceLost`,
  never a silently dead daemon thread.

A back-end implements `_open_line` (raise a `DeviceError` if it cannot), `_read` (wait up to
its own short timeout, return the events the bytes made; raise a `DeviceError` when the line
has failed), `_close_line` (never raises) and, if it needs to, `_line_opened` (say HELLO,
start a fresh decoder). Back-ends are chosen by name through `drivers.registry`.
"""

from __future__ import annotations

import logging
import queue
import threading
from abc import ABC, abstractmethod
from collections import Counter
from typing import ClassVar, Self

from controller.ports import Command, DeviceLost, DeviceRestored, Event
from drivers.errors import DeviceError
from drivers.realtime import use_realtime

log = logging.getLogger(__name__)


class CardSource(ABC):
    """One card-reporting device feeding ``events``. `start()`, then `close()`."""

    protocol: ClassVar[str]
    """The registry name of the back-end (``[shoe] protocol``)."""
    restored_on_reopen: ClassVar[bool] = True
    """Report `DeviceRestored` when the line is reopened (False: when the device speaks)."""
    resends: ClassVar[bool] = True
    """The device resends what was not acknowledged (`DeviceLost.resends`)."""

    def __init__(
        self,
        events: queue.Queue[Event],
        *,
        name: str,
        where: str,
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        self.events = events
        self.name = name
        self.where = where  # a port, a URL, a USB id: for the log and the events
        self._backoff_first, self._backoff_max = backoff
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._line_up = False
        self._lost = False
        self.stats: Counter[str] = Counter()
        """Counts kept by the base (``lost``, ``restored``) and by the back-end."""

    # --- what a back-end supplies ---------------------------------------------------------

    @abstractmethod
    def _open_line(self) -> None:
        """Open the line to the device; raise a `DeviceError` if it cannot."""

    @abstractmethod
    def _read(self) -> list[Event]:
        """Wait briefly for input; return the events it completes. Raise a `DeviceError`
        when the line has failed (the base reports the loss and reopens)."""

    @abstractmethod
    def _close_line(self) -> None:
        """Close the line. Never raises."""

    def _line_opened(self) -> None:
        """Called after every successful open (at start and after a reconnect)."""
        return None

    # --- life cycle -----------------------------------------------------------------------

    def start(self) -> Self:
        """Open the line (raising `DeviceNotFound`/`DeviceError` if it cannot) and start
        the reader thread."""
        if self._thread is not None:
            raise DeviceError(f"{self.name}: card source already started")
        self._open_line()
        self._line_up = True
        self._line_opened()
        log.info("%s: %s card source on %s", self.name, self.protocol, self.where)
        self._thread = threading.Thread(
            target=self._run, name=f"{self.protocol}-{self.name}", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop the reader thread and close the line. Safe to call twice."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            if self._thread.is_alive():
                log.error("%s: reader thread did not stop", self.name)
        self._drop_line()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the controller's side ------------------------------------------------------------

    def acknowledge(self, seq: int) -> None:
        """The event with sequence number ``seq`` (and all before it) is journaled. A
        source without acknowledgement ignores it; one with it overrides this."""
        return None

    def handles(self, command: Command) -> bool:
        """Whether this device carries out ``command`` (a shoe's gate, say)."""
        return False

    def execute(self, command: Command) -> None:
        raise DeviceError(f"{self.name}: a {self.protocol} reader cannot {type(command).__name__}")

    # --- the reader thread ----------------------------------------------------------------

    def _run(self) -> None:
        use_realtime(f"{self.name}: reader thread")  # only with the unit's LimitRTPRIO
        delay = self._backoff_first
        try:
            while not self._stop.is_set():
                if not self._line_up:
                    if self._reopen():
                        delay = self._backoff_first
                    else:
                        self._stop.wait(delay)
                        delay = min(delay * 2, self._backoff_max)
                    continue
                try:
                    produced = self._read()
                except DeviceError as exc:
                    self._drop_line()
                    self._report_lost(str(exc))
                    continue
                for event in produced:
                    self.events.put(event)
        except Exception:  # a bug here must not die silently in a daemon thread
            log.exception("%s: reader thread failed", self.name)
            self._lost = False  # report it even during an outage: nothing will restore it
            self._report_lost("reader thread failed")
        finally:
            self._drop_line()

    def _reopen(self) -> bool:
        try:
            self._open_line()
        except DeviceError as exc:
            log.debug("%s: still cannot open %s: %s", self.name, self.where, exc)
            return False
        self._line_up = True
        self._line_opened()
        log.info("%s: reopened %s", self.name, self.where)
        if self.restored_on_reopen:
            self._report_restored()
        return True

    def _drop_line(self) -> None:
        if self._line_up:
            self._line_up = False
            self._close_line()

    def _report_lost(self, reason: str) -> None:
        """Report `DeviceLost` once per outage (a line failure or a silent device)."""
        if not self._lost:
            self._lost = True
            self.stats["lost"] += 1
            log.warning("%s: device lost: %s", self.name, reason)
            self.events.put(DeviceLost(source=self.name, reason=reason, resends=self.resends))

    def _report_restored(self) -> None:
        if self._lost:
            self._lost = False
            self.stats["restored"] += 1
            log.info("%s: device restored", self.name)
            self.events.put(DeviceRestored(source=self.name))
