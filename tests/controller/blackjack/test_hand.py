"""Boxes and hands (controller/blackjack/hand.py): the card values of rule 3.2, the best total,
a blackjack (4.1: two cards, not from a split), the total the dealer is shown, a box's
stakes and its clearing for the next round."""

from __future__ import annotations

import pytest

from controller.blackjack.display import snapshot
from controller.blackjack.hand import Box, Hand, card_value
from controller.cards import Card
from tests.support.blackjack import dealt


def hand(text: str, from_split: bool = False, split_aces: bool = False) -> Hand:
    h = Hand(from_split, split_aces)
    for card in text.split():
        h.add(Card.parse(card))
    return h


@pytest.mark.parametrize(
    ("rank", "value"),
    [("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8), ("9", 9),
     ("T", 10), ("J", 10), ("Q", 10), ("K", 10), ("A", 1)],
)  # fmt: skip
def test_rule_3_2_card_values(rank: str, value: int) -> None:
    for suit in "shdc":
        assert card_value(Card.parse(rank + suit)) == value
    assert hand(f"{rank}s").hard == value


def test_rule_3_2_an_ace_counts_11_unless_that_busts() -> None:
    h = hand("As 6d")
    assert (h.hard, h.total, h.soft, h.aces) == (7, 17, True, 1)
    h.add(Card.parse("5c"))  # 12 hard: 11 would bust it
    assert (h.hard, h.total, h.soft) == (12, 12, False)
    h = hand("As Ad")
    assert (h.hard, h.total, h.aces) == (2, 12, 2)
    h = hand("As Kd")
    assert (h.hard, h.total) == (11, 21)
    assert hand("9s 9d").soft is False


def test_rule_4_1_a_blackjack_is_two_cards_not_from_a_split() -> None:
    assert hand("As Kd").blackjack and hand("Th As").blackjack
    assert not hand("As Kd", from_split=True).blackjack  # a split ace's 21
    assert not hand("As 5d 5c").blackjack  # three cards
    assert not hand("As Ad").blackjack
    assert not hand("Ks Qd").blackjack
    assert not hand("As 9d").blackjack


def test_the_total_as_the_dealer_is_shown() -> None:
    assert hand("As Kd").describe() == "blackjack"
    assert hand("Ks Qd 4c").describe() == "bust 24"
    assert hand("Ks Qd 2c").describe() == "bust 22"
    assert hand("As 6d").describe() == "soft 17"
    assert hand("As 5d 5c").describe() == "21"  # soft 21 is shown as 21
    assert hand("Ks Qd").describe() == "20"
    assert hand("Ks Qd Ac").describe() == "21"
    assert hand("Ks Qd").bust is False and hand("Ks Qd 2c").bust is True
    assert hand("7s 7d 7c").bust is False  # hard 21


def test_rule_4_1_a_stake_is_the_wager_plus_the_double() -> None:
    h = Hand()
    assert h.stake(1, 10) == 10
    h.extra = {1: 6}
    assert (h.stake(1, 10), h.stake(2, 4)) == (16, 4)
    assert (Hand().from_split, Hand().split_aces, Hand().doubled, Hand().done) == (
        False,
        False,
        False,
        False,
    )
    assert (Hand(True, True).from_split, Hand(True, True).split_aces) == (True, True)


def test_rule_10_3_a_box_paid_at_once_and_cleared_for_the_next_round() -> None:
    box = Box(3)
    assert box.number == 3 and not box.paid_at_once(1)
    box.even_money.add(2)
    assert box.paid_at_once(2) and not box.paid_at_once(1)
    box.settled_at_once = True
    assert box.paid_at_once(1)
    box.stakes[1] = 4
    box.hands.append(Hand())
    box.insurance[1] = 2
    box.insurance_collected.add(1)
    box.insurance_off.add(1)
    box.void = True
    box.reset()
    assert (box.stakes, box.hands, box.insurance, box.insurance_collected) == ({}, [], {}, set())
    assert (box.insurance_off, box.even_money, box.settled_at_once, box.void) == (
        set(),
        set(),
        False,
        False,
    )
    assert box.number == 3


def test_rule_9_6_a_box_not_voided_shows_as_not_voided() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    (view,) = snapshot(s.table).boxes
    assert view.void is False  # the display's JSON says false, not null
