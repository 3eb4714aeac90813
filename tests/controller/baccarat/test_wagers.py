"""The wagers' pure checks (`controller/baccarat/wagers.py`), each boundary and each refusal
word for word, since the dealer reads the refusal on the console: the box and the limits,
the five wagers, whole chips, never the Player and the Banker together (NSW Mini Baccarat
5), the Table Differential at NO MORE BETS (G98-260), and the commission account (5.10(b))."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from controller.baccarat.rules import (
    COMMISSION_RULE,
    DIFFERENTIAL_RULE,
    PAIR_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
)
from controller.baccarat.wagers import (
    check_commission,
    check_differential,
    check_pairs,
    check_wager,
    differential,
    refuse,
)
from controller.errors import IllegalAction

RULES = BaccaratRules(boxes=3, minimum_wager=10, maximum_wager=200, chip_unit=5)


def empty() -> list[dict[Bet, int]]:
    return [{} for _ in range(RULES.boxes)]


def refused(rule: str, call: Callable[..., object], *args: object) -> str:
    """The refusal's reason, after checking it cites ``rule``."""
    with pytest.raises(IllegalAction) as caught:
        call(*args)
    assert caught.value.rule == rule
    assert str(caught.value) == f"rule {rule}: {caught.value.reason}"
    return caught.value.reason


def test_refuse_raises_the_rule_and_the_reason() -> None:
    assert refused("X 1", refuse, "X 1", "because") == "because"


@pytest.mark.parametrize("box", [0, -1, 4])
def test_rule_nsw_mini_baccarat_5_no_such_box(box: int) -> None:
    assert refused(WAGERS_RULE, check_wager, RULES, empty(), box, "player", 10) == (
        f"no box {box}: this table has boxes 1 to 3"
    )


@pytest.mark.parametrize("box", [1, 3])
def test_rule_nsw_mini_baccarat_5_the_first_and_last_boxes_take_wagers(box: int) -> None:
    assert check_wager(RULES, empty(), box, "player", 10) is Bet.PLAYER


@pytest.mark.parametrize("bet", list(Bet))
def test_rule_nsw_mini_baccarat_5_the_five_wagers_by_name(bet: Bet) -> None:
    assert check_wager(RULES, empty(), 2, bet.value, 15) is bet


@pytest.mark.parametrize("name", ["Player", "dragon", "", None])
def test_rule_nsw_mini_baccarat_5_no_other_wager(name: object) -> None:
    assert refused(WAGERS_RULE, check_wager, RULES, empty(), 2, name, 15) == (
        f"no wager {name!r}: one of player, banker, tie, player_pair, banker_pair"
    )


@pytest.mark.parametrize("amount", [-5, -1, 11, 12, 199])
def test_rule_nsw_mini_baccarat_5_wagers_in_whole_chips(amount: int) -> None:
    assert refused(WAGERS_RULE, check_wager, RULES, empty(), 1, "tie", amount) == (
        f"a wager of {amount} is not in chips of 5"
    )


@pytest.mark.parametrize("amount", [5, 205, 1000])
def test_rule_nsw_mini_baccarat_5_wagers_within_the_tables_limits(amount: int) -> None:
    assert refused(WAGERS_RULE, check_wager, RULES, empty(), 1, "tie", amount) == (
        f"a wager of {amount} is outside the table's limits 10 to 200"
    )


@pytest.mark.parametrize("amount", [10, 200, 0])
def test_rule_nsw_mini_baccarat_5_the_limits_themselves_and_a_withdrawal(amount: int) -> None:
    """The minimum and the maximum are wagers; 0 withdraws, whatever the minimum."""
    assert check_wager(RULES, empty(), 1, "banker", amount) is Bet.BANKER


def test_rule_nsw_mini_baccarat_5_one_chip_table_takes_any_whole_amount() -> None:
    ones = BaccaratRules(minimum_wager=1, maximum_wager=7)
    for amount in range(1, 8):
        assert check_wager(ones, [{}] * 7, 7, "player", amount) is Bet.PLAYER


@pytest.mark.parametrize(("held", "bet"), [(Bet.BANKER, "player"), (Bet.PLAYER, "banker")])
def test_rule_nsw_mini_baccarat_5_never_the_player_and_the_banker_together(
    held: Bet, bet: str
) -> None:
    boxes = empty()
    boxes[1][held] = 20
    assert refused(WAGERS_RULE, check_wager, RULES, boxes, 2, bet, 20) == (
        f"box 2 already wagers on the {held.value}: never on the Player and the Banker together"
    )
    # withdrawing the other side's wager is not a second wager
    assert check_wager(RULES, boxes, 2, bet, 0).value == bet
    # another box's wager does not count
    assert check_wager(RULES, boxes, 1, bet, 20).value == bet
    assert check_wager(RULES, boxes, 3, bet, 20).value == bet
    # the same side again, the Tie and the pairs beside it are allowed
    assert check_wager(RULES, boxes, 2, held.value, 30) is held
    for other in ("tie", "player_pair", "banker_pair"):
        assert check_wager(RULES, boxes, 2, other, 10).value == other


def test_rule_nsw_mini_baccarat_5_the_player_and_the_banker_together_if_the_casino_allows() -> None:
    together = BaccaratRules(player_and_banker_together=True)
    boxes: list[dict[Bet, int]] = [{Bet.BANKER: 5}, {}]
    assert check_wager(together, boxes, 1, "player", 5) is Bet.PLAYER


def test_rule_table_differential_is_banker_stakes_less_player_stakes() -> None:
    boxes: list[dict[Bet, int]] = [
        {Bet.BANKER: 50, Bet.TIE: 5},
        {Bet.PLAYER: 20, Bet.PLAYER_PAIR: 5},
        {},
        {Bet.PLAYER: 45},
    ]
    assert differential(boxes) == 50 - 20 - 45
    assert differential([{Bet.BANKER: 30}, {Bet.BANKER: 5}]) == 35
    assert differential([]) == 0


@pytest.mark.parametrize(
    ("boxes", "diff"),
    [([{Bet.BANKER: 100}, {Bet.PLAYER: 40}], 60), ([{Bet.PLAYER: 70}, {Bet.BANKER: 10}], -60)],
)
def test_rule_table_differential_up_to_the_limit_is_allowed(
    boxes: list[dict[Bet, int]], diff: int
) -> None:
    assert check_differential(BaccaratRules(table_differential=60), boxes) == diff


@pytest.mark.parametrize(
    "boxes", [[{Bet.BANKER: 101}, {Bet.PLAYER: 40}], [{Bet.PLAYER: 71}, {Bet.BANKER: 10}]]
)
def test_rule_table_differential_over_the_limit_refuses_no_more_bets(
    boxes: list[dict[Bet, int]],
) -> None:
    rules = BaccaratRules(table_differential=60)
    assert refused(DIFFERENTIAL_RULE, check_differential, rules, boxes) == (
        "the Banker and Player stakes differ by 61, over the table differential of 60: "
        "a wager must come off or be matched before NO MORE BETS"
    )


def test_rule_table_differential_none_is_no_limit_and_zero_is_matched_stakes() -> None:
    lopsided: list[dict[Bet, int]] = [{Bet.BANKER: 1000}]
    assert check_differential(BaccaratRules(), lopsided) == 1000
    matched: list[dict[Bet, int]] = [{Bet.BANKER: 25}, {Bet.PLAYER: 25}]
    assert check_differential(BaccaratRules(table_differential=0), matched) == 0
    with pytest.raises(IllegalAction):
        check_differential(BaccaratRules(table_differential=0), [{Bet.PLAYER: 1}])


def test_rule_5_10b_commission_owed_by_the_box_asked_for() -> None:
    owed = [0, 150, 0]
    assert check_commission(RULES, owed, 2) == 150
    assert check_commission(RULES, [7, 0, 35], 1) == 7
    assert check_commission(RULES, [7, 0, 35], 3) == 35


@pytest.mark.parametrize("box", [0, 4])
def test_rule_5_10b_commission_of_no_such_box(box: int) -> None:
    assert refused(COMMISSION_RULE, check_commission, RULES, [5, 5, 5], box) == (
        f"no box {box}: this table has boxes 1 to 3"
    )


def test_rule_5_10b_a_box_that_owes_nothing_is_not_collected() -> None:
    assert refused(COMMISSION_RULE, check_commission, RULES, [5, 0, 5], 2) == (
        "box 2 owes no commission"
    )


# --- the pair wager standing alone (pair wager (casino page); a setting) ----------------

PAIRS_NEED_MAIN = BaccaratRules(boxes=3, pair_needs_main_wager=True)


@pytest.mark.parametrize("pair", [Bet.PLAYER_PAIR, Bet.BANKER_PAIR])
def test_rule_pair_wager_casino_page_a_pair_alone_refuses_no_more_bets(pair: Bet) -> None:
    boxes = empty()
    boxes[0][Bet.BANKER] = 20
    boxes[0][pair] = 10
    boxes[2][pair] = 10  # box 3: the pair alone
    reason = refused(PAIR_RULE, check_pairs, PAIRS_NEED_MAIN, boxes)
    assert reason == (
        "a pair wager stands alone on box 3: it needs a Banker, Player or Tie wager "
        "beside it before NO MORE BETS"
    )


@pytest.mark.parametrize("main", [Bet.BANKER, Bet.PLAYER, Bet.TIE])
def test_rule_pair_wager_casino_page_a_pair_beside_any_main_wager_stands(main: Bet) -> None:
    boxes = empty()
    boxes[1][Bet.PLAYER_PAIR] = 10
    boxes[1][Bet.BANKER_PAIR] = 10
    boxes[1][main] = 10
    check_pairs(PAIRS_NEED_MAIN, boxes)  # no refusal


def test_rule_pair_wager_casino_page_a_pair_may_stand_alone_by_default() -> None:
    """The NZ text we have is silent: by default a pair wager may stand alone."""
    assert BaccaratRules().pair_needs_main_wager is False
    boxes = empty()
    boxes[0][Bet.PLAYER_PAIR] = 10
    check_pairs(RULES, boxes)  # no refusal
