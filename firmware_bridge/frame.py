"""Framing: bytes on the line to frames and back. Pure, no I/O.

One frame on the wire (all multi-byte integers big-endian)::

    0x00 | COBS( type:u8 | seq:u16 | len:u8 | payload:len bytes | crc:u16 ) | 0x00

- ``type`` is the message type (see `firmware_bridge.messages`).
- ``seq`` is the sender's sequence number for messages that are acknowledged, the
  acknowledged number in an ACK, and 0 otherwise.
- ``len`` is the payload length, at most `MAX_PAYLOAD`.
- ``crc`` is CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection,
  no final XOR; ``binascii.crc_hqx(data, 0xFFFF)``) over type, seq, len and payload.
- COBS (Consistent Overhead Byte Stuffing) removes every 0x00 from the frame body, so a
  0x00 on the line always means "frame boundary".

Why a delimiter on both sides: a receiver that starts listening mid-stream, or that sees
line noise, throws away everything up to the next 0x00 and is in step again at the very
next frame. Junk before a frame ends at the frame's leading 0x00; junk inside a frame
spoils only that frame (its CRC fails); junk after it starts a chunk that the next
frame's leading 0x00 ends. Empty chunks (two delimiters in a row) are ignored. A chunk
longer than the largest legal frame is dropped as it arrives, so junk cannot make the
decoder buffer without limit.

`FrameDecoder.feed` takes whatever bytes a read returned (a partial frame, several frames,
junk) and returns what it completed: `Frame` values and `Problem` values. It never raises
on line data.
"""

from __future__ import annotations

import binascii
import enum
import struct
from dataclasses import dataclass

from firmware_bridge.errors import BridgeError

DELIMITER = 0x00
HEADER = struct.Struct(">BHB")  # type, seq, len
CRC = struct.Struct(">H")
MAX_PAYLOAD = 64
MAX_BODY = HEADER.size + MAX_PAYLOAD + CRC.size
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 1  # COBS adds one byte per 254, plus one


class Problem(enum.Enum):
    """What can be wrong with bytes on the line. Values match `controller.ports.Fault`."""

    BAD_CRC = "bad-crc"
    MALFORMED = "malformed"
    OVERSIZE = "oversize"
    UNKNOWN_MESSAGE = "unknown-message"
    BAD_CARD = "bad-card"
    UNSUPPORTED_VERSION = "unsupported-version"
    SEQUENCE_GAP = "sequence-gap"


@dataclass(frozen=True, slots=True)
class Frame:
    type: int
    seq: int
    payload: bytes


@dataclass(frozen=True, slots=True)
class FrameProblem:
    """Something on the line that is not a usable frame. ``seq`` is set when the frame
    itself was intact (its CRC matched) but its content was wrong: such a frame still takes
    its place in the sequence, so it is recorded and acknowledged like any event."""

    problem: Problem
    detail: str
    seq: int | None = None


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE. ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """COBS-encode ``data``: the result holds no 0x00 byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:  # a full block: code 0xFF, no zero implied after it
                out.append(0xFF)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo `cobs_encode`. Raises `BridgeError` on a malformed encoding."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise BridgeError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise BridgeError("COBS block runs past the end of the frame")
        out += data[i + 1 : end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(type_: int, seq: int, payload: bytes = b"") -> bytes:
    """One frame, delimiters included, ready to write to the line."""
    if not 0 <= type_ <= 0xFF:
        raise BridgeError(f"message type {type_} does not fit in one byte")
    if not 0 <= seq <= 0xFFFF:
        raise BridgeError(f"sequence number {seq} does not fit in 16 bits")
    if len(payload) > MAX_PAYLOAD:
        raise BridgeError(f"payload of {len(payload)} bytes is over {MAX_PAYLOAD}")
    body = HEADER.pack(type_, seq, len(payload)) + payload
    body += CRC.pack(crc16(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_body(chunk: bytes) -> Frame | FrameProblem:
    """Decode the bytes between two delimiters."""
    try:
        body = cobs_decode(chunk)
    except BridgeError as exc:
        return FrameProblem(Problem.BAD_CRC, f"damaged frame ({exc})")
    if len(body) < HEADER.size + CRC.size:
        return FrameProblem(Problem.MALFORMED, f"frame of {len(body)} bytes is too short")
    (crc,) = CRC.unpack_from(body, len(body) - CRC.size)
    if crc16(body[: -CRC.size]) != crc:
        return FrameProblem(Problem.BAD_CRC, f"CRC mismatch on a {len(body)}-byte frame")
    type_, seq, length = HEADER.unpack_from(body)
    payload = body[HEADER.size : -CRC.size]
    if length > MAX_PAYLOAD:
        return FrameProblem(Problem.OVERSIZE, f"declared length {length} over {MAX_PAYLOAD}")
    if length != len(payload):
        return FrameProblem(
            Problem.MALFORMED, f"declared length {length}, payload has {len(payload)} bytes"
        )
    return Frame(type_, seq, payload)


class FrameDecoder:
    """Incremental decoder: feed it reads, get back completed frames and problems."""

    def __init__(self) -> None:
        self._chunk = bytearray()
        self._overflowed = False
        self.junk_bytes = 0  # bytes discarded in oversize chunks, for the engineer's log

    def feed(self, data: bytes) -> list[Frame | FrameProblem]:
        out: list[Frame | FrameProblem] = []
        start = 0
        while True:
            end = data.find(b"\x00", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overflowed:
                self._chunk += piece
                if len(self._chunk) > MAX_ENCODED:
                    self._overflowed = True
                    self.junk_bytes += len(self._chunk)
                    self._chunk.clear()
            else:
                self.junk_bytes += len(piece)
            if end < 0:
                return out
            if self._overflowed:
                out.append(
                    FrameProblem(Problem.OVERSIZE, f"no frame boundary within {MAX_ENCODED} bytes")
                )
                self._overflowed = False
            elif self._chunk:
                out.append(decode_body(bytes(self._chunk)))
                self._chunk.clear()
            start = end + 1
