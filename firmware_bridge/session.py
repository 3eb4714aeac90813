"""One end of a device link: sequence numbers, acknowledgements, resends, heartbeats.

Sans-I/O in the h11/h2 manner: the owner feeds received bytes to `receive_data`, calls
`tick` now and then (every read timeout), and writes whatever `data_to_send` returns. The
clock is injected, so tests drive time by hand. The same class serves both ends: the
controller's driver and the simulated (or real) device firmware.

Reliability, end to end:

- Every reliable message (`messages.RELIABLE_TYPES`) gets the sender's next 16-bit
  sequence number and stays in the sender's outbox until the peer ACKs it. Up to `window`
  messages are in flight; if the oldest is not ACKed within `resend_interval`, all in
  flight are sent again, oldest first (go-back-N). A NAK (the peer saw a damaged frame)
  triggers the same resend at once, at most once per quarter interval.
- The receiver delivers a reliable message only when its number is the one expected next,
  so the owner sees each message exactly once and in order. A number already delivered is a
  duplicate (a resend whose ACK was lost, or a line that doubled a frame): it is not
  delivered again, and it is re-ACKed if the owner has already recorded it. A number ahead
  of the expected one means a frame in between was lost: it is dropped, and the resend
  brings both in order.
- The owner ACKs only by calling `acknowledge(seq)`, after it has made the message durable
  (the controller journals it first). ACKs are cumulative: ACK n acknowledges every number
  up to n, so `acknowledge` must be called in delivery order.
- Numbers wrap at 65536 and are compared in serial-number arithmetic (RFC 1982): ``b`` is
  after ``a`` when ``(b - a) mod 65536`` is in 1..32767.
- HELLO opens every connection, both ways, and a HELLO that is not itself a reply is
  answered with one. It carries the sender's boot id (a random number fixed for one
  power-up) and the number of its oldest unacknowledged message. Nothing reliable is
  delivered on a connection before the peer's HELLO: a new boot id resets the expected
  number to the peer's ``next_seq``; the same boot id after a reconnect keeps counting, and
  a ``next_seq`` ahead of the expected number is reported as a `SEQUENCE_GAP` (events lost
  by the device).
- A controller restarting from its journal passes ``resume=(boot_id, last_recorded_seq)``,
  so the device's resends of messages it had already recorded are recognised as duplicates.
- Each end sends HEARTBEAT when it has sent nothing for `heartbeat_interval`; `tick`
  returns `PeerSilent` once when nothing at all has been heard for `heartbeat_timeout`,
  and `receive_data` returns `PeerHeard` when the peer speaks again.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from firmware_bridge import messages as m
from firmware_bridge.frame import FrameDecoder, FrameProblem, Problem, encode_frame

SEQ_MOD = 1 << 16
HALF = SEQ_MOD // 2


def seq_distance(later: int, earlier: int) -> int:
    """How many steps ``later`` is after ``earlier``, modulo 2**16."""
    return (later - earlier) % SEQ_MOD


@dataclass(frozen=True, slots=True)
class PeerHello:
    hello: m.Hello
    new_boot: bool  # first contact, or the peer restarted


@dataclass(frozen=True, slots=True)
class PeerSilent:
    seconds: float


@dataclass(frozen=True, slots=True)
class PeerHeard:
    pass


@dataclass(frozen=True, slots=True)
class PeerNak:
    reason: m.NakReason


Incoming = m.Reliable | FrameProblem | PeerHello | PeerSilent | PeerHeard | PeerNak

_NAK_FOR = {
    Problem.BAD_CRC: m.NakReason.BAD_FRAME,
    Problem.OVERSIZE: m.NakReason.BAD_FRAME,
    Problem.MALFORMED: m.NakReason.MALFORMED,
    Problem.UNKNOWN_MESSAGE: m.NakReason.UNKNOWN_MESSAGE,
    Problem.UNSUPPORTED_VERSION: m.NakReason.UNSUPPORTED_VERSION,
}


@dataclass(slots=True)
class _Pending:
    seq: int
    frame: bytes
    sent_at: float | None = None


@dataclass
class Counters:
    """What happened on the line, for the engineer's log and the benchmarks."""

    sent: int = 0  # reliable messages queued for the peer
    delivered: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    bad_frames: int = 0
    resends: int = 0
    naks_sent: int = 0


@dataclass
class Session:
    device_kind: int
    serial_number: str
    firmware: str
    boot_id: int
    clock: Callable[[], float]
    heartbeat_interval: float = 1.0
    heartbeat_timeout: float = 3.0
    resend_interval: float = 0.2
    window: int = 16
    resume: tuple[int, int] | None = None
    counters: Counters = field(default_factory=Counters)

    def __post_init__(self) -> None:
        if not 0 < self.boot_id < 1 << 32:
            raise ValueError("boot_id must be a non-zero 32-bit number")
        self._decoder = FrameDecoder()
        self._out = bytearray()
        self._outbox: deque[_Pending] = deque()
        self._next_seq = 1
        self.peer_boot: int | None = None
        self.peer_hello: m.Hello | None = None
        self._expected = 0
        self._recorded: int | None = None
        if self.resume is not None:
            self.peer_boot, recorded = self.resume
            self._recorded = recorded
            self._expected = (recorded + 1) % SEQ_MOD
        self._peer_ready = False
        self._silent = False
        now = self.clock()
        self._last_heard = now
        self._last_sent = now
        self._hello_sent_at: float | None = None
        self._resend_at = now

    # --- connection ---------------------------------------------------------------------

    def connect(self) -> None:
        """A (re)opened line: say HELLO and deliver nothing until the peer's HELLO."""
        self._peer_ready = False
        self._silent = False
        self._last_heard = self.clock()
        self._send_hello()

    @property
    def peer_ready(self) -> bool:
        return self._peer_ready

    def _send_hello(self, reply: bool = False) -> None:
        oldest = self._outbox[0].seq if self._outbox else self._next_seq
        hello = m.Hello(
            self.device_kind, self.boot_id, oldest, self.serial_number, self.firmware, reply
        )
        self._queue(m.encode(hello))
        if not reply:
            self._hello_sent_at = self.clock()

    # --- receiving ----------------------------------------------------------------------

    def receive_data(self, data: bytes) -> list[Incoming]:
        """Feed bytes read from the line; returns what the owner must act on, in order."""
        out: list[Incoming] = []
        for item in self._decoder.feed(data):
            if isinstance(item, FrameProblem):
                self._on_problem(item, out)
                continue
            message = m.decode(item)
            if isinstance(message, FrameProblem):
                self._on_problem(message, out)
                continue
            self._heard(out)
            if isinstance(message, m.RELIABLE_TYPES):
                self._on_reliable(message, message.seq, out)
            elif isinstance(message, m.Ack):
                self._on_ack(message.seq)
            elif isinstance(message, m.Hello):
                self._on_hello(message, out)
            elif isinstance(message, m.Nak):
                out.append(PeerNak(message.reason))
                self._resend(holdoff=self.resend_interval / 4)
        return out

    def _heard(self, out: list[Incoming]) -> None:
        self._last_heard = self.clock()
        if self._silent:
            self._silent = False
            out.append(PeerHeard())

    def _on_problem(self, problem: FrameProblem, out: list[Incoming]) -> None:
        if problem.seq is not None:
            # An intact frame with wrong content: it holds its place in the sequence.
            self._heard(out)
            self._on_reliable(problem, problem.seq, out)
            return
        self.counters.bad_frames += 1
        nak = _NAK_FOR.get(problem.problem)
        if nak is not None:
            self._queue(m.encode(m.Nak(nak)))
            self.counters.naks_sent += 1
        out.append(problem)

    def _on_reliable(self, item: m.Reliable | FrameProblem, seq: int, out: list[Incoming]) -> None:
        if not self._peer_ready:
            # Not introduced yet on this connection: ask, and let the peer resend.
            if self._hello_sent_at is None or (
                self.clock() - self._hello_sent_at >= self.resend_interval
            ):
                self._send_hello()
            return
        distance = seq_distance(seq, self._expected)
        if distance == 0:
            self._expected = (seq + 1) % SEQ_MOD
            self.counters.delivered += 1
            out.append(item)
        elif distance < HALF:
            self.counters.out_of_order += 1
        else:
            self.counters.duplicates += 1
            recorded = self._recorded
            if recorded is not None and seq_distance(recorded, seq) < HALF:
                self._queue(m.encode(m.Ack(recorded)))

    def _on_hello(self, hello: m.Hello, out: list[Incoming]) -> None:
        new_boot = hello.boot_id != self.peer_boot
        if new_boot:
            self._expected = hello.next_seq
            self._recorded = (hello.next_seq - 1) % SEQ_MOD
        elif 0 < seq_distance(hello.next_seq, self._expected) < HALF:
            lost = seq_distance(hello.next_seq, self._expected)
            out.append(
                FrameProblem(
                    Problem.SEQUENCE_GAP,
                    f"peer's oldest unacknowledged message is {hello.next_seq}, "
                    f"expected {self._expected}: {lost} lost",
                )
            )
            self._expected = hello.next_seq
        self.peer_boot = hello.boot_id
        self.peer_hello = hello
        self._peer_ready = True
        if not hello.reply:
            self._send_hello(reply=True)
        out.append(PeerHello(hello, new_boot))
        self._resend(holdoff=0.0)

    def _on_ack(self, seq: int) -> None:
        last_sent = (self._next_seq - 1) % SEQ_MOD
        if seq_distance(last_sent, seq) >= HALF:
            return  # acknowledges a number we never sent: ignore it
        while self._outbox and seq_distance(seq, self._outbox[0].seq) < HALF:
            self._outbox.popleft()
        self._transmit_new()

    # --- sending ------------------------------------------------------------------------

    def acknowledge(self, seq: int) -> None:
        """The owner has recorded message ``seq`` (and every one before it): ACK it."""
        self._recorded = seq
        self._queue(m.encode(m.Ack(seq)))

    def send(self, message: m.Reliable) -> m.Reliable:
        """Queue a reliable message; its ``seq`` is replaced by the next number. Returns it
        with the number it was given."""
        message = dataclasses.replace(message, seq=self._next_seq)
        self._enqueue(message.seq, m.encode(message))
        return message

    def send_frame(self, type_: int, payload: bytes) -> int:
        """Queue a reliable frame of any type and content; returns its sequence number.
        For fault injection: firmware that sends a well-framed but wrong message."""
        seq = self._next_seq
        self._enqueue(seq, encode_frame(type_, seq, payload))
        return seq

    def _enqueue(self, seq: int, frame: bytes) -> None:
        self._next_seq = (seq + 1) % SEQ_MOD
        self.counters.sent += 1
        self._outbox.append(_Pending(seq, frame))
        self._transmit_new()

    @property
    def unacknowledged(self) -> int:
        return len(self._outbox)

    def _transmit_new(self) -> None:
        if not self._peer_ready:
            return
        now = self.clock()
        for index, pending in enumerate(self._outbox):
            if index >= self.window:
                break
            if pending.sent_at is None:
                pending.sent_at = now
                self._queue(pending.frame)

    def _resend(self, holdoff: float) -> None:
        now = self.clock()
        if not self._peer_ready or now - self._resend_at < holdoff:
            return
        self._resend_at = now
        for index, pending in enumerate(self._outbox):
            if index >= self.window:
                break
            if pending.sent_at is not None:
                self.counters.resends += 1
            pending.sent_at = now
            self._queue(pending.frame)

    def _queue(self, frame: bytes) -> None:
        self._out += frame

    def tick(self) -> list[Incoming]:
        """Timers: resends, HELLO retries, heartbeats, and the silence check."""
        now = self.clock()
        out: list[Incoming] = []
        if not self._peer_ready:
            if self._hello_sent_at is not None and (
                now - self._hello_sent_at >= self.resend_interval
            ):
                self._send_hello()
        elif self._outbox:
            sent_at = self._outbox[0].sent_at
            if sent_at is None or now - sent_at >= self.resend_interval:
                self._resend(holdoff=0.0)
        if now - self._last_sent >= self.heartbeat_interval and not self._out:
            self._queue(m.encode(m.Heartbeat()))
        silence = now - self._last_heard
        if silence > self.heartbeat_timeout and not self._silent:
            self._silent = True
            out.append(PeerSilent(silence))
        return out

    def data_to_send(self) -> bytes:
        """Everything queued for the line since the last call (possibly nothing)."""
        if not self._out:
            return b""
        data = bytes(self._out)
        self._out.clear()
        self._last_sent = self.clock()
        return data
