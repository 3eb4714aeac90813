"""The blackjack table (controller/blackjack/table.py): its console buttons' refusals word
for word, the lamps and the gate it commands, the card readers' events that hold it, and its
rules API passing every argument through."""

from __future__ import annotations

import pytest

from controller.blackjack.records import HoldDecision, Violation
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind, Outcome
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.game.records import HOLD_PROCEDURE, TABLE_VARIANT, ActionRefused
from controller.ports import (
    ButtonPressed,
    ChipIdsSensed,
    ConsoleButton,
    DeviceFault,
    DeviceLost,
    Fault,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    UnlockShoe,
)
from tests.support.blackjack import betting, dealt, refused
from tests.support.blackjack_script import (
    DOUBLE,
    EVEN_MONEY,
    INSURANCE_CLOSED,
    NEXT,
    NO_MORE_BETS,
    SPLIT,
    VOID_HAND,
    ScriptedTable,
)
from tests.support.refusals import refusal

# --- the console's buttons -------------------------------------------------------------------


def test_rule_4_1_next_with_nothing_to_do_word_for_word() -> None:
    s = betting()
    s.table.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)
    assert refused(s.press(NEXT)) == [
        ("next button", "4.1", "NEXT has nothing to do in no_more_bets")
    ]


def test_rule_4_1_double_and_split_with_no_box_acting_word_for_word() -> None:
    s = betting()
    assert refused(s.press(DOUBLE, SPLIT)) == [
        ("double button", "4.1", "DOUBLE: no box is acting (the round is in betting)"),
        ("split button", "4.1", "SPLIT: no box is acting (the round is in betting)"),
    ]


def test_rule_10_3_b_buttons_wait_for_the_even_money_box_s_cards() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "As 9h Ad Kc 8d")  # box 1 blackjack, dealer ace
    s.press(EVEN_MONEY)  # box 1 paid 1 to 1, its cards to the discard rack
    assert refused(s.press(DOUBLE)) == [
        ("double button", "10.3(b)", "remove the paid blackjack's cards first")
    ]
    assert refused(s.press(EVEN_MONEY)) == [
        ("even_money button", "10.3", "no blackjack against a dealer ace awaits even money")
    ]


def test_hold_procedure_the_supervisor_button_needs_a_name_and_pin() -> None:
    s = betting()
    assert refused(s.press(ConsoleButton.SUPERVISOR)) == [
        (
            "supervisor button",
            HOLD_PROCEDURE,
            "a supervisor clears a hold by name and decision (PIN)",
        )
    ]
    for button in ConsoleButton:  # every other button does something, or says why not
        if button is not ConsoleButton.SUPERVISOR:
            out = s.press(button)
            assert all(r[2] != "a supervisor clears a hold by name and decision (PIN)"
                       for r in refused(out))  # fmt: skip


def test_rule_9_6_void_hand_only_with_a_hand_in_play_word_for_word() -> None:
    s = ScriptedTable()
    assert refused(s.press(VOID_HAND)) == [
        ("void_hand button", "9.6", "no hand to void in round_over")
    ]
    s.open()
    assert refused(s.press(VOID_HAND)) == [
        ("void_hand button", "9.6", "no hand to void in betting")
    ]
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    s.press(NEXT)
    s.deal("Th")
    assert refused(s.press(VOID_HAND)) == [
        ("void_hand button", "9.6", "no hand to void in settlement")
    ]
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    s.press(VOID_HAND)
    assert refused(s.press(VOID_HAND)) == [("void_hand button", "9.6", "no hand to void in hold")]


def test_rule_9_5_insurance_closed_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    assert refused(s.press(INSURANCE_CLOSED)) == [
        ("insurance_closed button", "9.5", "no insurance is open or waiting to be collected")
    ]
    s = dealt({(1, 1): 4}, "9s Ad 8c")
    assert s.state == "insurance"
    assert not refused(s.press(INSURANCE_CLOSED))  # closes insurance: boxes act
    assert s.state == "boxes_acting"


def test_rule_9_5_the_insurance_sensors_say_what_was_collected() -> None:
    s = dealt({(1, 1): 4, (1, 2): 4}, "9s Ad 8c")
    s.occupy("insurance1", 2)
    s.occupy("insurance1.p2", 2)
    s.press(INSURANCE_CLOSED)  # insurance closes
    s.clear("insurance1")  # taken off before the dealer's second card: HOLD (9.5)
    assert [v.rule for v in s.of(Violation)] == ["9.5"]
    s.supervisor("Ana", HoldDecision.KEEP_CARD)
    s.press(NEXT)  # 17 stands
    s.deal("9h")  # dealer A, 9: both insurances lose
    assert s.state == "insurance_settlement"
    s.press(INSURANCE_CLOSED)  # the dealer collected person 1's, taken off early
    lost = [(p.person, p.outcome) for p in s.table.payouts if p.kind is Kind.INSURANCE]
    assert lost == [(1, Outcome.LOSE)]  # person 2's is still on the layout
    assert s.state == "insurance_settlement"
    assert refused(s.press(INSURANCE_CLOSED)) == [
        ("insurance_closed button", "9.5", "the insurance sensors say when insurance is collected")
    ]


# --- the lamps and the gate ------------------------------------------------------------------


def test_lamps_each_commanded_once_and_again_only_when_it_changes() -> None:
    table = BlackjackTable()
    first = [o for o in table.take_outputs() if isinstance(o, SetLamp)]
    assert sorted(first, key=lambda o: o.lamp) == sorted(
        [
            SetLamp(lamp, LampPattern.BLINK if lamp is Lamp.DEALER_ACTION else LampPattern.OFF)
            for lamp in Lamp
        ],
        key=lambda o: o.lamp,
    )
    assert not [o for o in table.take_outputs() if isinstance(o, SetLamp)]  # no change


def test_burn_after_the_shuffle_opens_the_gate_for_one_card() -> None:
    s = ScriptedTable()
    assert s.table.gate_locked is True
    out = s.shuffled(burn=None)
    assert UnlockShoe() in out and s.table.gate_locked is False  # the burn card is due
    out = s.deal("2c")
    assert LockShoe() in out and s.table.gate_locked is True  # burned: round over again


# --- the card readers ------------------------------------------------------------------------


def test_rule_3_3_an_unknown_tag_holds_the_table_naming_the_tag() -> None:
    s = ScriptedTable()
    s.open()
    out = s.send(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="04AB"))
    assert s.of(Violation, out) == [
        Violation(
            "3.3",
            "tag 04AB is in no enrolled deck: an unknown card left the shoe",
            None,
            state="betting",
            by="the reader rfid",
        )
    ]


def test_rule_3_3_a_reader_lost_holds_only_with_the_gate_open() -> None:
    s = ScriptedTable()
    s.open()  # betting: the gate is locked
    out = s.send(DeviceLost(source="rfid", reason="unplugged", resends=False))
    assert not s.of(Violation, out)
    s.table.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)  # the gate opens for the deal
    out = s.send(DeviceLost(source="rfid", reason="unplugged", resends=False))
    assert [(v.rule, v.by, v.state) for v in out if isinstance(v, Violation)] == [
        ("3.3", "the reader rfid", "no_more_bets")
    ]


def test_chip_ids_without_a_value_each_are_refused_not_cut_short() -> None:
    table = BlackjackTable()
    with pytest.raises(ValueError):
        table.handle(ChipIdsSensed(source="chips", spot="box1", chip_ids=("a", "b"), values=(5,)))


# --- the rules API passes every argument through ----------------------------------------------


def test_the_table_s_rules_api_passes_every_argument() -> None:
    s = betting(Variants(insurance_sensors=False))
    t = s.table
    assert refusal(lambda: t.verify_place_wager(2, 4, 4)) == ("4.1", "at most 3 people on a box")
    assert refusal(lambda: t.verify_place_wager(8, 1, 4)) == ("4.1", "no box 8 on this table")
    assert refusal(lambda: t.verify_place_wager(2, 1, -2)) == (
        "4.1",
        "a wager of -2 is not whole chips",
    )
    t.verify_place_wager(2, 1, 4)
    t.place_wager(2, 1, 4)
    t.place_wager(2, 2, 6)
    s.press(NO_MORE_BETS)
    s.deal("As", "Ad", "Kc")  # box 2 blackjack, dealer ace
    assert refusal(lambda: t.verify_insurance(2, 2, 4)) == (
        "9.3(a)",
        "insurance 4: from one chip to half the wager 6",
    )
    assert refusal(lambda: t.verify_insurance(1, 1, 1)) == (
        "9.2",
        "person 1 has no initial wager on box 1",
    )
    t.verify_insurance(2, 2, 3)
    assert refusal(lambda: t.verify_even_money(2, 3)) == ("10.3", "person 3 has no wager on box 2")
    assert refusal(lambda: t.verify_even_money(1, 1)) == ("10.3", "person 1 has no wager on box 1")
    assert t.can_even_money(2, 2) and not t.can_even_money(2, 3) and not t.can_even_money(1, 2)
    t.verify_even_money(2, 2)
    t.insure(2, 2, 3)
    s.press(NEXT)  # insurance closes; box 2's blackjack waits for the dealer (10.2)
    s.deal("9h")  # dealer A, 9: insurance loses
    assert s.state == "insurance_settlement"
    t.insurance_collected(t.boxes[1], 1)  # person 1 has no insurance: nothing collected
    assert s.state == "insurance_settlement"
    t.insurance_collected(t.boxes[1], 2)
    assert s.state == "settlement"


def test_the_table_s_double_and_stand_pass_box_and_amount() -> None:
    t = dealt({(1, 1): 4, (2, 1): 4}, "5s 6h 7d 5c 4d").table
    assert not t.can_double(1, 5)  # more than the wager
    assert refusal(lambda: t.verify_double(1, 5))[0] == TABLE_VARIANT
    assert t.can_double(1, 4)
    t.verify_double(1, 4)
    assert refusal(lambda: t.verify_stand(1)) == (TABLE_VARIANT, "a player must draw to 11")
    assert refusal(lambda: t.verify_stand(2)) == ("4.1", "box 2 is not acting: it is box 1's turn")


def test_the_table_passes_sensors_and_cards_through() -> None:
    s = betting()
    t = s.table
    t.spot_changed("box3", True, 6)
    assert t.boxes[2].stakes == {1: 6}
    t.spot_changed("box3", False, None)
    assert t.boxes[2].stakes == {}
    t.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)
    t.card_drawn(Card.parse("9s"), "T1")
    t.card_drawn(Card.parse("9s"), "T1")  # the same tag: the audit sees the tag
    assert [(v.rule, v.card) for v in t.violations] == [("3.3", "9s")]
    assert [str(c) for c in t.boxes[0].hands[0].cards] == ["9s"]


def test_console_button_events_reach_the_table() -> None:
    table = BlackjackTable()
    out = table.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    assert [o.rule for o in out if isinstance(o, ActionRefused)] == ["7.1(a)"]


def test_rule_4_1_accepting_a_payout_difference_needs_a_reason() -> None:
    table = BlackjackTable(Variants(chip_readers=True, settlement_check=True))
    assert refusal(lambda: table.accept_payout("s01", 1)) == (
        "4.1",
        "accepting a payout difference needs a reason",
    )
