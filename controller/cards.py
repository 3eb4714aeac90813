"""Playing cards, shared by both games and by the card-reading devices.

A card is written as rank then suit: ranks ``2``-``9``, ``T`` (or ``10``), ``J``, ``Q``,
``K``, ``A``; suits ``s`` ``h`` ``d`` ``c``. ``Card.parse("Td")`` and
``Card.parse("10d")`` give the same card, whose ``str()`` is ``"Td"``: the two-character
form is also the card code on the wire (docs/protocol.md).

There are only 52 distinct cards, so ``Card.parse`` hands out shared instances: cheap to
compare and hash, which matters in the hot paths of the simulators and the evaluator.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.errors import TableError

RANKS = "23456789TJQKA"
SUITS = "shdc"
ACE = 14

_RANK_VALUES = {symbol: value for value, symbol in enumerate(RANKS, start=2)}
_RANK_VALUES["10"] = 10


class CardError(TableError, ValueError):
    """Text that does not name a playing card."""


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. ``rank`` is 2..14 (11 J, 12 Q, 13 K, 14 A); ``suit`` one of shdc."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= ACE or self.suit not in SUITS or len(self.suit) != 1:
            raise CardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @staticmethod
    def parse(text: str) -> Card:
        """The card named by ``text`` ("As", "Td", "10h"); raises `CardError` otherwise."""
        card = _BY_TEXT.get(text.strip())
        if card is None:
            raise CardError(
                f"{text!r} is not a card: expected a rank {'/'.join(RANKS)} or 10 "
                f"followed by a suit {'/'.join(SUITS)}, e.g. 'As', 'Td', '10h'"
            )
        return card

    @property
    def rank_symbol(self) -> str:
        return RANKS[self.rank - 2]

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(2, ACE + 1))
"""One 52-card deck in a fixed order: 2s..As, 2h..Ah, 2d..Ad, 2c..Ac."""

_BY_TEXT: dict[str, Card] = {}
for _card in DECK:
    for _rank_text, _value in _RANK_VALUES.items():
        if _value == _card.rank:
            for _r in {_rank_text, _rank_text.lower()}:
                for _s in {_card.suit, _card.suit.upper()}:
                    _BY_TEXT[_r + _s] = _card


def shoe_cards(decks: int) -> tuple[Card, ...]:
    """The cards of ``decks`` full decks, unshuffled (the shoe's composition)."""
    if decks < 1:
        raise CardError(f"a shoe holds at least one deck, not {decks}")
    return DECK * decks
