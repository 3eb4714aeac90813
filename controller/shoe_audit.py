"""The duplicate-card detector: what the shoe holds against what came out of it.

The controller knows the shoe's composition (N full decks, `controller.cards.shoe_cards`).
From the last shuffle on it counts every card read; a card read more often than the shoe
holds copies of it cannot have come from this shoe as loaded: a foreign card (a seventh ace
of spades in a 6-deck shoe, a card from another table's decks, a misread tag enrolled to
the wrong card). That is a `ForeignCard` for the game to raise as a violation and HOLD
the table, as it does for an out-of-order card (docs/architecture.md: the card is
recorded, never dropped or "fixed"). At the shuffle, `shoe_end` reconciles the cards
seen against the composition: ``extra`` (seen more often than the shoe holds) and
``unseen`` (not seen: behind the cutting card, or missing from the shoe).

Which rule a foreign card breaks is the game's to say: no clause of the rules speaks of a
foreign card in so many words, so each game cites its nearest, gives it to its `ShoeAudit`
and names it in its `GameSpec` (``foreign_card_rule``): blackjack's
`controller.blackjack.rules.FOREIGN_CARD_RULE`, draw poker's
`controller.poker.phases.FOREIGN_CARD_RULE`, baccarat's
`controller.baccarat.rules.CARDS_RULE`. A new game brings its own.

Sans-I/O and game-agnostic: the game says when the shoe was shuffled (`shuffled`), which
cards came back into play legitimately (`returned`, for poker's 11.3(b) reshuffle of the
earlier discards), and asks `see` about every card that left the shoe.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from controller.cards import DECK, Card, shoe_cards
from controller.ports import DeviceFault, DeviceLost, Event, Fault

__all__ = [
    "ForeignCard",
    "ShoeAudit",
    "ShoeReport",
    "reader_hold",
]


@dataclass(frozen=True, slots=True)
class ForeignCard:
    """A card seen more often than the shoe holds it: ``seen`` copies, ``holds`` in it."""

    rule: str
    card: str
    seen: int
    holds: int
    tag: str | None = None  # set when the same RFID tag was read twice: one card, twice

    @property
    def message(self) -> str:
        if self.tag is not None:
            return (
                f"{self.card} (tag {self.tag}) was already read since the shuffle: the same "
                f"card out of the shoe twice (rule {self.rule}, shoe composition)"
            )
        return (
            f"{self.card} seen {self.seen} times since the shuffle but the shoe holds "
            f"{self.holds}: possible foreign card (rule {self.rule}, shoe composition)"
        )


@dataclass(frozen=True, slots=True)
class ShoeReport:
    """The shoe-end reconciliation of cards seen against the composition.

    ``extra``: (card, copies beyond the composition); ``unseen``: (card, copies never
    read: behind the cutting card, or missing). Both sorted by card in `DECK` order."""

    decks: int
    cards_seen: int
    # cards by name: private where players' cards are (controller.game.records, 11.3(a))
    extra: tuple[tuple[str, int], ...] = field(metadata={"private": "card"})
    unseen: tuple[tuple[str, int], ...] = field(metadata={"private": "card"})

    @property
    def extra_cards(self) -> int:
        return sum(n for _, n in self.extra)

    @property
    def unseen_cards(self) -> int:
        return sum(n for _, n in self.unseen)

    @property
    def reconciled(self) -> bool:
        """Nothing extra: every card seen is accounted for by the composition."""
        return not self.extra


class ShoeAudit:
    """Counts the cards read since the last shuffle of an N-deck shoe; ``rule`` is the one
    the game says a foreign card breaks (its spec's ``foreign_card_rule``)."""

    __slots__ = ("_holds", "_seen", "_tags", "decks", "rule")

    def __init__(self, decks: int, rule: str) -> None:
        self.decks = decks
        self.rule = rule
        self._holds = Counter(shoe_cards(decks))
        self._seen: Counter[Card] = Counter()
        self._tags: dict[str, Card] = {}  # RFID tags read since the shuffle

    @property
    def cards_seen(self) -> int:
        return self._seen.total()

    def count(self, card: Card) -> int:
        return self._seen[card]

    def see(self, card: Card, tag: str | None = None) -> ForeignCard | None:
        """Count ``card``; a `ForeignCard` when it is now seen more often than the shoe
        holds it (each further copy is reported again). ``tag``: the RFID tag it was read
        by; in an RFID shoe each card of each deck has its own tag, so a tag read twice
        since the shuffle is one card out twice, even where N decks hold N copies of it."""
        seen = self._seen
        holds = self._holds[card]
        if tag is not None:
            if tag in self._tags:  # the same card again: counted once, not as a new copy
                return ForeignCard(self.rule, str(card), seen[card], holds, tag)
            self._tags[tag] = card
        n = seen[card] + 1  # one look-up each way: a card's hash is not cached
        seen[card] = n
        if n > holds:
            return ForeignCard(self.rule, str(card), n, holds)
        return None

    def returned(self, card: Card) -> None:
        """``card`` went back into the undealt cards without a full shuffle (poker 11.3(b):
        the earlier discards shuffled to complete the draw): it may be seen again."""
        if self._seen[card] > 0:
            self._seen[card] -= 1
        for tag in [t for t, c in self._tags.items() if c == card]:
            del self._tags[tag]

    def report(self) -> ShoeReport:
        """The reconciliation so far (seen against the composition)."""
        seen, holds = self._seen, self._holds
        extra: list[tuple[str, int]] = []
        unseen: list[tuple[str, int]] = []
        for c in DECK:  # each count read once: poker reports at every hand
            n, held = seen[c], holds[c]
            if n > held:
                extra.append((str(c), n - held))
            elif n < held:
                unseen.append((str(c), held - n))
        return ShoeReport(self.decks, seen.total(), tuple(extra), tuple(unseen))

    def shoe_end(self) -> ShoeReport:
        """The shoe is being shuffled: report, then start counting afresh."""
        report = self.report()
        self._seen.clear()
        self._tags.clear()
        return report

    shuffled = shoe_end


def reader_hold(event: Event, gate_open: bool) -> tuple[str, str] | None:
    """Whether a card reader's event must hold the table: (message, who raised it).

    - an RFID tag in no enrolled deck (`Fault.UNKNOWN_TAG`): a card left the shoe that
      the table cannot name: held whatever the gate, naming the tag;
    - a reader without acknowledgement lost while the gate was open (``resends=False``):
      cards may have left the shoe unseen, and nothing can send them again
      (docs/architecture.md). Our serial shoe resends what was not acknowledged, so its loss
      holds nothing; with the gate locked no card can have passed.
    """
    if isinstance(event, DeviceFault) and event.fault is Fault.UNKNOWN_TAG:
        message = f"tag {event.detail} is in no enrolled deck: an unknown card left the shoe"
        return message, f"the reader {event.source}"
    if isinstance(event, DeviceLost) and not event.resends and gate_open:
        message = (
            f"the card reader was lost with the gate open ({event.reason}): cards may have "
            "left the shoe unseen, and the reader cannot send them again"
        )
        return message, f"the reader {event.source}"
    return None
