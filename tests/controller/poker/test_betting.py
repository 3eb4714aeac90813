"""One betting round of draw poker
(controller/poker/betting.py), built directly, at its edges: whose turn (11.2(c), 11.4(a)
and (b)), the wager limits of the table notice (11.5(a)), table stakes and the raise cap.
Refusals are checked word for word: the reason is what the dealer reads.
"""

from __future__ import annotations

from typing import Any

from controller.poker.betting import BettingRound
from controller.poker.records import ActionTaken
from controller.poker.rules import PokerRules
from tests.support.refusals import refusal


def first_round(
    stacks: dict[int, int] | None = None,
    *,
    all_in: set[int] | None = None,
    folded: set[int] | None = None,
    bets: dict[int, int] | None = None,
    **rules: Any,
) -> BettingRound:
    """Seats 1-4; seats 1 and 2 posted the blinds 1 and 2 (taken from their stacks): the
    round starts left of the last blind (11.2(c)), at seat 3."""
    stacks = {1: 99, 2: 98, 3: 100, 4: 100} if stacks is None else stacks
    bets = {1: 1, 2: 2} if bets is None else bets
    return BettingRound(
        PokerRules(**rules),
        [3, 4, 1, 2],
        stacks,
        dict(bets),
        folded or set(),
        all_in or set(),
        bets,
        "11.2(c)",
    )


def final_round(stacks: dict[int, int] | None = None, **rules: Any) -> BettingRound:
    """After the draw: opened by the first active player left of the last blind (11.4(a)),
    then clockwise (11.4(b))."""
    return BettingRound(
        PokerRules(**rules),
        [3, 4, 1, 2],
        stacks or {1: 50, 2: 50, 3: 50, 4: 50},
        {},
        set(),
        set(),
        {},
        "11.4(b)",
        "11.4(a)",
    )


# --- whose turn -----------------------------------------------------------------------------


def test_rule_11_2_c_the_round_goes_clockwise_from_left_of_the_last_blind() -> None:
    b = first_round()
    assert b.to_act == 3 and not b.done
    assert refusal(lambda: b.verify_call(4)) == (
        "11.2(c)",
        "seat 4 acts out of turn: seat 3 to act",
    )
    seen = []
    while b.to_act is not None:
        seat = b.to_act
        seen.append(seat)
        b.call(seat) if b.to_call(seat) else b.check(seat)
    assert seen == [3, 4, 1, 2]  # the big blind acts last, and may check
    assert b.done
    assert refusal(lambda: b.verify_fold(3)) == ("11.2(c)", "the betting round is over")


def test_rule_11_2_c_check_and_call_refusals_word_for_word() -> None:
    b = first_round()
    assert refusal(lambda: b.verify_check(3)) == ("11.2(c)", "seat 3 cannot check: 2 to call")
    b.call(3)
    b.call(4)
    b.call(1)
    assert refusal(lambda: b.verify_call(2)) == ("11.2(c)", "seat 2 has nothing to call: check")
    b.verify_check(2)


def test_rule_11_4_a_the_opener_s_rule_then_11_4_b() -> None:
    b = final_round()
    assert b.turn_rule() == "11.4(a)"
    assert refusal(lambda: b.verify_check(4)) == (
        "11.4(a)",
        "seat 4 acts out of turn: seat 3 to act",
    )
    assert b.check(3) == ActionTaken(3, "check", 0, 0, False, "11.4(a)")
    assert b.turn_rule() == "11.4(b)"
    assert b.raise_(4, 5) == ActionTaken(4, "bet", 5, 5, False, "11.4(b)")
    assert refusal(lambda: b.verify_check(1)) == ("11.4(b)", "seat 1 cannot check: 5 to call")


def test_rule_11_4_b_a_raise_reopens_the_round_for_everyone_still_in() -> None:
    b = final_round()
    b.check(3)
    b.check(4)
    b.raise_(1, 4)  # a bet of 4: seats 2, 3 and 4 act again, in order
    order = []
    while b.to_act is not None:
        order.append(b.to_act)
        b.call(b.to_act)
    assert order == [2, 3, 4]
    assert b.bets == {1: 4, 2: 4, 3: 4, 4: 4}
    assert b.contributed == {1: 4, 2: 4, 3: 4, 4: 4}
    assert b.stacks == {1: 46, 2: 46, 3: 46, 4: 46}


def test_rule_11_2_c_i_the_round_ends_when_one_player_is_left() -> None:
    b = first_round()
    assert b.fold(3) == ActionTaken(3, "fold", 0, 2, False, "11.2(c)")
    b.fold(4)
    assert not b.done  # seats 1 and 2 are still in: the small blind acts
    b.fold(1)
    assert b.done and b.live() == [2]
    assert b.folded == {1, 3, 4}


def test_rule_11_2_c_a_lone_player_with_nothing_to_call_has_no_turn() -> None:
    # every other seat all in for less than the blind: nothing left to decide
    b = first_round({1: 0, 2: 98, 3: 0, 4: 100}, all_in={1, 3}, folded={4}, bets={1: 1, 2: 2, 3: 1})
    assert b.done
    # a lone player facing a bet still decides whether to call it
    b = first_round({1: 0, 2: 98, 3: 100}, all_in={1}, bets={1: 10, 2: 2})
    assert b.to_act == 3 and b.to_call(3) == 10


def test_rule_11_2_c_the_turn_wraps_round_the_table() -> None:
    b = first_round()
    b.raise_(3, 2)
    b.call(4)
    b.call(1)
    b.raise_(2, 2)  # the big blind raises: seat 3, first in the order, acts next
    assert b.to_act == 3


# --- 11.5(a): the table notice's limits, table stakes, the raise cap --------------------------


def test_rule_11_5_a_raise_in_whole_positive_chip_units() -> None:
    b = first_round(chip_unit=1, minimum_wager=2)
    for amount in (0, -2):
        assert refusal(lambda a=amount: b.verify_raise(3, a)) == (
            "11.5",
            "a raise is a positive multiple of 1",
        )
    b = first_round(chip_unit=2, minimum_wager=2, blinds=(2, 4), rake_cap=4)
    assert refusal(lambda: b.verify_raise(3, 3)) == ("11.5", "a raise is a positive multiple of 2")


def test_rule_11_5_a_between_the_notice_s_minimum_and_maximum() -> None:
    b = first_round(minimum_wager=4, maximum_wager=10)
    for amount in (3, 11):
        assert refusal(lambda a=amount: b.verify_raise(3, a)) == (
            "11.5",
            f"a wager of {amount} is outside the table notice's 4 to 10",
        )
    b.verify_raise(3, 4)
    b.verify_raise(3, 10)
    assert b.raise_bounds(3) == (4, 10)


def test_rule_11_5_table_stakes_all_in_for_less_than_the_minimum() -> None:
    b = first_round({1: 99, 2: 98, 3: 5, 4: 100}, minimum_wager=4, maximum_wager=10)
    assert b.raise_bounds(3) == (3, 3)  # 2 to call, 3 left above it
    assert refusal(lambda: b.verify_raise(3, 4)) == ("11.5", "seat 3 has 5 in front: table stakes")
    assert b.raise_(3, 3) == ActionTaken(3, "raise", 5, 5, True, "11.2(c)")
    assert b.all_in == {3} and b.stacks[3] == 0
    assert b.raises == 0  # all in below the minimum: not a raise for the cap
    assert b.to_call(4) == 5


def test_rule_11_5_to_call_is_at_most_what_is_in_front() -> None:
    b = first_round({1: 99, 2: 98, 3: 100, 4: 3})
    b.raise_(3, 8)  # bet to 10
    assert b.to_call(4) == 3
    assert b.call(4) == ActionTaken(4, "call", 3, 10, True, "11.2(c)")


def test_rule_11_5_the_raise_cap_counts_bets_and_raises() -> None:
    b = first_round(raise_cap=2, minimum_wager=2, maximum_wager=10)
    b.raise_(3, 2)
    assert b.raises == 1 and b.aggressor == 3
    b.raise_(4, 2)
    assert refusal(lambda: b.verify_raise(1, 2)) == (
        "11.5",
        "the raise cap of 2 is reached this round",
    )
    b = first_round(raise_cap=None)
    for seat in (3, 4, 1, 2, 3, 4):
        b.verify_raise(seat, 2)
        b.raise_(seat, 2)
    assert b.raises == 6


def test_rule_11_5_no_raise_when_nobody_could_call_it() -> None:
    b = first_round({1: 0, 2: 0, 3: 100, 4: 0}, all_in={1, 2, 4}, bets={1: 1, 2: 2, 4: 30})
    assert refusal(lambda: b.verify_raise(3, 2)) == (
        "11.2(c)",
        "no opponent is left who could call a raise",
    )
    b = first_round()
    b.fold(3)
    b.verify_raise(4, 2)  # seats 1 and 2 could still call


def test_rule_11_2_c_a_blind_s_call_adds_to_its_blind() -> None:
    b = first_round()
    b.call(3)
    b.call(4)
    assert b.call(1) == ActionTaken(1, "call", 1, 2, False, "11.2(c)")
    assert b.bets[1] == 2 and b.contributed[1] == 2 and b.to_call(1) == 0


def test_rule_11_4_b_after_the_opener_folds_the_others_act_under_11_4_b() -> None:
    b = final_round()
    assert b.fold(3) == ActionTaken(3, "fold", 0, 0, False, "11.4(a)")
    assert b.turn_rule() == "11.4(b)"
    assert refusal(lambda: b.verify_check(1)) == (
        "11.4(b)",
        "seat 1 acts out of turn: seat 4 to act",
    )
