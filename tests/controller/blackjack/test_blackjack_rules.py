"""One test per rule clause the machine enforces, played as the dealer deals the round.

Deal order (docs/blackjack.md): one card to each wagered box left to right, the dealer's first
card, then each box's second card; the dealer's second card after every box has acted.
"""

from __future__ import annotations

import json

import pytest

from controller.blackjack.display import snapshot
from controller.blackjack.records import (
    ActionRefused,
    EvenMoneyElected,
    HoldDecision,
    RoundSettled,
    ShuffleDue,
    Violation,
)
from controller.blackjack.rules import DealerBlackjackTakes, DoubleOn, Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.blackjack.table import BlackjackTable
from controller.errors import ConfigError, IllegalAction
from controller.game.records import TABLE_VARIANT
from controller.ports import Lamp, LampPattern, LockShoe, SetLamp, UnlockShoe
from tests.support.blackjack_script import (
    DOUBLE,
    EVEN_MONEY,
    INSURANCE_CLOSED,
    NEXT,
    NO_MORE_BETS,
    SPLIT,
    VOID_HAND,
    ScriptedTable,
    start,
)


def wager_payouts(script: ScriptedTable) -> list[tuple[int, int, int, Outcome, int]]:
    return [
        (p.box, p.hand, p.person, p.outcome, p.net)
        for p in script.table.payouts
        if p.kind is Kind.WAGER
    ]


def insurance_payouts(script: ScriptedTable) -> list[tuple[int, int, Outcome, int]]:
    return [
        (p.box, p.person, p.outcome, p.net)
        for p in script.table.payouts
        if p.kind is Kind.INSURANCE
    ]


# --- 4.1 / 4.2 ----------------------------------------------------------------------------


def test_4_1_round_settles_and_balances() -> None:
    s = start({"box1": 4, "box3": 6})
    s.deal("Ts", "9h", "7d", "8c", "Qh")  # box1 18, box3 19, dealer 7
    s.press(NEXT, NEXT)  # both stand
    s.deal("Kd")  # dealer 17: stands
    assert s.state == "settlement"
    assert wager_payouts(s) == [(1, 1, 1, Outcome.WIN, 4), (3, 1, 1, Outcome.WIN, 6)]
    settled = s.of(RoundSettled)[-1]
    assert (settled.wagers_in, settled.paid_out, settled.house_result) == (10, 20, -10)


def test_4_2_card_before_no_more_bets_holds_the_table() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box1", 4)
    out = s.deal("9s")
    assert s.state == "hold"
    assert [v.rule for v in s.of(Violation, out)] == ["4.2"]
    assert LockShoe() in s.log


def test_4_2_no_wager_made_after_the_first_card() -> None:
    s = start({"box1": 4})
    s.deal("9s")
    with pytest.raises(IllegalAction) as exc:
        s.table.place_wager(2, 1, 4)
    assert exc.value.rule == "4.2"
    s.occupy("box2", 4)  # chips placed on the layout all the same
    assert s.state == "hold" and s.of(Violation)[-1].rule == "4.2"


def test_4_2_no_wager_altered_after_the_first_card() -> None:
    s = start({"box1": 4})
    s.deal("9s")
    s.occupy("box1", 8)
    assert s.state == "hold" and s.of(Violation)[-1].rule == "4.2"


def test_4_1_card_after_dealer_hand_complete_holds() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "9h", "8c")
    s.press(NEXT)
    s.deal("Kd")  # dealer 19, complete
    s.deal("5h")
    assert s.state == "hold" and s.of(Violation)[-1].rule == "4.1"


# --- insurance 9.2-9.6 ----------------------------------------------------------------


def insured_round(**variant: object) -> ScriptedTable:
    """Box 2 and box 5, dealer ace; box 2 insures 2 of its 4 chips."""
    s = start({"box2": 4, "box5": 6}, Variants(**variant))  # type: ignore[arg-type]
    s.deal("Ts", "9h", "As", "8c", "Qh")  # box2 18, box5 19, dealer ace
    assert s.state == "insurance"
    s.occupy("insurance2", 2)
    s.occupy("insurance5", 3)
    s.press(NEXT)  # insurance closes
    s.press(NEXT, NEXT)  # both stand
    assert s.state == "dealer_second"
    return s


def test_9_2_insurance_only_on_a_dealer_ace() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "9h", "8c")
    assert s.state == "boxes_acting"
    with pytest.raises(IllegalAction) as exc:
        s.table.insure(1, 1, 2)
    assert exc.value.rule == "9.2"


def test_9_2_card_while_insurance_open_holds() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "As", "8c")
    assert s.state == "insurance"
    s.deal("5d")
    assert s.state == "hold" and s.of(Violation)[-1].rule == "9.2"


def test_9_2_insurance_after_further_cards_is_a_violation() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "As", "8c")
    s.press(NEXT)
    s.occupy("insurance1", 2)
    assert s.state == "hold" and s.of(Violation)[-1].rule == "9.2"


def test_9_3a_insurance_at_most_half_the_initial_wager() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "As", "8c")
    out = s.occupy("insurance1", 3)
    assert [r.rule for r in s.of(ActionRefused, out)] == ["9.3(a)"]
    assert not s.table.can_insure(1, 1, 3) and s.table.can_insure(1, 1, 2)


def test_9_3b_insurance_payable_in_chips() -> None:
    s = start({"box1": 12}, Variants(smallest_chip=2))  # 3 to 2 of 12 is 18: whole chips
    s.deal("Ts", "As", "8c")
    with pytest.raises(IllegalAction) as exc:
        s.table.insure(1, 1, 3)
    assert exc.value.rule == "9.3(b)"


def test_9_4_winning_insurance_paid_2_to_1() -> None:
    s = insured_round()
    s.deal("Kd")  # dealer blackjack
    assert s.state == "settlement"
    assert insurance_payouts(s) == [(2, 1, Outcome.WIN, 4), (5, 1, Outcome.WIN, 6)]
    assert wager_payouts(s) == [(2, 1, 1, Outcome.LOSE, -4), (5, 1, 1, Outcome.LOSE, -6)]


def test_9_5_losing_insurance_collected_before_next_card() -> None:
    s = insured_round()
    s.deal("5d")  # dealer soft 16: must draw, but insurance is still on the layout
    assert s.state == "insurance_settlement"
    assert snapshot(s.table).next_action == "Collect losing insurance: boxes 2, 5 (rule 9.5)"
    assert s.log[-1] != UnlockShoe()
    s.clear("insurance2")
    assert snapshot(s.table).next_action == "Collect losing insurance: boxes 5 (rule 9.5)"
    s.deal("4c")  # too early: box 5's insurance is still there
    assert s.state == "hold" and s.of(Violation)[-1].rule == "9.5"


def test_9_5_insurance_collected_when_every_spot_reads_clear() -> None:
    s = insured_round()
    s.deal("5d")
    out = s.clear("insurance2", "insurance5")
    assert s.state == "dealer_drawing" and UnlockShoe() in out
    assert insurance_payouts(s) == [(2, 1, Outcome.LOSE, -2), (5, 1, Outcome.LOSE, -3)]
    s.deal("4c")  # dealer 20
    assert s.state == "settlement"


def test_9_5_without_sensors_dealer_confirms_with_insurance_closed() -> None:
    s = insured_round(insurance_sensors=False)
    s.deal("5d")
    assert s.state == "insurance_settlement"
    s.press(INSURANCE_CLOSED)
    assert s.state == "dealer_drawing"


def test_9_6_voided_hand_voids_its_insurance() -> None:
    s = insured_round()
    s.deal("5d")
    s.clear("insurance2", "insurance5")  # losing insurance collected (9.5)...
    s.press(VOID_HAND)  # ...then the hand is voided
    assert s.state == "hold"
    s.supervisor("Pat Supervisor", HoldDecision.VOID_HAND)
    assert s.state == "settlement"
    assert sorted(insurance_payouts(s)) == [(2, 1, Outcome.VOID, 0), (5, 1, Outcome.VOID, 0)]
    assert {o for (_, _, _, o, _) in wager_payouts(s)} == {Outcome.VOID}
    assert s.table.settled is not None and s.table.settled.void
    assert s.table.settled.wagers_in == 4 + 6 + 2 + 3


# --- payment of blackjack 10.1-10.3 ---------------------------------------------------


def test_10_1_blackjack_paid_3_to_2_at_once_and_removed_before_next_card() -> None:
    s = start({"box1": 4, "box2": 4})
    out = s.deal("As", "9h", "7d", "Kc", "9c")  # box1 blackjack, dealer 7
    assert s.state == "boxes_acting" and s.table.awaiting_removal
    paid = [p for p in s.of(Payout, out) if p.at_once]
    assert [(p.box, p.outcome, p.won) for p in paid] == [(1, Outcome.BLACKJACK, 6)]
    assert s.log[-1] != UnlockShoe()
    s.deal("2h")  # box2's card, but box 1's cards are still on the layout
    assert s.state == "hold" and s.of(Violation)[-1].rule == "10.1"


def test_10_1_removal_confirmed_then_play_goes_on() -> None:
    s = start({"box1": 4, "box2": 4})
    s.deal("As", "9h", "7d", "Kc", "9c")
    out = s.press(NEXT)  # cards in the discard rack
    assert UnlockShoe() in out and s.table.current_box is not None
    assert s.table.current_box.number == 2


def test_10_1_discard_rack_reader_confirms_removal() -> None:
    s = start({"box1": 4}, Variants(discard_rack_reader=True))
    s.deal("As", "7d", "Kc")
    s.press(NEXT)  # the console cannot confirm on a table with a reader
    assert s.table.awaiting_removal
    s.occupy("discard")
    assert not s.table.awaiting_removal and s.state == "dealer_second"


def test_10_2_blackjack_held_against_a_ten_until_dealer_complete() -> None:
    s = start({"box1": 4})
    s.deal("As", "Td", "Kc")
    assert not s.of(Payout) and not s.table.awaiting_removal
    assert s.state == "dealer_second"
    s.deal("7h")
    assert wager_payouts(s) == [(1, 1, 1, Outcome.BLACKJACK, 6)]


def test_10_2_blackjack_against_dealer_blackjack_pushes() -> None:
    s = start({"box1": 4})
    s.deal("As", "Td", "Kc", "Ah")
    assert wager_payouts(s) == [(1, 1, 1, Outcome.PUSH, 0)]


def test_10_3a_even_money_paid_at_once() -> None:
    s = start({"box1": 4})
    s.deal("As", "Ad", "Kc")
    out = s.press(EVEN_MONEY)
    assert [(p.outcome, p.won, p.at_once) for p in s.of(Payout, out)] == [
        (Outcome.EVEN_MONEY, 4, True)
    ]
    s.deal("9s")  # before removal: violation of 10.3(b)
    assert s.state == "hold" and s.of(Violation)[-1].rule == "10.3(b)"


def test_10_3a_on_a_shared_box_the_person_who_asks_is_paid_1_to_1_at_once() -> None:
    s = start({"box1": 4, "box1.p2": 2})
    s.deal("As", "Ad", "Kc")
    out = s.press(EVEN_MONEY)
    assert s.of(EvenMoneyElected, out) == [EvenMoneyElected(1, 1, True, False)]
    assert [(p.person, p.outcome, p.won, p.rule, p.at_once) for p in s.of(Payout, out)] == [
        (1, Outcome.EVEN_MONEY, 4, "10.3(a)", True)
    ]
    assert not s.table.awaiting_removal  # 10.3(b): person 2 did not elect: cards stay
    s.press(NEXT)  # insurance closes: person 2's wager waits for the dealer's hand (10.2)
    assert s.state == "dealer_second"
    s.deal("9s")
    assert wager_payouts(s) == [
        (1, 1, 1, Outcome.EVEN_MONEY, 4),
        (1, 1, 2, Outcome.BLACKJACK, 3),
    ]
    assert s.table.settled is not None and s.table.settled.wagers_in == 6


def test_10_3b_cards_stay_when_not_all_on_a_shared_box_elect() -> None:
    s = start({"box1": 4, "box1.p2": 2, "box2": 4})
    s.deal("As", "Td", "Ad", "Kc", "9h")  # box 1 blackjack, box 2 19, dealer ace
    s.table.even_money(1, 2)  # the person behind asks; the box holder does not
    s.press(NEXT)  # insurance closes; box 2 acts: no removal waits
    assert not s.table.awaiting_removal and s.table.current_box is s.table.boxes[1]
    s.press(NEXT)  # box 2 stands
    s.deal("Kh")  # dealer blackjack: person 1 pushes (4.1), person 2 was paid already
    assert wager_payouts(s) == [
        (1, 1, 2, Outcome.EVEN_MONEY, 2),
        (1, 1, 1, Outcome.PUSH, 0),
        (2, 1, 1, Outcome.LOSE, -4),
    ]


def test_10_3b_even_money_paid_when_all_elect() -> None:
    s = start({"box1": 4, "box1.p2": 2})
    s.deal("As", "Ad", "Kc")
    out = s.press(EVEN_MONEY, EVEN_MONEY)
    assert [(p.person, p.won) for p in s.of(Payout, out)] == [(1, 4), (2, 2)]
    assert s.of(EvenMoneyElected, out)[-1] == EvenMoneyElected(1, 2, True, True)
    assert s.table.awaiting_removal  # everyone elected: the cards go (10.3b)
    s.deal("9s")
    assert s.state == "hold" and s.of(Violation)[-1].rule == "10.3(b)"


# --- doubles, splits, drawing (variants) ----------------------------------------------


def test_double_one_card_only_and_doubled_stake() -> None:
    s = start({"box1": 4})
    s.deal("6s", "9h", "5c")
    s.press(DOUBLE)
    s.deal("2d")  # 13 doubled: the hand is done
    assert s.state == "dealer_second"
    s.deal("6d", "Kc")  # dealer 15, then busts
    assert wager_payouts(s) == [(1, 1, 1, Outcome.WIN, 8)]


def test_double_not_on_a_hand_with_an_ace_by_default() -> None:
    s = start({"box1": 4})
    s.deal("As", "9h", "6c")
    out = s.press(DOUBLE)
    assert [r.rule for r in s.of(ActionRefused, out)] == [TABLE_VARIANT]
    assert not s.table.can_double(1)
    assert start({"box1": 4}, Variants(double_on=DoubleOn.ANY_TWO)).table is not None


def test_double_nine_to_eleven_variant() -> None:
    s = start({"box1": 4}, Variants(double_on=DoubleOn.NINE_TO_ELEVEN))
    s.deal("6s", "9h", "6c")
    assert not s.table.can_double(1)


def test_split_aces_one_card_each_and_21_is_not_blackjack() -> None:
    s = start({"box1": 4})
    s.deal("As", "9h", "Ac")
    s.press(SPLIT)
    s.deal("Kd")  # first ace: 21, one card only
    s.deal("5h")  # second ace: soft 16, one card only
    assert s.state == "dealer_second"
    s.deal("Tc")  # dealer 19
    assert wager_payouts(s) == [(1, 1, 1, Outcome.WIN, 4), (1, 2, 1, Outcome.LOSE, -4)]
    assert s.table.settled is not None and s.table.settled.wagers_in == 8


def test_split_at_most_three_hands() -> None:
    s = start({"box1": 4})
    s.deal("8s", "9h", "8c")
    s.press(SPLIT)
    s.deal("8d")
    s.press(SPLIT)
    s.deal("8h")
    assert not s.table.can_split(1)
    with pytest.raises(IllegalAction) as exc:
        s.table.verify_split(1)
    assert exc.value.rule == TABLE_VARIANT


def test_must_draw_to_11_or_less() -> None:
    s = start({"box1": 4})
    s.deal("5s", "9h", "6c")
    out = s.press(NEXT)
    assert [r.rule for r in s.of(ActionRefused, out)] == [TABLE_VARIANT]
    assert s.state == "boxes_acting"


def test_dealer_stands_on_soft_17_by_default() -> None:
    s = start({"box1": 4})
    s.deal("Ts", "6h", "9c")
    s.press(NEXT)
    s.deal("As")  # soft 17
    assert s.state == "settlement"


def test_dealer_hits_soft_17_variant() -> None:
    s = start({"box1": 4}, Variants(dealer_hits_soft_17=True))
    s.deal("Ts", "6h", "9c")
    s.press(NEXT)
    s.deal("As")
    assert s.state == "dealer_drawing"


@pytest.mark.parametrize(
    ("takes", "expected"),
    [
        (DealerBlackjackTakes.ORIGINAL_ONLY, [(Outcome.RETURNED, -4)]),
        (DealerBlackjackTakes.EVERYTHING, [(Outcome.LOSE, -8)]),
    ],
)
def test_doubled_hand_against_dealer_blackjack_per_variant(
    takes: DealerBlackjackTakes, expected: list[tuple[Outcome, int]]
) -> None:
    s = start({"box1": 4}, Variants(dealer_blackjack_takes=takes))
    s.deal("6s", "Th", "5c")
    s.press(DOUBLE)
    s.deal("9d", "Ac")
    assert [(o, n) for (_, _, _, o, n) in wager_payouts(s)] == expected


# --- holds and the supervisor -------------------------------------------------------


def test_hold_cleared_only_by_a_named_supervisor_keep_card() -> None:
    s = insured_round()
    s.deal("5d")
    s.deal("4c")  # 9.5 violation: insurance still on the layout
    s.press(NEXT)
    assert s.state == "hold"
    with pytest.raises(IllegalAction):
        s.table.supervisor_clear(" ", HoldDecision.KEEP_CARD)
    s.supervisor("Pat", HoldDecision.KEEP_CARD)  # the card stands as the dealer's third
    assert s.state == "settlement"
    assert [str(c) for c in s.table.dealer.cards] == ["As", "5d", "4c"]


def test_card_before_no_more_bets_kept_starts_the_deal() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box1", 4)
    s.deal("9s")
    s.supervisor("Pat", HoldDecision.KEEP_CARD)
    assert s.state == "initial_deal"
    assert [str(c) for c in s.table.boxes[0].hands[0].cards] == ["9s"]


# --- shuffle (7.1), config, display ---------------------------------------------------


def test_7_1_shuffle_at_start_and_after_cutting_card() -> None:
    s = ScriptedTable()
    assert s.table.shuffle.due == "7.1(a)"
    s.open()
    assert s.table.shuffle.due is None
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    s.deal("Ts")
    s.cut_card()  # mid-round: shuffle at the end of this round (7.1c)
    s.deal("9h", "8c")
    s.press(NEXT)
    s.deal("Kd")
    out = s.press(NEXT)
    assert s.of(ShuffleDue, out) == [ShuffleDue("7.1(c)")]


def test_7_1b_cutting_card_as_first_card_of_a_round() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    out = s.cut_card()
    assert s.of(ShuffleDue, out) == [ShuffleDue("7.1(b)")]


def test_variants_are_checked() -> None:
    with pytest.raises(ConfigError):
        Variants(decks=3)


def test_display_model_is_json_and_shows_soft_totals() -> None:
    s = start({"box1": 4, "box1.p2": 2})
    s.deal("As", "9h", "6c")
    view = snapshot(s.table)
    text = json.dumps(view.as_dict())
    assert '"soft 17"' in text
    assert view.boxes[0].wagers == {"p1": 4, "p2": 2}
    assert view.next_action.startswith("Box 1: soft 17")
    assert view.buttons["double"] is False


def test_no_more_bets_needs_a_wager() -> None:
    s = ScriptedTable()
    s.open()
    out = s.press(NO_MORE_BETS)
    assert [r.rule for r in s.of(ActionRefused, out)] == ["4.1"]
    assert isinstance(s.table, BlackjackTable) and s.state == "betting"


def test_double_once_then_exactly_one_card() -> None:
    s = start({"box1": 4})
    s.deal("6s", "9h", "5c")
    s.press(DOUBLE)
    out = s.press(DOUBLE, SPLIT, NEXT)  # no second double, no split, no standing
    assert [r.rule for r in s.of(ActionRefused, out)] == [TABLE_VARIANT] * 3
    assert s.table.wagers_in == 8


def test_9_5_with_sensors_the_console_cannot_declare_insurance_collected() -> None:
    s = insured_round()
    s.deal("5d")
    out = s.press(INSURANCE_CLOSED)
    assert [r.rule for r in s.of(ActionRefused, out)] == ["9.5"]
    assert s.state == "insurance_settlement"


def test_10_1_every_blackjack_paid_before_any_box_draws() -> None:
    s = start({"box1": 4, "box2": 4})
    s.deal("Ts", "As", "7d", "5c", "Kh")  # box1 15, box2 blackjack, dealer 7
    assert s.table.current_box is not None and s.table.current_box.number == 1
    assert s.table.awaiting_removal  # box 2 is paid before box 1 draws
    assert snapshot(s.table).next_action.startswith("Pay box 2: 6 won at once (rule 10.1)")
    s.deal("3h")  # box 1's card while box 2's blackjack is still on the layout
    assert s.state == "hold" and s.of(Violation)[-1].rule == "10.1"


def test_4_2_busted_box_may_be_collected_but_a_live_one_not_withdrawn() -> None:
    s = start({"box1": 4, "box2": 4})
    s.deal("Ts", "9s", "7d", "6c", "8h")  # box1 16, box2 17
    s.deal("Kd")  # box 1 busts
    s.clear("box1")  # the dealer collects the busted wager at once
    assert s.state == "boxes_acting"
    s.clear("box2")  # box 2 is still in play: withdrawn
    assert s.state == "hold" and s.of(Violation)[-1].rule == "4.2"


def test_card_before_no_more_bets_voided_is_set_aside() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box1", 4)
    s.deal("9s")
    s.supervisor("Pat", HoldDecision.VOID_HAND)
    assert s.state == "betting" and not s.table.boxes[0].hands


def test_9_5_every_persons_losing_insurance_must_be_collected() -> None:
    for _ in range(2):  # twice: nothing of the first round's collection carries over
        s = start({"box2": 4, "box2.p2": 4})
        s.deal("Ts", "As", "8c")
        s.occupy("insurance2", 2)
        s.occupy("insurance2.p2", 2)
        s.press(NEXT, NEXT)
        s.deal("5d")
        s.clear("insurance2")
        assert s.state == "insurance_settlement"
        s.clear("insurance2.p2")
        assert s.state == "dealer_drawing"


def test_7_1_cutting_card_reported_as_a_level_counts_once() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    s.deal("Ts")
    first = s.cut_card()
    again = s.cut_card()  # the shoe repeats its status; the card came out once
    assert s.of(ShuffleDue, first + again) == []
    s.deal("9h", "8c")
    s.press(NEXT)
    s.deal("Kd")
    assert s.of(ShuffleDue, s.press(NEXT)) == [ShuffleDue("7.1(c)")]
    s.shuffled()
    s.press(NEXT)  # shuffled, a card burned; betting opens
    assert s.table.shuffle.due is None
    s.occupy("box1", 4)
    s.press(NO_MORE_BETS)
    assert s.of(ShuffleDue, s.cut_card()) == []  # still the old status: not a new card
    s.cut_card(seen=False)  # the cutting card is back in the shoe
    assert s.of(ShuffleDue, s.cut_card()) == [ShuffleDue("7.1(b)")]  # the next shoe's


@pytest.mark.parametrize(
    ("takes", "expected"),
    [
        (DealerBlackjackTakes.ORIGINAL_ONLY, [(Outcome.LOSE, -4), (Outcome.RETURNED, 0)]),
        (DealerBlackjackTakes.EVERYTHING, [(Outcome.LOSE, -4), (Outcome.LOSE, -4)]),
        (DealerBlackjackTakes.BUSTED_PLUS_ONE, [(Outcome.LOSE, -4), (Outcome.LOSE, -4)]),
    ],
)
def test_split_hands_one_bust_against_dealer_blackjack_per_variant(
    takes: DealerBlackjackTakes, expected: list[tuple[Outcome, int]]
) -> None:
    s = start({"box1": 4}, Variants(dealer_blackjack_takes=takes))
    s.deal("8s", "Td", "8c")
    s.press(SPLIT)
    s.deal("5h", "Kc")  # first hand 8-5-K: bust
    s.deal("Qh")  # second hand 18
    s.press(NEXT)
    s.deal("As")  # dealer blackjack
    assert [(o, n) for (_, _, _, o, n) in wager_payouts(s)] == expected
    assert s.table.settled is not None and s.table.settled.wagers_in == 8


def test_4_1_box_holder_first_and_last() -> None:
    s = ScriptedTable()
    s.open()
    assert not s.table.can_place_wager(2, 2, 4)  # nobody to bet behind
    s.table.place_wager(2, 1, 4)
    s.table.place_wager(2, 2, 4)
    with pytest.raises(IllegalAction):
        s.table.place_wager(2, 1, 0)  # the holder cannot leave the others behind
    with pytest.raises(IllegalAction):
        s.table.place_wager(2, 4, 4)  # at most three people on a box


def test_display_shows_what_each_box_is_owed_and_the_hold() -> None:
    s = start({"box1": 4, "box2": 6})
    s.deal("Ts", "5s", "7d", "9c", "Qh")  # box1 19, box2 15, dealer 7
    s.press(NEXT, NEXT)
    s.deal("Kd")  # dealer 17
    view = snapshot(s.table)
    assert [(b.number, b.owed, b.collect) for b in view.boxes] == [(1, 4, 0), (2, 0, 6)]
    assert view.next_action == "Pay and collect as shown (rule 4.1), then press NEXT"
    s.deal("2c")  # a card after the dealer's hand is complete
    view = snapshot(s.table)
    assert view.state == "hold" and view.hold[-1]["rule"] == "4.1"
    assert view.hold_text.startswith("rule 4.1: a card after the dealer's hand was complete")
    assert view.next_action.startswith("A supervisor must clear the HOLD")
    assert SetLamp(Lamp.HOLD, LampPattern.FLASH) in s.log and view.gate_locked


def test_wagers_from_spot_sensors_or_chip_readers() -> None:
    s = ScriptedTable()
    s.open()
    s.occupy("box4")  # no chip readers: an occupied spot is units_per_spot chips
    assert s.table.boxes[3].stakes == {1: 2}
    r = ScriptedTable(Variants(chip_readers=True))
    r.open()
    r.occupy("box4")  # the reader's amount follows
    assert r.table.boxes[3].stakes == {}
    r.occupy("box4", 26)
    assert r.table.boxes[3].stakes == {1: 26}
