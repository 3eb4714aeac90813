"""Pure pot functions: side pots, uncalled bets, rake, the 11.4(d) split, the balance.

The test_all_in_* tests pin the all-in rule's side pots: who is in which pot, and what
comes back to a seat alone above the others."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from controller.errors import BalanceError, ConfigError
from controller.poker.pots import (
    Pot,
    Split,
    build_pots,
    check_balance,
    pots_in_play,
    split_pot,
    take_rake,
)
from controller.poker.rules import PokerRules
from tests.support.poker import cards


def test_side_pots_by_all_in_level_and_folded_chips_stay_in() -> None:
    pots, returns = build_pots({1: 10, 2: 20, 3: 30, 4: 30, 5: 5}, folded={5})
    assert pots == [Pot(45, (1, 2, 3, 4)), Pot(30, (2, 3, 4)), Pot(20, (3, 4))]
    assert returns == {}


def test_an_uncalled_bet_goes_back_unraked() -> None:
    pots, returns = build_pots({1: 2, 2: 2, 3: 8}, folded={1, 2})
    assert pots == [Pot(6, (3,))]
    assert returns == {3: 6}
    raked, rake = take_rake(pots, percent=50, cap=100, chip_unit=1)
    assert rake == 3 and raked == [Pot(3, (3,))]


def test_rake_rounds_down_to_the_chip_unit_and_is_capped() -> None:
    pots = [Pot(95, (1, 2)), Pot(40, (2, 3))]
    assert take_rake(pots, 10, 100, 5)[1] == 10  # 13.5 -> 10 in chips of 5
    raked, rake = take_rake(pots, 10, 3, 1)
    assert rake == 3 and raked[0].amount == 92 and raked[1].amount == 40
    assert take_rake([Pot(2, (1,)), Pot(50, (1, 2))], 10, 10, 1)[0] == [
        Pot(0, (1,)),
        Pot(47, (1, 2)),
    ]


def test_11_4d_split_to_the_lowest_chip_denomination_in_play() -> None:
    hands = {
        1: cards("9c 8s 7h 6d 5d"),
        2: cards("9h 8d 7c 6s 5s"),
        3: cards("9d 8c 7s 6h 5h"),
    }
    split = split_pot(0, 35, [1, 2, 3], hands, chip_unit=5)
    assert split == Split(0, 35, ((1, 10), (2, 15), (3, 10)), 2, 5)
    exact = split_pot(1, 30, [1, 2, 3], hands, chip_unit=5)
    assert exact.odd_chip == 0 and exact.odd_chip_seat is None


def test_the_balance_check_raises_when_chips_go_missing() -> None:
    contributions = {1: 10, 2: 10}
    good = [Split(0, 19, ((1, 19),), None, 0)]
    check_balance(contributions, good, {}, rake=1)
    with pytest.raises(BalanceError):
        check_balance(contributions, good, {}, rake=0)
    with pytest.raises(BalanceError):
        check_balance(contributions, [Split(0, 19, ((1, 18),), None, 0)], {}, rake=1)
    with pytest.raises(ArithmeticError):  # BalanceError is also an ArithmeticError
        split_pot(0, 10, [], {}, 1)


def test_rules_are_validated_naming_the_key() -> None:
    with pytest.raises(ConfigError, match="maximum_wager"):
        PokerRules(minimum_wager=10, maximum_wager=5)
    with pytest.raises(ConfigError, match="seats"):
        PokerRules(seats=11)
    with pytest.raises(ConfigError, match="blinds"):
        PokerRules(blinds=(1, 3), chip_unit=2, minimum_wager=2, maximum_wager=4, rake_cap=4)


@given(
    called=st.integers(0, 50),
    callers=st.integers(0, 4),
    all_ins=st.lists(st.integers(1, 60), max_size=4),
    folded=st.lists(st.integers(0, 60), max_size=3),
)
def test_the_pots_shown_are_the_pots_settled_once_the_betting_is_over(
    called: int, callers: int, all_ins: list[int], folded: list[int]
) -> None:
    """Betting over: the live seats not all in have matched one level, at or above every
    live all-in; folded seats put in no more than the top live seat."""
    assume(callers + len(all_ins) >= 2 and (callers == 0 or called > 0))
    if callers:
        all_ins = [min(chips, called) for chips in all_ins]
    top = max([called] * bool(callers) + all_ins)
    contributions = dict(enumerate([called] * callers + all_ins + [min(f, top) for f in folded]))
    live = range(callers + len(all_ins))
    out = set(range(callers + len(all_ins), len(contributions)))
    shown = pots_in_play(contributions, live, set(range(callers, len(live))))
    assert shown == build_pots(contributions, out)


KINGS = "Ks Kh 7d 5c 2s"
KINGS_TOO = "Kd Kc 7s 5h 2d"  # the same value as KINGS


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
