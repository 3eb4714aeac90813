"""USB HID boot-keyboard reports from a keyboard-emulating RFID reader: reports in, tags out.

Cheap USB RFID readers pretend to be a keyboard: they "type" the tag id and press Enter.
In the HID boot protocol every input report is 8 bytes::

    byte 0   modifiers (bit 1 = left shift, bit 5 = right shift; others ignored)
    byte 1   reserved
    bytes 2-7  usage codes of the keys held down now (0x00 = none), up to six

A report says which keys are held, not which were pressed, so a key is typed when its
usage appears in a report and was not in the one before. A repeated report (a key held)
types nothing; a report of zeros (all keys up) types nothing but lets the same key be
typed again. Usages decoded:

- 0x04-0x1D letters a-z (upper case with shift), 0x1E-0x26 digits 1-9, 0x27 digit 0;
- 0x59-0x61 keypad 1-9, 0x62 keypad 0 (some readers type on the keypad);
- 0x28 Enter and 0x58 keypad Enter end the tag.

Anything else (and the phantom report of six 0x01 "ErrorRollOver" usages) is an unknown
key. It is not raised: the tag being typed is then reported at Enter as a `HidProblem`
``unknown-usage`` instead of a read, so a mistyped id can never match another enrolled
card. A report that is not 8 bytes is a ``malformed`` problem; a tag longer than
`MAX_TAG_LENGTH` without Enter is ``overlong`` and discarded. Enter with nothing typed is
ignored (readers send it on power-up).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.errors import BridgeError

REPORT_LENGTH = 8
MAX_TAG_LENGTH = 32
ENTER = 0x28
KEYPAD_ENTER = 0x58
ERROR_ROLL_OVER = 0x01
_SHIFT = 0x02 | 0x20

_CHARS: dict[int, str] = {0x04 + i: chr(ord("a") + i) for i in range(26)}
_CHARS.update({0x1E + i: str(i + 1) for i in range(9)})
_CHARS[0x27] = "0"
_CHARS.update({0x59 + i: str(i + 1) for i in range(9)})
_CHARS[0x62] = "0"


class HidProblemKind(StrEnum):
    UNKNOWN_USAGE = "unknown-usage"
    MALFORMED = "malformed"
    OVERLONG = "overlong"


@dataclass(frozen=True, slots=True)
class HidTag:
    """A tag id as the reader typed it, ended by Enter."""

    tag: str


@dataclass(frozen=True, slots=True)
class HidProblem:
    kind: HidProblemKind
    detail: str


HidDecoded = HidTag | HidProblem


def report(*usages: int, shift: bool = False) -> bytes:
    """An 8-byte boot report with ``usages`` held (for simulators and test vectors)."""
    if len(usages) > REPORT_LENGTH - 2:
        raise BridgeError(f"a boot report holds at most 6 usages, not {len(usages)}")
    return bytes([0x02 if shift else 0, 0, *usages]) + bytes(REPORT_LENGTH - 2 - len(usages))


def usage_for(char: str) -> tuple[int, bool]:
    """The (usage, shift) that types ``char`` on the main keyboard."""
    if char.isupper():
        return usage_for(char.lower())[0], True
    for usage, text in _CHARS.items():
        if text == char:
            return usage, False
    raise BridgeError(f"no boot-keyboard usage types {char!r}")


def type_tag(tag: str) -> list[bytes]:
    """The reports a keyboard reader sends for ``tag``: each key down then up, then Enter."""
    reports: list[bytes] = []
    for char in tag:
        usage, shift = usage_for(char)
        reports += [report(usage, shift=shift), report()]
    return [*reports, report(ENTER), report()]


class HidDecoder:
    """Incremental decoder: `feed` one input report, get the tags and problems it ends."""

    def __init__(self) -> None:
        self._held: frozenset[int] = frozenset()
        self._typed: list[str] = []
        self._unknown: list[int] = []

    def feed(self, data: bytes) -> list[HidDecoded]:
        if len(data) != REPORT_LENGTH:
            return [
                HidProblem(
                    HidProblemKind.MALFORMED,
                    f"report of {len(data)} bytes, expected {REPORT_LENGTH}: {bytes(data).hex()}",
                )
            ]
        usages = [u for u in data[2:] if u]
        if usages and all(u == ERROR_ROLL_OVER for u in usages):
            return []  # phantom state: too many keys; the next report says what is held
        pressed = [u for u in usages if u not in self._held]
        self._held = frozenset(usages)
        shift = bool(data[0] & _SHIFT)
        out: list[HidDecoded] = []
        for usage in pressed:
            if usage in (ENTER, KEYPAD_ENTER):
                out += self._end_tag()
            elif usage in _CHARS:
                char = _CHARS[usage]
                self._typed.append(char.upper() if shift else char)
            else:
                self._unknown.append(usage)
            if len(self._typed) + len(self._unknown) > MAX_TAG_LENGTH:
                out.append(
                    HidProblem(
                        HidProblemKind.OVERLONG,
                        f"more than {MAX_TAG_LENGTH} keys without Enter: "
                        f"{''.join(self._typed)!r} discarded",
                    )
                )
                self._typed.clear()
                self._unknown.clear()
        return out

    def _end_tag(self) -> list[HidDecoded]:
        typed, unknown = "".join(self._typed), self._unknown
        self._typed, self._unknown = [], []
        if unknown:
            codes = ", ".join(f"0x{u:02X}" for u in unknown)
            detail = f"unknown usages {codes} in {typed!r}"
            return [HidProblem(HidProblemKind.UNKNOWN_USAGE, detail)]
        return [HidTag(typed)] if typed else []
