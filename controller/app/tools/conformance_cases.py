"""The cases of docs/protocol.md that the conformance kit plays against one shoe.

Each case is a method of `Conformance` that records one `Result` naming the section of
docs/protocol.md it checks; `Conformance.run` plays them in the order a shoe meets them in
service (handshake first: with no connection nothing else can be checked). The kit's own
numbering starts at 65535, so the wrap from 65535 to 0 falls inside the sequence case.
When a case needs a card out of the shoe it calls ``draw`` (a person, or the simulator).
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
import time
from collections.abc import Callable
from typing import Any, TextIO

from controller.app.tools.conformance_wire import Heard, Wire, bad_crc_frame, reliable_seq
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem, Problem

__all__ = ["CASES", "Conformance", "Result"]


@dataclasses.dataclass(frozen=True, slots=True)
class Result:
    case: str
    section: str
    passed: bool
    detail: str


def _gate_report(locked: bool) -> Callable[[Any], bool]:
    def match(item: Any) -> bool:
        return isinstance(item, m.ShoeStatus) and item.gate_locked is locked

    return match


class Conformance:
    """The cases of docs/protocol.md, played in order against one shoe."""

    def __init__(self, wire: Wire, draw: Callable[[], None], out: TextIO) -> None:
        self.wire = wire
        self.draw = draw
        self.out = out
        self.next_seq = 65535  # the wrap from 65535 to 0 falls in the sequence case
        self.kit_boot = secrets.randbits(32) or 1
        self.results: list[Result] = []
        self.hello: m.Hello | None = None
        self.unacked: list[m.Reliable] = []  # the kit's commands not yet ACKed

    # --- helpers ------------------------------------------------------------------------

    def _command(self, kind: type[m.GateLock] | type[m.GateUnlock]) -> m.Reliable:
        message = kind(self.next_seq)
        self.next_seq = (self.next_seq + 1) % 65536
        self.unacked.append(message)
        return message

    def _acked(self, seq: int, timeout: float = 1.5) -> bool:
        acked = self.wire.until(lambda i: isinstance(i, m.Ack) and i.seq == seq, timeout)
        if acked is not None:  # cumulative: everything up to seq
            while self.unacked and (seq - self.unacked[0].seq) % 65536 < 32768:
                self.unacked.pop(0)
        return acked is not None

    def _resync(self) -> None:
        """Before a case: resend what an earlier (failed) case left unacknowledged, as a
        controller's resend would, so that one failure does not spill into the next."""
        if not self.unacked:
            return
        last = self.unacked[-1].seq
        self.wire.write(b"".join(m.encode(message) for message in self.unacked))
        self._acked(last, 1.0)
        self.unacked.clear()  # given up on: the next case starts clean either way

    def _say_hello(self, reply: bool = False, boot_id: int | None = None) -> None:
        self.wire.send(
            m.Hello(
                m.DeviceKind.CONTROLLER,
                boot_id or self.kit_boot,
                self.next_seq,
                "conformance",
                "tablectl-kit",
                reply,
            )
        )

    def _card(self, timeout: float) -> Heard | None:
        """Ask for a card; the CARD_DRAWN (or its intact but wrong frame) that comes."""
        self.draw()
        return self.wire.until(
            lambda i: (
                isinstance(i, m.CardDrawn) or (isinstance(i, FrameProblem) and i.seq is not None)
            ),
            timeout,
        )

    def _record(self, case: str, section: str, passed: bool, detail: str) -> None:
        self.results.append(Result(case, section, passed, detail))
        word = "pass" if passed else "FAIL"
        print(f"  {case:<15} {word}  {detail}", file=self.out, flush=True)

    # --- the cases ------------------------------------------------------------------------

    def handshake(self) -> None:
        section = "Starting a connection: HELLO"
        hellos = [h for h in self.wire.listen(0.8) if isinstance(h.item, m.Hello)]
        asks = [h for h in hellos if not h.item.reply]  # type: ignore[union-attr]
        self._say_hello()
        reply = self.wire.until(lambda i: isinstance(i, m.Hello) and i.reply, 1.5)
        if reply is None:
            self._record("handshake", section, False, "no HELLO reply to the kit's HELLO")
            return
        hello = reply.item
        assert isinstance(hello, m.Hello)
        self.hello = hello
        if len(asks) < 2:
            detail = f"{len(asks)} HELLO(s) in 0.8 s unanswered: must repeat until answered"
            self._record("handshake", section, False, detail)
            return
        self._say_hello(reply=True)
        detail = f"repeated its HELLO ({len(asks)} in 0.8 s) and answered the kit's"
        self._record("handshake", section, True, detail)

    def vectors(self) -> None:
        """Every frame the shoe sent decoded, with the fields the page defines."""
        section = "Frames; Messages; Test vectors"
        problems = [h.item for h in self.wire.heard if isinstance(h.item, FrameProblem)]
        hello = self.hello
        if hello is not None and (
            hello.protocol_version != 1 or hello.device_kind != m.DeviceKind.SHOE
        ):
            what = f"HELLO version {hello.protocol_version}, kind {hello.device_kind}"
            problems.append(FrameProblem(Problem.MALFORMED, what))
        cards = sum(isinstance(h.item, m.CardDrawn) for h in self.wire.heard)
        if problems:
            named = dict.fromkeys(f"{p.problem.value}: {p.detail}" for p in problems)
            detail = "; ".join(list(named)[:3])
            self._record("vectors", section, False, detail)
        else:
            detail = f"{len(self.wire.heard)} frames decoded, {cards} cards, HELLO v1 shoe"
            self._record("vectors", section, True, detail)

    def sequence(self) -> None:
        section = "Reliability: sequence numbers, exactly once, in order"
        first = self._command(m.GateLock)  # 65535, skipped to make a gap
        second = self._command(m.GateLock)  # 0
        self.wire.send(second)
        if self._acked(second.seq, 0.6):
            self._record("sequence", section, False, f"{second.seq} after a gap was ACKed")
            return
        self.wire.write(m.encode(first) + m.encode(second))  # the resend brings both
        ok = self._acked(second.seq)
        third = self._command(m.GateLock)  # 1: after the wrap
        self.wire.send(third)
        ok = ok and self._acked(third.seq)
        detail = f"dropped {second.seq} after a gap; then {first.seq}, {second.seq}, {third.seq}"
        self._record("sequence", section, ok, detail + (" ACKed" if ok else ": not all ACKed"))

    def heartbeat(self) -> None:
        section = "Timings: heartbeat interval"
        start = time.monotonic()
        heard = self.wire.listen(3.2)
        times = [start, *(h.at for h in heard), time.monotonic()]
        longest = max(b - a for a, b in itertools.pairwise(times))
        ok = longest <= 1.25
        self._record("heartbeat", section, ok, f"longest silence {longest:.2f} s (must be ≤ 1 s)")

    def gate(self) -> None:
        section = "Commands: what the controller sends, and when"
        details = []
        ok = True
        for kind, locked in ((m.GateUnlock, False), (m.GateLock, True)):
            command = self._command(kind)
            mark = len(self.wire.heard)
            self.wire.send(command)
            acked = self._acked(command.seq)
            status = self.wire.until(_gate_report(locked), 1.5, since=mark)
            ok = ok and acked and status is not None
            details.append(
                f"{kind.__name__} {'ACKed' if acked else 'not ACKed'}, "
                f"{'reported' if status else 'not reported in SHOE_STATUS'}"
            )
        self._record("gate", section, ok, "; ".join(details))

    def ack_resend(self) -> None:
        section = "Reliability: acknowledgement, resend"
        unlock = self._command(m.GateUnlock)
        self.wire.send(unlock)
        self._acked(unlock.seq)
        self.wire.auto_ack = False
        try:
            card = self._card(30.0)
            if card is None:
                self._record("ack-resend", section, False, "no card came (draw one when asked)")
                return
            seq = reliable_seq(card.item)
            again = self.wire.until(lambda i: reliable_seq(i) == seq, 2.0)
            if again is None:
                self._record("ack-resend", section, False, f"event {seq} not resent in 2 s")
                return
            waited = again.at - card.at
            self.wire.send(m.Ack(seq or 0))
            self.wire.poll(0.3)  # a resend already on its way may still come
            after = self.wire.listen(1.0)
            stale = [h for h in after if reliable_seq(h.item) == seq]
        finally:
            self.wire.auto_ack = True
        ok = not stale
        detail = f"event {seq} resent after {waited:.2f} s until ACKed"
        self._record("ack-resend", section, ok, detail + ("" if ok else "; resent after its ACK"))

    def bad_crc(self) -> None:
        section = "Recovering from a bad line; What the controller reports"
        command = self._command(m.GateLock)
        self.wire.write(bad_crc_frame(command))
        nak = self.wire.until(
            lambda i: isinstance(i, m.Nak) and i.reason == m.NakReason.BAD_FRAME, 1.5
        )
        self.wire.send(command)
        acked = self._acked(command.seq)
        ok = nak is not None and acked
        detail = ("NAK(BAD_FRAME)" if nak else "no NAK") + (
            ", then the good frame ACKed" if acked else ", the good frame not ACKed"
        )
        self._record("bad-crc", section, ok, detail)

    def split_joined(self) -> None:
        section = "Recovering from a bad line: a read may end anywhere"
        split = self._command(m.GateLock)
        for byte in m.encode(split):
            self.wire.write(bytes([byte]))
            time.sleep(0.005)  # the bytes trickle in one by one: the case itself
        split_ok = self._acked(split.seq)
        first, second = self._command(m.GateUnlock), self._command(m.GateLock)
        self.wire.write(m.encode(first) + m.encode(second))
        joined_ok = self._acked(second.seq)
        detail = (
            f"a frame byte by byte {'ACKed' if split_ok else 'lost'}; "
            f"two frames in one write {'ACKed' if joined_ok else 'not ACKed'}"
        )
        self._record("split-joined", section, split_ok and joined_ok, detail)

    def heartbeat_loss(self) -> None:
        section = "Starting a connection: after a silence; Timings: loss timeout"
        self.wire.listen(0.3)  # everything ACKed first
        self.wire.auto_ack = False
        try:
            self.wire.listen(3.5, keepalive=False)  # the kit says nothing: gone quiet
        finally:
            self.wire.auto_ack = True
        self.wire.send(m.Heartbeat())
        command = self._command(m.GateLock)
        self.wire.send(command)
        ok = self._acked(command.seq, 2.0)
        detail = "after 3.5 s of silence a command was " + (
            "ACKed without a new HELLO" if ok else "not ACKed (a device must not need HELLO)"
        )
        self._record("heartbeat-loss", section, ok, detail)

    def boot_id(self) -> None:
        section = "Starting a connection: HELLO (a new boot id)"
        self.kit_boot = secrets.randbits(32) or 1
        self.next_seq = 1  # a restarted controller numbers from 1 again
        self._say_hello()
        reply = self.wire.until(lambda i: isinstance(i, m.Hello) and i.reply, 1.5)
        command = self._command(m.GateLock)
        self.wire.send(command)
        acked = self._acked(command.seq)
        ok = reply is not None and acked
        detail = ("HELLO answered" if reply else "HELLO not answered") + (
            f", command {command.seq} of the new boot ACKed"
            if acked
            else f", command {command.seq} of the new boot not ACKed"
        )
        self._record("boot-id", section, ok, detail)

    def run(self) -> list[Result]:
        self.handshake()
        if not self.results[-1].passed and self.hello is None:
            return self.results  # no connection: nothing else can be checked
        for case in (
            self.sequence,
            self.heartbeat,
            self.gate,
            self.ack_resend,
            self.bad_crc,
            self.split_joined,
            self.heartbeat_loss,
            self.boot_id,
        ):
            self._resync()
            case()
        self.vectors()
        order = list(CASES)
        self.results.sort(key=lambda r: order.index(r.case))
        return self.results


CASES = (
    "handshake",
    "vectors",
    "sequence",
    "heartbeat",
    "gate",
    "ack-resend",
    "bad-crc",
    "split-joined",
    "heartbeat-loss",
    "boot-id",
)
