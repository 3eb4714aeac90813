"""Pure pot functions: side pots, uncalled bets, rake, the 11.4(d) split, the balance."""

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
