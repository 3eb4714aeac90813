"""The layout's sensors on a blackjack table (controller/blackjack/layout.py): what a bet,
insurance, double or discard-rack sensor's change means in each state, each named after the
clause it pins; violations and refusals word for word (they are what the dealer reads)."""

from __future__ import annotations

import logging

import pytest

from controller.blackjack.records import (
    Doubled,
    HoldDecision,
    InsuranceTaken,
    RemovalConfirmed,
    Violation,
)
from controller.blackjack.rules import OddStakes, Variants
from controller.game.chips import PayoutMismatch
from controller.game.records import TABLE_VARIANT, ActionRefused
from tests.support.blackjack import ROUND_STATES, at, betting, dealt
from tests.support.blackjack_script import DOUBLE, NEXT, NO_MORE_BETS, VOID_HAND

# --- 4.1 / 4.2: the bet spots -----------------------------------------------------------------


def test_rule_4_1_a_wager_the_sensor_reports_is_refused_with_the_reason() -> None:
    s = betting()
    out = s.occupy("box1.p2", 4)
    assert s.of(ActionRefused, out) == [
        ActionRefused("sensor box1.p2", "4.1", "people bet behind a box holder: box holder first")
    ]
    assert s.table.refused_wagers == {
        "box1.p2": "rule 4.1: people bet behind a box holder: box holder first"
    }


def test_rule_4_1_the_last_box_s_sensor_is_read() -> None:
    s = betting()
    s.occupy("box7", 6)
    assert s.table.boxes[6].stakes == {1: 6}


def test_rule_4_1_a_bare_presence_edge_keeps_the_chip_reading() -> None:
    s = betting(Variants(spot_sensors=True))
    s.occupy("box1", 6)
    s.occupy("box1")  # a presence edge with no amount: the 6 stands
    assert s.table.boxes[0].stakes == {1: 6}
    s.press(NO_MORE_BETS)
    out = s.occupy("box1")  # the same, after bets closed: no change of wager
    assert s.of(Violation, out) == []


def test_rule_4_2_chips_changed_after_betting_closed_hold_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    out = s.occupy("box1", 8)
    assert s.of(Violation, out) == [
        Violation(
            "4.2",
            "wager on box1 changed after betting closed",
            None,
            state="boxes_acting",
            by="the sensor on box1",
        )
    ]


def test_rule_4_2_an_empty_spot_cleared_after_betting_closed_is_no_change() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    assert s.of(Violation, s.clear("box3", "box1.p2")) == []  # no wager there: nothing changed
    assert s.state == "boxes_acting"


def test_rule_4_2_a_live_hand_s_wager_taken_away_holds() -> None:
    s = dealt({(1, 1): 4}, "7s 5d 7c")
    s.deal("7h")  # 7, 7, 7: hard 21, not bust
    assert [v.rule for v in s.of(Violation, s.clear("box1"))] == ["4.2"]


def test_rule_4_2_a_busted_hand_s_wager_may_be_collected() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "Ts 9h 7d 6c 8d")
    s.deal("6h")  # box 1: 10, 6, 6 = 22, bust
    assert s.of(Violation, s.clear("box1")) == []


def test_rule_10_3_a_even_money_paid_the_person_may_take_wager_and_winnings() -> None:
    s = dealt({(1, 1): 4, (1, 2): 6}, "As Ad Kc")
    s.table.even_money(1, 2)  # person 2 only: the box's cards stay (10.3b)
    assert s.of(Violation, s.clear("box1.p2")) == []
    assert [v.rule for v in s.of(Violation, s.clear("box1"))] == ["4.2"]  # person 1 was not paid


# --- 9.2-9.5: the insurance spots -------------------------------------------------------------


def test_rule_9_3_a_insurance_sensed_without_an_amount_is_half_the_wager() -> None:
    s = dealt({(1, 1): 5, (2, 1): 4}, "9s Ts Ad 8c 9d", Variants(odd_stakes=OddStakes.ROUND_DOWN))
    out = s.occupy("insurance1") + s.occupy("insurance2")
    assert s.of(InsuranceTaken, out) == [
        InsuranceTaken(1, 1, 2),  # half of 5, in whole chips
        InsuranceTaken(2, 1, 2),
    ]
    out = s.occupy("insurance1.p2")  # nobody's wager: refused, not guessed
    assert s.of(ActionRefused, out) == [
        ActionRefused("sensor insurance1.p2", "9.2", "person 2 has no initial wager on box 1")
    ]


def test_rule_9_2_insurance_taken_back_while_the_table_holds_in_insurance() -> None:
    s = dealt({(1, 1): 4}, "9s Ad 8c")
    s.occupy("insurance1", 2)
    s.press(VOID_HAND)  # HOLD while insurance is open
    s.clear("insurance1")  # taken back: insurance was still open
    assert s.table.boxes[0].insurance == {}
    assert s.table.wagers_in == 4


def test_rule_9_5_insurance_off_the_layout_early_holds_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s Ad 8c")
    s.occupy("insurance1", 2)
    s.press(NEXT)  # insurance closes
    out = s.clear("insurance1")
    assert s.of(Violation, out) == [
        Violation(
            "9.5",
            "insurance on insurance1 taken off the layout before the dealer's second card: an "
            "insurance wager placed under 9.2 stands until it is paid (9.4) or collected "
            "(9.5); after the supervisor, the dealer collects it from the player (INSURANCE "
            "CLOSED) if it loses",
            None,
            state="boxes_acting",
            by="the sensor on insurance1",
        )
    ]
    s.supervisor("Ana", HoldDecision.KEEP_CARD)
    assert s.table.boxes[0].insurance_off == {1}
    s.occupy("insurance1", 2)  # put back on the layout
    assert s.table.boxes[0].insurance_off == set()


def test_rule_9_2_insurance_placed_after_further_cards_holds_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    assert s.of(Violation, s.clear("insurance1")) == []  # nothing there: nothing to say
    out = s.occupy("insurance1", 2)
    assert s.of(Violation, out) == [
        Violation(
            "9.2",
            "insurance on insurance1 placed after further cards",
            None,
            state="boxes_acting",
            by="the sensor on insurance1",
        )
    ]


# --- the double spots (surrounding rules: up to the original wager) ---------------------------


def test_table_variant_a_double_takes_only_its_own_box_s_double_spot() -> None:
    s = dealt({(1, 1): 4, (2, 1): 8}, "5s 9h 7d 6c 9d", Variants(double_spots=True))
    s.occupy("double1", 4)
    s.occupy("double2", 8)  # box 2's double, placed early
    s.press(DOUBLE)
    assert s.of(Doubled) == [Doubled(1, 1, 4)]


def test_table_variant_a_double_spot_with_no_chip_count_is_empty() -> None:
    s = dealt({(1, 1): 4}, "5s 7d 6c", Variants(double_spots=True))
    s.occupy("double1")  # presence only: no amount to double with
    out = s.press(DOUBLE)
    assert s.of(ActionRefused, out) == [
        ActionRefused(
            "double button", TABLE_VARIANT, "no chips sensed on double1: place the double first"
        )
    ]


# --- 10.1: the discard rack -------------------------------------------------------------------


def test_rule_10_1_the_discard_rack_confirms_a_removal_only_when_one_is_due() -> None:
    s = betting(Variants(discard_rack_reader=True))
    s.occupy("discard")  # nothing to remove: nothing happens, no error
    assert not s.of(RemovalConfirmed)
    s.table.place_wager(1, 1, 4)
    s.table.place_wager(2, 1, 4)
    s.press(NO_MORE_BETS)
    s.deal("As", "9h", "7d", "Kc", "8d")  # box 1 blackjack, paid at once (10.1)
    s.clear("discard")  # the rack emptied: not a removal
    assert s.table.awaiting_removal
    out = s.occupy("discard")
    assert s.of(RemovalConfirmed, out) == [RemovalConfirmed(1, "10.1")]


def test_rule_10_1_without_a_rack_reader_the_rack_sensor_confirms_nothing() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "As 9h 7d Kc 8d")
    s.occupy("discard")
    assert s.table.awaiting_removal  # NEXT confirms it on this table
    s2 = betting()
    s2.occupy("discard")  # nothing due either: no error
    assert s2.state == "betting"


def test_sensors_that_are_not_the_table_s_are_logged_and_ignored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = betting()
    with caplog.at_level(logging.INFO, logger="controller.blackjack.layout"):
        assert s.occupy("lamp-test") == []
    assert caplog.messages == ["ignored sensor lamp-test"]


# --- 4.1: the spots after the result ---------------------------------------------------------


def test_rule_4_1_an_insurance_spot_paid_wrong_is_named_at_once_by_a_chip_reader() -> None:
    s = betting(Variants(chip_readers=True, settlement_check=True))
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    s.deal("9s", "Ad", "8c")
    s.occupy("insurance1", 2)
    s.press(NEXT, NEXT)  # insurance closes; 17 stands
    s.deal("Kh")  # dealer blackjack: insurance pays 2 to 1, the spot should hold 6
    out = s.occupy("insurance1", 3)
    assert [(m.spot, m.owed, m.paid) for m in out if isinstance(m, PayoutMismatch)] == [
        ("insurance1", 4, 1)
    ]


def test_rule_4_1_a_presence_edge_after_the_result_is_not_a_collection() -> None:
    s = betting(Variants(spot_sensors=True, settlement_check=True))
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    s.deal("9s", "Td", "7c")
    s.press(NEXT)  # 16 stands
    s.deal("9h")  # dealer 19: box 1 loses
    s.occupy("box1")  # the sensor reports chips still there: not collected
    out = s.press(NEXT)
    assert [o.rule for o in out if isinstance(o, ActionRefused)] == ["4.1"]
    assert s.state == "settlement"


# --- 4.2 / 9.2 / 9.5 in every state of a round in play -----------------------------------------


@pytest.mark.parametrize("state", ROUND_STATES)
def test_rule_4_2_no_wager_changes_in_any_state_after_betting_closed(state: str) -> None:
    s = at(state)
    out = s.occupy("box1", 6)
    assert [(v.rule, v.state) for v in s.of(Violation, out)] == [("4.2", state)]


@pytest.mark.parametrize("state", [s for s in ROUND_STATES if s != "insurance"])
def test_rule_9_2_no_insurance_placed_outside_the_insurance_state(state: str) -> None:
    s = at(state)
    out = (
        s.occupy("insurance1.p2", 2)
        if state == "insurance_settlement"
        else s.occupy("insurance1", 2)
    )
    assert [(v.rule, v.state) for v in s.of(Violation, out)] == [("9.2", state)]


@pytest.mark.parametrize("state", ["boxes_acting", "dealer_second"])
def test_rule_9_5_insurance_stands_until_paid_or_collected(state: str) -> None:
    s = at("insurance")
    s.occupy("insurance1", 2)
    s.press(NEXT)  # insurance closes
    if state == "dealer_second":
        s.press(NEXT)  # 17 stands
    assert s.state == state
    out = s.clear("insurance1")
    assert [(v.rule, v.state) for v in s.of(Violation, out)] == [("9.5", state)]
