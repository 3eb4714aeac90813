"""The conformance kit's end of the line (`controller.app.tools.conformance`): raw frames.

The kit speaks raw frames (`firmware_bridge.frame`, `firmware_bridge.messages`), not the
reference session, so that it can send what a controller never would: a frame with a bad
CRC, a frame cut into single bytes, two frames in one write. `Wire` keeps everything it
heard, with the time it came, so a case can judge timings (a resend, a heartbeat) after
the fact.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import serial

from drivers.transport import read_available
from firmware_bridge import messages as m
from firmware_bridge.frame import CRC, HEADER, FrameDecoder, FrameProblem, cobs_encode, crc16

__all__ = ["Heard", "Wire", "bad_crc_frame", "reliable_seq"]


@dataclasses.dataclass(frozen=True, slots=True)
class Heard:
    """Something the shoe sent, when (monotonic seconds)."""

    at: float
    item: m.Message | FrameProblem


class Wire:
    """The kit's end of the line: raw frames out, decoded frames in, all of them kept."""

    def __init__(self, port: serial.SerialBase) -> None:
        self.port = port
        self._decoder = FrameDecoder()
        self.heard: list[Heard] = []
        self.auto_ack = True  # ACK every reliable message as it comes (the journal is instant)

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.port.flush()

    def send(self, message: m.Message) -> None:
        self.write(m.encode(message))

    def poll(self, timeout: float) -> list[Heard]:
        """Read what arrives within ``timeout``; every item is kept in `heard`."""
        data = read_available(self.port, timeout)
        now = time.monotonic()
        out: list[Heard] = []
        for frame in self._decoder.feed(data) if data else []:
            item = frame if isinstance(frame, FrameProblem) else m.decode(frame)
            out.append(Heard(now, item))
        self.heard += out
        for heard in out:
            seq = reliable_seq(heard.item)
            if seq is not None and self.auto_ack:
                self.send(m.Ack(seq))
        return out

    def until(
        self, match: Callable[[Any], bool], timeout: float, since: int | None = None
    ) -> Heard | None:
        """Wait up to ``timeout`` for an item that ``match`` accepts (looking first at what
        was heard from index ``since`` on, when given)."""
        for heard in self.heard[since:] if since is not None else ():
            if match(heard.item):
                return heard
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            for heard in self.poll(min(left, 0.05)):
                if match(heard.item):
                    return heard
        return None

    def listen(self, duration: float, *, keepalive: bool = True) -> list[Heard]:
        """Everything heard in the next ``duration`` seconds; with ``keepalive`` the kit
        sends a HEARTBEAT every 0.5 s meanwhile, as a controller does."""
        got: list[Heard] = []
        deadline = time.monotonic() + duration
        beat = time.monotonic()
        while (left := deadline - time.monotonic()) > 0:
            if keepalive and time.monotonic() - beat >= 0.5:
                self.send(m.Heartbeat())
                beat = time.monotonic()
            got += self.poll(min(left, 0.05))
        return got


def reliable_seq(item: object) -> int | None:
    if isinstance(item, m.RELIABLE_TYPES):
        return item.seq
    if isinstance(item, FrameProblem):
        return item.seq
    return None


def bad_crc_frame(message: m.Reliable) -> bytes:
    """``message`` framed with its CRC inverted (COBS and delimiters intact)."""
    header = HEADER.pack(_TYPE[type(message)], message.seq, 0)
    body = header + CRC.pack(crc16(header) ^ 0xFFFF)
    return b"\x00" + cobs_encode(body) + b"\x00"


_TYPE = {m.GateLock: m.MessageType.GATE_LOCK, m.GateUnlock: m.MessageType.GATE_UNLOCK}
