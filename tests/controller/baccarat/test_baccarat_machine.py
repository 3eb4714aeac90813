"""The coup's machine: wagers while betting is open only, the limits and the table
differential, the HOLD (a card out of turn, VOID HAND, a foreign card) and the supervisor's
decisions, the gate and the lamps."""

from __future__ import annotations

import pytest

from controller.baccarat.records import CoupSettled, HoldCleared, Violation
from controller.baccarat.rules import (
    CARDS_RULE,
    DIFFERENTIAL_RULE,
    VOID_RULE,
    WAGERS_RULE,
    BaccaratRules,
)
from controller.baccarat.settlement import Outcome
from controller.baccarat.table import BaccaratTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import ActionRefused
from controller.ports import ConsoleButton, Lamp, LampPattern, SetLamp, UnlockShoe
from tests.support.baccarat import betting_table, card, deal, initial, of, press


def test_rule_wagers_are_placed_only_while_betting_is_open() -> None:
    table = betting_table()
    table.place_wager(1, "banker", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    with pytest.raises(IllegalAction) as refused:
        table.place_wager(2, "player", 10)
    assert refused.value.rule == WAGERS_RULE
    assert not table.can_place_wager(1, "banker", 0)  # nor withdrawn


@pytest.mark.parametrize(
    ("box", "bet", "amount", "words"),
    [
        (0, "banker", 10, "no box 0"),
        (8, "banker", 10, "no box 8"),
        (1, "dragon", 10, "no wager 'dragon'"),
        (1, "banker", 5, "outside the table's limits"),
        (1, "banker", 600, "outside the table's limits"),
        (1, "banker", 12, "not in chips of 5"),
        (1, "banker", -5, "not in chips"),
    ],
)
def test_rule_wagers_within_the_tables_limits(box: int, bet: str, amount: int, words: str) -> None:
    table = betting_table(minimum_wager=10, maximum_wager=500, chip_unit=5)
    with pytest.raises(IllegalAction, match=words):
        table.place_wager(box, bet, amount)
    assert table.bets[0] == {}


def test_rule_never_player_and_banker_on_one_box_unless_the_casino_allows() -> None:
    table = betting_table()
    table.place_wager(1, "banker", 10)
    with pytest.raises(IllegalAction, match="never on the Player and the Banker"):
        table.place_wager(1, "player", 10)
    table.place_wager(1, "tie", 10)  # Banker and Tie is allowed
    allowed = betting_table(player_and_banker_together=True)
    allowed.place_wager(1, "banker", 10)
    allowed.place_wager(1, "player", 10)
    assert len(allowed.bets[0]) == 2


def test_a_wager_of_zero_withdraws_it() -> None:
    table = betting_table()
    table.place_wager(3, "tie", 10)
    table.place_wager(3, "tie", 0)
    assert table.bets[2] == {}


def test_rule_table_differential_refuses_no_more_bets_over_the_limit() -> None:
    table = betting_table(table_differential=50)
    table.place_wager(1, "banker", 100)
    table.place_wager(2, "player", 40)
    out = press(table, ConsoleButton.NO_MORE_BETS)
    (refused,) = of(ActionRefused, out)
    assert refused.rule == DIFFERENTIAL_RULE and "differ by 60" in refused.reason
    assert table.state == "betting"
    table.place_wager(3, "player", 20)
    press(table, ConsoleButton.NO_MORE_BETS)
    assert table.state == "initial_deal"


def test_rule_a_card_before_no_more_bets_holds_and_the_supervisor_burns_it() -> None:
    table = betting_table()
    table.place_wager(1, "banker", 10)
    out = deal(table, Card.parse("9s"))
    (violation,) = of(Violation, out)
    assert violation.rule == WAGERS_RULE and violation.card == "9s"
    assert table.state == "hold" and table.gate_locked
    assert SetLamp(Lamp.HOLD, LampPattern.FLASH) in out
    with pytest.raises(IllegalAction):
        table.place_wager(2, "tie", 10)  # nothing is bet on HOLD
    cleared = table.supervisor_clear("pit boss", "burn_card")
    assert isinstance(cleared, HoldCleared) and cleared.violations == (violation,)
    assert table.state == "betting" and table.bets[0] == {"banker": 10}


def test_rule_void_the_coup_returns_every_wager_and_records_no_result() -> None:
    table = betting_table()
    table.place_wager(1, "banker", 10)
    table.place_wager(2, "player_pair", 5)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(3, 4)[:3])
    out = press(table, ConsoleButton.VOID_HAND)
    (violation,) = of(Violation, out)
    assert violation.rule == VOID_RULE and table.state == "hold"
    table.supervisor_clear("pit boss", "void_hand")
    out = table.take_outputs()
    (settled,) = of(CoupSettled, out)
    assert settled.void and settled.winner is None and settled.house_result == 0
    assert {p.outcome for p in table.payouts} == {Outcome.VOID}
    assert table.state == "settlement" and table.shoe.results == []


def test_void_is_refused_where_no_coup_is_in_play() -> None:
    table = betting_table()
    deal(table, Card.parse("2s"))
    with pytest.raises(IllegalAction) as refused:
        table.supervisor_clear("pit boss", "void_hand")
    assert refused.value.rule == VOID_RULE and table.state == "hold"
    with pytest.raises(IllegalAction, match="named"):
        table.supervisor_clear(" ", "burn_card")
    with pytest.raises(IllegalAction, match="no decision"):
        table.supervisor_clear("pit boss", "keep_it")


def test_a_card_burned_by_the_supervisor_leaves_the_card_still_due() -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(6, 6))  # both stand: the coup is complete
    deal(table, Card.parse("3c"))  # one card too many
    table.supervisor_clear("pit boss", "burn_card")
    assert table.state == "settlement" and len(table.banker) == 2
    press(table, ConsoleButton.NO_MORE_BETS)  # refused: betting is not open
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_next_held_then_burn_card_decision_resumes_with_the_card_due() -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(2, 2))
    press(table, ConsoleButton.NEXT)  # the Player's third card is due
    assert table.state == "hold"
    table.supervisor_clear("pit boss", "burn_card")
    assert table.state == "player_third"
    deal(table, card(1, "c"))
    assert table.state == "banker_third"


def test_rule_nsw_baccarat_3_1_a_card_beyond_the_shoes_composition_holds() -> None:
    table = betting_table(decks=6)
    press(table, ConsoleButton.NO_MORE_BETS)
    seven = Card.parse("7s")
    for _ in range(6):
        table.audit.see(seven)  # six copies already out of a 6-deck shoe
    out = deal(table, seven)
    (violation,) = of(Violation, out)
    assert violation.rule == CARDS_RULE and "holds 6" in violation.message


def test_buttons_refused_say_why() -> None:
    table = betting_table()
    out = press(table, ConsoleButton.NEXT)
    (refused,) = of(ActionRefused, out)
    assert refused.rule == WAGERS_RULE and "NO MORE BETS" in refused.reason
    (refused,) = of(ActionRefused, press(table, ConsoleButton.DOUBLE))
    assert "no double button" in refused.reason
    (refused,) = of(ActionRefused, press(table, ConsoleButton.VOID_HAND))
    assert refused.rule == VOID_RULE


def test_the_gate_opens_for_the_deal_and_locks_once_the_coup_is_complete() -> None:
    table = betting_table()
    assert table.gate_locked
    out = press(table, ConsoleButton.NO_MORE_BETS)
    assert UnlockShoe() in out and table.gate_locked is False
    deal(table, *initial(7, 6))
    assert table.state == "settlement" and table.gate_locked


def test_a_new_table_waits_for_the_shuffle() -> None:
    table = BaccaratTable(BaccaratRules())
    assert table.state == "shuffle"
    (violation,) = of(Violation, deal(table, Card.parse("As")))
    assert "shuffle" in violation.rule


@pytest.mark.parametrize(
    ("cards", "total"),
    [(("Ks", "Qh"), 0), (("Ad", "9c"), 0), (("As", "Ah"), 2), (("Th", "7s"), 7),
     (("9s", "9h"), 8), (("Jd", "5c"), 5), (("6s", "8d"), 4)],
)  # fmt: skip
def test_rule_4_2_point_values_ace_one_tens_and_pictures_nought(
    cards: tuple[str, str], total: int
) -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    first, second = (Card.parse(c) for c in cards)
    deal(table, first, Card.parse("2c"), second)
    assert table.player_total == total
