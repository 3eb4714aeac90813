"""Five-card hand values for the showdown (rule 11.4(c): "the highest ranking five card
poker hand" wins) and the odd-chip order of rule 11.4(d).

Why our own tables and not a library: measured on this machine (x86-64, CPython 3.11;
``bench/evaluator.py`` prints the numbers) over the same random five-card hands of
``controller.cards.Card``:

===========================  ====================  ====================================
evaluator                    evaluations / second  notes
===========================  ====================  ====================================
this module                  ~4,400,000            prime-product key, one dict lookup
treys 0.1.8                  ~  650,000            pure Python, its own int cards
phevaluator 0.6 (C ext.)     ~  290,000            per-call argument conversion in its
                                                   Python wrapper dominates
pokerkit StandardHighHand    ~   48,000            builds Hand objects, made for
                                                   flexibility, not speed
===========================  ====================  ====================================

Every candidate has to translate our shared ``Card`` into its own representation first,
and that translation dominates. Our tables take ``Card`` directly: the hand's key is the
product of one prime per rank (unique for every multiset of five ranks, the idea of
Cactus Kev's evaluator), looked up in one of two precomputed dicts (flush or not). The
tables hold 7,462 entries, are built in a few milliseconds at import, and need no C
compiler, so the same code runs unchanged on a Raspberry Pi. It has NOT been measured on a
Pi; we expect the ranking to hold there, because every candidate is bound by the
interpreter's per-call cost, which scales with the CPU for all of them alike. Even a Pi
several times slower evaluates far more hands than a showdown needs. No runtime
dependency is added.

A value is a `HandValue`, an ``int`` from 1 (7-5-4-3-2 offsuit) to 7,462 (royal flush):
higher is better, equal means a tie, and it serialises to JSON as a plain number. Its
``category`` is a `Category`, whose text is the category's name ("full house"). The ace
plays low only in A-2-3-4-5 (the five-high straight, the lowest straight).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from enum import StrEnum
from itertools import combinations

from controller.cards import ACE, Card
from controller.errors import RuleError

__all__ = [
    "SUIT_ORDER",
    "Category",
    "HandValue",
    "best_hand",
    "best_value",
    "hand_value",
    "highest_card_by_suit",
]


class Category(StrEnum):
    """The nine five-card categories, named as the dealer announces them (11.4(c))."""

    HIGH_CARD = "high card"
    ONE_PAIR = "one pair"
    TWO_PAIR = "two pair"
    THREE_OF_A_KIND = "three of a kind"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full house"
    FOUR_OF_A_KIND = "four of a kind"
    STRAIGHT_FLUSH = "straight flush"


class HandValue(int):
    """The value of a five-card hand: compare it like an int; ``.category`` names it."""

    __slots__ = ()

    @property
    def category(self) -> Category:
        return _CATEGORIES[bisect_right(_CATEGORY_FLOORS, int(self)) - 1]

    def __repr__(self) -> str:
        return f"HandValue({int(self)}, {self.category.value!r})"

    def __str__(self) -> str:
        return self.category.value


class EvaluationError(RuleError, ValueError):
    """Cards that are not a poker hand (wrong count, or the same card twice)."""


# rule 11.4(d): "The rank of suits, highest to lowest, is spades, hearts, diamonds and clubs"
SUIT_ORDER: dict[str, int] = {"s": 4, "h": 3, "d": 2, "c": 1}

_PRIMES = (0, 0, 2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # index = rank 2..14


def _key(ranks: Iterable[int]) -> int:
    product = 1
    for rank in ranks:
        product *= _PRIMES[rank]
    return product


def _build() -> tuple[dict[int, HandValue], dict[int, HandValue], list[int], list[Category]]:
    """Enumerate the 7,462 distinct hands from best to worst and number them downwards."""
    ranks_desc = list(range(ACE, 1, -1))
    straights = [tuple(range(top, top - 5, -1)) for top in range(ACE, 5, -1)]
    straights.append((5, 4, 3, 2, ACE))  # the wheel: the ace plays low, the lowest straight
    straight_keys = {_key(s) for s in straights}
    distinct = [c for c in combinations(ranks_desc, 5) if _key(c) not in straight_keys]

    ordered: list[tuple[Category, bool, tuple[int, ...]]] = []  # (category, flush?, ranks)
    ordered += [(Category.STRAIGHT_FLUSH, True, s) for s in straights]
    ordered += [
        (Category.FOUR_OF_A_KIND, False, (q,) * 4 + (k,))
        for q in ranks_desc
        for k in ranks_desc
        if k != q
    ]
    ordered += [
        (Category.FULL_HOUSE, False, (t,) * 3 + (p,) * 2)
        for t in ranks_desc
        for p in ranks_desc
        if p != t
    ]
    ordered += [(Category.FLUSH, True, c) for c in distinct]
    ordered += [(Category.STRAIGHT, False, s) for s in straights]
    ordered += [
        (Category.THREE_OF_A_KIND, False, (t,) * 3 + ks)
        for t in ranks_desc
        for ks in combinations([r for r in ranks_desc if r != t], 2)
    ]
    ordered += [
        (Category.TWO_PAIR, False, (hi, hi, lo, lo, k))
        for hi, lo in combinations(ranks_desc, 2)
        for k in ranks_desc
        if k not in (hi, lo)
    ]
    ordered += [
        (Category.ONE_PAIR, False, (p, p, *ks))
        for p in ranks_desc
        for ks in combinations([r for r in ranks_desc if r != p], 3)
    ]
    ordered += [(Category.HIGH_CARD, False, c) for c in distinct]

    flush: dict[int, HandValue] = {}
    plain: dict[int, HandValue] = {}
    floors: dict[Category, int] = {}
    total = len(ordered)
    for index, (category, is_flush, ranks) in enumerate(ordered):
        value = HandValue(total - index)
        (flush if is_flush else plain)[_key(ranks)] = value
        floors[category] = int(value)  # the last (lowest) one written wins
    order = sorted(floors, key=floors.__getitem__)
    return flush, plain, [floors[c] for c in order], order


_FLUSH, _PLAIN, _CATEGORY_FLOORS, _CATEGORIES = _build()
DISTINCT_VALUES = len(_FLUSH) + len(_PLAIN)
# The keys of hands whose ranks repeat: only those can hide the same card twice (a flush
# with a repeated rank is in no table), so only those pay for the check.
_PAIRED = frozenset(
    key
    for key, value in _PLAIN.items()
    if value.category not in (Category.HIGH_CARD, Category.STRAIGHT)
)
_SUIT_SHIFT = {"s": 0, "h": 15, "d": 30, "c": 45}  # a card's bit: its rank + its suit's shift


def hand_value(cards: Sequence[Card]) -> HandValue:
    """The value of exactly five cards (11.4(c)); raises `EvaluationError` otherwise.

    This is the hot path of the showdown and the simulator, so it is written flat: a
    flush is five equal suits; every other hand is found by its rank multiset.
    """
    try:
        a, b, c, d, e = cards
        p = _PRIMES
        key = p[a.rank] * p[b.rank] * p[c.rank] * p[d.rank] * p[e.rank]
        if a.suit == b.suit == c.suit == d.suit == e.suit:
            return _FLUSH[key]
        value = _PLAIN[key]
        if key in _PAIRED:
            t = _SUIT_SHIFT
            bits = (
                1 << (a.rank + t[a.suit])
                | 1 << (b.rank + t[b.suit])
                | 1 << (c.rank + t[c.suit])
                | 1 << (d.rank + t[d.suit])
                | 1 << (e.rank + t[e.suit])
            )
            if bits.bit_count() != 5:
                raise ValueError("the same card twice")
        return value
    except (ValueError, KeyError) as exc:
        raise EvaluationError(
            f"a poker hand is five different cards, not {[str(x) for x in cards]}"
        ) from exc


def best_value(cards: Sequence[Card]) -> HandValue:
    """The best five-card value among five or more cards (a hand held mid-draw)."""
    if len(cards) < 5:
        raise EvaluationError(f"a poker hand needs five cards, not {len(cards)}")
    if len(cards) == 5:
        return hand_value(cards)
    return max(hand_value(five) for five in combinations(cards, 5))


def best_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards that make `best_value` (the first such five in input order)."""
    if len(cards) < 5:
        raise EvaluationError(f"a poker hand needs five cards, not {len(cards)}")
    return max(combinations(cards, 5), key=hand_value)


def highest_card_by_suit(cards: Iterable[Card]) -> tuple[int, int]:
    """The sort key of a hand's "highest card by suit" for the odd chip of rule 11.4(d).

    Reading of 11.4(d): "the amount remaining shall be given to the hand containing the
    highest card by suit. The rank of suits, highest to lowest, is spades, hearts,
    diamonds and clubs." We read "highest card" as the card of highest rank, with the
    suit order deciding between cards of the same rank: rank first, suit second. Hands
    tied for a pot hold the same ranks, so in practice the comparison is between their
    top-ranked cards and the suit settles it (A♥ beats A♣). The other reading (any spade
    beats any heart whatever its rank) would let a 2♠ outrank an A♥ as a "highest card",
    which is not how "highest card" is used anywhere else in the rules. No two hands share
    a card, so the key never ties.
    """
    return max((card.rank, SUIT_ORDER[card.suit]) for card in cards)
