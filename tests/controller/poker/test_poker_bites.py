"""Pots and showdown edges that a silent slip would pass: the all-in rule's side
pots, 11.4(c)'s exposure, 11.4(d)'s split and the balance."""

from __future__ import annotations

import pytest

from controller.errors import BalanceError, IllegalAction
from controller.poker.pots import (
    Pot,
    Split,
    build_pots,
    check_balance,
    pots_in_play,
    split_pot,
    take_rake,
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


def test_all_in_folded_chips_above_every_live_all_in_level_join_the_last_pot() -> None:
    """Seat 1 all in for 10; seats 2 and 3 bet on and folded. Their chips above 10 have
    no live hand over them: they are kept, in the last pot, for seat 1 (nothing lost)."""
    pots, returns = build_pots({1: 10, 2: 30, 3: 20}, folded={2, 3})
    assert returns == {2: 10}  # above what anybody matched: uncalled
    assert pots == [Pot(50, (1,))]
    assert sum(p.amount for p in pots) + sum(returns.values()) == 60


def test_all_in_chips_with_no_live_hand_at_all_are_a_balance_error() -> None:
    with pytest.raises(BalanceError, match="20 chips in the pot but no live hand"):
        build_pots({1: 10, 2: 10}, folded={1, 2})
    with pytest.raises(BalanceError, match="no live hand"):
        pots_in_play({1: 10, 2: 10}, live=(), all_in=())


def test_all_in_pots_in_play_folded_chips_above_the_live_all_in_join_the_last_pot() -> None:
    pots, returns = pots_in_play({1: 10, 2: 30, 3: 20}, live={1}, all_in={1})
    assert returns == {2: 10}
    assert pots == [Pot(50, (1,))]


def test_all_in_a_lone_seat_above_the_others_gets_its_slice_back_not_a_pot() -> None:
    pots, returns = build_pots({1: 10, 2: 10, 3: 25}, folded=())
    assert pots == [Pot(30, (1, 2, 3))]
    assert returns == {3: 15}


def test_all_in_equal_eligibility_levels_merge_into_one_pot() -> None:
    # seat 4 folded at 15: the levels 10 and 20 have the same live seats above 10
    pots, returns = build_pots({1: 10, 2: 20, 3: 20, 4: 15}, folded={4})
    assert pots == [Pot(40, (1, 2, 3)), Pot(25, (2, 3))]
    assert returns == {}
    pots, _ = build_pots({1: 20, 2: 20, 3: 20, 4: 15}, folded={4})
    assert pots == [Pot(75, (1, 2, 3))]


def test_all_in_no_contributions_no_pots() -> None:
    assert build_pots({}, folded=()) == ([], {})
    assert pots_in_play({}, live=(1, 2), all_in=()) == ([], {})


def test_all_in_pots_in_play_an_open_bet_is_not_returned_while_it_can_be_called() -> None:
    pots, returns = pots_in_play({1: 10, 2: 30}, live={1, 2}, all_in=())
    assert returns == {} and pots == [Pot(40, (1, 2))]
    pots, returns = pots_in_play({1: 10, 2: 30}, live={1, 2}, all_in={1})
    assert returns == {2: 20} and pots == [Pot(20, (1, 2))]


def test_all_in_pots_in_play_side_pot_at_a_live_all_in_level_only() -> None:
    pots, returns = pots_in_play({1: 10, 2: 30, 3: 30, 4: 5}, live={1, 2, 3}, all_in={1})
    assert pots == [Pot(35, (1, 2, 3)), Pot(40, (2, 3))]
    assert returns == {}


def test_rake_takes_the_main_pot_first_then_the_side_pots() -> None:
    raked, rake = take_rake([Pot(4, (1, 2)), Pot(20, (2, 3))], percent=50, cap=10, chip_unit=1)
    assert rake == 10
    assert raked == [Pot(0, (1, 2)), Pot(14, (2, 3))]
    assert take_rake([Pot(19, (1, 2))], percent=10, cap=100, chip_unit=1) == (
        [Pot(18, (1, 2))],
        1,
    )


def test_11_4d_the_odd_chip_goes_whole_to_the_highest_card_by_suit() -> None:
    hands = {2: cards(KINGS_TOO), 5: cards(KINGS)}  # K♠ above K♦
    split = split_pot(0, 25, [2, 5], hands, chip_unit=5)
    assert split == Split(0, 25, ((2, 10), (5, 15)), 5, 5)
    exact = split_pot(1, 20, [2, 5], hands, chip_unit=5)
    assert exact == Split(1, 20, ((2, 10), (5, 10)), None, 0)


def test_11_4d_a_pot_without_a_winner_is_refused() -> None:
    with pytest.raises(BalanceError, match="pot 3 of 10 has no winner"):
        split_pot(3, 10, [], {}, chip_unit=1)


def test_balance_paid_must_equal_awarded_and_chips_in() -> None:
    good = Split(0, 20, ((1, 20),), None, 0)
    check_balance({1: 10, 2: 12}, [good], {2: 1}, rake=1)
    with pytest.raises(BalanceError, match=r"chips in 22 != awarded 20 \(paid 20\)"):
        check_balance({1: 10, 2: 12}, [good], {2: 1}, rake=0)
    overpaid = Split(0, 20, ((1, 21),), None, 0)
    with pytest.raises(BalanceError, match=r"paid 21"):
        check_balance({1: 10, 2: 12}, [overpaid], {2: 1}, rake=1)


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


def test_all_in_a_lone_contributor_gets_everything_back() -> None:
    assert build_pots({1: 10}, folded=()) == ([], {1: 10})
    assert pots_in_play({1: 10}, live={1}, all_in=()) == ([], {1: 10})


def test_all_in_a_live_seat_with_nothing_in_makes_no_empty_pot() -> None:
    pots, returns = build_pots({1: 10, 2: 10, 3: 0}, folded=())
    assert pots == [Pot(20, (1, 2))] and returns == {}


def test_all_in_pots_in_play_a_seat_all_in_for_nothing_wins_no_pot() -> None:
    pots, returns = pots_in_play({1: 1, 2: 5}, live={1, 2, 3}, all_in={1, 3})
    assert pots == [Pot(2, (1, 2))]  # seat 3 is not eligible
    assert returns == {2: 4}  # nobody left who can call it


def test_rake_is_whole_chip_units() -> None:
    raked, rake = take_rake([Pot(95, (1, 2)), Pot(40, (2, 3))], 10, 100, 5)
    assert type(rake) is int and rake == 10
    assert all(type(p.amount) is int for p in raked)


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


def test_11_4_rule_constants() -> None:
    from controller.poker.showdown import CHOP_RULE, SHOWDOWN_RULE, SPLIT_RULE

    assert (SHOWDOWN_RULE, SPLIT_RULE, CHOP_RULE) == ("11.4(c)", "11.4(d)", "11.4(e)")
