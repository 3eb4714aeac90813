"""The five-card evaluator (11.4(c): "the highest ranking five card poker hand")."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest

from controller.cards import DECK, Card
from controller.poker import Category, hand_value
from controller.poker.evaluator import (
    EvaluationError,
    best_hand,
    best_value,
    highest_card_by_suit,
)
from controller.poker.pots import (
    split_pot,
)


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def test_all_2598960_hands_give_the_known_category_counts_and_7462_values() -> None:
    counts: Counter[Category] = Counter()
    values: set[int] = set()
    per_value: Counter[int] = Counter()
    for five in combinations(DECK, 5):
        per_value[hand_value(five)] += 1
    for value, n in per_value.items():
        counts[hand_value_category(value)] += n
        values.add(value)
    assert sum(counts.values()) == 2_598_960
    assert counts == {
        Category.STRAIGHT_FLUSH: 40,
        Category.FOUR_OF_A_KIND: 624,
        Category.FULL_HOUSE: 3_744,
        Category.FLUSH: 5_108,
        Category.STRAIGHT: 10_200,
        Category.THREE_OF_A_KIND: 54_912,
        Category.TWO_PAIR: 123_552,
        Category.ONE_PAIR: 1_098_240,
        Category.HIGH_CARD: 1_302_540,
    }
    assert len(values) == 7_462
    assert min(values) == 1 and max(values) == 7_462


def hand_value_category(value: int) -> Category:
    from controller.poker.evaluator import HandValue

    return HandValue(value).category


def test_agrees_with_treys_on_100000_random_pairs() -> None:
    import treys  # the dev extra installs it: missing, the test fails

    evaluator = treys.Evaluator()
    to_treys = {card: treys.Card.new(str(card)) for card in DECK}
    rng = random.Random(20261129)
    for _ in range(100_000):
        drawn = rng.sample(DECK, 10)
        first, second = drawn[:5], drawn[5:]
        ours = (hand_value(first) > hand_value(second)) - (hand_value(first) < hand_value(second))
        # treys: 1 is the best hand, so the sign is reversed
        t1 = evaluator.evaluate([], [to_treys[c] for c in first])
        t2 = evaluator.evaluate([], [to_treys[c] for c in second])
        assert ours == (t1 < t2) - (t1 > t2), (first, second)
        # the numbering is the same enumeration: value = 7463 - treys rank
        assert hand_value(first) == 7463 - t1


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("As Ks Qs Js Ts", "straight flush"),
        ("5d 4d 3d 2d Ad", "straight flush"),
        ("9c 9d 9h 9s 2c", "four of a kind"),
        ("Kc Kd Kh 2s 2c", "full house"),
        ("Ah 9h 7h 4h 2h", "flush"),
        ("5c 4d 3h 2s Ac", "straight"),
        ("7c 7d 7h As 2c", "three of a kind"),
        ("Jc Jd 4h 4s Ac", "two pair"),
        ("Qc Qd 8h 4s 2c", "one pair"),
        ("Ac Kd 8h 4s 2c", "high card"),
    ],
)
def test_categories_are_named_as_the_dealer_announces_them(text: str, category: str) -> None:
    value = hand_value(cards(text))
    assert value.category == category
    assert str(value) == category


def test_the_ace_plays_low_only_in_the_wheel() -> None:
    wheel = hand_value(cards("5c 4d 3h 2s Ac"))
    six_high = hand_value(cards("6c 5d 4h 3s 2c"))
    broadway = hand_value(cards("Ac Kd Qh Js Tc"))
    assert wheel < six_high < broadway
    assert hand_value(cards("Ac Kd Qh Js 2c")).category == Category.HIGH_CARD  # no wrap
    assert hand_value(cards("5h 4h 3h 2h Ah")) < hand_value(cards("6s 5s 4s 3s 2s"))


def test_equal_value_means_a_tie_and_values_serialise_as_numbers() -> None:
    a = hand_value(cards("Ac Kd 8h 4s 2c"))
    b = hand_value(cards("Ad Kh 8s 4c 2d"))
    assert a == b
    assert json.loads(json.dumps({"v": a})) == {"v": int(a)}


def test_refuses_what_is_not_five_different_cards() -> None:
    with pytest.raises(EvaluationError):
        hand_value(cards("Ac Kd 8h 4s"))
    with pytest.raises(EvaluationError):
        hand_value(cards("Ac Ac Ac Ac Ac"))
    with pytest.raises(ValueError):
        best_value(cards("Ac Kd"))


@pytest.mark.parametrize(
    "hand",
    ["As As Kd Qc Jh", "As As Ad Kc Kh", "9h 9h 9s 9d 2c", "2c 3d 2c 3d 4h", "7s 8h 7s 8h 7s"],
)
def test_rule_11_4_c_the_same_card_twice_is_no_hand(hand: str) -> None:
    """A hand with a repeated rank once passed the tables with the same card twice (a
    pair of As As); 11.4(c) ranks hands of one deck, so it is an error naming the cards."""
    with pytest.raises(EvaluationError, match="five different cards"):
        hand_value(cards(hand))


def test_best_five_of_more_than_five() -> None:
    held = cards("Ac Ad 2s 3h Ah 7c 8d")
    assert best_value(held).category == Category.THREE_OF_A_KIND
    assert set(best_hand(held)) >= set(cards("Ac Ad Ah"))


def test_11_4d_highest_card_by_suit_reads_rank_first_then_suit() -> None:
    # A♥ K♣ ... against A♣ K♠ ...: the ace of hearts is the highest card; under the other
    # reading (suit first) the hand holding a spade would take the chip.
    first = cards("Ah Kc 9d 7d 3c")
    second = cards("Ac Ks 9h 7s 3d")
    assert highest_card_by_suit(first) > highest_card_by_suit(second)
    assert highest_card_by_suit(cards("As 2c 3c 4c 6d")) > highest_card_by_suit(
        cards("Ah 2d 3d 4d 6h")
    )


def test_11_4d_the_rank_of_suits_spades_hearts_diamonds_clubs() -> None:
    from controller.poker.evaluator import SUIT_ORDER, highest_card_by_suit

    keys = [highest_card_by_suit(cards(f"A{s} 2c 3c 4c 6d")) for s in "shdc"]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 4
    assert [SUIT_ORDER[s] for s in "shdc"] == [4, 3, 2, 1]
    # the odd chip between two tied hands whose top cards differ only by suit
    hands = {1: cards("Kc Qc 9h 7h 3s"), 2: cards("Kd Qd 9c 7c 3h")}
    assert split_pot(0, 3, [1, 2], hands, chip_unit=1).odd_chip_seat == 2


def test_11_4c_the_tables_hold_7462_distinct_values_with_their_categories() -> None:
    from controller.poker.evaluator import DISTINCT_VALUES, Category, HandValue, hand_value

    assert DISTINCT_VALUES == 7462
    assert hand_value(cards("As Ks Qs Js Ts")) == HandValue(7462)
    assert hand_value(cards("7c 5d 4h 3s 2c")) == HandValue(1)
    assert repr(HandValue(7462)) == "HandValue(7462, 'straight flush')"
    assert str(hand_value(cards("As Ah Ad Ks Kh"))) == "full house"
    assert [c.value for c in Category] == [
        "high card",
        "one pair",
        "two pair",
        "three of a kind",
        "straight",
        "flush",
        "full house",
        "four of a kind",
        "straight flush",
    ]


def test_11_4c_best_of_five_six_or_four_cards() -> None:
    from controller.poker.evaluator import (
        EvaluationError,
        best_hand,
        best_value,
        hand_value,
    )

    five = cards("As Ah 8d 6c 3s")
    assert best_value(five) == hand_value(five)
    assert best_hand(five) == tuple(five)
    six = cards("As Ah 8d 6c 3s Ad")
    assert best_value(six).category.value == "three of a kind"
    for bad in (cards("As Ah 8d 6c"),):
        with pytest.raises(EvaluationError, match=r"^a poker hand needs five cards, not 4$"):
            best_value(bad)
        with pytest.raises(EvaluationError, match=r"^a poker hand needs five cards, not 4$"):
            best_hand(bad)
    with pytest.raises(EvaluationError) as four:
        hand_value(cards("As Ah 8d 6c"))
    assert str(four.value) == "a poker hand is five different cards, not ['As', 'Ah', '8d', '6c']"
    with pytest.raises(EvaluationError):
        hand_value(cards("As Ad Ah Ac As"))  # no five-card hand has five aces
