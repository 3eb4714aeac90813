"""``[[player_cards]]`` (any number): the players' card readers at the boxes (or seats).

Each entry has ``box`` (the box, or poker seat, whose reader it is: a whole number from 1,
each box once), ``protocol`` (``"rdm6300"``: a serial 125 kHz module, 9600 baud; ``"hid"``:
a USB reader that types the card's number), ``url`` (a serial port or pyserial URL for
``rdm6300``, ``usb://VVVV:PPPP[/INTERFACE]`` for ``hid``, or ``sim://`` for a simulated
reader; ``tablectl run --sim`` simulates every reader whatever it says) and, optional,
``repeat_window_ms`` (as the RFID shoe's: reads of one card closer together than this are
one presentation; default 1000, at least 50). A presented card
starts or ends that box's rating (docs/ratings.md); drivers/player_cards.py reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema
from controller.errors import ConfigError
from controller.ports import PLAYER_CARD_READER

__all__ = ["PROTOCOLS", "SCHEMA", "PlayerCardReader", "parse_player_cards"]

SCHEMA: Schema = {
    "box": (int, REQUIRED),
    "protocol": (str, REQUIRED),
    "url": (str, REQUIRED),
    "repeat_window_ms": (int, 1000),
}
PROTOCOLS = ("rdm6300", "hid")  # the tag readers (drivers.player_cards.PLAYER_CARD_SOURCES)


@dataclass(frozen=True, slots=True)
class PlayerCardReader:
    """One ``[[player_cards]]`` entry."""

    box: int
    protocol: str
    url: str
    repeat_window_ms: int = 1000

    @property
    def name(self) -> str:
        """The device's name in the journal's ``source`` column."""
        return f"{PLAYER_CARD_READER}{self.box}"

    @property
    def simulated(self) -> bool:
        return self.url.startswith("sim://")


def parse_player_cards(check: Checker, doc: dict[str, Any]) -> tuple[PlayerCardReader, ...]:
    """The ``[[player_cards]]`` entries, each box at most once."""
    readers: list[PlayerCardReader] = []
    for index, entry in enumerate(check.array(doc, "player_cards", SCHEMA)):

        def error(message: str, key: str, index: int = index) -> ConfigError:
            return check.entry_error(message, "player_cards", index, key)

        reader = PlayerCardReader(**entry)
        if reader.box < 1:
            raise error(f"must be a box number from 1, not {reader.box}", "box")
        if any(r.box == reader.box for r in readers):
            raise error(f"box {reader.box} has a reader already: one reader a box", "box")
        if reader.protocol not in PROTOCOLS:
            known = ", ".join(PROTOCOLS)
            raise error(f"must be one of {known}, not {reader.protocol!r}", "protocol")
        if reader.repeat_window_ms < 50:
            raise error("must be at least 50 ms", "repeat_window_ms")
        if not reader.url.strip():
            raise error("must name the reader's port (or sim:// for a simulated one)", "url")
        readers.append(reader)
    return tuple(readers)
