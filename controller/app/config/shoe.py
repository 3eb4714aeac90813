"""``[shoe]``: where the cards come from.

``url`` (a serial port, ``socket://``, ``usb://VVVV:PPPP`` for a USB reader, or
``"sim://"`` for the built-in simulated shoe), ``protocol`` (a card source of
`drivers.registry`: ``"tablectl"``, docs/protocol.md; ``"rdm6300"`` or ``"hid"``, an
RFID reader, docs/rfid.md), ``baud``; an RFID shoe also ``decks`` (its deck enrolment
files, one per deck, relative to the config) and ``repeat_window_ms`` (reads of a tag
within this long of its last read are one pass of one card); an ``rdm6300`` reader
also ``power_line`` (``"cts"``, ``"dsr"`` or ``"cd"``: the serial adapter's input wired to
the reader's supply, so a reader that loses its power is a lost reader, docs/rfid.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema
from drivers.registry import CARD_SOURCES, RFID_PROTOCOLS
from drivers.rfid import POWER_LINES

__all__ = ["SCHEMA", "ShoeConfig", "parse_shoe"]

SCHEMA: Schema = {
    "url": (str, REQUIRED),
    "protocol": (str, "tablectl"),
    "baud": (int, 115200),
    "decks": (list, []),
    "repeat_window_ms": (int, 1000),
    "power_line": (str, ""),
}


@dataclass(frozen=True)
class ShoeConfig:
    url: str
    protocol: str = "tablectl"
    baud: int = 115200
    decks: tuple[Path, ...] = ()  # an RFID shoe's deck enrolment files
    repeat_window_ms: int = 1000
    power_line: str = ""  # an RDM6300's supply, seen on the adapter's CTS, DSR or CD

    @property
    def rfid(self) -> bool:
        return self.protocol in RFID_PROTOCOLS

    @property
    def simulated(self) -> bool:
        return self.url == "sim://"


def parse_shoe(check: Checker, doc: dict[str, Any], base: Path | None) -> ShoeConfig:
    """The ``[shoe]``: a known card source; an RFID one with its deck files (a reader of
    tags cannot name a card without its deck's enrolment, docs/rfid.md)."""
    shoe = check.section(doc, "shoe", SCHEMA)
    protocol = shoe["protocol"]
    if protocol not in CARD_SOURCES:
        known = ", ".join(repr(name) for name in CARD_SOURCES)
        raise check.error(f"unknown card source (known: {known})", "shoe", "protocol")
    decks: list[Path] = []
    for entry in shoe["decks"]:
        if not isinstance(entry, str) or not entry:
            raise check.error(f"must be a list of deck file paths, not {entry!r}", "shoe", "decks")
        path = Path(entry)
        decks.append(base / path if base is not None and not path.is_absolute() else path)
    if protocol in RFID_PROTOCOLS and not decks and shoe["url"] != "sim://":
        raise check.error(
            f"an {protocol} shoe reads tags: list its enrolled deck files, "
            'decks = ["deck1.txt", ...] (docs/rfid.md)',
            "shoe",
            "decks",
        )
    if protocol not in RFID_PROTOCOLS and decks:
        raise check.error(f"the {protocol} protocol sends cards, not tags: no decks", "shoe")
    if shoe["repeat_window_ms"] < 50:
        raise check.error("must be at least 50 ms", "shoe", "repeat_window_ms")
    power_line = shoe["power_line"]
    if power_line and protocol != "rdm6300":
        raise check.error("only an rdm6300 reader's supply is watched", "shoe", "power_line")
    if power_line and power_line not in POWER_LINES:
        raise check.error(f"must be one of {', '.join(POWER_LINES)}", "shoe", "power_line")
    return ShoeConfig(
        shoe["url"], protocol, shoe["baud"], tuple(decks), shoe["repeat_window_ms"], power_line
    )
