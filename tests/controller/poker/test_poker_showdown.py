"""The showdown (controller/poker/showdown.py): 11.4(c)'s exposure and the request to see,
11.4(d)'s split of each pot, 11.4(e)'s refused chop, and the rules each cites."""

from __future__ import annotations

import pytest

from controller.errors import IllegalAction
from controller.poker.pots import (
    Pot,
)
from controller.poker.showdown import (
    exposure,
    refuse_chop,
    settle_showdown,
    verify_request_to_see,
)
from tests.support.poker import cards

KINGS = "Ks Kh 7d 5c 2s"
KINGS_TOO = "Kd Kc 7s 5h 2d"  # the same value as KINGS
ACES = "As Ah 8d 6c 3s"
TRIPS = "Qs Qh Qd 4c 3h"
JUNK = "Js 9h 6d 4s 2c"


def test_11_4c_a_later_hand_that_ties_the_called_hand_must_show() -> None:
    values = {
        s: settle_showdown([Pot(2, (s,))], {s: cards(h)}, s, 6, 1)[2][0] for s, h in ((1, KINGS),)
    }
    assert values  # (built through settle_showdown below)
    order, _, _ = settle_showdown(
        [Pot(30, (1, 2, 3))],
        {1: cards(KINGS), 2: cards(JUNK), 3: cards(KINGS_TOO)},
        called=1,
        seats=6,
        chip_unit=1,
    )
    assert order.must_expose == (1, 3)  # the tie shows, the junk may muck
    assert order.may_muck == (2,)
    assert order.winners == (1, 3)
    assert order.winning_hand == "one pair"


def test_11_4c_exposure_starts_at_the_called_seat_and_goes_clockwise() -> None:
    from controller.poker.evaluator import hand_value

    values = {s: hand_value(cards(h)) for s, h in {1: ACES, 3: KINGS, 5: TRIPS}.items()}
    assert exposure([1, 3, 5], values, first=3, seats=6) == [3, 5, 1]
    assert exposure([1, 3, 5], values, first=4, seats=6) == [5]  # trips called: none higher


def test_11_4d_a_side_pot_with_one_eligible_is_uncontested_not_a_category() -> None:
    order, splits, awards = settle_showdown(
        [Pot(30, (1, 2)), Pot(10, (2,))],
        {1: cards(ACES), 2: cards(KINGS)},
        called=2,
        seats=6,
        chip_unit=1,
    )
    assert [a.hand for a in awards] == ["one pair", "uncontested"]
    assert [a.winners for a in awards] == [(1,), (2,)]
    assert [s.shares for s in splits] == [((1, 30),), ((2, 10),)]
    assert order.winners == (1,) and order.called == 2
    assert order.must_expose == (2, 1)


def test_11_4c_no_pots_no_winners() -> None:
    order, splits, awards = settle_showdown([], {1: cards(ACES)}, called=1, seats=6, chip_unit=1)
    assert (splits, awards) == ([], [])
    assert order.winners == () and order.winning_hand == "" and order.may_muck == (1,)


def test_11_4c_request_to_see_refusals_name_the_rule() -> None:
    verify_request_to_see([1, 3], seated={1, 2, 3}, by_seat=2, seat=3)
    verify_request_to_see([1, 3], seated={1, 2, 3}, by_seat=2, seat=None)
    with pytest.raises(IllegalAction, match="no final showdown") as no_showdown:
        verify_request_to_see([], seated={1}, by_seat=1, seat=None)
    assert no_showdown.value.rule == "11.4(c)"
    with pytest.raises(IllegalAction, match="seat 4 has no player"):
        verify_request_to_see([1, 3], seated={1, 2, 3}, by_seat=4, seat=None)
    with pytest.raises(IllegalAction, match=r"seat 2 has no hand .*\(seats 1, 3\)"):
        verify_request_to_see([1, 3], seated={1, 2, 3}, by_seat=1, seat=2)


def test_11_4e_no_chop() -> None:
    with pytest.raises(IllegalAction, match="shall not be divided by the agreement") as chop:
        refuse_chop()
    assert chop.value.rule == "11.4(e)"


def test_11_4d_each_award_and_split_names_its_pot() -> None:
    _, splits, awards = settle_showdown(
        [Pot(30, (1, 2)), Pot(10, (2,))],
        {1: cards(ACES), 2: cards(KINGS)},
        called=2,
        seats=6,
        chip_unit=1,
    )
    assert [s.pot_index for s in splits] == [0, 1]
    assert [a.pot for a in awards] == [0, 1]
    assert [a.amount for a in awards] == [30, 10]


def test_11_4c_and_11_4e_refusals_word_for_word() -> None:
    with pytest.raises(IllegalAction) as chop:
        refuse_chop()
    assert chop.value.reason == (
        "the pot shall not be divided by the agreement of two or more players; "
        "each hand shall be played to a conclusion"
    )
    with pytest.raises(IllegalAction) as none:
        verify_request_to_see([], seated={1}, by_seat=1, seat=None)
    assert none.value.reason == "no final showdown in this hand: there are no hands to see"


def test_11_4_rule_constants() -> None:
    from controller.poker.showdown import CHOP_RULE, SHOWDOWN_RULE, SPLIT_RULE

    assert (SHOWDOWN_RULE, SPLIT_RULE, CHOP_RULE) == ("11.4(c)", "11.4(d)", "11.4(e)")
