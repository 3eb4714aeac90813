"""Settlement: the pure functions (commission owed exactly, the variants, ties, pairs,
rounding up) and the books every coup keeps (chips in = chips out + the house's result,
raised otherwise), with hypothesis over random coups played through the machine.

Each result is pinned field by field, and every expected payout is worked out by hand from
the rule it cites, never read back from the code: 5.10(b) (commission owed in hundredths),
NSW Mini Baccarat 5 (wagers, the Tie stand-off, rounding up), the pair wager (casino page)
and "Void" (G98-191)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.baccarat.records import CommissionCollected, CoupSettled
from controller.baccarat.rules import (
    COMMISSION_RULE,
    PAIR_RULE,
    ROUNDING_RULE,
    TIE_RULE,
    VOID_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
    Variant,
)
from controller.baccarat.settlement import (
    Balance,
    CoupResult,
    Outcome,
    Payout,
    balance,
    collect,
    settle,
    settle_bet,
    void,
)
from controller.cards import DECK, Card
from controller.errors import BalanceError, IllegalAction
from controller.game.jsonable import to_jsonable
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


COMMISSION = BaccaratRules()
NO_COMMISSION = BaccaratRules(variant=Variant.NO_COMMISSION)
PUSH_7 = BaccaratRules(variant=Variant.THREE_CARD_7_PUSH)


def coup(
    winner: str,
    player: int,
    banker: int,
    *,
    banker_cards: int = 2,
    player_pair: bool = False,
    banker_pair: bool = False,
) -> CoupResult:
    """A result with the totals given; the cards only matter for their count (settlement
    reads neither the cards' ranks nor the Natural: the pairs are given as flags)."""
    return CoupResult(
        7, winner, player, banker, ("Ts", "5h"), ("Td", "7c", "Kc")[:banker_cards],
        False, player_pair, banker_pair,
    )  # fmt: skip


def win(box: int, bet: Bet, stake: int, won: int, rule: str, commission: int = 0,
        rounding: int = 0) -> Payout:  # fmt: skip
    return Payout(box, bet, stake, Outcome.WIN, stake, won, 0, commission, rounding, rule)


def lose(box: int, bet: Bet, stake: int, rule: str) -> Payout:
    return Payout(box, bet, stake, Outcome.LOSE, 0, 0, stake, 0, 0, rule)


def push(box: int, bet: Bet, stake: int, rule: str) -> Payout:
    return Payout(box, bet, stake, Outcome.PUSH, stake, 0, 0, 0, 0, rule)


# --- the result record -------------------------------------------------------------------


def test_coup_result_three_banker_cards_and_the_roads_entry() -> None:
    """The three-card Banker 7 variant reads the Banker's card count; the roads read
    the shoe history's entry, key by key."""
    two = CoupResult(3, "banker", 4, 7, ("Ts", "4h"), ("Td", "7c"), False, True, False)
    three = dataclasses.replace(two, banker_cards=("Td", "4c", "3c"))
    assert (two.banker_three_cards, three.banker_three_cards) == (False, True)
    assert two.as_result() == {
        "winner": "banker",
        "player_total": 4,
        "banker_total": 7,
        "natural": False,
        "player_pair": True,
        "banker_pair": False,
    }
    flipped = CoupResult(4, "player", 9, 0, ("9s", "Kh"), ("Qd", "Kc"), True, False, True)
    assert flipped.as_result() == {
        "winner": "player",
        "player_total": 9,
        "banker_total": 0,
        "natural": True,
        "player_pair": False,
        "banker_pair": True,
    }


def test_outcome_names_as_journaled() -> None:
    """Payouts go to the journal by these names: renaming one breaks every replay."""
    assert [o.value for o in Outcome] == ["win", "lose", "push", "void"]
    payout = settle_bet(2, Bet.TIE, 5, coup("banker", 1, 2), COMMISSION)
    assert to_jsonable(payout)["outcome"] == "lose"


# --- Player and Banker (NSW Mini Baccarat 5; 5.10(b)) -----------------------------------


def test_rule_nsw_mini_baccarat_5_player_wins_one_to_one_with_no_commission() -> None:
    assert settle_bet(3, Bet.PLAYER, 20, coup("player", 6, 5), COMMISSION) == win(
        3, Bet.PLAYER, 20, 20, WAGERS_RULE
    )


def test_rule_nsw_mini_baccarat_5_the_losing_hand_loses_its_stake() -> None:
    assert settle_bet(1, Bet.PLAYER, 15, coup("banker", 2, 3), COMMISSION) == lose(
        1, Bet.PLAYER, 15, WAGERS_RULE
    )
    assert settle_bet(2, Bet.BANKER, 15, coup("player", 3, 2), COMMISSION) == lose(
        2, Bet.BANKER, 15, WAGERS_RULE
    )


@pytest.mark.parametrize("bet", [Bet.PLAYER, Bet.BANKER])
def test_rule_nsw_mini_baccarat_5_tie_player_and_banker_stand_off(bet: Bet) -> None:
    for rules in (COMMISSION, NO_COMMISSION, PUSH_7):
        assert settle_bet(4, bet, 30, coup("tie", 6, 6), rules) == push(4, bet, 30, TIE_RULE)


def test_rule_5_10b_banker_win_owes_commission_in_hundredths() -> None:
    """5 % of 30 units is 1.5 units: 150 hundredths owed, 30 paid on top of the stake."""
    assert settle_bet(5, Bet.BANKER, 30, coup("banker", 5, 6), COMMISSION) == win(
        5, Bet.BANKER, 30, 30, COMMISSION_RULE, commission=150
    )
    four = BaccaratRules(commission_percent=4)
    assert settle_bet(5, Bet.BANKER, 7, coup("banker", 0, 7, banker_cards=3), four) == win(
        5, Bet.BANKER, 7, 7, COMMISSION_RULE, commission=28
    )


def test_rule_nsw_mini_baccarat_5_no_commission_banker_six_even_stake_pays_half() -> None:
    assert settle_bet(1, Bet.BANKER, 40, coup("banker", 5, 6), NO_COMMISSION) == win(
        1, Bet.BANKER, 40, 20, "no-commission Banker 6 pays 1 to 2"
    )


def test_rule_nsw_mini_baccarat_5_rounding_up_half_an_odd_stake() -> None:
    """Half of 25 is 12.5: 13 is paid, 50 hundredths above the exact odds."""
    assert settle_bet(2, Bet.BANKER, 25, coup("banker", 0, 6), NO_COMMISSION) == win(
        2, Bet.BANKER, 25, 13, ROUNDING_RULE, rounding=50
    )
    one = settle_bet(2, Bet.BANKER, 1, coup("banker", 0, 6), NO_COMMISSION)
    assert (one.won, one.rounding, one.rule) == (1, 50, ROUNDING_RULE)


def test_rule_nsw_mini_baccarat_5_rounding_up_to_the_tables_chip() -> None:
    """Chips of 5: half of 15 is 7.5, paid as 10 (250 hundredths up); half of 30 is 15,
    exact; half of 20 is 10, exact (a chip of 5 pays it)."""
    fives = BaccaratRules(variant=Variant.NO_COMMISSION, chip_unit=5, minimum_wager=5)
    assert settle_bet(6, Bet.BANKER, 15, coup("banker", 2, 6), fives) == win(
        6, Bet.BANKER, 15, 10, ROUNDING_RULE, rounding=250
    )
    assert settle_bet(6, Bet.BANKER, 30, coup("banker", 2, 6), fives) == win(
        6, Bet.BANKER, 30, 15, "no-commission Banker 6 pays 1 to 2"
    )
    assert settle_bet(6, Bet.BANKER, 20, coup("banker", 2, 6), fives) == win(
        6, Bet.BANKER, 20, 10, "no-commission Banker 6 pays 1 to 2"
    )
    tens = BaccaratRules(variant=Variant.NO_COMMISSION, chip_unit=10, minimum_wager=10)
    assert settle_bet(6, Bet.BANKER, 30, coup("banker", 2, 6), tens) == win(
        6, Bet.BANKER, 30, 20, ROUNDING_RULE, rounding=500
    )


def test_no_commission_banker_wins_other_than_six_pay_one_to_one() -> None:
    for total in (1, 5, 7, 8, 9):
        assert settle_bet(3, Bet.BANKER, 9, coup("banker", 0, total), NO_COMMISSION) == win(
            3, Bet.BANKER, 9, 9, "Banker wins (no_commission)"
        )


def test_rule_5_10b_a_banker_six_under_commission_still_owes_commission() -> None:
    assert settle_bet(3, Bet.BANKER, 9, coup("banker", 0, 6), COMMISSION) == win(
        3, Bet.BANKER, 9, 9, COMMISSION_RULE, commission=45
    )


def test_three_card_seven_push_variant_pushes_only_a_three_card_seven() -> None:
    assert settle_bet(1, Bet.BANKER, 12, coup("banker", 3, 7, banker_cards=3), PUSH_7) == push(
        1, Bet.BANKER, 12, "three-card Banker 7 pushes"
    )
    expected = win(1, Bet.BANKER, 12, 12, "Banker wins (banker_three_card_7_push)")
    assert settle_bet(1, Bet.BANKER, 12, coup("banker", 3, 7), PUSH_7) == expected
    assert settle_bet(1, Bet.BANKER, 12, coup("banker", 3, 6, banker_cards=3), PUSH_7) == expected
    # the other variants pay a three-card 7 as any other Banker win
    assert settle_bet(
        1, Bet.BANKER, 12, coup("banker", 3, 7, banker_cards=3), NO_COMMISSION
    ) == win(1, Bet.BANKER, 12, 12, "Banker wins (no_commission)")
    assert settle_bet(1, Bet.BANKER, 12, coup("banker", 3, 7, banker_cards=3), COMMISSION) == win(
        1, Bet.BANKER, 12, 12, COMMISSION_RULE, commission=60
    )


# --- Tie and pairs -------------------------------------------------------------------------


def test_rule_nsw_mini_baccarat_5_tie_pays_its_odds_and_loses_otherwise() -> None:
    assert settle_bet(2, Bet.TIE, 5, coup("tie", 4, 4), COMMISSION) == win(
        2, Bet.TIE, 5, 40, TIE_RULE
    )
    nine = BaccaratRules(tie_odds=9)
    assert settle_bet(2, Bet.TIE, 5, coup("tie", 4, 4), nine) == win(2, Bet.TIE, 5, 45, TIE_RULE)
    for winner in ("player", "banker"):
        assert settle_bet(2, Bet.TIE, 5, coup(winner, 4, 5), COMMISSION) == lose(
            2, Bet.TIE, 5, TIE_RULE
        )


@pytest.mark.parametrize("winner", ["player", "banker", "tie"])
def test_rule_pair_wager_each_pair_reads_its_own_hand(winner: str) -> None:
    """Player pair only on the Player's pair, Banker pair only on the Banker's; the coup's
    winner does not matter. 11 to 1 by default, the casino's odds otherwise."""
    only_player = coup(winner, 3, 3, player_pair=True)
    only_banker = coup(winner, 3, 3, banker_pair=True)
    assert settle_bet(4, Bet.PLAYER_PAIR, 3, only_player, COMMISSION) == win(
        4, Bet.PLAYER_PAIR, 3, 33, PAIR_RULE
    )
    assert settle_bet(4, Bet.PLAYER_PAIR, 3, only_banker, COMMISSION) == lose(
        4, Bet.PLAYER_PAIR, 3, PAIR_RULE
    )
    five = BaccaratRules(pair_odds=5)
    assert settle_bet(4, Bet.BANKER_PAIR, 3, only_banker, five) == win(
        4, Bet.BANKER_PAIR, 3, 15, PAIR_RULE
    )
    assert settle_bet(4, Bet.BANKER_PAIR, 3, only_player, five) == lose(
        4, Bet.BANKER_PAIR, 3, PAIR_RULE
    )


def test_settle_takes_every_stake_in_the_order_placed() -> None:
    stakes = [(2, Bet.PLAYER, 10), (1, Bet.TIE, 5), (2, Bet.PLAYER_PAIR, 4)]
    assert settle(stakes, coup("player", 7, 3, player_pair=True), COMMISSION) == [
        win(2, Bet.PLAYER, 10, 10, WAGERS_RULE),
        lose(1, Bet.TIE, 5, TIE_RULE),
        win(2, Bet.PLAYER_PAIR, 4, 44, PAIR_RULE),
    ]


def test_rule_void_g98_191_every_stake_returned() -> None:
    stakes = [(3, Bet.BANKER, 10), (1, Bet.TIE, 2)]
    assert void(stakes) == [
        Payout(3, Bet.BANKER, 10, Outcome.VOID, 10, 0, 0, 0, 0, VOID_RULE),
        Payout(1, Bet.TIE, 2, Outcome.VOID, 2, 0, 0, 0, 0, VOID_RULE),
    ]


# --- the books (chips in = chips out + the house's result) ----------------------------


def test_money_balance_adds_every_figure() -> None:
    """Stakes 10 B (wins, 50 owed), 6 P (loses), 4 tie (loses), 2 PP (wins 22):
    in 22; out 10 + 10 + 2 + 22 = 44; house 10 - 32 = -22; commission 50."""
    stakes = [(1, Bet.BANKER, 10), (2, Bet.PLAYER, 6), (2, Bet.TIE, 4), (3, Bet.PLAYER_PAIR, 2)]
    payouts = settle(stakes, coup("banker", 1, 5, player_pair=True), COMMISSION)
    assert balance(stakes, payouts) == Balance(22, 44, -22, 50)
    # a tie: the Banker's 8 stands off, the Tie's 3 wins 24; in 11, out 8 + 3 + 24
    pushes = [(1, Bet.BANKER, 8), (2, Bet.TIE, 3)]
    assert balance(pushes, settle(pushes, coup("tie", 2, 2), COMMISSION)) == Balance(11, 35, -24, 0)
    assert balance([], []) == Balance(0, 0, 0, 0)


def test_money_balance_counts_every_stake_settled_once() -> None:
    stakes = [(1, Bet.PLAYER, 10), (2, Bet.PLAYER, 10)]
    payouts = settle(stakes, coup("player", 5, 2), COMMISSION)
    with pytest.raises(BalanceError) as short:
        balance(stakes, payouts[:1])
    assert str(short.value) == "2 stakes placed but 1 settled"
    with pytest.raises(BalanceError) as extra:
        balance(stakes[:1], payouts)
    assert str(extra.value) == "1 stakes placed but 2 settled"


@pytest.mark.parametrize(
    "change",
    [{"box": 2}, {"bet": Bet.BANKER}, {"stake": 11}],
    ids=["box", "bet", "stake"],
)
def test_money_balance_refuses_a_payout_of_another_stake(change: dict[str, Any]) -> None:
    stake = (1, Bet.PLAYER, 10)
    good = settle_bet(*stake, coup("banker", 1, 2), COMMISSION)
    bad = dataclasses.replace(good, **change)
    with pytest.raises(BalanceError) as refused:
        balance([stake], [bad])
    assert str(refused.value) == (
        f"box 1 player 10 was settled as box {bad.box} {bad.bet} {bad.stake}"
    )


WIN = win(1, Bet.PLAYER, 10, 10, WAGERS_RULE)
LOSE = lose(1, Bet.PLAYER, 10, WAGERS_RULE)
PUSH = push(1, Bet.PLAYER, 10, TIE_RULE)
VOID = Payout(1, Bet.PLAYER, 10, Outcome.VOID, 10, 0, 0, 0, 0, VOID_RULE)


@pytest.mark.parametrize(
    ("payout", "change"),
    [
        (WIN, {"returned": 9, "lost": 1}),
        (WIN, {"returned": 0, "lost": 10}),
        (WIN, {"won": 0}),
        (WIN, {"won": -1}),
        (WIN, {"commission": -1}),
        (LOSE, {"returned": 1, "lost": 9}),
        (LOSE, {"returned": 10, "lost": 0}),
        (LOSE, {"won": 1}),
        (PUSH, {"returned": 9, "lost": 1}),
        (PUSH, {"returned": 0, "lost": 10}),
        (PUSH, {"won": 1}),
        (VOID, {"returned": 9, "lost": 1}),
        (VOID, {"returned": 0, "lost": 10}),
        (VOID, {"won": 1}),
        (LOSE, {"commission": -5}),
    ],
)
def test_money_balance_refuses_a_payout_not_in_its_outcomes_shape(
    payout: Payout, change: dict[str, Any]
) -> None:
    """Each outcome has one shape: a win returns the stake and pays on top, a loss keeps
    it all, a push and a void return it exactly. Anything else is refused, named."""
    bad = dataclasses.replace(payout, **change)
    with pytest.raises(BalanceError) as refused:
        balance([(1, Bet.PLAYER, 10)], [bad])
    assert str(refused.value) == (
        f"box 1 player: a {bad.outcome} payout of stake 10 returns {bad.returned}, "
        f"wins {bad.won}, loses {bad.lost}"
    )


@pytest.mark.parametrize("payout", [WIN, LOSE, PUSH, VOID], ids=lambda p: str(p.outcome))
def test_money_balance_accepts_each_outcomes_own_shape(payout: Payout) -> None:
    house = {Outcome.WIN: -10, Outcome.LOSE: 10}.get(payout.outcome, 0)
    out = {Outcome.WIN: 20, Outcome.LOSE: 0}.get(payout.outcome, 10)
    assert balance([(1, Bet.PLAYER, 10)], [payout]) == Balance(10, out, house, 0)


# --- the commission account (5.10(b), rounded up by NSW Mini Baccarat 5) ----------------


@pytest.mark.parametrize(
    ("owed", "chip", "expected"),
    [
        (0, 1, (0, 0)),
        (1, 1, (1, 99)),
        (99, 1, (1, 1)),
        (100, 1, (1, 0)),
        (101, 1, (2, 99)),
        (250, 1, (3, 50)),
        (250, 5, (5, 250)),
        (500, 5, (5, 0)),
        (501, 5, (10, 499)),
        (1000, 10, (10, 0)),
        (1001, 10, (20, 999)),
    ],
)
def test_rule_5_10b_commission_collected_rounded_up_to_the_chip(
    owed: int, chip: int, expected: tuple[int, int]
) -> None:
    assert collect(owed, chip) == expected


def test_rule_5_10b_a_commission_account_never_owes_less_than_nothing() -> None:
    with pytest.raises(BalanceError) as refused:
        collect(-1, 1)
    assert str(refused.value) == "a commission account cannot owe -1"


def test_money_balance_accepts_the_smallest_win() -> None:
    """A win of one chip (a one-unit stake at even money, or half of it rounded up in
    the no-commission variant) is a win: the books take it."""
    stakes = [(1, Bet.PLAYER, 1)]
    assert balance(stakes, settle(stakes, coup("player", 3, 2), COMMISSION)) == Balance(1, 2, -1, 0)
    banker = [(2, Bet.BANKER, 1)]
    assert balance(banker, settle(banker, coup("banker", 3, 6), NO_COMMISSION)) == Balance(
        1, 2, -1, 0
    )
