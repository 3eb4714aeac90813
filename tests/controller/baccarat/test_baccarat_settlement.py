"""Settlement: the pure functions (commission owed exactly, the variants, ties, pairs,
rounding up) and the books every coup keeps (chips in = chips out + the house's result,
raised otherwise), with hypothesis over random coups played through the machine."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.baccarat.records import CommissionCollected, CoupSettled
from controller.baccarat.rules import (
    COMMISSION_RULE,
    PAIR_RULE,
    ROUNDING_RULE,
    TIE_RULE,
    BaccaratRules,
    Bet,
    Variant,
)
from controller.baccarat.settlement import (
    CoupResult,
    Outcome,
    balance,
    collect,
    settle,
    settle_bet,
    void,
)
from controller.cards import DECK, Card
from controller.errors import BalanceError, IllegalAction
from controller.ports import ConsoleButton
from tests.support.baccarat import betting_table, card, deal, initial, of, press, two


def result(winner: str, p: int, b: int, *, banker_cards: int = 2, pp: bool = False,
           bp: bool = False, natural: bool = False) -> CoupResult:  # fmt: skip
    return CoupResult(1, winner, p, b, ("Ts", "5h"), ("Td", "7c", "Kc")[:banker_cards],
                      natural, pp, bp)  # fmt: skip


RULES = BaccaratRules()


def test_rule_5_10b_banker_win_pays_even_money_and_owes_commission_exactly() -> None:
    payout = settle_bet(1, Bet.BANKER, 10, result("banker", 5, 7), RULES)
    assert (payout.outcome, payout.won, payout.returned) == (Outcome.WIN, 10, 10)
    assert payout.commission == 50  # 5 % of 10 units: half a unit, in hundredths, not rounded
    assert payout.rule == COMMISSION_RULE


def test_rule_5_10b_commission_rate_is_the_casinos_setting() -> None:
    rules = BaccaratRules(commission_percent=4)
    assert settle_bet(1, Bet.BANKER, 25, result("banker", 5, 7), rules).commission == 100


def test_commission_collected_rounded_up_to_the_chip_and_the_rounding_said() -> None:
    assert collect(50, 1) == (1, 50)  # half a unit owed: one unit, 0.50 rounding
    assert collect(300, 1) == (3, 0)
    assert collect(300, 5) == (5, 200)  # 3 units owed in 5-unit chips
    with pytest.raises(BalanceError):
        collect(-1, 1)


def test_rule_5_10b_commission_accrues_on_the_box_and_is_collected_between_coups() -> None:
    table = betting_table()
    table.place_wager(2, "banker", 30)
    press(table, ConsoleButton.NO_MORE_BETS)
    out = deal(table, *initial(5, 7), card(9, "c"))  # Player 5 draws a 9: 4; Banker 7 stands
    (settled,) = of(CoupSettled, out)
    assert settled.winner == "banker" and settled.commission == 150
    assert table.commission_owed[1] == 150
    record = table.collect_commission(2)
    assert record == CommissionCollected(2, 150, 2, 50)
    assert table.commission_owed[1] == 0
    with pytest.raises(IllegalAction, match="owes no commission"):
        table.collect_commission(2)


def test_commission_is_not_collected_during_a_coup() -> None:
    table = betting_table()
    table.commission_owed[0] = 50
    press(table, ConsoleButton.NO_MORE_BETS)
    with pytest.raises(IllegalAction, match="between coups"):
        table.collect_commission(1)


def test_no_commission_variant_banker_six_pays_one_to_two() -> None:
    rules = BaccaratRules(variant=Variant.NO_COMMISSION)
    six = settle_bet(1, Bet.BANKER, 10, result("banker", 5, 6), rules)
    assert (six.won, six.commission, six.rounding) == (5, 0, 0)
    seven = settle_bet(1, Bet.BANKER, 10, result("banker", 5, 7), rules)
    assert (seven.won, seven.commission) == (10, 0)


def test_no_commission_half_of_an_odd_stake_is_rounded_up_and_said() -> None:
    rules = BaccaratRules(variant=Variant.NO_COMMISSION, chip_unit=5, minimum_wager=5)
    payout = settle_bet(1, Bet.BANKER, 15, result("banker", 4, 6), rules)
    assert payout.won == 10 and payout.rounding == 250 and payout.rule == ROUNDING_RULE


def test_three_card_seven_variant_pushes_only_a_three_card_banker_seven() -> None:
    rules = BaccaratRules(variant=Variant.THREE_CARD_7_PUSH)
    three = settle_bet(1, Bet.BANKER, 10, result("banker", 5, 7, banker_cards=3), rules)
    assert (three.outcome, three.won, three.returned, three.lost) == (Outcome.PUSH, 0, 10, 0)
    two_card = settle_bet(1, Bet.BANKER, 10, result("banker", 5, 7), rules)
    assert (two_card.outcome, two_card.won, two_card.commission) == (Outcome.WIN, 10, 0)
    player = settle_bet(1, Bet.PLAYER, 10, result("banker", 5, 7, banker_cards=3), rules)
    assert player.outcome is Outcome.LOSE


def test_a_tie_pushes_player_and_banker_and_pays_the_tie_at_its_odds() -> None:
    tie = result("tie", 6, 6)
    for bet in (Bet.PLAYER, Bet.BANKER):
        payout = settle_bet(1, bet, 10, tie, RULES)
        assert (payout.outcome, payout.returned, payout.won, payout.rule) == (
            Outcome.PUSH, 10, 0, TIE_RULE)  # fmt: skip
    assert settle_bet(1, Bet.TIE, 10, tie, RULES).won == 80
    assert settle_bet(1, Bet.TIE, 10, tie, BaccaratRules(tie_odds=9)).won == 90
    assert settle_bet(1, Bet.TIE, 10, result("player", 7, 6), RULES).outcome is Outcome.LOSE


def test_pairs_pay_on_the_first_two_cards_of_one_rank() -> None:
    paired = result("player", 6, 5, pp=True)
    assert settle_bet(1, Bet.PLAYER_PAIR, 10, paired, RULES).won == 110
    assert settle_bet(1, Bet.PLAYER_PAIR, 10, paired, RULES).rule == PAIR_RULE
    assert settle_bet(1, Bet.BANKER_PAIR, 10, paired, RULES).outcome is Outcome.LOSE
    table = betting_table()
    table.place_wager(1, "player_pair", 10)
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    p1, p2 = Card.parse("4h"), Card.parse("4c")  # a pair of fours: 8, a Natural
    b1, b2 = two(5, "d")
    deal(table, p1, b1, p2, b2)
    assert table.result is not None and table.result.player_pair
    won = {p.bet: p.won for p in table.payouts}
    assert won == {Bet.PLAYER_PAIR: 110, Bet.PLAYER: 10}


def test_balance_raises_on_a_payout_that_does_not_add_up() -> None:
    stakes = [(1, Bet.BANKER, 10), (2, Bet.TIE, 5)]
    payouts = settle(stakes, result("banker", 3, 7), RULES)
    books = balance(stakes, payouts)
    assert (books.wagers_in, books.paid_out, books.house_result, books.commission) == (
        15, 20, -5, 50)  # fmt: skip
    lose = payouts[1]
    with pytest.raises(BalanceError, match="returns 0, wins 3"):
        balance(stakes, [payouts[0], dataclasses.replace(lose, won=3)])
    with pytest.raises(BalanceError, match="settled"):
        balance(stakes, payouts[:1])
    with pytest.raises(BalanceError, match="was settled as"):
        balance(stakes, [dataclasses.replace(payouts[0], stake=20), lose])
    with pytest.raises(BalanceError):
        balance(stakes, [dataclasses.replace(payouts[0], returned=0), lose])


def test_a_void_coup_returns_every_stake() -> None:
    stakes = [(1, Bet.BANKER, 10), (1, Bet.BANKER_PAIR, 5)]
    payouts = void(stakes)
    assert [(p.outcome, p.returned, p.won, p.lost) for p in payouts] == [
        (Outcome.VOID, 10, 0, 0), (Outcome.VOID, 5, 0, 0)]  # fmt: skip
    assert balance(stakes, payouts).house_result == 0


WAGERS = st.lists(
    st.tuples(st.integers(1, 7), st.sampled_from(list(Bet)), st.integers(1, 40)), max_size=12
)


@settings(max_examples=150, deadline=None)
@given(
    wagers=WAGERS,
    cards=st.lists(st.sampled_from(DECK), min_size=6, max_size=6),
    variant=st.sampled_from(list(Variant)),
)
def test_every_coup_balances(
    wagers: list[tuple[int, Bet, int]], cards: list[Card], variant: Variant
) -> None:
    """Any wagers, any cards, any variant: the coup settles every stake once, and chips in
    = chips out + the house's result; each wager's outcome follows the totals."""
    table = betting_table(variant=variant)
    for box, bet, amount in wagers:
        if table.can_place_wager(box, bet, amount):
            table.place_wager(box, bet, amount)
    press(table, ConsoleButton.NO_MORE_BETS)
    out: list[object] = []
    for c in cards:
        if table.state == "settlement":
            break
        out += deal(table, c)
    (settled,) = of(CoupSettled, out)
    placed = sum(a for box in table.bets for a in box.values())
    assert settled.wagers_in == placed == settled.paid_out + settled.house_result
    assert len(table.payouts) == sum(len(box) for box in table.bets)
    res = table.result
    assert res is not None
    for p in table.payouts:
        if p.bet in (Bet.PLAYER, Bet.BANKER):
            mine = res.player_total if p.bet is Bet.PLAYER else res.banker_total
            other = res.banker_total if p.bet is Bet.PLAYER else res.player_total
            if mine < other:
                assert p.outcome is Outcome.LOSE and p.lost == p.stake
            elif mine == other:
                assert p.outcome is Outcome.PUSH and p.returned == p.stake
        assert p.returned + p.lost == p.stake
