"""What every RFID card source shares: tags to cards, one read per pass, named faults.

An RFID reader at the shoe's mouth reads a card's tag for as long as the tag is in its
field, again and again (an RDM6300 about ten times a second; a keyboard reader may type it
twice). `PresenceFilter` makes one read of one pass: a sighting is a new pass only when the
tag was not seen in the last ``hold`` seconds, and every sighting restarts that window, so a
pass ends when the tag has left the field for ``hold`` seconds. A tag that comes back
after that is a second pass: a card that was put back into the shoe or a second card with
the same tag, and the game's shoe audit judges it (controller/shoe_audit.py), never the
driver. Tags are windowed separately, so two cards flickering at the mouth together are
one read each.

The events, the same for every RFID back-end:

- an enrolled tag: `CardDrawn(card=..., tag=..., seq=None)`: the reader has no
  acknowledgement; the tag lets the shoe audit tell one card read twice from two copies;
- a tag in no enrolled deck: `DeviceFault(UNKNOWN_TAG, detail=tag)`, once per pass;
- a tagged cutting card (``CUT`` in a deck file): `ShoeStatusChanged` with the cutting card
  seen, then not (the edge a shoe's sensor gives);
- a broken frame or report: `DeviceFault(BAD_CHECKSUM | MALFORMED)`;
- the line lost: `DeviceLost(resends=False)`: cards that passed meanwhile were not seen,
  and the game holds the table if its gate was open (controller/shoe_audit.py).
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable

from controller.ports import CardDrawn, DeviceFault, Event, Fault, ShoeStatusChanged
from drivers.card_source import CardSource
from drivers.deck import DeckEnrolment, normalise_tag
from firmware_bridge.rdm6300 import PresenceFilter

log = logging.getLogger(__name__)


def tag_event(source: str, deck: DeckEnrolment, tag: str) -> Event:
    """The event for one pass of ``tag``: a card, or an unknown-tag fault."""
    card = deck.card_for(tag)
    if card is None:
        log.warning("%s: tag %s is not enrolled in %s", source, tag, deck.name)
        return DeviceFault(source=source, fault=Fault.UNKNOWN_TAG, detail=tag)
    return CardDrawn(source=source, card=card, tag=normalise_tag(tag))


class TagReader(CardSource):
    """A card source that reads tag ids and looks them up in the deck enrolment."""

    resends = False  # no acknowledgement: what passed while it was gone is gone

    def __init__(
        self,
        events: queue.Queue[Event],
        deck: DeckEnrolment,
        *,
        name: str,
        where: str,
        clock: Callable[[], float] = time.monotonic,
        hold: float = 1.0,
        backoff: tuple[float, float] = (0.05, 2.0),
    ) -> None:
        super().__init__(events, name=name, where=where, backoff=backoff)
        self.deck = deck
        self._clock = clock
        self._presence = PresenceFilter(hold)

    def _tag_read(self, tag: str) -> list[Event]:
        """One sighting of ``tag``: the events of a new pass, or none for a repeat."""
        if not self._presence.seen(normalise_tag(tag), self._clock()):
            self.stats["repeats"] += 1
            return []
        return self._pass(tag)

    def _pass(self, tag: str) -> list[Event]:
        """The events of one pass of ``tag`` at the shoe's mouth: a card from the deck
        enrolment, a cutting card's edges, or an unknown tag's fault."""
        if self.deck.is_cutting_card(tag):
            # the cutting card passed: a rising and a falling edge, as a shoe's sensor
            self.stats["cutting-card"] += 1
            return [self._cut(True), self._cut(False)]
        event = tag_event(self.name, self.deck, tag)
        self.stats["reads" if isinstance(event, CardDrawn) else "unknown-tag"] += 1
        return [event]

    def _cut(self, seen: bool) -> ShoeStatusChanged:
        return ShoeStatusChanged(
            source=self.name,
            cut_card_seen=seen,
            shoe_empty=False,
            door_open=False,
            gate_locked=False,
        )

    def _fault(self, fault: Fault, detail: str) -> DeviceFault:
        """A named fault for a frame or report that was not a read."""
        self.stats[str(fault)] += 1
        log.warning("%s: %s: %s", self.name, fault, detail)
        return DeviceFault(source=self.name, fault=fault, detail=detail)
