"""Players' card readers at the boxes: the shoe's RFID back-ends, reading players' cards.

A casino's player card (its loyalty card) is read by the same kinds of reader as tagged
playing cards: a serial 125 kHz module (``rdm6300``) or a USB reader that types the card's
number and Enter (``hid``). One reader sits at each rated box (or poker seat). The
back-end, its life cycle (one thread, reconnect with backoff, lost and restored) and its
one-read-per-pass window are the shoe readers' (`drivers.tag_reader.TagReader`); only
what a pass means differs: it is `PlayerCardPresented(box, number)`, never a playing card,
and there is no deck enrolment. Whether the number is a card of this casino is the
rating's to judge (its card format, controller/rating), not the driver's: the driver
reports what it read, so a card of the wrong format is refused with its number in the
journal rather than lost here.

`player_card_reader` builds one by back-end name, the way `drivers.registry` builds the
shoe's card source; a name that is not a tag reader is a `CardSourceUnavailable`.
"""

from __future__ import annotations

import queue
from typing import Any

from controller.ports import PLAYER_CARD_READER, Event, PlayerCardPresented
from drivers.deck import DeckEnrolment, normalise_tag
from drivers.hid_reader import HidRfidReader
from drivers.registry import CardSourceUnavailable, parse_usb_url
from drivers.rfid import Rdm6300Reader
from drivers.tag_reader import TagReader

NO_DECK = DeckEnrolment((), name="no deck: a player-card reader reads no playing card")


class PlayerCards(TagReader):
    """A tag reader at box ``box`` whose every pass is a player's card."""

    def __init__(self, *args: Any, box: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)  # the back-end's own (a serial port, a USB id)
        self.box = box

    def _pass(self, tag: str) -> list[Event]:
        self.stats["player-cards"] += 1
        return [PlayerCardPresented(source=self.name, box=self.box, number=normalise_tag(tag))]


class Rdm6300PlayerCards(PlayerCards, Rdm6300Reader):
    """A serial 125 kHz RDM6300-style module at a box."""


class HidPlayerCards(PlayerCards, HidRfidReader):
    """A USB reader that types the card's number, at a box."""


PLAYER_CARD_SOURCES: dict[str, type[PlayerCards]] = {
    "rdm6300": Rdm6300PlayerCards,
    "hid": HidPlayerCards,
}


def player_card_reader(
    protocol: str,
    url: str,
    box: int,
    events: queue.Queue[Event],
    *,
    name: str | None = None,
    **options: Any,
) -> PlayerCards:
    """The player-card reader of back-end ``protocol`` at ``url`` for box ``box`` (not
    started); ``options`` go to the back-end (``hold``, ``backoff``, ``clock``...)."""
    name = name or f"{PLAYER_CARD_READER}{box}"
    cls = PLAYER_CARD_SOURCES.get(protocol)
    if cls is None:
        known = ", ".join(sorted(PLAYER_CARD_SOURCES))
        raise CardSourceUnavailable(
            f"{name}: no player-card reader {protocol!r}; the known ones are {known}"
        )
    if cls is HidPlayerCards:
        vendor, product, interface = parse_usb_url(url)
        return HidPlayerCards(
            vendor, product, NO_DECK, events, box=box, name=name, interface=interface, **options
        )
    return Rdm6300PlayerCards(url, NO_DECK, events, box=box, name=name, **options)
