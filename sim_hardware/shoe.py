"""A simulated card shoe that speaks the real wire protocol over a real byte line.

It behaves as the firmware of a dealing shoe would: it holds a shuffled shoe (from a seeded
`random.Random`, or an explicit card list), and each `draw` sends CARD_DRAWN with the next
sequence number, resending until the controller ACKs it. It obeys GATE_LOCK / GATE_UNLOCK
(a locked gate refuses `draw`, as a solenoid would hold the card), reports the cutting card
and an empty shoe in SHOE_STATUS, shows LAMP commands in `lamps`, and sends heartbeats.

A background thread reads the line, so commands and ACKs are handled while the test (or the
scripted dealer) draws cards.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Sequence

from controller.cards import Card, shoe_cards
from controller.errors import TableError
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem
from firmware_bridge.session import PeerHello, Session
from sim_hardware.link import Link

log = logging.getLogger(__name__)


class ShoeRefused(TableError, RuntimeError):
    """The simulated shoe cannot give a card: its gate is locked, or it is empty."""


class SimulatedShoe:
    def __init__(
        self,
        link: Link,
        *,
        cards: Sequence[Card] | None = None,
        decks: int = 6,
        rng: random.Random | None = None,
        cut_card_at: int | None = None,
        serial_number: str = "SIM-SHOE-0001",
        clock: Callable[[], float] = time.monotonic,
        heartbeat_interval: float = 0.5,
        heartbeat_timeout: float = 3.0,
        resend_interval: float = 0.05,
        window: int = 16,
    ) -> None:
        self.rng = rng or random.Random(0)
        if cards is None:
            shuffled = list(shoe_cards(decks))
            self.rng.shuffle(shuffled)
            cards = shuffled
        self._cards = list(cards)
        self._next = 0
        # The cutting card sits in front of card number cut_card_at (0-based); by default
        # about three quarters of the way in, as a dealer would place it.
        self.cut_card_at = (
            cut_card_at if cut_card_at is not None else max(1, len(self._cards) * 3 // 4)
        )
        self.link = link
        self.clock = clock
        self.session = Session(
            m.DeviceKind.SHOE,
            serial_number,
            "sim-shoe-1.0",
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
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._was_connected = link.connected
        self.last_write_at = 0.0

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> SimulatedShoe:
        with self._lock:
            self.session.connect()
            self._flush()
        self._thread = threading.Thread(target=self._run, name="sim-shoe", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.link.close()

    def __enter__(self) -> SimulatedShoe:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the dealer's side --------------------------------------------------------------

    @property
    def cards_left(self) -> int:
        return len(self._cards) - self._next

    def draw(self) -> Card:
        """Slide the next card out. Raises `ShoeRefused` if the gate is locked or the shoe
        is empty."""
        with self._lock:
            if self.gate_locked:
                raise ShoeRefused("the shoe's gate is locked: the controller holds the table")
            if self._next >= len(self._cards):
                raise ShoeRefused("the shoe is empty")
            if self._next == self.cut_card_at:
                self.session.send(m.ShoeStatus(0, cut_card_seen=True))
            card = self._cards[self._next]
            self._next += 1
            device_ms = int(self.clock() * 1000) & 0xFFFFFFFF
            self.session.send(m.CardDrawn(0, str(card), device_ms))
            if self._next == len(self._cards):
                self.session.send(m.ShoeStatus(0, cut_card_seen=True, shoe_empty=True))
            self._flush()
            return card

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
        """Wait until the controller has ACKed every event sent so far."""
        with self._changed:
            return self._changed.wait_for(lambda: self.session.unacknowledged == 0, timeout)

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
        """Wait until ``predicate()`` holds (evaluated under the shoe's lock)."""
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
            self.session.send(m.ShoeStatus(0, gate_locked=self.gate_locked))
        elif isinstance(item, m.Lamp):
            self.lamps[item.lamp] = item.pattern
            self.session.acknowledge(item.seq)
            self.commands.append(item)
        elif isinstance(item, FrameProblem):
            self.problems.append(item)
            if item.seq is not None:
                self.session.acknowledge(item.seq)
        elif isinstance(item, m.RELIABLE_TYPES):
            log.warning("simulated shoe got a device message from the controller: %r", item)
            self.session.acknowledge(item.seq)
        elif isinstance(item, PeerHello):
            log.debug("controller said hello: %r", item.hello)

    def _flush(self) -> None:
        data = self.session.data_to_send()
        if data:
            self.last_write_at = time.perf_counter()  # for latency benchmarks
            self.link.write(data)
