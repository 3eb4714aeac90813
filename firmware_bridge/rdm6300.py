"""The RDM6300-style 125 kHz RFID reader frame: bytes in, tag reads out. No I/O, no clock.

An RDM6300 (and its many clones) speaks 9600 baud, 8N1, and sends one 14-byte frame per
read. Everything between the start and end bytes is ASCII hexadecimal::

    offset  0     1 .. 2     3 .. 10             11 .. 12     13
          +-----+----------+-------------------+------------+-----+
          | STX | version  | tag id            | checksum   | ETX |
          | 02  | 2 hex    | 8 hex (4 bytes)   | 2 hex      | 03  |
          +-----+----------+-------------------+------------+-----+
                 |__ 10 ASCII hex = 5 data bytes __|
                 checksum = XOR of the 5 data bytes, as 2 ASCII hex

Worked example (docs/rfid.md; the tests check these exact bytes): data bytes
``0F 00 2A 3B 5C`` give the checksum ``0F ^ 00 ^ 2A ^ 3B ^ 5C = 42`` and the frame
``02 30 46 30 30 32 41 33 42 35 43 34 32 03`` (``\\x02 "0F002A3B5C" "42" \\x03``). The tag
is reported as the 10 hex digits ``0F002A3B5C``; keyboard-style readers usually print the
last four bytes in decimal instead, ``0002767708`` (`TagFrame.decimal`).

Recovery (the pymodbus framer habit): bytes before an STX are junk and are skipped (and
counted). A frame is checked byte by byte as it arrives: a non-hex byte where a hex digit
belongs, or anything but ETX at offset 13, ends it as a `FrameProblem` ``malformed``; the
decoder then drops only that frame's STX and searches on, so a valid frame whose STX sat
inside the broken one is still found. Hex digits never equal STX, so a later STX is always
a possible frame start. A complete frame whose checksum does not match is a `FrameProblem`
``bad-checksum``. Problems are returned as values, never raised: a noisy line must not stop
the reader thread. Reads may be split anywhere; the decoder keeps at most one partial frame.

The reader repeats the frame for as long as a tag stays in its field. `PresenceFilter`
turns those repeats into one read per presentation; the caller passes the time in (the
driver injects a clock), so it replays exactly in tests.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.errors import BridgeError

STX = 0x02
ETX = 0x03
FRAME_LENGTH = 14
DATA_BYTES = 5
BAUDRATE = 9600

_HEX = frozenset(b"0123456789ABCDEFabcdef")
_CHECKSUM_END = 1 + 2 * DATA_BYTES + 2  # offset of ETX


class ProblemKind(StrEnum):
    """Why a frame was not a read. The values match `controller.ports.Fault`."""

    BAD_CHECKSUM = "bad-checksum"
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class TagFrame:
    """One good frame: the 5 data bytes. ``tag`` is their 10 uppercase hex digits."""

    data: bytes

    @property
    def tag(self) -> str:
        return self.data.hex().upper()

    @property
    def version(self) -> int:
        """The first data byte (card version or customer code)."""
        return self.data[0]

    @property
    def decimal(self) -> str:
        """The last four data bytes as a 10-digit decimal: what USB keyboard readers type."""
        return f"{int.from_bytes(self.data[1:], 'big'):010d}"


@dataclass(frozen=True, slots=True)
class FrameProblem:
    """Bytes that started a frame but were not a good one. Reported, never raised."""

    kind: ProblemKind
    raw: bytes
    detail: str


Decoded = TagFrame | FrameProblem


def checksum(data: bytes) -> int:
    """XOR of the data bytes: the RDM6300 checksum."""
    value = 0
    for byte in data:
        value ^= byte
    return value


def encode(tag: str | bytes, *, bad_checksum: bool = False) -> bytes:
    """The 14-byte frame for ``tag`` (10 hex digits, or the 5 data bytes).

    ``bad_checksum=True`` flips the checksum, for the simulator's fault injection.
    Raises `BridgeError` for a tag that is not 5 bytes.
    """
    if isinstance(tag, str):
        try:
            data = bytes.fromhex(tag)
        except ValueError as exc:
            raise BridgeError(f"RDM6300 tag {tag!r} is not hexadecimal") from exc
    else:
        data = bytes(tag)
    if len(data) != DATA_BYTES:
        raise BridgeError(f"an RDM6300 tag is {DATA_BYTES} bytes (10 hex digits), not {tag!r}")
    check = checksum(data) ^ (0xFF if bad_checksum else 0)
    return bytes([STX]) + data.hex().upper().encode("ascii") + f"{check:02X}".encode() + b"\x03"


class Rdm6300Decoder:
    """Incremental decoder: `feed` any bytes, get the reads and problems they complete."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.skipped = 0
        """Junk bytes dropped outside any frame (a counter for the log)."""

    @property
    def pending(self) -> int:
        """Bytes held of a frame not yet complete."""
        return len(self._buffer)

    def feed(self, chunk: bytes) -> list[Decoded]:
        self._buffer += chunk
        out: list[Decoded] = []
        while self._buffer:
            start = self._buffer.find(STX)
            if start < 0:
                self.skipped += len(self._buffer)
                self._buffer.clear()
                break
            if start:
                self.skipped += start
                del self._buffer[:start]
            result = self._check_frame()
            if result is None:
                break  # a good partial frame: wait for more bytes
            out.append(result)
        return out

    def _check_frame(self) -> Decoded | None:
        """Judge the frame that starts at buffer[0]; consume it if it is finished."""
        buf = self._buffer
        for offset in range(1, min(len(buf), FRAME_LENGTH)):
            byte = buf[offset]
            if offset < _CHECKSUM_END and byte not in _HEX:
                what = "STX" if byte == STX else f"0x{byte:02X}"
                return self._malformed(offset, f"{what} at offset {offset}, expected hex")
            if offset == _CHECKSUM_END and byte != ETX:
                return self._malformed(offset, f"0x{byte:02X} at offset 13, expected ETX")
        if len(buf) < FRAME_LENGTH:
            return None
        raw = bytes(buf[:FRAME_LENGTH])
        del buf[:FRAME_LENGTH]
        data = bytes.fromhex(raw[1:11].decode("ascii"))
        sent = int(raw[11:13], 16)
        if checksum(data) != sent:
            return FrameProblem(
                ProblemKind.BAD_CHECKSUM,
                raw,
                f"checksum {sent:02X} sent, {checksum(data):02X} computed for {data.hex().upper()}",
            )
        return TagFrame(data)

    def _malformed(self, offset: int, detail: str) -> FrameProblem:
        # Keep everything after the STX: a later STX in it may start a good frame.
        raw = bytes(self._buffer[: offset + 1])
        del self._buffer[:1]
        return FrameProblem(ProblemKind.MALFORMED, raw, detail)


class PresenceFilter:
    """One read per presentation of a tag, from a reader that repeats while it sees one.

    A tag is a new presentation when it was not seen in the last ``hold`` seconds; every
    sighting (not only the first) restarts its hold, so a tag left in the field for a
    minute is still one read. Tags are tracked separately, so two tags flickering in the
    field do not read again and again. ``now`` is any monotonic clock in seconds.
    """

    def __init__(self, hold: float = 1.0) -> None:
        if hold <= 0:
            raise BridgeError(f"presence hold must be positive, not {hold!r}")
        self.hold = hold
        self._last_seen: dict[str, float] = {}

    def seen(self, tag: str, now: float) -> bool:
        """Record a sighting; True when it starts a new presentation."""
        self._forget_before(now - self.hold)
        new = tag not in self._last_seen
        self._last_seen[tag] = now
        return new

    def present(self, now: float) -> frozenset[str]:
        """Tags still within their hold at ``now``."""
        self._forget_before(now - self.hold)
        return frozenset(self._last_seen)

    def _forget_before(self, cutoff: float) -> None:
        for tag in [t for t, at in self._last_seen.items() if at <= cutoff]:
            del self._last_seen[tag]
