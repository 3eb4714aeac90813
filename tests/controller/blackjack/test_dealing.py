"""The blackjack round's flow (controller/blackjack/dealing.py) at its edges: where a card
goes, the HOLD and its clearing, the records it journals, each named after the clause it
pins. Refusals and violations are checked word for word."""

from __future__ import annotations

import logging

import pytest

from controller.blackjack.records import (
    CardBurned,
    HoldCleared,
    HoldDecision,
    RemovalConfirmed,
    RoundSettled,
    ShuffleDue,
    Violation,
)
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.cards import Card
from controller.game.records import HOLD_PROCEDURE, TABLE_VARIANT, ActionRefused
from controller.ports import CardDrawn
from tests.support.blackjack import at, dealt
from tests.support.blackjack_script import (
    INSURANCE_CLOSED,
    NEXT,
    NO_MORE_BETS,
    VOID_HAND,
    ScriptedTable,
)
from tests.support.refusals import refusal

TWICE = "was already read since the shuffle: the same card out of the shoe twice"


def tagged(script: ScriptedTable, card: str, tag: str) -> list[object]:
    return script.send(CardDrawn(source="shoe", card=Card.parse(card), tag=tag))


# --- 3.3: the shoe audit reads the tag of every card, the burn card too ---------------------


def test_rule_3_3_the_burn_card_read_twice_by_its_tag_holds_without_a_hand() -> None:
    s = ScriptedTable(Variants(burn_cards=2))
    s.shuffled(burn=None)
    assert tagged(s, "9s", "T1")[0] == CardBurned("9s", 1)
    out = tagged(s, "9s", "T1")  # the same RFID tag again: one card out twice
    assert s.of(Violation, out) == [
        Violation(
            "3.3",
            f"9s (tag T1) {TWICE} (rule 3.3, shoe composition) (the burn card)",
            None,
            state="round_over",
            by="the shoe",
        )
    ]
    assert s.state == "hold"


def test_rule_3_3_a_dealt_card_read_again_by_its_tag_holds() -> None:
    s = ScriptedTable()
    s.shuffled(burn=None)
    tagged(s, "9s", "T1")  # the burn card, tag T1
    s.press(NEXT)
    s.table.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)
    tagged(s, "Kd", "T2")
    out = tagged(s, "Kd", "T2")
    assert [(v.rule, v.card, v.state) for v in out if isinstance(v, Violation)] == [
        ("3.3", "Kd", "initial_deal")
    ]
    s = ScriptedTable()
    s.shuffled(burn=None)
    tagged(s, "9s", "T1")
    s.press(NEXT)
    s.table.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)
    out = tagged(s, "9s", "T1")  # the burned card's tag, in the deal
    assert [(v.rule, v.card) for v in out if isinstance(v, Violation)] == [("3.3", "9s")]


# --- 4.1: the dealer's hand -------------------------------------------------------------------


def test_rule_4_1_the_dealer_draws_card_after_card_to_17() -> None:
    s = dealt({(1, 1): 4}, "Ts 5d 9c")
    s.press(NEXT)  # 19 stands
    s.deal("6h", "3c", "2d")  # dealer 5, 6, 3, 2: 16, still drawing
    assert s.state == "dealer_drawing"
    s.deal("2s")  # 18
    assert s.state == "settlement"
    settled = s.of(RoundSettled)
    assert len(settled) == 1 and settled[0].void is False
    assert settled[0].dealer == ("5d", "6h", "3c", "2d", "2s")


def test_rule_4_1_a_soft_21_ends_the_box_turn() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "As 9h 7d 5c 8d")
    s.deal("5h")  # box 1: A, 5, 5: soft... 21
    assert s.table.current_box is s.table.boxes[1]
    assert s.table.boxes[0].hands[0].total == 21


def test_rule_4_1_a_box_acts_only_in_its_turn_word_for_word() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "Ts 9h 7d 8c 8d")
    t = s.table
    assert refusal(lambda: t.stand(2)) == ("4.1", "box 2 is not acting: it is box 1's turn")
    t.double(1)
    assert refusal(lambda: t.stand(1)) == (
        TABLE_VARIANT,
        "box 1 doubled: it takes exactly one more card",
    )
    s.deal("2c")
    s.press(VOID_HAND)  # box 2 acting: the table holds
    assert refusal(lambda: t.stand(2)) == ("4.1", "box 2 is not acting: the round is in hold")
    s = dealt({(1, 1): 4}, "8s 7d 8h")
    s.table.split(1)
    assert refusal(lambda: s.table.stand(1)) == (
        "4.1",
        "box 1's hand is waiting for its second card",
    )
    s.deal("Tc")
    s.press(NEXT)
    s.deal("Td")
    s.press(NEXT)
    assert s.state == "dealer_second"
    assert refusal(lambda: s.table.stand(1)) == (
        "4.1",
        "box 1 is not acting: the round is in dealer_second",
    )


# --- 10.1: a blackjack paid at once, its cards removed ---------------------------------------


def paid_blackjack() -> ScriptedTable:
    """Box 1 a blackjack against a dealer 7 (paid 3 to 2 at once), box 2 acting on 17."""
    return dealt({(1, 1): 4, (2, 1): 4}, "As 9h 7d Kc 8d")


def test_rule_10_1_paid_at_once_and_its_cards_removed_before_any_card() -> None:
    s = paid_blackjack()
    t = s.table
    assert [p for p in t.payouts if p.box == 1] == [
        Payout(1, 1, 1, Kind.WAGER, Outcome.BLACKJACK, 4, 4, 6, 0, "10.1", True)
    ]
    assert refusal(lambda: t.stand(2)) == ("10.1", "remove the paid blackjack's cards first")
    out = s.deal("5c")
    assert s.of(Violation, out) == [
        Violation(
            "10.1",
            "a card before the paid blackjack's cards were removed",
            "5c",
            state="boxes_acting",
            by="the shoe",
        )
    ]


def test_rule_10_1_removal_confirmed_once() -> None:
    t = paid_blackjack().table
    assert t.confirm_removal() == RemovalConfirmed(1, "10.1")
    assert RemovalConfirmed(1, "10.1") in t.take_outputs()
    assert refusal(t.confirm_removal) == ("10.1", "no blackjack is waiting to be removed")


# --- 9.5: losing insurance collected ----------------------------------------------------------


def test_rule_9_5_losing_insurance_collected_is_journaled_as_lost() -> None:
    s = dealt({(1, 1): 4}, "9s Ad 8c", Variants(insurance_sensors=False))
    s.table.insure(1, 1, 2)
    s.press(NEXT)  # insurance closes
    s.press(NEXT)  # 17 stands
    s.deal("9h")  # dealer A, 9: no blackjack, insurance loses
    assert s.state == "insurance_settlement"
    s.press(INSURANCE_CLOSED)
    assert [p for p in s.table.payouts if p.kind is Kind.INSURANCE] == [
        Payout(1, 0, 1, Kind.INSURANCE, Outcome.LOSE, 2, 0, 0, 2, "9.5", True)
    ]


def test_rule_9_6_a_voided_box_s_insurance_no_longer_waits_to_be_collected() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "9s Ts Ad 8c 9d")
    s.occupy("insurance1", 2)
    s.occupy("insurance2", 2)
    s.press(NEXT)  # insurance closes
    s.press(NEXT, NEXT)  # 17, 19 stand
    s.deal("7h")  # dealer A, 7: soft 18 stands; both insurances lose
    assert s.state == "insurance_settlement"
    s.clear("insurance1")  # collected
    s.press(VOID_HAND)
    s.supervisor("Ana", HoldDecision.VOID_BOX, 2)
    assert s.state == "settlement"  # nothing left to collect: the dealer's hand settles


# --- 9.6 and the HOLD: the supervisor's decisions --------------------------------------------


def test_hold_procedure_supervisor_refusals_word_for_word() -> None:
    s = paid_blackjack()
    t = s.table
    assert refusal(lambda: t.supervisor_clear("Ana", HoldDecision.KEEP_CARD)) == (
        HOLD_PROCEDURE,
        "the table is not on hold",
    )
    s.press(VOID_HAND)
    assert refusal(lambda: t.supervisor_clear(" ", HoldDecision.KEEP_CARD)) == (
        HOLD_PROCEDURE,
        "a supervisor clearing a hold must be named",
    )
    assert refusal(lambda: t.supervisor_clear("Ana", HoldDecision.VOID_BOX)) == (
        "9.6",
        "say which box's hand to void",
    )


def test_rule_9_6_voiding_one_box_keeps_another_box_s_removal() -> None:
    s = paid_blackjack()
    t = s.table
    s.press(VOID_HAND)
    (violation,) = t.violations
    assert violation == Violation(
        "9.6",
        "the dealer asked to void a hand: a supervisor decides (the round, or one box)",
        None,
        state="boxes_acting",
        by="the VOID HAND button",
    )
    out = s.supervisor("Ana", HoldDecision.VOID_BOX, 2)
    assert s.of(HoldCleared, out) == [HoldCleared("Ana", HoldDecision.VOID_BOX, (violation,), 2)]
    assert t.boxes[1].void
    assert [(box.number, rule) for box, rule in t.removals] == [(1, "10.1")]


def test_rule_9_6_keeping_the_card_voids_no_box_even_if_one_is_named() -> None:
    s = paid_blackjack()
    s.table.confirm_removal()
    s.press(VOID_HAND)
    s.supervisor("Ana", HoldDecision.KEEP_CARD, 2)
    assert not s.table.boxes[1].void
    assert s.state == "boxes_acting"


def test_rule_9_6_one_box_voided_only_during_play_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    s.table.verify_void_box(1)  # during play: allowed
    assert refusal(lambda: s.table.verify_void_box(4)) == (
        "9.6",
        "box 4 has no hand in play to void",
    )
    s.press(NEXT)
    s.deal("Th")
    assert s.state == "settlement"
    assert refusal(lambda: s.table.verify_void_box(1)) == (
        "9.6",
        "one box's hand can be voided only during play, not in settlement",
    )


def test_rule_4_1_a_card_after_settlement_set_aside_leaves_the_round_settled() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    s.press(NEXT)
    s.deal("Th")
    payouts = list(s.table.payouts)
    out = s.deal("4c")
    assert [(v.rule, v.state) for v in out if isinstance(v, Violation)] == [("4.1", "settlement")]
    s.supervisor("Ana", HoldDecision.VOID_HAND)
    assert s.state == "settlement"
    assert s.table.payouts == payouts  # the settled round is not voided afterwards
    assert len(s.of(RoundSettled)) == 1


def test_hold_procedure_a_kept_card_that_breaks_a_rule_again_holds_the_next_one() -> None:
    s = paid_blackjack()  # box 1's cards still to be removed
    s.press(VOID_HAND)
    s.deal("5c", "6c", "2c")  # three cards out under the HOLD
    s.supervisor("Ana", HoldDecision.KEEP_CARD)
    # the first kept card came before the removal (10.1): the table holds again, and the
    # others wait with it, in no hand
    assert s.state == "hold"
    assert [(v.rule, v.card) for v in s.table.violations] == [("10.1", "5c")]
    assert [str(c) for c in s.table.boxes[1].hands[0].cards] == ["9h", "8d"]
    s.supervisor("Ana", HoldDecision.KEEP_CARD)  # both stand: the removal is taken as done
    assert [str(c) for c in s.table.boxes[1].hands[0].cards] == ["9h", "8d", "5c"]  # bust
    assert [str(c) for c in s.table.dealer.cards] == ["7d", "6c", "2c"]  # the others, in order
    assert s.table.removals == ()


def test_rule_7_1_a_kept_card_is_still_the_round_s_first_card() -> None:
    s = ScriptedTable()
    s.open()
    s.table.place_wager(1, 1, 4)
    s.deal("9s")  # before NO MORE BETS (4.2): HOLD
    s.supervisor("Ana", HoldDecision.KEEP_CARD)  # bets close, the card is box 1's first
    assert s.state == "initial_deal"
    out = s.cut_card()  # the cutting card after the round's first card: 7.1(c), not (b)
    assert not s.of(ShuffleDue, out)
    s.deal("7d", "Tc")
    tagged(s, "Kd", "T7")  # after a kept card, the shoe audit reads the tags again
    out = tagged(s, "Kd", "T7")
    assert [(v.rule, v.card) for v in out if isinstance(v, Violation)] == [("3.3", "Kd")]


def test_rule_7_1_a_shuffle_due_is_confirmed_before_betting_opens() -> None:
    s = ScriptedTable()
    out = s.press(NEXT)
    assert s.of(ActionRefused, out) == [
        ActionRefused(
            "next button",
            "7.1(a)",
            "a shuffle is due under 7.1(a): shuffle the shoe and confirm SHUFFLED (or reload "
            "the shoe) before betting opens",
        )
    ]


def test_hold_procedure_the_log_names_rule_message_and_card(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = ScriptedTable()
    s.open()
    with caplog.at_level(logging.WARNING, logger="controller.game.hold"):
        s.deal("9s")
    assert caplog.messages == [
        "HOLD: rule 4.2: a card before NO MORE BETS: wagers were still open (card 9s)"
    ]


def test_rule_9_2_a_card_kept_while_insurance_was_open_closes_insurance() -> None:
    s = dealt({(1, 1): 4}, "9s Ad 8c")
    out = s.deal("2h")  # before insurance closed (9.2): HOLD
    assert [(v.rule, v.state) for v in out if isinstance(v, Violation)] == [("9.2", "insurance")]
    s.supervisor("Ana", HoldDecision.KEEP_CARD)  # it stands: insurance is taken as closed
    assert s.state == "boxes_acting"
    assert [str(c) for c in s.table.boxes[0].hands[0].cards] == ["9s", "8c", "2h"]


def test_hold_procedure_a_kept_card_with_no_hand_is_logged_with_the_decision(
    caplog: pytest.LogCaptureFixture,
) -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    s.press(NEXT)
    s.deal("Th")  # dealer 17: settlement
    s.deal("4c")  # a card after the dealer's hand was complete (4.1): HOLD
    with caplog.at_level(logging.INFO, logger="controller.blackjack.dealing"):
        s.supervisor("Ana", HoldDecision.KEEP_CARD)
    assert "kept card 4c belongs to no hand (decision keep_card)" in caplog.messages
    assert s.state == "settlement"


@pytest.mark.parametrize(
    "state",
    ["insurance", "boxes_acting", "dealer_second", "insurance_settlement", "dealer_drawing"],
)
def test_rule_9_6_one_box_s_hand_may_be_voided_in_every_state_of_play(state: str) -> None:
    s = at(state)
    s.table.verify_void_box(1)
    s.press(VOID_HAND)  # and while the table holds from that state
    s.table.verify_void_box(1)


@pytest.mark.parametrize("state", ["no_more_bets", "initial_deal"])
def test_rule_9_6_no_box_s_hand_is_voided_before_the_deal_is_done(state: str) -> None:
    s = at(state)
    assert refusal(lambda: s.table.verify_void_box(1)) == (
        "9.6",
        f"one box's hand can be voided only during play, not in {state}",
    )
