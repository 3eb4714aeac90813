"""The end of a poker hand in money
(controller/poker/payout.py): the pots and the rake, the player being called (11.4(c)),
an uncontested hand's awards (11.2(c)(i)), and paying the stacks with the balance checked
(docs/architecture.md: a payout that does not balance raises)."""

from __future__ import annotations

import pytest

from controller.errors import BalanceError, IllegalAction
from controller.poker.hand import PokerHand
from controller.poker.payout import called_seat, hand_awards, pay, pay_hand, pots_and_rake
from controller.poker.pots import Pot, Split
from controller.poker.records import HandSettled, PotAward
from controller.poker.rules import PokerRules
from controller.poker.seating import Positions

RULES = PokerRules(rake_percent=10, rake_cap=5)


def test_rake_none_when_the_hand_ended_in_the_first_round_and_the_table_says_so() -> None:
    contributed = {1: 20, 2: 20, 3: 30}  # seat 3's 10 above the rest: uncalled
    assert pots_and_rake(contributed, {2}, RULES, True) == ([Pot(60, (1, 3))], {3: 10}, 0)
    assert pots_and_rake(contributed, {2}, RULES, False) == ([Pot(55, (1, 3))], {3: 10}, 5)
    anyway = PokerRules(rake_percent=10, rake_cap=5, no_rake_first_round=False)
    assert pots_and_rake(contributed, {2}, anyway, True)[2] == 5


def test_rule_11_4_c_the_player_called_is_the_last_bettor_or_the_opener() -> None:
    positions = Positions(1, (2, 3))
    assert called_seat(5, positions, 6, [1, 2, 5]) == 5
    assert called_seat(None, positions, 6, [1, 2, 4, 5]) == 4  # left of the last blind (3)
    assert called_seat(None, Positions(5, (6, 1)), 6, [1, 3, 4]) == 3  # round the table
    with pytest.raises(IllegalAction) as caught:
        called_seat(None, None, 6, [1, 2])
    assert (caught.value.rule, caught.value.reason) == ("11.4(c)", "no button")


def test_rule_11_2_c_i_an_uncontested_hand_takes_every_pot() -> None:
    hand = PokerHand()
    hand.contributed.update({1: 10, 2: 30, 3: 30})
    hand.folded.update({1, 3})
    hand.ended_first_round = True
    order, (splits, returns, rake, awards) = hand_awards(hand, RULES, Positions(1, (2, 3)), 2)
    assert order is None and rake == 0 and dict(returns) == {}
    assert [(s.pot_index, s.amount, s.shares) for s in splits] == [(0, 70, ((2, 70),))]
    assert awards == (PotAward(0, 70, (2,), ((2, 70),), None, 0, "uncontested"),)


def test_money_paying_the_stacks_balances_or_raises() -> None:
    stacks = {1: 80, 2: 70, 3: 70}
    split = Split(0, 50, ((1, 50),), None, 0)
    settled = pay(
        stacks, hand_no=4, contributed={1: 20, 2: 30, 3: 30}, stacks_at_start=300,
        splits=[split], returns={2: 10, 3: 10}, rake=10, awards=(),
    )  # fmt: skip
    assert stacks == {1: 130, 2: 80, 3: 80}
    assert settled == HandSettled(4, 80, (), ((2, 10), (3, 10)), 10, False)
    stacks = {1: 80, 2: 70, 3: 70}
    with pytest.raises(BalanceError) as caught:
        pay(
            stacks, hand_no=5, contributed={1: 20, 2: 30, 3: 30}, stacks_at_start=301,
            splits=[split], returns={2: 10, 3: 10}, rake=10, awards=(), void=True,
        )  # fmt: skip
    assert str(caught.value) == "hand 5: stacks 290 + rake 10 != 301 at the start"


def test_rule_11_4_e_a_void_hand_is_paid_back_and_says_so() -> None:
    stacks = {1: 90, 2: 90}
    settled = pay(
        stacks, hand_no=6, contributed={1: 10, 2: 10}, stacks_at_start=200, splits=[],
        returns={1: 10, 2: 10}, rake=0, awards=(), void=True,
    )  # fmt: skip
    assert stacks == {1: 100, 2: 100} and settled.void is True and settled.chips_in == 20


def test_money_a_hand_paid_from_its_awards_is_not_void_unless_said() -> None:
    hand = PokerHand()
    hand.contributed.update({1: 10, 2: 10})
    hand.folded.add(1)
    hand.stacks_at_start = 200
    stacks = {1: 90, 2: 90}
    _, awarded = hand_awards(hand, RULES, Positions(1, (2,)), 2)
    settled = pay_hand(stacks, hand, 3, awarded)
    assert (settled.hand, settled.void, settled.rake) == (3, False, 2)
    assert stacks == {1: 90, 2: 108}
