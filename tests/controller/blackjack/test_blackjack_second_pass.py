"""Blackjack's clauses as a second clause-by-clause reading took them, and the wagers the
layout can back: one test per finding, named after its clause, each failing on the code
before the fix."""

from __future__ import annotations

import pytest

from controller.blackjack.display import snapshot
from controller.blackjack.game import BlackjackGame
from controller.blackjack.records import (
    ActionRefused,
    BoxVoided,
    CardBurned,
    Doubled,
    HoldDecision,
    RoundSettled,
    ShuffleConfirmed,
    Violation,
    WagerChanged,
)
from controller.blackjack.rules import OddStakes, Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.errors import IllegalAction
from controller.game.records import TABLE_VARIANT
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    LockShoe,
    ShoeStatusChanged,
    SupervisorAction,
    UnlockShoe,
)
from controller.shoe_audit import ShoeReport
from tests.support.blackjack_script import (
    DOUBLE,
    INSURANCE_CLOSED,
    NEXT,
    SPLIT,
    VOID_HAND,
    ScriptedTable,
    start,
)


def insured(**variant: object) -> ScriptedTable:
    """Boxes 2 (4 chips, insured 2) and 5 (6 chips, insured 3) against a dealer ace; both
    stand: the dealer's second card is next."""
    s = start({"box2": 4, "box5": 6}, Variants(**variant))  # type: ignore[arg-type]
    s.deal("Ts", "9h", "As", "8c", "Qh")  # box2 18, box5 19, dealer ace
    s.occupy("insurance2", 2)
    s.occupy("insurance5", 3)
    s.press(NEXT, NEXT, NEXT)  # insurance closes; both stand
    assert s.state == "dealer_second"
    return s


def insurance_payouts(s: ScriptedTable) -> list[tuple[int, Outcome, str, bool]]:
    payouts = s.table.payouts
    return [(p.box, p.outcome, p.rule, p.at_once) for p in payouts if p.kind is Kind.INSURANCE]


# --- item 1: 9.5 through an earlier HOLD --------------------------------------------------


def test_9_5_card_kept_through_hold_before_insurance_collected_is_a_violation() -> None:
    s = insured()
    s.press(VOID_HAND)  # HOLD in dealer_second
    s.deal("5d", "4c")  # two cards come out during the hold
    s.supervisor("Pat", HoldDecision.KEEP_CARD)
    # 5d is the dealer's second card (soft 16); 4c came while the losing insurance was
    # still on the layout: a 9.5 violation, not an insurance "collected" under 9.5
    assert [str(c) for c in s.table.dealer.cards] == ["As", "5d"]
    assert s.state == "hold" and s.of(Violation)[-1].rule == "9.5"
    assert not [p for p in insurance_payouts(s) if p[2] == "9.5"]
    s.clear("insurance2", "insurance5")  # the dealer collects, during the hold
    s.supervisor("Pat", HoldDecision.KEEP_CARD)  # then the supervisor lets 4c stand
    assert [str(c) for c in s.table.dealer.cards] == ["As", "5d", "4c"]
    assert s.state == "settlement"  # soft 20


# --- item 2: insurance chips taken back early ---------------------------------------------


def test_9_5_insurance_taken_off_the_layout_early_holds_and_the_dealer_can_go_on() -> None:
    s = start({"box2": 4, "box5": 6})
    s.deal("Ts", "9h", "As", "8c", "Qh")
    s.occupy("insurance2", 2)
    s.press(NEXT)  # insurance closes; box 2 acts
    s.clear("insurance2")  # the player takes the insurance chips back
    assert s.state == "hold"
    violation = s.of(Violation)[-1]
    assert violation.rule == "9.5" and "9.2" in violation.message
    assert violation.by == "the sensor on insurance2"
    assert "taken off the layout" in snapshot(s.table).hold_text
    s.supervisor("Pat", HoldDecision.KEEP_CARD)  # the insurance wager stands
    s.press(NEXT, NEXT)
    s.deal("5d")  # dealer soft 16: insurance loses, its spot is already empty
    assert s.state == "insurance_settlement"
    assert "INSURANCE CLOSED" in snapshot(s.table).next_action
    s.press(INSURANCE_CLOSED)  # the dealer collected it from the player
    assert s.state == "dealer_drawing"
    assert insurance_payouts(s) == [(2, Outcome.LOSE, "9.5", True)]


def test_9_5_insurance_put_back_before_the_second_card_is_collected_by_its_sensor() -> None:
    s = start({"box2": 4})
    s.deal("Ts", "As", "8c")
    s.occupy("insurance2", 2)
    s.press(NEXT)
    s.clear("insurance2")
    s.supervisor("Pat", HoldDecision.KEEP_CARD)
    s.occupy("insurance2", 2)  # put back on the layout
    s.press(NEXT)
    s.deal("5d")
    s.clear("insurance2")  # collected (9.5) by the sensor as usual
    assert s.state == "dealer_drawing"


def test_9_5_a_chip_reader_reading_0_during_collection_is_a_collection() -> None:
    s = insured(chip_readers=True)
    s.deal("5d")
    assert s.state == "insurance_settlement"
    s.occupy("insurance2", 0)
    s.occupy("insurance5", 0)
    assert s.state == "dealer_drawing" and not s.of(Violation)
    assert insurance_payouts(s) == [(2, Outcome.LOSE, "9.5", True), (5, Outcome.LOSE, "9.5", True)]


# --- item 4: odd stakes at 3 to 2 ----------------------------------------------------------


def test_10_1_a_wager_3_to_2_cannot_pay_in_chips_is_refused_at_betting() -> None:
    s = ScriptedTable(Variants(smallest_chip=5))
    s.open()
    out = s.occupy("box1", 5)  # 3 to 2 on 5 is 7.5: not whole chips of 5
    assert [r.rule for r in s.of(ActionRefused, out)] == ["10.1"]
    assert s.table.boxes[0].stakes == {}
    view = snapshot(s.table)
    assert "REFUSED box1: rule 10.1" in view.next_action and "7.5" in view.next_action
    assert view.refused_wagers == {"box1": view.refused_wagers["box1"]}
    s.occupy("box1", 10)  # 15: exact
    assert s.table.boxes[0].stakes == {1: 10} and not snapshot(s.table).refused_wagers
    with pytest.raises(IllegalAction) as exc:
        s.table.place_wager(2, 1, 15)
    assert exc.value.rule == "10.1"


@pytest.mark.parametrize(("odd", "paid"), [(OddStakes.ROUND_DOWN, 20), (OddStakes.ROUND_UP, 25)])
def test_10_1_a_named_rounding_is_shown_with_the_exact_amount(odd: OddStakes, paid: int) -> None:
    s = start({"box1": 15}, Variants(smallest_chip=5, odd_stakes=odd))
    s.deal("As", "7d", "Kc")  # box 1 blackjack against a 7: paid at once (10.1)
    [payout] = [p for p in s.table.payouts if p.at_once]
    assert (payout.outcome, payout.won) == (Outcome.BLACKJACK, paid)
    [person] = snapshot(s.table).boxes[0].people
    assert person.paid_at_once == paid and person.paid_rule == "10.1"
    way = "down" if odd is OddStakes.ROUND_DOWN else "up"
    assert person.note == f"3 to 2 of $15 is $22.50: paid ${paid} (rounded {way} to chips of $5)"


# --- item 5: the burn card -----------------------------------------------------------------


def test_burn_card_after_the_shuffle_is_journaled_shown_and_counted() -> None:
    s = ScriptedTable(Variants(burn_cards=2))
    s.table.shuffled()
    out = s.table.take_outputs()
    assert ShuffleConfirmed("7.1(a)", "console", 2) in out and UnlockShoe() in out
    view = snapshot(s.table)
    assert view.burns_due == 2 and view.next_action.startswith("Burn 2 cards")
    out = s.deal("9s", "Kd")  # a single card after the shuffle no longer holds the table
    assert s.of(CardBurned, out) == [CardBurned("9s", 1), CardBurned("Kd", 0)]
    assert s.state == "round_over" and not s.of(Violation) and LockShoe() in out
    assert s.table.audit.cards_seen == 2 and s.table.shuffle.cards_this_round == 0
    s.press(NEXT)
    assert s.state == "betting"


def test_burn_card_may_come_after_no_more_bets_before_the_first_card() -> None:
    s = ScriptedTable()
    s.shuffled(burn=None)
    s.press(NEXT)
    s.occupy("box1", 4)
    s.press(ConsoleButton.NO_MORE_BETS)
    assert snapshot(s.table).next_action.startswith("Burn 1 card")
    s.deal("Qs")  # the burn
    s.deal("9h")  # box 1's first card
    assert [str(c) for c in s.table.boxes[0].hands[0].cards] == ["9h"]


# --- item 6: double for less ---------------------------------------------------------------


def test_double_for_less_the_extra_wager_is_up_to_the_original() -> None:
    s = start({"box1": 4})
    s.deal("6s", "9h", "5c")  # 11
    with pytest.raises(IllegalAction) as exc:
        s.table.double(1, 6)  # more than the original wager
    assert exc.value.rule == TABLE_VARIANT and "up to the original" in exc.value.reason
    game = BlackjackGame(Variants())
    game.table = s.table
    double = ConsoleAction(source="console", action="double", args={"box": 1, "amount": 2})
    out = game.handle(double)
    assert [o for o in out if isinstance(o, Doubled)] == [Doubled(1, 1, 2)]
    s.deal("Td")  # 21, one card only
    s.deal("8d")  # dealer 17
    [payout] = [p for p in s.table.payouts if p.kind is Kind.WAGER]
    assert (payout.stake, payout.won) == (6, 6)
    assert s.table.settled is not None and s.table.settled.wagers_in == 6


def test_double_for_less_reads_the_chips_on_the_double_spot() -> None:
    s = start({"box1": 10}, Variants(double_spots=True))
    s.deal("6s", "9h", "4c")  # 10
    out = s.press(DOUBLE)  # nothing on the double spot yet
    assert [r.rule for r in s.of(ActionRefused, out)] == [TABLE_VARIANT]
    s.occupy("double1", 4)
    out = s.press(DOUBLE)
    assert s.of(Doubled, out) == [Doubled(1, 1, 4)]
    assert s.table.wagers_in == 14


# --- item 7: void one box ------------------------------------------------------------------


def test_9_6_a_supervisor_voids_one_box_with_its_insurance_and_the_round_goes_on() -> None:
    s = start({"box1": 4, "box2": 6})
    s.deal("Ts", "9h", "As", "8c", "Qh")  # box1 18, box2 19, dealer ace
    s.occupy("insurance1", 2)
    s.press(NEXT)  # insurance closes; box 1 acts
    s.press(VOID_HAND)
    out = s.supervisor("Pat", HoldDecision.VOID_BOX, 1)
    assert BoxVoided("Pat", 1) in out
    assert s.state == "boxes_acting" and s.table.current_box is s.table.boxes[1]
    s.press(NEXT)  # box 2 stands
    s.deal("5d")  # soft 16: box 1's insurance was voided, none to collect
    assert s.state == "dealer_drawing"
    s.deal("2c")  # soft 18
    wagers = [(p.box, p.outcome, p.net, p.rule) for p in s.table.payouts if p.kind is Kind.WAGER]
    assert wagers == [(1, Outcome.VOID, 0, "9.6"), (2, Outcome.WIN, 6, "4.1")]
    assert insurance_payouts(s) == [(1, Outcome.VOID, "9.6", False)]
    settled = s.of(RoundSettled)[-1]
    assert not settled.void and settled.wagers_in == 4 + 6 + 2


def test_9_6_void_box_is_refused_for_a_box_not_in_play() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "9h", "8c")
    s.press(VOID_HAND)
    with pytest.raises(IllegalAction) as exc:
        s.supervisor("Pat", HoldDecision.VOID_BOX, 3)
    assert exc.value.rule == "9.6" and s.state == "hold"


# --- item 8: shuffle evidence --------------------------------------------------------------


def test_7_1_next_never_confirms_a_shuffle() -> None:
    s = ScriptedTable()
    out = s.press(NEXT)  # a stray NEXT with the 7.1(a) shuffle due
    assert [r.rule for r in s.of(ActionRefused, out)] == ["7.1(a)"]
    assert s.state == "round_over" and s.table.shuffle.due == "7.1(a)"
    assert not s.of(ShoeReport, out)
    assert "SHUFFLED" in snapshot(s.table).next_action


def test_7_1_the_shoes_reload_confirms_the_shuffle() -> None:
    s = ScriptedTable()

    def status(door_open: bool) -> list[object]:
        return list(
            s.send(
                ShoeStatusChanged(source="shoe", cut_card_seen=False, shoe_empty=False,
                                  door_open=door_open, gate_locked=True)
            )
        )  # fmt: skip

    status(True)
    assert s.table.shuffle.due == "7.1(a)"
    out = status(False)  # the door closed on a reloaded shoe
    assert ShuffleConfirmed("7.1(a)", "shoe", 1) in out
    assert s.table.shuffle.due is None and s.table.shuffle.burns_due == 1


# --- items 15 and 16: the dealer's money view ----------------------------------------------


def test_money_view_push_shows_push_and_pay_is_the_winnings_not_the_stake() -> None:
    s = start({"box1": 4, "box2": 4, "box3": 2})
    s.deal("Ts", "9s", "5s", "7d", "7c", "Tc", "Th")  # box1 17, box2 19, box3 15; dealer 7
    s.press(NEXT, NEXT, NEXT)
    s.deal("Kd")  # dealer 17
    boxes = {b.number: b for b in snapshot(s.table).boxes}
    assert (boxes[1].owed, boxes[1].collect, boxes[1].people[0].push) == (0, 0, True)
    assert (boxes[2].owed, boxes[2].people[0].pay, boxes[2].people[0].push) == (4, 4, False)
    assert (boxes[3].collect, boxes[3].people[0].take) == (2, 2)


def test_money_view_each_person_on_a_shared_box() -> None:
    s = start({"box1": 4, "box1.p2": 2})
    s.deal("Ts", "7d", "9c")  # box 1 19, dealer 7
    s.press(NEXT)
    s.deal("Kd")
    [box] = snapshot(s.table).boxes
    assert [(p.person, p.wager, p.pay) for p in box.people] == [("p1", 4, 4), ("p2", 2, 2)]


def test_10_1_money_view_marks_a_blackjack_paid_at_once_as_paid() -> None:
    s = start({"box1": 4, "box2": 4})
    s.deal("As", "9h", "7d", "Kc", "9c")
    s.press(NEXT)  # cards removed
    s.press(NEXT)  # box 2 stands
    s.deal("Td")  # dealer 17
    box1 = snapshot(s.table).boxes[0]
    assert (box1.people[0].paid_at_once, box1.people[0].paid_rule, box1.owed) == (6, "10.1", 0)


def test_9_5_money_view_marks_collected_insurance_as_collected() -> None:
    s = insured()
    s.deal("5d")
    s.clear("insurance2")
    box2 = snapshot(s.table).boxes[0]
    assert box2.people[0].insurance_state == "collected"
    s.clear("insurance5")
    s.deal("4c")  # dealer soft 20: round over
    assert s.state == "settlement"
    assert [b.people[0].insurance_state for b in snapshot(s.table).boxes] == ["collected"] * 2
    assert [b.collect for b in snapshot(s.table).boxes] == [4, 6]  # not the insurance again


def test_next_line_offers_split_only_on_a_pair() -> None:
    s = start({"box1": 4})
    s.deal("8s", "9h", "7c")
    assert snapshot(s.table).next_action == "Box 1: 15: draw, stand (NEXT) or double"
    p = start({"box1": 4})
    p.deal("8s", "9h", "8c")
    assert snapshot(p.table).next_action == "Box 1: 16: draw, stand (NEXT), double or split"
    p.press(SPLIT)
    assert snapshot(p.table).next_action == "Deal box 1's split hand its second card"


def test_hold_banner_says_who_raised_it_without_repeating_itself() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "9h", "8c")
    s.press(VOID_HAND)
    s.deal("2c", "3c")  # two cards while on hold: one line, both cards
    view = snapshot(s.table)
    assert view.hold_text == (
        "rule 9.6: the dealer asked to void a hand: a supervisor decides (the round, or one "
        "box) (raised by the VOID HAND button); hold procedure: a card while the table was on "
        "hold (raised by the shoe: 2c, 3c)"
    )
    assert "rule" not in view.next_action.split("(")[0]


def test_a_physical_buttons_refusal_reaches_the_display_without_box_0() -> None:
    game = BlackjackGame(Variants())
    out = game.handle(ButtonPressed(source="console", button=ConsoleButton.DOUBLE))
    [refused] = [o for o in out if isinstance(o, ActionRefused)]
    assert refused.action == "double button" and refused.rule == "4.1"
    assert "box 0" not in refused.reason and "no box is acting" in refused.reason


# --- wagers the layout can back -----------------------------------------------------------


def test_4_1_a_console_wager_on_a_spot_sensing_no_chips_is_refused() -> None:
    s = ScriptedTable(Variants(spot_sensors=True))
    s.open()
    with pytest.raises(IllegalAction) as exc:
        s.table.place_wager(5, 1, 100)
    assert exc.value.rule == "4.1" and "no chips sensed on box5" in exc.value.reason
    assert s.table.boxes[4].stakes == {}


def test_4_1_a_wager_changed_after_the_sensor_reported_it_needs_the_supervisor() -> None:
    s = ScriptedTable(Variants(spot_sensors=True))
    game = BlackjackGame(Variants())
    game.table = s.table
    s.open()
    s.occupy("box2")  # the spot's sensor: 2 chips
    assert s.table.boxes[1].stakes == {1: 2}
    with pytest.raises(IllegalAction) as exc:
        s.table.place_wager(2, 1, 100)
    assert "needs the supervisor" in exc.value.reason
    out = game.handle(
        SupervisorAction(source="supervisor", who="Pat", decision="change_wager",
                         args={"box": 2, "person": 1, "amount": 100})
    )  # fmt: skip
    assert WagerChanged(2, 1, 2, 100, "Pat") in out
    assert s.table.boxes[1].stakes == {1: 100}


def test_payout_records_balance() -> None:
    """Every record above balanced (returned + lost == stake): a sanity check of the
    even-money record written by hand in `even_money`."""
    assert Payout(1, 1, 1, Kind.WAGER, Outcome.EVEN_MONEY, 4, 4, 4, 0, "10.3(a)", True).net == 4
