"""The baccarat table (`controller/baccarat/table.py`), record by record. The machine tests
check where a coup goes; these check what each step tells the journal, the dealer and the
devices: the gate and lamps (docs/architecture.md), the records (wagers, NO MORE BETS, the
shuffle, the coup's result and books, the commission account, the cutting card, the shoe's
end), each refusal's rule and words, the HOLD's violations and the supervisor's decisions."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import pytest

from controller.baccarat.records import (
    ActionRefused,
    BetsClosed,
    CommissionCollected,
    CoupResult,
    CoupSettled,
    CutCardOut,
    HoldCleared,
    Payout,
    ShoeEnded,
    ShuffleConfirmed,
    Violation,
    WagerPlaced,
)
from controller.baccarat.rules import (
    BURN_RULE,
    CARDS_RULE,
    COMMISSION_RULE,
    INITIAL_DEAL_RULE,
    PAIR_RULE,
    SHUFFLE_RULE,
    TABLE_OF_PLAY,
    VOID_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
)
from controller.baccarat.settlement import Outcome
from controller.baccarat.table import BaccaratTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import HOLD_PROCEDURE, NOT_ON_CONSOLE
from controller.ports import (
    CardDrawn,
    ConsoleButton,
    DeviceFault,
    DeviceLost,
    Fault,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShoeStatusChanged,
    UnlockShoe,
)
from tests.support.baccarat import betting_table, card, cut_card, deal, initial, of, press, two

OFF, STEADY, BLINK, FLASH = (
    LampPattern.OFF,
    LampPattern.STEADY,
    LampPattern.BLINK,
    LampPattern.FLASH,
)
BETTING, DEALER, HOLD = Lamp.BETTING_OPEN, Lamp.DEALER_ACTION, Lamp.HOLD


def records(out: Sequence[Any]) -> list[Any]:
    """The outputs without the device commands."""
    return [o for o in out if not isinstance(o, LockShoe | UnlockShoe | SetLamp)]


def commands(out: Sequence[Any]) -> list[Any]:
    return [o for o in out if isinstance(o, LockShoe | UnlockShoe | SetLamp)]


def closed(table: BaccaratTable, **bets: int) -> BaccaratTable:
    """Box 1's wagers (bet name -> amount), then NO MORE BETS; outputs taken."""
    for bet, amount in bets.items():
        table.place_wager(1, bet, amount)
    press(table, ConsoleButton.NO_MORE_BETS)
    table.take_outputs()
    return table


def status(seen: bool, door: bool = False) -> ShoeStatusChanged:
    return ShoeStatusChanged(
        source="shoe", cut_card_seen=seen, shoe_empty=False, door_open=door, gate_locked=False
    )


# --- the gate and the lamps (docs/architecture.md) ------------------------------------


def test_runtime_model_gate_and_lamps_through_a_coup() -> None:
    """Each state tells the devices only what changed: the gate opens for the burn and the
    deal and locks otherwise; betting open, dealer action and hold lamps as the state says."""
    table = BaccaratTable(BaccaratRules())
    assert table.take_outputs() == [
        LockShoe(), SetLamp(BETTING, OFF), SetLamp(DEALER, BLINK), SetLamp(HOLD, OFF)
    ]  # fmt: skip
    assert table.gate_locked is True
    table.shuffled()
    assert commands(table.take_outputs()) == [UnlockShoe(), SetLamp(DEALER, STEADY)]
    assert table.gate_locked is False
    table.handle(CardDrawn(source="shoe", card=Card.parse("As")))  # burns 1 more
    assert table.take_outputs() == []  # still the burn: nothing to tell
    out = table.handle(CardDrawn(source="shoe", card=Card.parse("2s")))
    assert commands(out) == [LockShoe(), SetLamp(BETTING, STEADY), SetLamp(DEALER, OFF)]
    table.place_wager(1, "player", 10)
    out = press(table, ConsoleButton.NO_MORE_BETS)
    assert commands(out) == [UnlockShoe(), SetLamp(BETTING, OFF)]
    out = deal(table, *initial(8, 1))  # a Natural: settled at once
    assert commands(out) == [LockShoe(), SetLamp(DEALER, STEADY)]
    out = press(table, ConsoleButton.VOID_HAND)  # refused outside a deal: nothing changes
    assert commands(out) == []
    out = deal(table, card(3))  # a card after the Natural: HOLD
    assert commands(out) == [SetLamp(DEALER, OFF), SetLamp(HOLD, FLASH)]
    table.supervisor_clear("Pat", "burn_card")
    assert commands(table.take_outputs()) == [SetLamp(DEALER, STEADY), SetLamp(HOLD, OFF)]


def test_runtime_model_a_new_table_shows_no_coup() -> None:
    """Before the first shuffle: no hands, no totals, no result, nothing held."""
    table = BaccaratTable(BaccaratRules())
    assert (table.player, table.banker, table.player_total, table.banker_total) == ([], [], 0, 0)
    assert (table.player_third, table.stakes, table.payouts) == (None, [], [])
    assert (table.result, table.settled, table.due()) == (None, None, None)
    assert table.held_from == "shuffle"
    assert table.coup == 0 and table.commission_owed == [0] * 7


# --- wagers, NO MORE BETS, the shuffle ---------------------------------------------------


def test_rule_nsw_mini_baccarat_5_wager_records_and_withdrawals() -> None:
    table = betting_table(boxes=3)
    assert table.can_place_wager(2, "banker", 25) is True
    assert table.can_place_wager(2, "banker", 0) is True
    assert table.can_place_wager(4, "banker", 25) is False
    assert table.can_place_wager(2, "dragon", 25) is False
    assert table.can_place_wager(2, "banker", -5) is False
    table.place_wager(2, "banker", 25)
    table.place_wager(3, "tie", 5)
    table.place_wager(2, "banker_pair", 10)  # withdrawn below
    table.place_wager(2, "banker_pair", 0)
    table.place_wager(1, "player", 0)  # nothing to withdraw: still a record, no error
    assert table.take_outputs() == [
        WagerPlaced(2, "banker", 25),
        WagerPlaced(3, "tie", 5),
        WagerPlaced(2, "banker_pair", 10),
        WagerPlaced(2, "banker_pair", 0),
        WagerPlaced(1, "player", 0),
    ]
    assert table.bets == [{}, {Bet.BANKER: 25}, {Bet.TIE: 5}]


def test_rule_nsw_mini_baccarat_5_no_more_bets_fixes_the_stakes_in_box_order() -> None:
    table = betting_table(boxes=3)
    table.place_wager(3, "player", 40)
    table.place_wager(1, "banker", 15)
    table.place_wager(1, "tie", 5)
    table.take_outputs()
    out = press(table, ConsoleButton.NO_MORE_BETS)
    assert records(out) == [BetsClosed(1, 60, 15 - 40)]
    assert table.stakes == [(1, Bet.BANKER, 15), (1, Bet.TIE, 5), (3, Bet.PLAYER, 40)]


def test_rule_nsw_mini_baccarat_5_no_wager_or_no_more_bets_outside_betting() -> None:
    table = closed(betting_table(), player=10)
    with pytest.raises(IllegalAction) as wager:
        table.place_wager(1, "tie", 5)
    assert (wager.value.rule, wager.value.reason) == (
        WAGERS_RULE, "wagers are placed only while betting is open"
    )  # fmt: skip
    with pytest.raises(IllegalAction) as again:
        table.no_more_bets()
    assert (again.value.rule, again.value.reason) == (
        WAGERS_RULE, "betting is not open (the table is in initial_deal)"
    )  # fmt: skip


def test_rule_shuffle_records_the_new_shoe_and_its_burn() -> None:
    table = BaccaratTable(BaccaratRules())
    table.take_outputs()
    table.shuffled()
    assert records(table.take_outputs()) == [ShuffleConfirmed(1, True)]
    plain = BaccaratTable(BaccaratRules(burn_by_first_card=False))
    plain.shuffled()
    assert records(plain.take_outputs()) == [ShuffleConfirmed(1, False)]
    assert plain.state == "betting"
    with pytest.raises(IllegalAction) as refused:
        plain.shuffled()
    assert (refused.value.rule, refused.value.reason) == (
        SHUFFLE_RULE, "no new shoe is due: the shoe ends after the cutting card"
    )  # fmt: skip


# --- the coup: cards, totals, result, books ----------------------------------------------


def test_rule_4_2_point_count_is_the_right_hand_digit_through_the_third_cards() -> None:
    """Player 9 + 6 = 15 counts 5 and draws; its third card 9 makes 14: 4. Banker 9 + 4
    = 13 counts 3 and draws against a 9 (3 draws unless 8); its third card 8 makes 11: 1."""
    table = closed(betting_table(), player=10)
    deal(table, Card.parse("9h"), Card.parse("9d"), Card.parse("6h"), Card.parse("4d"))
    assert (table.player_total, table.banker_total, table.state) == (5, 3, "player_third")
    deal(table, Card.parse("9c"))
    assert (table.player_total, table.player_third, table.state) == (4, 9, "banker_third")
    assert [str(c) for c in table.player] == ["9h", "6h", "9c"]
    out = deal(table, Card.parse("8c"))
    assert table.banker_total == 1
    assert [str(c) for c in table.banker] == ["9d", "4d", "8c"]
    (result,) = of(CoupResult, out)
    assert result == CoupResult(
        1, "player", 4, 1, ("9h", "6h", "9c"), ("9d", "4d", "8c"), False, False, False
    )


def test_rule_natural_result_and_pairs_recorded() -> None:
    """A Banker 8 of two eights (a pair) beats a Player 7 of two sevens (a pair)."""
    table = closed(betting_table(), banker=10)
    out = deal(table, Card.parse("7h"), Card.parse("8d"), Card.parse("7c"), Card.parse("Kd"))
    assert records(out)[0] == CoupResult(
        1, "banker", 4, 8, ("7h", "7c"), ("8d", "Kd"), True, True, False
    )


def test_rule_5_10b_a_coups_records_and_the_commission_account() -> None:
    """Box 2 wins 20 on the Banker and owes 100 hundredths; box 3 loses 10 on the Player.
    Outputs: the result, each payout, then the books; the account is box 2's."""
    table = betting_table(boxes=3)
    table.place_wager(2, "banker", 20)
    table.place_wager(3, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    table.take_outputs()
    out = records(deal(table, *initial(1, 9)))
    assert [type(o) for o in out] == [CoupResult, Payout, Payout, CoupSettled]
    assert (out[1].box, out[1].outcome, out[1].commission) == (2, Outcome.WIN, 100)
    assert (out[2].box, out[2].outcome) == (3, Outcome.LOSE)
    assert out[3] == CoupSettled(1, "banker", 30, 40, -10, 100, False)
    assert table.settled == out[3]
    assert table.commission_owed == [0, 100, 0]
    # a second coup adds to the account
    press(table, ConsoleButton.NEXT)
    table.place_wager(2, "banker", 30)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(2, 9))
    assert table.commission_owed == [0, 250, 0]
    assert table.shoe.coups == 2


def test_rule_5_10b_collecting_a_commission_account() -> None:
    table = betting_table(boxes=3, variant="commission")
    table.commission_owed[1] = 250
    table.commission_owed[2] = 40
    record = table.collect_commission(2)
    assert record == CommissionCollected(2, 250, 3, 50)
    assert table.take_outputs() == [record]
    assert table.commission_owed == [0, 0, 40]
    fives = betting_table(boxes=2, chip_unit=5, minimum_wager=5)
    fives.commission_owed[0] = 250
    assert fives.collect_commission(1) == CommissionCollected(1, 250, 5, 250)
    with pytest.raises(IllegalAction) as nothing:
        fives.collect_commission(1)
    assert (nothing.value.rule, nothing.value.reason) == (
        COMMISSION_RULE, "box 1 owes no commission"
    )  # fmt: skip


@pytest.mark.parametrize("hold", [False, True])
def test_rule_5_10b_commission_is_not_collected_during_a_coup_or_a_hold(hold: bool) -> None:
    table = closed(betting_table(), banker=10)
    table.commission_owed[0] = 50
    if hold:
        press(table, ConsoleButton.VOID_HAND)
    assert table.state == ("hold" if hold else "initial_deal")
    with pytest.raises(IllegalAction) as refused:
        table.collect_commission(1)
    assert (refused.value.rule, refused.value.reason) == (
        COMMISSION_RULE, "commission is collected between coups, not during one"
    )  # fmt: skip
    assert table.commission_owed[0] == 50


def test_rule_5_10b_commission_is_collected_in_settlement() -> None:
    table = closed(betting_table(), banker=10)
    deal(table, *initial(0, 9))
    assert table.state == "settlement"
    assert table.collect_commission(1) == CommissionCollected(1, 50, 1, 50)


# --- the cutting card and the shoe's end (casino procedure) ------------------------------


def cut_at(table: BaccaratTable) -> CutCardOut:
    (record,) = of(CutCardOut, cut_card(table))
    assert isinstance(record, CutCardOut)
    return record


@pytest.mark.parametrize(
    ("after", "expected"),
    [(0, {"betting": 1, "first": 1, "deal": 1, "third": 1, "settled": 2, "held_bet": 1}),
     (2, {"betting": 2, "first": 2, "deal": 3, "third": 3, "settled": 3, "held_bet": 2})],
)  # fmt: skip
def test_rule_cutting_card_where_the_table_is(after: int, expected: dict[str, int]) -> None:
    """Coup 1, and ``after`` coups after the cutting card: out while betting or where the
    first card would be ("before"), during the deal ("during"), after the coup settled
    ("after"), or while held from betting (judged where the hold came from)."""
    rules = {"coups_after_cut_card": after, "cut_card_from_end": 18}
    seen: dict[str, int] = {}
    table = betting_table(**rules)
    seen["betting"] = cut_at(table).last_coup
    table = closed(betting_table(**rules), player=10)
    seen["first"] = cut_at(table).last_coup
    table = closed(betting_table(**rules), player=10)
    deal(table, card(2))
    seen["deal"] = cut_at(table).last_coup
    table = closed(betting_table(**rules), player=10)
    deal(table, *initial(2, 3))
    assert table.state == "player_third"
    seen["third"] = cut_at(table).last_coup
    table = closed(betting_table(**rules), player=10)
    deal(table, *initial(8, 3))
    assert table.state == "settlement"
    seen["settled"] = cut_at(table).last_coup
    table = betting_table(**rules)
    deal(table, card(2))  # a card before NO MORE BETS: held from betting
    assert (table.state, table.held_from) == ("hold", "betting")
    seen["held_bet"] = cut_at(table).last_coup
    assert seen == expected


def test_rule_cutting_card_in_the_burn_counts_from_the_first_coup() -> None:
    """Out during the new shoe's burn (coup 0 so far): between coups, so the next coup,
    the first, is the last with the default of one coup after it."""
    table = BaccaratTable(BaccaratRules())
    table.shuffled()
    assert table.state == "burn"
    assert cut_at(table) == CutCardOut(0, 1)


def test_rule_cutting_card_on_its_rising_edge_only() -> None:
    """The sensor's level stays high while the cutting card is out: a new shoe is not
    ended again by the same level, only by the card coming out again."""
    table = betting_table()
    assert of(CutCardOut, table.handle(status(True))) == [CutCardOut(1, 1)]
    assert of(CutCardOut, table.handle(status(True, door=True))) == []
    closed(table, player=10)
    deal(table, *initial(8, 1))
    out = press(table, ConsoleButton.NEXT)
    (ended,) = records(out)
    assert isinstance(ended, ShoeEnded)
    assert (ended.shoe, ended.coups, ended.report.cards_seen) == (1, 1, 4)
    assert table.state == "shuffle"
    table.shuffled()
    assert table.shoe.number == 2
    assert of(CutCardOut, table.handle(status(True))) == []  # still the same level
    assert table.shoe.cut_card_out is False
    table.handle(status(False))
    assert of(CutCardOut, table.handle(status(True))) == [CutCardOut(2, 2)]


# --- the console -------------------------------------------------------------------------


def refusal(table: BaccaratTable, button: ConsoleButton) -> ActionRefused:
    (refused,) = of(ActionRefused, press(table, button))
    assert isinstance(refused, ActionRefused)
    return refused


def test_console_refusals_say_which_button_which_rule_and_why() -> None:
    betting = betting_table()
    assert refusal(betting, ConsoleButton.NEXT) == ActionRefused(
        "next button", WAGERS_RULE, "betting is open: NO MORE BETS closes it first"
    )
    assert refusal(betting, ConsoleButton.VOID_HAND) == ActionRefused(
        "void_hand button", VOID_RULE, "no coup being dealt to void in betting"
    )
    assert refusal(betting, ConsoleButton.SUPERVISOR) == ActionRefused(
        "supervisor button",
        HOLD_PROCEDURE,
        "a supervisor clears a hold by name and decision (PIN)",
    )
    assert refusal(betting, ConsoleButton.DOUBLE) == ActionRefused(
        "double button", NOT_ON_CONSOLE, "baccarat has no double button"
    )
    new = BaccaratTable(BaccaratRules())
    assert refusal(new, ConsoleButton.NEXT) == ActionRefused(
        "next button", SHUFFLE_RULE, "a new shoe is due: shuffle it and confirm SHUFFLED"
    )
    new.shuffled()
    assert refusal(new, ConsoleButton.NEXT) == ActionRefused(
        "next button",
        BURN_RULE,
        "a card is due: Burn: expose the new shoe's first card; its value burns that many "
        f"({BURN_RULE})",
    )
    assert betting.state == "betting" and new.state == "burn"


def test_rule_void_the_void_hand_button_holds_for_a_supervisor() -> None:
    table = closed(betting_table(), banker=10)
    deal(table, card(3))
    out = press(table, ConsoleButton.VOID_HAND)
    assert records(out) == [
        Violation(
            VOID_RULE,
            "the dealer asked to void the coup: a supervisor decides",
            None,
            state="initial_deal",
            by="the VOID HAND button",
        )
    ]


def test_rule_initial_deal_next_with_a_card_due_is_a_violation_naming_it() -> None:
    table = closed(betting_table(), banker=10)
    out = press(table, ConsoleButton.NEXT)
    assert records(out) == [
        Violation(
            INITIAL_DEAL_RULE,
            "NEXT pressed with a card due: Player's first card (Initial Deal: Player, Banker, "
            "Player, Banker)",
            None,
            state="initial_deal",
            by="the NEXT button",
        )
    ]


# --- the HOLD ------------------------------------------------------------------------------


def test_runtime_model_a_card_out_of_turn_is_named_with_the_state_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    table = closed(betting_table(), banker=10)
    deal(table, *initial(9, 2))
    with caplog.at_level(logging.WARNING, logger="controller.game.hold"):
        out = deal(table, Card.parse("5c"))
    violation = Violation(
        "Natural",
        "a card after a Natural (Player 9, Banker 2): a Natural stops the coup",
        "5c",
        state="settlement",
        by="the shoe",
    )
    assert records(out) == [violation]
    assert table.violations == [violation]
    assert (
        "HOLD: rule Natural: a card after a Natural (Player 9, Banker 2): a Natural stops "
        "the coup (card 5c)"
    ) in caplog.messages


def test_runtime_model_a_second_card_while_held_is_recorded_and_the_hold_stays() -> None:
    table = closed(betting_table(), banker=10)
    deal(table, *initial(9, 2))
    deal(table, Card.parse("5c"))
    out = deal(table, Card.parse("6c"))
    assert records(out) == [
        Violation(
            HOLD_PROCEDURE, "a card while the table was on hold", "6c", state="hold",
            by="the shoe",
        )
    ]  # fmt: skip
    assert (table.state, table.held_from, len(table.violations)) == ("hold", "settlement", 2)
    record = table.supervisor_clear("Pat", "burn_card")
    assert record == HoldCleared("Pat", "burn_card", tuple(record.violations))
    assert [v.card for v in record.violations] == ["5c", "6c"]
    assert table.state == "settlement"


def test_rule_nsw_baccarat_3_1_the_same_tag_twice_is_one_card_out_twice() -> None:
    table = closed(betting_table(), banker=10)
    table.handle(CardDrawn(source="rfid", card=Card.parse("Th"), tag="00AB"))
    out = table.handle(CardDrawn(source="rfid", card=Card.parse("Th"), tag="00AB"))
    (violation,) = of(Violation, out)
    assert violation == Violation(
        CARDS_RULE,
        f"Th (tag 00AB) was already read since the shuffle: the same card out of the shoe "
        f"twice (rule {CARDS_RULE}, shoe composition)",
        "Th",
        state="initial_deal",
        by="the shoe",
    )
    assert len(table.player) == 1


def test_rule_nsw_baccarat_3_1_a_foreign_burn_card_is_burned_and_held() -> None:
    """The burn takes the card (it is out of the shoe), then the table holds on it."""
    table = BaccaratTable(BaccaratRules())
    table.shuffled()
    table.handle(CardDrawn(source="rfid", card=Card.parse("3s"), tag="01"))  # 3 to burn
    out = table.handle(CardDrawn(source="rfid", card=Card.parse("3s"), tag="01"))
    (violation,) = of(Violation, out)
    assert violation == Violation(
        CARDS_RULE,
        f"3s (tag 01) was already read since the shuffle: the same card out of the shoe "
        f"twice (rule {CARDS_RULE}, shoe composition) (a burn card)",
        "3s",
        state="burn",
        by="the shoe",
    )
    assert (table.state, table.held_from, table.shoe.burns_due) == ("hold", "burn", 2)
    table.supervisor_clear("Pat", "burn_card")
    assert table.state == "burn"


def test_runtime_model_a_reader_lost_with_the_gate_open_holds() -> None:
    table = closed(betting_table(), banker=10)
    lost = DeviceLost(source="rfid", reason="cable", resends=False)
    out = table.handle(lost)
    assert records(out) == [
        Violation(
            CARDS_RULE,
            "the card reader was lost with the gate open (cable): cards may have left the "
            "shoe unseen, and the reader cannot send them again",
            None,
            state="initial_deal",
            by="the reader rfid",
        )
    ]
    locked = betting_table()
    assert records(locked.handle(lost)) == []  # the gate was locked: nothing passed
    assert locked.state == "betting"


def test_rule_nsw_baccarat_3_1_an_unknown_tag_holds_whatever_the_gate() -> None:
    table = betting_table()
    out = table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="FFEE"))
    assert records(out) == [
        Violation(
            CARDS_RULE,
            "tag FFEE is in no enrolled deck: an unknown card left the shoe",
            None,
            state="betting",
            by="the reader rfid",
        )
    ]


def test_hold_procedure_a_supervisor_clears_by_name_and_decision() -> None:
    table = closed(betting_table(), banker=10)
    with pytest.raises(IllegalAction) as not_held:
        table.supervisor_clear("Pat", "burn_card")
    assert (not_held.value.rule, not_held.value.reason) == (
        HOLD_PROCEDURE, "the table is not on hold"
    )  # fmt: skip
    press(table, ConsoleButton.VOID_HAND)
    table.take_outputs()
    with pytest.raises(IllegalAction) as nameless:
        table.supervisor_clear("  ", "burn_card")
    assert (nameless.value.rule, nameless.value.reason) == (
        HOLD_PROCEDURE, "a supervisor clearing a hold must be named"
    )  # fmt: skip
    with pytest.raises(IllegalAction) as unknown:
        table.supervisor_clear("Pat", "shrug")
    assert (unknown.value.rule, unknown.value.reason) == (
        HOLD_PROCEDURE, "no decision 'shrug': one of burn_card, void_hand"
    )  # fmt: skip
    record = table.supervisor_clear("Pat", "void_hand")
    assert (record.who, record.decision, len(record.violations)) == ("Pat", "void_hand", 1)
    out = records(table.take_outputs())
    assert out[0] == record
    assert [type(o) for o in out[1:]] == [Payout, CoupSettled]
    assert out[2] == CoupSettled(1, None, 10, 10, 0, 0, True)


def test_rule_void_refused_when_no_coup_was_being_dealt() -> None:
    table = betting_table()
    deal(table, card(4))  # before NO MORE BETS: held from betting
    with pytest.raises(IllegalAction) as refused:
        table.supervisor_clear("Pat", "void_hand")
    assert (refused.value.rule, refused.value.reason) == (
        VOID_RULE, "no coup in play to void (held in betting): burn the card"
    )  # fmt: skip


def test_table_of_play_the_due_card_follows_the_totals() -> None:
    """The Banker's line reads the Banker's total and the Player's third card."""
    table = closed(betting_table(), banker=10)
    p1, p2 = two(1)
    deal(table, p1, Card.parse("Kd"), p2, Card.parse("4d"))  # Player 1 draws; Banker 4
    deal(table, card(5, "c"))
    assert table.due() == (
        "banker",
        TABLE_OF_PLAY,
        "Banker draws: 4 against the Player's third card 5 (Table of Play)",
    )


def test_table_of_play_the_players_third_card_is_due_on_its_total() -> None:
    table = closed(betting_table(), player=10)
    deal(table, *initial(3, 7))
    assert table.due() == (
        "player",
        TABLE_OF_PLAY,
        "Player draws: a third card on 3 (Table of Play: the Player draws on 0-5)",
    )


def test_rule_nsw_mini_baccarat_5_the_next_coup_starts_with_no_stakes_fixed() -> None:
    """NEXT opens the next coup's betting: last coup's stakes, result and payouts go."""
    table = closed(betting_table(), player=10)
    assert len(of(CoupResult, deal(table, *initial(9, 0)))) == 1
    assert (len(table.stakes), len(table.payouts)) == (1, 1)
    press(table, ConsoleButton.NEXT)
    assert (table.state, table.coup) == ("betting", 2)
    assert (table.stakes, table.payouts, table.result, table.settled) == ([], [], None, None)
    assert (table.player, table.banker, table.player_third) == ([], [], None)


# --- the pair wager standing alone (pair wager (casino page); a setting) ----------------


def test_rule_pair_wager_casino_page_no_more_bets_refused_while_a_pair_stands_alone() -> None:
    """With ``pair_needs_main_wager``, NO MORE BETS is refused (journaled, citing the
    casino page) while box 2's pair wager stands alone; placing it was not refused (the
    main wager may come after it), and once a Tie wager stands beside it the coup goes on."""
    table = betting_table(boxes=3, pair_needs_main_wager=True)
    table.place_wager(1, "banker", 20)
    assert of(WagerPlaced, [table.place_wager(2, "player_pair", 10)])  # placed: not refused
    out = press(table, ConsoleButton.NO_MORE_BETS)
    refusal = of(ActionRefused, out)
    assert [(r.rule, r.reason) for r in refusal] == [
        (
            PAIR_RULE,
            "a pair wager stands alone on box 2: it needs a Banker, Player or Tie wager "
            "beside it before NO MORE BETS",
        )
    ]
    assert table.state == "betting" and table.stakes == []
    table.place_wager(2, "tie", 10)
    out = press(table, ConsoleButton.NO_MORE_BETS)
    assert of(ActionRefused, out) == [] and table.state == "initial_deal"


def test_rule_pair_wager_casino_page_withdrawing_the_main_wager_leaves_the_pair_alone() -> None:
    table = betting_table(boxes=3, pair_needs_main_wager=True)
    table.place_wager(1, "player", 20)
    table.place_wager(1, "banker_pair", 10)
    table.place_wager(1, "player", 0)  # withdrawn: the pair now stands alone
    with pytest.raises(IllegalAction, match="stands alone on box 1"):
        table.no_more_bets()
