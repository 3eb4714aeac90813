"""The messages of the table device protocol, version 1, and their payloads. Pure.

Every message travels in one frame (`firmware_bridge.frame`); this module turns frames
into messages and back. Payload layouts, all integers big-endian (docs/protocol.md has
them byte for byte, with test vectors):

====  ============  =========  ==============================================================
type  name          direction  payload
====  ============  =========  ==============================================================
0x01  HELLO         both       version:u8 kind:u8 flags:u8 (bit 0: this answers your HELLO)
                               boot_id:u32 next_seq:u16 serial_len:u8 serial:ascii
                               firmware_len:u8 firmware:ascii
0x02  HEARTBEAT     both       (none)
0x03  ACK           both       (none; the frame's seq is the number acknowledged)
0x04  NAK           both       reason:u8 (a `NakReason`)
0x10  CARD_DRAWN    device     card:2 ascii ("As", "Td") device_ms:u32
0x11  SHOE_STATUS   device     flags:u8 (bit 0 cut card seen, 1 shoe empty, 2 door open,
                                         3 gate locked)
0x12  CHIPS_SENSED  device     total:u32 spot:ascii (the rest of the payload)
0x13  CHIP_IDS      device     count:u8, count x (uid:u64 value:u32), spot:ascii (the rest)
0x20  GATE_LOCK     controller (none)
0x21  GATE_UNLOCK   controller (none)
0x22  LAMP          controller lamp:u8 pattern:u8 (a `LampPattern`)
====  ============  =========  ==============================================================

CARD_DRAWN, SHOE_STATUS, CHIPS_SENSED, CHIP_IDS, GATE_LOCK, GATE_UNLOCK and LAMP are
*reliable*: they carry the sender's sequence number and are resent until acknowledged (see
`firmware_bridge.session`). The others carry seq 0, except ACK, whose seq is the number it
acknowledges.
"""

from __future__ import annotations

import enum
import struct
from dataclasses import dataclass

from firmware_bridge.errors import BridgeError
from firmware_bridge.frame import Frame, FrameProblem, Problem, encode_frame

PROTOCOL_VERSION = 1
CARD_RANKS = "23456789TJQKA"
CARD_SUITS = "shdc"


class MessageType(enum.IntEnum):
    HELLO = 0x01
    HEARTBEAT = 0x02
    ACK = 0x03
    NAK = 0x04
    CARD_DRAWN = 0x10
    SHOE_STATUS = 0x11
    CHIPS_SENSED = 0x12
    CHIP_IDS = 0x13
    GATE_LOCK = 0x20
    GATE_UNLOCK = 0x21
    LAMP = 0x22


class DeviceKind(enum.IntEnum):
    SHOE = 1
    CHIP_READER = 2
    CONTROLLER = 0x80


class NakReason(enum.IntEnum):
    BAD_FRAME = 1  # CRC mismatch or damaged framing: please resend
    UNKNOWN_MESSAGE = 2
    MALFORMED = 3
    UNSUPPORTED_VERSION = 4


class LampPattern(enum.IntEnum):
    OFF = 0
    STEADY = 1
    BLINK = 2
    PULSE = 3
    FLASH = 4


@dataclass(frozen=True, slots=True)
class Hello:
    device_kind: int
    boot_id: int
    next_seq: int
    serial_number: str
    firmware: str
    reply: bool = False
    protocol_version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class Heartbeat:
    pass


@dataclass(frozen=True, slots=True)
class Ack:
    seq: int


@dataclass(frozen=True, slots=True)
class Nak:
    reason: NakReason


@dataclass(frozen=True, slots=True)
class CardDrawn:
    seq: int
    card: str
    device_ms: int


@dataclass(frozen=True, slots=True)
class ShoeStatus:
    seq: int
    cut_card_seen: bool = False
    shoe_empty: bool = False
    door_open: bool = False
    gate_locked: bool = False


@dataclass(frozen=True, slots=True)
class ChipsSensed:
    seq: int
    spot: str
    total: int


@dataclass(frozen=True, slots=True)
class ChipIds:
    """Chips on one spot, each with its RFID tag's 64-bit UID (ISO 15693) and the value
    the chip carries (each is checked against the casino's chip inventory). As
    many as fit in one frame's payload (64 bytes: 4 chips with a spot name of up to 15
    characters); a reader sends several for a larger stack, each chip checked on its own.
    ``chip_id`` is the UID as 16 upper-case hex digits, as the inventory lists it."""

    seq: int
    spot: str
    chips: tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class GateLock:
    seq: int


@dataclass(frozen=True, slots=True)
class GateUnlock:
    seq: int


@dataclass(frozen=True, slots=True)
class Lamp:
    seq: int
    lamp: int
    pattern: LampPattern


Message = (
    Hello
    | Heartbeat
    | Ack
    | Nak
    | CardDrawn
    | ShoeStatus
    | ChipsSensed
    | ChipIds
    | GateLock
    | GateUnlock
    | Lamp
)
Reliable = CardDrawn | ShoeStatus | ChipsSensed | ChipIds | GateLock | GateUnlock | Lamp
RELIABLE_TYPES = (CardDrawn, ShoeStatus, ChipsSensed, ChipIds, GateLock, GateUnlock, Lamp)

_HELLO_HEAD = struct.Struct(">BBBIH")
_CARD = struct.Struct(">2sI")
_U32 = struct.Struct(">I")
_LAMP = struct.Struct(">BB")
_CHIP = struct.Struct(">QI")


def is_card_code(code: str) -> bool:
    return len(code) == 2 and code[0] in CARD_RANKS and code[1] in CARD_SUITS


def encode(message: Message) -> bytes:
    """The frame for ``message``, delimiters included. Raises `BridgeError` on a value that
    does not fit the protocol (a bad card code, an over-long serial number...)."""
    try:
        return _encode(message)
    except (struct.error, UnicodeEncodeError, ValueError) as exc:
        if isinstance(exc, BridgeError):
            raise
        raise BridgeError(f"cannot encode {message!r}: {exc}") from exc


def _encode(message: Message) -> bytes:
    match message:
        case Hello():
            payload = _HELLO_HEAD.pack(
                message.protocol_version,
                message.device_kind,
                int(message.reply),
                message.boot_id,
                message.next_seq,
            )
            payload += _text(message.serial_number) + _text(message.firmware)
            return encode_frame(MessageType.HELLO, 0, payload)
        case Heartbeat():
            return encode_frame(MessageType.HEARTBEAT, 0)
        case Ack(seq):
            return encode_frame(MessageType.ACK, seq)
        case Nak(reason):
            return encode_frame(MessageType.NAK, 0, bytes([reason]))
        case CardDrawn(seq, card, device_ms):
            if not is_card_code(card):
                raise BridgeError(f"{card!r} is not a card code")
            return encode_frame(MessageType.CARD_DRAWN, seq, _CARD.pack(card.encode(), device_ms))
        case ShoeStatus(seq, cut, empty, door, gate):
            flags = cut | empty << 1 | door << 2 | gate << 3
            return encode_frame(MessageType.SHOE_STATUS, seq, bytes([flags]))
        case ChipsSensed(seq, spot, total):
            return encode_frame(
                MessageType.CHIPS_SENSED, seq, _U32.pack(total) + spot.encode("ascii")
            )
        case ChipIds(seq, spot, chips):
            return encode_frame(MessageType.CHIP_IDS, seq, _chip_ids(chips) + _spot(spot))
        case GateLock(seq):
            return encode_frame(MessageType.GATE_LOCK, seq)
        case GateUnlock(seq):
            return encode_frame(MessageType.GATE_UNLOCK, seq)
        case Lamp(seq, lamp, pattern):
            return encode_frame(MessageType.LAMP, seq, _LAMP.pack(lamp, pattern))
    raise BridgeError(f"not a protocol message: {message!r}")


def _chip_ids(chips: tuple[tuple[str, int], ...]) -> bytes:
    out = bytes([len(chips)])
    for chip_id, value in chips:
        if len(chip_id) != 16:
            raise BridgeError(f"chip ID {chip_id!r} is not 16 hex digits (a 64-bit UID)")
        out += _CHIP.pack(int(chip_id, 16), value)
    return out


def _spot(spot: str) -> bytes:
    if not spot:
        raise BridgeError("no spot name")
    return spot.encode("ascii")


def _text(value: str) -> bytes:
    data = value.encode("ascii")
    if len(data) > 24:
        raise BridgeError(f"{value!r} is longer than 24 characters")
    return bytes([len(data)]) + data


def decode(frame: Frame) -> Message | FrameProblem:
    """The message in ``frame``, or the problem with it. Never raises."""
    try:
        kind = MessageType(frame.type)
    except ValueError:
        return FrameProblem(Problem.UNKNOWN_MESSAGE, f"message type 0x{frame.type:02x}")
    try:
        return _decode(kind, frame.seq, frame.payload)
    except (struct.error, ValueError, IndexError) as exc:
        # A well-framed message with a payload that does not fit its type. When the type
        # is reliable it still takes its place in the sequence: it is recorded and ACKed.
        seq = frame.seq if kind in _RELIABLE_KINDS else None
        return FrameProblem(Problem.MALFORMED, f"{kind.name}: {exc}", seq)


_RELIABLE_KINDS = {
    MessageType.CARD_DRAWN,
    MessageType.SHOE_STATUS,
    MessageType.CHIPS_SENSED,
    MessageType.CHIP_IDS,
    MessageType.GATE_LOCK,
    MessageType.GATE_UNLOCK,
    MessageType.LAMP,
}


def _decode(kind: MessageType, seq: int, payload: bytes) -> Message | FrameProblem:
    if kind is MessageType.HELLO:
        return _decode_hello(payload)
    if kind is MessageType.CARD_DRAWN:
        _exact(payload, _CARD.size)
        raw, device_ms = _CARD.unpack(payload)
        card = raw.decode("ascii", errors="replace")
        if not is_card_code(card):
            return FrameProblem(Problem.BAD_CARD, f"card code {raw!r} is not a card", seq)
        return CardDrawn(seq, card, device_ms)
    if kind is MessageType.SHOE_STATUS:
        _exact(payload, 1)
        flags = payload[0]
        if flags > 0x0F:
            raise ValueError(f"undefined status flags 0x{flags:02x}")
        return ShoeStatus(seq, bool(flags & 1), bool(flags & 2), bool(flags & 4), bool(flags & 8))
    if kind is MessageType.CHIPS_SENSED:
        (total,) = _U32.unpack_from(payload)
        spot = payload[_U32.size :].decode("ascii")
        if not spot:
            raise ValueError("no spot name")
        return ChipsSensed(seq, spot, total)
    if kind is MessageType.CHIP_IDS:
        return _decode_chip_ids(seq, payload)
    if kind is MessageType.LAMP:
        _exact(payload, _LAMP.size)
        lamp, pattern = _LAMP.unpack(payload)
        return Lamp(seq, lamp, LampPattern(pattern))
    if kind is MessageType.NAK:
        _exact(payload, 1)
        return Nak(NakReason(payload[0]))
    _exact(payload, 0)
    if kind is MessageType.ACK:
        return Ack(seq)
    if kind is MessageType.GATE_LOCK:
        return GateLock(seq)
    if kind is MessageType.GATE_UNLOCK:
        return GateUnlock(seq)
    return Heartbeat()


def _decode_chip_ids(seq: int, payload: bytes) -> ChipIds:
    count, at = payload[0], 1
    chips = []
    for _ in range(count):
        uid, value = _CHIP.unpack_from(payload, at)
        chips.append((f"{uid:016X}", value))
        at += _CHIP.size
    spot = payload[at:].decode("ascii")
    if not spot:
        raise ValueError("no spot name")
    return ChipIds(seq, spot, tuple(chips))


def _decode_hello(payload: bytes) -> Hello | FrameProblem:
    if payload and payload[0] != PROTOCOL_VERSION:
        return FrameProblem(
            Problem.UNSUPPORTED_VERSION,
            f"device speaks protocol version {payload[0]}; this controller speaks "
            f"{PROTOCOL_VERSION}",
        )
    version, kind, flags, boot_id, next_seq = _HELLO_HEAD.unpack_from(payload)
    if flags > 1:
        raise ValueError(f"undefined HELLO flags 0x{flags:02x}")
    at = _HELLO_HEAD.size
    serial_len = payload[at]
    serial = payload[at + 1 : at + 1 + serial_len].decode("ascii")
    at += 1 + serial_len
    firmware_len = payload[at]
    firmware = payload[at + 1 : at + 1 + firmware_len].decode("ascii")
    _exact(payload, at + 1 + firmware_len)
    return Hello(kind, boot_id, next_seq, serial, firmware, bool(flags), version)


def _exact(payload: bytes, size: int) -> None:
    if len(payload) != size:
        raise ValueError(f"payload of {len(payload)} bytes, expected {size}")
