"""The shoe: N-deck composition, the cutting card, and the shuffle triggers of rule 7.1.

`Shoe` is the cards themselves (used by the simulator and tests; a real shoe is read by
its driver). `ShuffleTracker` is what the table controller knows: it is told when the
cutting card comes out and when a round starts and ends, and says when a shuffle is due:

- 7.1(a) when play starts;
- 7.1(b) when the cutting card (or the first of two) comes out as the first card of a
  new round: shuffle at once, before that round is dealt;
- 7.1(c) at the end of the round in which the cutting card came out otherwise.
"""

from __future__ import annotations

import random

from controller.cards import Card, shoe_cards
from controller.errors import RuleError

__all__ = ["Shoe", "ShoeEmpty", "ShuffleTracker"]


class ShoeEmpty(RuleError, IndexError):
    """Every card of the shoe has been drawn: the cutting card was placed too deep."""


class Shoe:
    """N decks, shuffled with an injected `random.Random`, with a cutting card.

    ``cut_card_from_end`` cards sit behind the cutting card. `draw` returns the next card;
    `cut_card_out` turns True once the cutting card has come out (it comes out before the
    card behind it, so the caller sees it between two draws).
    """

    def __init__(self, decks: int, rng: random.Random, cut_card_from_end: int) -> None:
        self._composition = list(shoe_cards(decks))
        self._rng = rng
        self._cut_from_end = cut_card_from_end
        self._cards: list[Card] = []
        self._next = 0
        self._cut_at = 0
        self.shuffles = 0
        self.shuffle()

    def shuffle(self) -> None:
        """Shuffle every card back into the shoe and place the cutting card (rule 7.1)."""
        self._cards = self._composition[:]
        self._rng.shuffle(self._cards)
        self._next = 0
        self._cut_at = len(self._cards) - self._cut_from_end
        self.shuffles += 1

    @property
    def cut_card_out(self) -> bool:
        return self._next >= self._cut_at

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    def draw(self) -> Card:
        if self._next >= len(self._cards):
            raise ShoeEmpty("the shoe is empty: no cutting card came out before its end")
        card = self._cards[self._next]
        self._next += 1
        return card


class ShuffleTracker:
    """When rule 7.1 says the shoe must be shuffled. Pure bookkeeping, no cards."""

    __slots__ = ("burns_due", "cards_this_round", "cut_card_seen", "due")

    def __init__(self) -> None:
        self.due: str | None = "7.1(a)"  # play starts with a shuffle
        self.cut_card_seen = False
        self.cards_this_round = 0
        self.burns_due = 0  # cards to burn after the shuffle, before the next round's first

    def round_started(self) -> None:
        self.cards_this_round = 0

    def card_drawn(self) -> None:
        self.cards_this_round += 1

    def cutting_card_out(self) -> str | None:
        """The cutting card came out. Returns "7.1(b)" when a shuffle is due at once."""
        self.cut_card_seen = True
        if self.cards_this_round == 0:
            self.due = "7.1(b)"
            return self.due
        return None

    def round_ended(self) -> str | None:
        """The round is over; "7.1(c)" when the cutting card came out during it."""
        if self.cut_card_seen and self.due is None:
            self.due = "7.1(c)"
        return self.due

    def shuffled(self, burns: int = 0) -> None:
        """The shuffle was confirmed (by the dealer or the shoe, never by NEXT)."""
        self.due = None
        self.cut_card_seen = False
        self.burns_due = burns
