"""Boxes and hands: the mutable table layout the machine keeps during one round.

Kept deliberately plain (``__slots__``, precomputed card values) because the simulator
plays a million rounds through it; records leaving the machine are frozen copies.
Card values follow rule 3.2: 2-10 face value, J/Q/K 10, an ace 11 unless that busts, then 1.
"""

from __future__ import annotations

from controller.cards import ACE, Card

__all__ = ["Box", "Hand", "card_value"]

# rank 2..14 -> hard value (ace counted 1); index by Card.rank.
_HARD = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 1)


def card_value(card: Card) -> int:
    """The hard value of a card (ace 1), rule 3.2."""
    return _HARD[card.rank]


class Hand:
    """One hand on a box: the cards, and what has been done to it."""

    __slots__ = ("aces", "cards", "done", "doubled", "extra", "from_split", "hard", "split_aces")

    def __init__(self, from_split: bool = False, split_aces: bool = False) -> None:
        self.cards: list[Card] = []
        self.hard = 0
        self.aces = 0
        self.doubled = False
        self.from_split = from_split
        self.split_aces = split_aces
        self.done = False
        self.extra: dict[int, int] = {}  # person -> the double's extra wager (up to the stake)

    def stake(self, person: int, initial: int) -> int:
        """``person``'s stake on this hand: the initial wager plus what they doubled."""
        return initial + self.extra.get(person, 0)

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self.hard += _HARD[card.rank]
        if card.rank == ACE:
            self.aces += 1

    @property
    def total(self) -> int:
        """The best total: an ace counts 11 unless that takes the hand over 21 (rule 3.2)."""
        if self.aces and self.hard <= 11:
            return self.hard + 10
        return self.hard

    @property
    def soft(self) -> bool:
        return bool(self.aces) and self.hard <= 11

    @property
    def bust(self) -> bool:
        return self.hard > 21

    @property
    def blackjack(self) -> bool:
        """Two-card 21 on an unsplit hand: a split-ace 21 is not blackjack (rule 4.1)."""
        return len(self.cards) == 2 and not self.from_split and self.aces == 1 and self.hard == 11

    def describe(self) -> str:
        """Total as shown to the dealer: ``soft 17``, ``21``, ``bust 24``, ``blackjack``."""
        if self.blackjack:
            return "blackjack"
        if self.bust:
            return f"bust {self.hard}"
        return f"soft {self.total}" if self.soft and self.total < 21 else str(self.total)


class Box:
    """A betting box: the people wagering on it and their wagers, and its hands.

    Person 1 is the box holder, who decides play; people 2 and 3 bet behind and decide
    only their own insurance and even money.
    """

    __slots__ = (
        "even_money",
        "hands",
        "insurance",
        "insurance_collected",
        "insurance_off",
        "number",
        "settled_at_once",
        "stakes",
        "void",
    )

    def __init__(self, number: int) -> None:
        self.number = number
        self.stakes: dict[int, int] = {}
        self.hands: list[Hand] = []
        self.insurance: dict[int, int] = {}
        self.insurance_collected: set[int] = set()
        self.even_money: set[int] = set()  # people paid 1 to 1 at once (10.3a)
        self.insurance_off: set[int] = set()  # insurance taken off the layout early (9.5)
        self.settled_at_once = False  # every person paid at once (10.1, 10.3a)
        self.void = False  # this box's hand was voided by a supervisor (9.6)

    def paid_at_once(self, person: int) -> bool:
        """``person``'s wager was settled at once (10.1, or even money under 10.3a)."""
        return self.settled_at_once or person in self.even_money

    def reset(self) -> None:
        self.stakes.clear()
        self.hands.clear()
        self.insurance.clear()
        self.insurance_collected.clear()
        self.insurance_off.clear()
        self.even_money.clear()
        self.settled_at_once = False
        self.void = False
