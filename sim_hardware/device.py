"""A simulated device that speaks the real wire protocol over a real byte line.

`SimulatedDevice` is the firmware common to the table's serial devices: a protocol session
(`firmware_bridge.session`) with its sequence numbers, resends and heartbeats, a background
thread that reads the line and obeys commands (LAMP, and GATE_LOCK / GATE_UNLOCK for a
shoe), and hooks for fault injection. `sim_hardware.shoe.SimulatedShoe` deals cards on it;
`SimulatedChipReader` reports the value of the chips on a spot (CHIPS_SENSED).
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Self

from controller.errors import TableError
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem
from firmware_bridge.session import PeerHello, Session
from sim_hardware.link import Link

log = logging.getLogger(__name__)


class DeviceRefused(TableError, RuntimeError):
    """The simulated device cannot do what was asked: a locked gate, an empty shoe."""


class SimulatedDevice:
    session_type: type[Session] = Session
    """The protocol session its firmware runs (the broken shoes of the conformance tests
    swap in one with a deliberate fault: sim_hardware/broken_shoes.py)."""

    def __init__(
        self,
        link: Link,
        *,
        kind: m.DeviceKind,
        serial_number: str,
        firmware: str,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
        heartbeat_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        resend_interval: float = 0.05,
        window: int = 16,
    ) -> None:
        self.rng = rng or random.Random(0)
        self.link = link
        self.clock = clock
        self.session = self.session_type(
            kind,
            serial_number,
            firmware,
            boot_id=self.rng.getrandbits(32) or 1,
            clock=clock,
            heartbeat_interval=heartbeat_interval,
            heartbeat_timeout=heartbeat_timeout,
            resend_interval=resend_interval,
            window=window,
        )
        self.gate_locked = False
        self.lamps: dict[int, m.LampPattern] = {}
        self.commands: list[m.Reliable] = []  # every command obeyed, in order
        self.problems: list[FrameProblem] = []
        self.last_write_at = 0.0
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._was_connected = link.connected

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> Self:
        with self._lock:
            self.session.connect()
            self._flush()
        name = f"sim-{type(self).__name__}"
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.link.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- what tests and scripts use -----------------------------------------------------

    def send(self, message: m.Reliable) -> m.Reliable:
        """Send a reliable message with the next sequence number, resent until ACKed."""
        with self._lock:
            sent = self.session.send(message)
            self._flush()
            return sent

    def power_cycle(self) -> None:
        """The device loses power and comes back: a new boot id, nothing remembered of
        what it was told, its gate locked (a shoe's fail-safe state), and a new HELLO."""
        with self._lock:
            old = self.session
            self.session = self.session_type(
                old.device_kind,
                old.serial_number,
                old.firmware,
                boot_id=(old.boot_id + 1) % 2**32 or 1,
                clock=self.clock,
                heartbeat_interval=old.heartbeat_interval,
                heartbeat_timeout=old.heartbeat_timeout,
                resend_interval=old.resend_interval,
                window=old.window,
            )
            self.gate_locked = True
            self.lamps = {}
            self.session.connect()
            self._flush()
            self._changed.notify_all()

    def send_raw(self, data: bytes) -> None:
        """Put arbitrary bytes on the line, outside the protocol (line noise, a bad frame)."""
        self.link.write(data)

    def send_reliable_frame(self, type_: int, payload: bytes) -> int:
        """Send a well-framed message of any type and content with the next sequence number,
        resent until acknowledged, as buggy firmware would. Returns its number."""
        with self._lock:
            seq = self.session.send_frame(type_, payload)
            self._flush()
            return seq

    def wait_until_acknowledged(self, timeout: float = 10.0) -> bool:
        """Wait until the controller has ACKed everything sent so far."""
        with self._changed:
            return self._changed.wait_for(lambda: self.session.unacknowledged == 0, timeout)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Wait until ``predicate()`` holds (evaluated under the device's lock)."""
        with self._changed:
            return self._changed.wait_for(predicate, timeout)

    # --- the firmware's loop ------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            data = self.link.read(0.01)
            with self._lock:
                connected = self.link.connected
                if connected and not self._was_connected:
                    self.session.connect()  # plugged back in: introduce ourselves again
                self._was_connected = connected
                for item in self.session.receive_data(data) if data else []:
                    self._obey(item)
                self.session.tick()
                self._flush()
                self._changed.notify_all()

    def _obey(self, item: object) -> None:
        if isinstance(item, m.GateLock | m.GateUnlock):
            self.gate_locked = isinstance(item, m.GateLock)
            self.session.acknowledge(item.seq)
            self.commands.append(item)
            self.session.send(self._status())
        elif isinstance(item, m.Lamp):
            self.lamps[item.lamp] = item.pattern
            self.session.acknowledge(item.seq)
            self.commands.append(item)
        elif isinstance(item, FrameProblem):
            self.problems.append(item)
            if item.seq is not None:
                self.session.acknowledge(item.seq)
        elif isinstance(item, m.RELIABLE_TYPES):
            log.warning("simulated device got a device message from the controller: %r", item)
            self.session.acknowledge(item.seq)
        elif isinstance(item, PeerHello):
            log.debug("controller said hello: %r", item.hello)

    def _status(self) -> m.ShoeStatus:
        """The SHOE_STATUS levels now (a shoe adds its cutting card and empty flags)."""
        return m.ShoeStatus(0, gate_locked=self.gate_locked)

    def _flush(self) -> None:
        """Write what the session queued. Called with the lock held."""
        data = self.session.data_to_send()
        if data:
            self.last_write_at = time.perf_counter()  # for latency benchmarks
            self.link.write(data)


class SimulatedChipReader(SimulatedDevice):
    """A chip-value reader under the betting spots (RFID chips), reporting CHIPS_SENSED."""

    def __init__(self, link: Link, *, serial_number: str = "SIM-CHIPS-0001", **kw: object):
        super().__init__(
            link,
            kind=m.DeviceKind.CHIP_READER,
            serial_number=serial_number,
            firmware="sim-chips-1.0",
            **kw,  # type: ignore[arg-type]
        )

    def sense(self, spot: str, total: int) -> None:
        """The chips on ``spot`` now add up to ``total`` chip units."""
        self.send(m.ChipsSensed(0, spot, total))

    def sense_ids(self, spot: str, chips: list[tuple[str, int]]) -> None:
        """Each chip on ``spot`` by its tag: (UID as 16 hex digits, the value the chip
        carries), in as many CHIP_IDS as the stack needs (4 chips a frame at most)."""
        for at in range(0, max(len(chips), 1), CHIPS_PER_FRAME):
            self.send(m.ChipIds(0, spot, tuple(chips[at : at + CHIPS_PER_FRAME])))


CHIPS_PER_FRAME = 4  # what fits one frame's 64-byte payload with a short spot name
