"""A device speaking the table device protocol (docs/protocol.md) on a serial line.

The dealing shoe, and chip-value readers (CHIPS_SENSED), both use this driver. One
reader thread owns the line: it reads whatever arrives, lets the protocol session
(`firmware_bridge.session`) sort it into new messages, duplicates and damage, turns each new
message into an immutable `controller.ports` event and puts it on the controller's queue. It
never acknowledges on its own: the controller journals the event first and then calls
`acknowledge(seq)`, so a power cut between the two makes the device resend, and the
duplicate is recognised by its sequence number.

The life cycle is `drivers.card_source.CardSource`'s: when the line fails (cable pulled,
adapter unplugged, socket closed) the base reports `DeviceLost`, closes the port and reopens
it with exponential backoff; opening the port at `start` is not retried (a table told to
use a shoe that is not there refuses to start, with a `DeviceNotFound` naming the port).
This back-end says HELLO on every (re)open and reports `DeviceRestored` when the device
speaks again; heartbeats both ways detect a device that went quiet without the port
failing (`DeviceLost` too).
"""

from __future__ import annotations

import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable

import serial

from controller.cards import Card
from controller.ports import (
    CardDrawn,
    ChipIdsSensed,
    ChipsSensed,
    Command,
    DeviceFault,
    DeviceHello,
    Event,
    Fault,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShoeStatusChanged,
    UnlockShoe,
)
from drivers.card_source import CardSource
from drivers.errors import DeviceClosed, DeviceError
from drivers.transport import close_quietly, open_transport, read_available
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem
from firmware_bridge.session import Incoming, PeerHeard, PeerHello, PeerNak, PeerSilent, Session

log = logging.getLogger(__name__)

LAMP_IDS = {lamp: number for number, lamp in enumerate(Lamp, start=1)}
"""Lamp numbers on the wire (LAMP command) for the shoe's own lamps."""
_PATTERNS = {pattern: m.LampPattern[pattern.name] for pattern in LampPattern}


class SerialDevice(CardSource):
    protocol = "tablectl"
    restored_on_reopen = False  # restored when the device is heard again, not on reopen

    def __init__(
        self,
        url: str,
        events: queue.Queue[Event],
        *,
        name: str = "shoe",
        baudrate: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        boot_id: int | None = None,
        resume: tuple[int, int] | None = None,
        heartbeat_interval: float = 1.0,
        heartbeat_timeout: float = 3.0,
        resend_interval: float = 0.2,
        read_timeout: float = 0.1,
        backoff: tuple[float, float] = (0.02, 2.0),
    ) -> None:
        super().__init__(events, name=name, where=url, backoff=backoff)
        self.url = url
        self._baudrate = baudrate
        self._read_timeout = read_timeout
        self.session = Session(
            m.DeviceKind.CONTROLLER,
            "controller",
            "tablectl",
            boot_id=boot_id or (secrets.randbits(32) or 1),
            clock=clock,
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            resend_interval=resend_interval,
            resume=resume,
        )
        self._port: serial.SerialBase | None = None
        self._lock = threading.Lock()  # the session and writes to the port
        self.faults = 0  # named error events reported

    # --- the line (the base's reader thread calls these) ----------------------------------

    def _open_line(self) -> None:
        port = open_transport(self.url, baudrate=self._baudrate, timeout=self._read_timeout)
        with self._lock:
            self._port = port

    def _line_opened(self) -> None:
        """Say HELLO (again, after a reconnect): the session repeats it until answered."""
        with self._lock:
            self.session.connect()
            self._write_pending()

    def _read(self) -> list[Event]:
        port = self._port
        if port is None:
            raise DeviceClosed(f"{self.url} is closed")
        try:
            data = read_available(port, self._read_timeout)
        except DeviceError as exc:
            raise DeviceClosed(f"{self.url}: {exc}") from exc
        with self._lock:
            incoming = self.session.receive_data(data) if data else []
            incoming += self.session.tick()
            self._write_pending()
        return [event for item in incoming if (event := self._translate(item)) is not None]

    def _close_line(self) -> None:
        with self._lock:
            port, self._port = self._port, None
        close_quietly(port, self.url)

    # --- the controller's side ----------------------------------------------------------

    def acknowledge(self, seq: int) -> None:
        """The event with this sequence number (and all before it) is recorded: ACK it.
        Call it in the order the events were taken off the queue."""
        with self._lock:
            self.session.acknowledge(seq)
            self._write_pending()

    def handles(self, command: Command) -> bool:
        """A shoe carries out gate commands; its lamps are driven only when asked for by
        number (the table's lamps are on GPIO)."""
        return isinstance(command, LockShoe | UnlockShoe)

    def execute(self, command: Command) -> None:
        """Send a command to the shoe; it is resent until the shoe acknowledges it."""
        message: m.Reliable
        if isinstance(command, LockShoe):
            message = m.GateLock(0)
        elif isinstance(command, UnlockShoe):
            message = m.GateUnlock(0)
        elif isinstance(command, SetLamp):
            message = m.Lamp(0, LAMP_IDS[command.lamp], _PATTERNS[command.pattern])
        else:
            raise DeviceError(f"{self.name}: a shoe cannot {type(command).__name__}")
        with self._lock:
            self.session.send(message)
            self._write_pending()

    def _write_pending(self) -> None:
        """Write what the session queued. Called with the lock held."""
        data = self.session.data_to_send()
        if not data or self._port is None:
            return  # with the line down, the session's resends make up for it
        try:
            self._port.write(data)
        except (serial.SerialException, OSError) as exc:
            log.warning("%s: write failed on %s: %s", self.name, self.url, exc)

    def _translate(self, item: Incoming) -> Event | None:
        source = self.name
        if isinstance(item, m.CardDrawn):
            card = Card.parse(item.card)  # the session already checked the code
            return CardDrawn(source=source, card=card, seq=item.seq, device_ms=item.device_ms)
        if isinstance(item, m.ShoeStatus):
            return ShoeStatusChanged(
                source=source,
                cut_card_seen=item.cut_card_seen,
                shoe_empty=item.shoe_empty,
                door_open=item.door_open,
                gate_locked=item.gate_locked,
                seq=item.seq,
            )
        if isinstance(item, m.ChipsSensed):
            return ChipsSensed(source=source, spot=item.spot, total=item.total, seq=item.seq)
        if isinstance(item, m.ChipIds):  # each chip's tag, for the chip inventory
            ids = tuple(chip_id for chip_id, _ in item.chips)
            values = tuple(value for _, value in item.chips)
            return ChipIdsSensed(
                source=source, spot=item.spot, chip_ids=ids, values=values, seq=item.seq
            )
        if isinstance(item, FrameProblem):
            self.faults += 1
            log.warning("%s: %s: %s", source, item.problem.value, item.detail)
            return DeviceFault(
                source=source, fault=Fault(item.problem.value), detail=item.detail, seq=item.seq
            )
        if isinstance(item, m.RELIABLE_TYPES):  # a controller command coming from a device
            self.faults += 1
            detail = f"device sent a controller command: {type(item).__name__}"
            return DeviceFault(source=source, fault=Fault.MALFORMED, detail=detail, seq=item.seq)
        if isinstance(item, PeerHello):
            self._report_restored()
            hello = item.hello
            return DeviceHello(
                source=source,
                device_kind=_kind_name(hello.device_kind),
                serial_number=hello.serial_number,
                firmware=hello.firmware,
                protocol_version=hello.protocol_version,
                boot_id=hello.boot_id,
            )
        if isinstance(item, PeerSilent):
            self._report_lost(f"no word from the device for {item.seconds:.1f} s")
        elif isinstance(item, PeerHeard):
            self._report_restored()
        elif isinstance(item, PeerNak):
            log.warning("%s: device refused a frame: %s", source, item.reason.name)
        return None


def _kind_name(kind: int) -> str:
    try:
        return m.DeviceKind(kind).name.lower()
    except ValueError:
        return f"unknown-{kind}"
