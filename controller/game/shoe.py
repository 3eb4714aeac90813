"""The cards of a shuffled N-deck shoe with a cutting card, for the games' simulators and
the tests (a real shoe is read by its driver; what the table knows of it is each game's).

Both shoe games place one cutting card a set number of cards from the end and shuffle by
their own rule when it comes out: blackjack by rule 7.1 (`controller.blackjack.shoe.
ShuffleTracker`), baccarat by the casino procedure of its ``cut_card_from_end`` setting
(`controller.baccarat.shoe.ShoeState`). This class only deals: it says when the cutting
card is out and leaves the shuffle to the caller.
"""

from __future__ import annotations

import random

from controller.cards import Card, shoe_cards
from controller.errors import RuleError

__all__ = ["Shoe", "ShoeEmpty"]


class ShoeEmpty(RuleError, IndexError):
    """Every card of the shoe has been drawn: the cutting card was placed too deep."""


class Shoe:
    """N decks, shuffled with an injected `random.Random`, with a cutting card.

    ``cut_card_from_end`` cards sit behind the cutting card. `draw` returns the next card;
    `cut_card_out` turns True once the cutting card has come out (it comes out before the
    card behind it, so the caller sees it between two draws). ``rule`` is the rule that
    shuffles at the cutting card ("7.1" for blackjack), named when the shoe runs dry.
    """

    __slots__ = ("_cards", "_composition", "_cut_at", "_next", "_rng", "rule", "shuffles")

    def __init__(
        self, decks: int, rng: random.Random, cut_card_from_end: int, *, rule: str = ""
    ) -> None:
        self._composition = list(shoe_cards(decks))
        self._rng = rng
        self._cut_at = len(self._composition) - cut_card_from_end
        self._cards: list[Card] = []
        self._next = 0
        self.rule = rule
        self.shuffles = 0
        self.shuffle()

    def shuffle(self) -> None:
        """Shuffle every card back into the shoe; the cutting card keeps its place."""
        self._cards = self._composition[:]
        self._rng.shuffle(self._cards)
        self._next = 0
        self.shuffles += 1

    @property
    def cut_card_out(self) -> bool:
        return self._next >= self._cut_at

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._next

    def draw(self) -> Card:
        if self._next >= len(self._cards):
            cited = f" (rule {self.rule} shuffles when it comes out)" if self.rule else ""
            raise ShoeEmpty(f"the shoe is empty: the cutting card was placed too deep{cited}")
        card = self._cards[self._next]
        self._next += 1
        return card
