"""Simulated shoes with one deliberate fault each, for `tablectl shoe-conformance`.

Each is the simulated shoe (`sim_hardware.shoe.SimulatedShoe`) with one thing a firmware
author could get wrong, so that the conformance kit can be shown to fail exactly the case
of docs/protocol.md that the fault breaks, and no other. `BROKEN_SHOES` maps the case a
shoe breaks to the shoe.
"""

from __future__ import annotations

import struct
from typing import Any, ClassVar

from controller.cards import Card
from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem
from firmware_bridge.session import Incoming, Session
from sim_hardware.shoe import SimulatedShoe

_NAKS = {m.encode(m.Nak(reason)) for reason in m.NakReason}


class _OneHelloSession(Session):
    """Says HELLO once and never repeats it until answered."""

    _said = False

    def _send_hello(self, reply: bool = False) -> None:
        if reply or not self._said:
            self._said = True
            super()._send_hello(reply)


class _NoResendSession(Session):
    """Never resends on its timer (still on a HELLO)."""

    def tick(self) -> list[Incoming]:
        for pending in self._outbox:
            if pending.sent_at is not None:
                pending.sent_at = self.clock()  # never overdue
        return super().tick()


class _NoNakSession(Session):
    """Swallows damaged frames silently instead of answering NAK."""

    def _queue(self, frame: bytes) -> None:
        if frame not in _NAKS:
            super()._queue(frame)


class _WholeReadsSession(Session):
    """Only decodes a read that holds whole frames: a frame split across reads is lost."""

    def receive_data(self, data: bytes) -> list[Incoming]:
        if not (data.startswith(b"\x00") and data.endswith(b"\x00")):
            return []
        return super().receive_data(data)


class _NoGapCheckSession(Session):
    """Takes a sequence number ahead of the expected one as if nothing were missing."""

    def _on_reliable(self, item: m.Reliable | FrameProblem, seq: int, out: list[Any]) -> None:
        if self._peer_ready and 0 < (seq - self._expected) % 65536 < 32768:
            self._expected = seq
        super()._on_reliable(item, seq, out)


class _KeepsNumberingSession(Session):
    """Keeps its expected number when the controller says HELLO with a new boot id."""

    def _on_hello(self, hello: m.Hello, out: list[Incoming]) -> None:
        expected, known = self._expected, self.peer_boot is not None
        super()._on_hello(hello, out)
        if known:
            self._expected = expected


class _DeafAfterSilenceSession(Session):
    """After a silence it takes nothing until the controller says HELLO again."""

    def tick(self) -> list[Incoming]:
        out = super().tick()
        if self._silent:
            self._peer_ready = False
        return out

    def _send_hello(self, reply: bool = False) -> None:
        if reply or self.peer_hello is None:
            super()._send_hello(reply)


class _Shoe(SimulatedShoe):
    """A simulated shoe with the given session (and keyword defaults)."""

    defaults: ClassVar[dict[str, Any]] = {}

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **{**self.defaults, **kw})


def _shoe_running(session: type[Session]) -> type[SimulatedShoe]:
    """The simulated shoe, its firmware running ``session`` (a session with one fault)."""
    name = session.__name__.strip("_").removesuffix("Session") + "Shoe"
    shoe: type[SimulatedShoe] = type(name, (_Shoe,), {"session_type": session})
    shoe.__doc__ = session.__doc__
    return shoe


class SlowHeartbeatShoe(_Shoe):
    """Sends a heartbeat only every 2.5 s: within the controller's 3 s loss timeout on a
    quiet line, but not the 1 s a device must keep."""

    defaults: ClassVar[dict[str, Any]] = {"heartbeat_interval": 2.5}


class UpperCaseCardShoe(_Shoe):
    """Sends card codes all in capitals (``AS``, ``2D``): not cards of docs/protocol.md,
    whose suits are ``shdc``."""

    def _send_card(self, card: Card, device_ms: int) -> None:
        payload = str(card).upper().encode("ascii") + struct.pack(">I", device_ms)
        self.session.send_frame(m.MessageType.CARD_DRAWN, payload)


class SilentGateShoe(_Shoe):
    """Obeys and ACKs gate commands but never reports the gate in SHOE_STATUS."""

    def _status(self) -> m.ShoeStatus:
        return m.ShoeStatus(0, cut_card_seen=self.cut_card_out)

    def _obey(self, item: object) -> None:
        if isinstance(item, m.GateLock | m.GateUnlock):
            self.gate_locked = isinstance(item, m.GateLock)
            self.session.acknowledge(item.seq)
            self.commands.append(item)
            return
        super()._obey(item)


BROKEN_SHOES: dict[str, type[SimulatedShoe]] = {
    "handshake": _shoe_running(_OneHelloSession),
    "vectors": UpperCaseCardShoe,
    "heartbeat": SlowHeartbeatShoe,
    "gate": SilentGateShoe,
    "ack-resend": _shoe_running(_NoResendSession),
    "bad-crc": _shoe_running(_NoNakSession),
    "split-joined": _shoe_running(_WholeReadsSession),
    "sequence": _shoe_running(_NoGapCheckSession),
    "heartbeat-loss": _shoe_running(_DeafAfterSilenceSession),
    "boot-id": _shoe_running(_KeepsNumberingSession),
}
"""The case of `controller.app.tools.conformance` each broken shoe fails."""
