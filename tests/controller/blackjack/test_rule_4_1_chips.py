"""Settlement checked by the chips (rule 4.1): after the result every spot is
compared with what it is owed; a mismatch is shown on the box at once, and NEXT is refused
citing 4.1 until the spot reads right or a supervisor accepts the difference."""

from __future__ import annotations

import pytest

from controller.blackjack.display import snapshot
from controller.blackjack.game import BlackjackGame
from controller.blackjack.records import ActionRefused, HoldDecision
from controller.blackjack.rules import Variants
from controller.errors import IllegalAction
from controller.game.chips import (
    MismatchAccepted,
    MismatchCorrected,
    MismatchKind,
    PayoutMismatch,
    WinningsPaid,
    money,
)
from controller.ports import ButtonPressed, ConsoleButton, SupervisorAction
from tests.support.blackjack_script import DOUBLE, NEXT, NO_MORE_BETS, ScriptedTable

READERS = Variants(chip_readers=True, settlement_check=True)

# box1 18 wins against the dealer's 17, box2 20 wins, box3 17 pushes, box4 15 loses
CARDS = ("9s", "Ts", "7s", "5d", "7h", "9d", "Td", "Tc", "Th")


def settled(
    variants: Variants = READERS, wagers: dict[str, int | None] | None = None
) -> ScriptedTable:
    """Four boxes of 20 played to the result: box1 and box2 win 20, box3 pushes, box4 loses."""
    s = ScriptedTable(variants)
    s.open()
    for spot, total in (wagers or {f"box{n}": 20 for n in range(1, 5)}).items():
        s.occupy(spot, total)
    s.press(NO_MORE_BETS)
    s.deal(*CARDS)
    s.press(NEXT, NEXT, NEXT, NEXT)  # every box stands
    s.deal("Kc")  # the dealer's 17 stands
    assert s.state == "settlement"
    return s


def pay_right(s: ScriptedTable, *skip: str) -> None:
    for spot, total in (("box1", 40), ("box2", 40), ("box4", 0)):
        if spot not in skip:
            s.occupy(spot, total)


def box_mismatch(s: ScriptedTable, number: int) -> str:
    """What the status page shows on the box."""
    return next(b for b in snapshot(s.table).boxes if b.number == number).mismatch


def test_rule_4_1_paid_right_next_ends_the_round() -> None:
    s = settled()
    pay_right(s)
    out = s.press(NEXT)
    assert s.state == "round_over"
    assert not s.of(PayoutMismatch) and not s.of(ActionRefused, out)


def test_rule_4_1_overpay_shown_at_once_and_next_refused() -> None:
    s = settled()
    out = s.occupy("box1", 45)  # 25 paid on a 20 win
    [mismatch] = s.of(PayoutMismatch, out)
    assert (mismatch.box, mismatch.kind, mismatch.owed, mismatch.paid) == (1, "over", 20, 25)
    assert mismatch.text == "Box 1: paid $25, owed $20: $5 over (rule 4.1)"
    assert box_mismatch(s, 1) == mismatch.text
    pay_right(s, "box1")
    out = s.press(NEXT)
    [refused] = s.of(ActionRefused, out)
    assert refused.rule == "4.1" and "Box 1: paid $25, owed $20: $5 over" in refused.reason
    assert s.state == "settlement"
    view = snapshot(s.table)
    assert view.buttons["next"] is False and "PAYOUT MISMATCH" in view.next_action


def test_rule_4_1_underpay_then_corrected_by_the_dealer() -> None:
    s = settled()
    [under] = s.of(PayoutMismatch, s.occupy("box2", 35))
    assert (under.kind, under.owed, under.paid) == (MismatchKind.UNDER, 20, 15)
    assert under.text == "Box 2: paid $15, owed $20: $5 under (rule 4.1)"
    pay_right(s, "box2")
    s.press(NEXT)
    assert s.state == "settlement"  # refused while box 2 is short
    [fixed] = s.of(MismatchCorrected, s.occupy("box2", 40))
    assert (fixed.box, fixed.kind, fixed.reads) == (2, MismatchKind.UNDER, 40)
    s.press(NEXT)
    assert s.state == "round_over"


def test_rule_4_1_uncollected_losing_wager_found_at_next() -> None:
    s = settled()
    pay_right(s, "box4")  # box 4 lost, and its 20 is still on the spot
    out = s.press(NEXT)
    [left] = s.of(PayoutMismatch, out)
    assert (left.box, left.kind, left.paid) == (4, MismatchKind.UNCOLLECTED, 20)
    assert left.text == "Box 4: losing wager not collected: $20 still on the spot (rule 4.1)"
    assert s.of(ActionRefused, out)[0].rule == "4.1"
    assert s.state == "settlement"
    s.occupy("box4", 0)  # collected
    assert s.of(MismatchCorrected)[-1].spot == "box4"
    s.press(NEXT)
    assert s.state == "round_over"


def test_rule_4_1_a_player_picking_up_does_not_hide_a_mismatch() -> None:
    s = settled()
    s.occupy("box1", 45)
    s.occupy("box1", 0)  # the player takes the overpayment away
    pay_right(s, "box1")
    s.press(NEXT)
    assert s.state == "settlement" and len(s.of(PayoutMismatch)) == 1


def test_rule_4_1_mismatch_amounts_read_as_the_page_writes_money() -> None:
    """The box's mismatch line sits beside its PAY and TAKE lines, which the page writes
    as "$1,250" (faces.js money): the mismatch's amounts are written the same way."""
    assert (money(0), money(20), money(1250), money(1_000_000)) == (
        "$0",
        "$20",
        "$1,250",
        "$1,000,000",
    )
    s = settled(wagers={"box1": 1000, "box2": 20, "box3": 20, "box4": 20})
    [over] = s.of(PayoutMismatch, s.occupy("box1", 2250))  # 1,250 paid on a 1,000 win
    assert over.text == "Box 1: paid $1,250, owed $1,000: $250 over (rule 4.1)"
    assert box_mismatch(s, 1) == over.text


def test_rule_4_1_a_stand_off_cut_short_is_under() -> None:
    s = settled()
    pay_right(s)
    [short] = s.of(PayoutMismatch, s.occupy("box3", 15))
    assert (short.kind, short.owed, short.paid) == (MismatchKind.UNDER, 0, -5)
    assert short.text == "Box 3: $5 of the stake taken, owed $0: $5 under (rule 4.1)"


def test_rule_4_1_supervisor_accepts_the_difference_with_a_reason() -> None:
    game = BlackjackGame(READERS)
    s = ScriptedTable(READERS, feed=lambda table, event: game.handle(event))
    s.table = game.table
    s.log = list(game.pending())
    s.open()
    for n in range(1, 5):
        s.occupy(f"box{n}", 20)
    s.press(NO_MORE_BETS)
    s.deal(*CARDS)
    s.press(NEXT, NEXT, NEXT, NEXT)
    s.deal("Kc")
    s.occupy("box1", 45)
    pay_right(s, "box1")
    assert "accept_payout" in [d["decision"] for d in game.view()["decisions"]]
    with pytest.raises(IllegalAction, match="needs a reason"):
        game.handle(
            SupervisorAction(
                source="supervisor", who="s01", decision="accept_payout", args={"box": 1}
            )
        )
    with pytest.raises(IllegalAction, match="no payout mismatch"):
        game.handle(
            SupervisorAction(
                source="supervisor",
                who="s01",
                decision="accept_payout",
                reason="x",
                args={"box": 2},
            )
        )
    out = game.handle(
        SupervisorAction(
            source="supervisor", who="s01", decision="accept_payout",
            reason="player returned the 5 by hand", args={"box": 1},
        )
    )  # fmt: skip
    [accepted] = [o for o in out if isinstance(o, MismatchAccepted)]
    assert (accepted.who, accepted.reason, accepted.paid, accepted.owed) == (
        "s01", "player returned the 5 by hand", 25, 20,
    )  # fmt: skip
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    assert game.table.state == "round_over"


def test_rule_4_1_presence_only_uncollected_losing_wager() -> None:
    variants = Variants(spot_sensors=True, settlement_check=True)
    s = settled(variants, {f"box{n}": None for n in range(1, 5)})
    s.clear("box3")  # the push's stake picked up: no mismatch on presence
    out = s.press(NEXT)  # box1, box2 (winners) and box4 (lost) still sense chips
    [left] = s.of(PayoutMismatch, out)
    assert (left.box, left.kind) == (4, MismatchKind.UNCOLLECTED)
    assert s.state == "settlement"
    [fixed] = s.of(MismatchCorrected, s.clear("box4"))
    assert fixed.box == 4
    s.press(NEXT)
    assert s.state == "round_over"


def test_rule_4_1_the_check_off_lets_next_through() -> None:
    s = settled(Variants(chip_readers=True))
    s.occupy("box1", 45)
    s.press(NEXT)
    assert s.state == "round_over" and not s.of(PayoutMismatch)


def test_rule_4_1_winnings_handed_over_check_the_stake_only() -> None:
    variants = Variants(
        chip_readers=True, settlement_check=True, winnings_paid=WinningsPaid.HANDED_OVER
    )
    s = settled(variants)
    s.occupy("box4", 0)  # box1, box2 keep their stakes, the winnings go by hand
    s.press(NEXT)
    assert s.state == "round_over" and not s.of(PayoutMismatch)


def test_rule_4_1_a_payout_made_during_a_hold_in_settlement_counts() -> None:
    s = settled()
    s.deal("2d")  # a card after the dealer's hand was complete: HOLD (4.1)
    assert s.state == "hold"
    pay_right(s)  # the dealer pays on regardless
    s.supervisor("s01", HoldDecision.KEEP_CARD)
    assert s.state == "settlement"
    s.press(NEXT)
    assert s.state == "round_over" and not s.of(PayoutMismatch)


# --- the double spots: a double's chips and their winnings stand on their own spot -------------

DOUBLE_SPOTS = Variants(chip_readers=True, settlement_check=True, double_spots=True)


def doubled(box_third: str = "Ts") -> ScriptedTable:
    """Box 1 wagers 20 and doubles its 11 for 20 on double1, taking ``box_third`` (Ts: 21,
    a win; 2s: 13, a loss); the dealer's 7 draws a king: 17."""
    s = ScriptedTable(DOUBLE_SPOTS)
    s.open()
    s.occupy("box1", 20)
    s.press(NO_MORE_BETS)
    s.deal("6s", "7h", "5d")  # box 1 11, the dealer's 7
    s.occupy("double1", 20)
    s.press(DOUBLE)
    s.deal(box_third, "Kc")
    assert s.state == "settlement"
    return s


def test_rule_4_1_a_double_on_its_double_spot_is_checked_there() -> None:
    s = doubled()
    out = s.occupy("double1", 45)  # 25 paid on the double's 20
    [mismatch] = s.of(PayoutMismatch, out)
    assert (mismatch.box, mismatch.owed, mismatch.paid) == (1, 20, 25)
    assert mismatch.text == "Box 1 double: paid $25, owed $20: $5 over (rule 4.1)"
    s.occupy("box1", 40)
    s.press(NEXT)
    assert s.state == "settlement"  # NEXT held on the double's overpay
    s.occupy("double1", 40)
    s.press(NEXT)
    assert s.state == "round_over"


def test_rule_4_1_the_box_spot_of_a_doubled_hand_is_owed_the_original_wager_s_share() -> None:
    s = doubled()
    s.occupy("double1", 40)
    [mismatch] = s.of(PayoutMismatch, s.occupy("box1", 60))  # the whole 40 paid on the box
    assert mismatch.text == "Box 1: paid $40, owed $20: $20 over (rule 4.1)"


def test_rule_4_1_a_doubled_hand_that_lost_is_collected_from_both_spots() -> None:
    s = doubled(box_third="2s")  # 13 against the dealer's 17
    s.occupy("box1", 0)
    out = s.press(NEXT)  # the double's 20 is still on double1
    [left] = s.of(PayoutMismatch, out)
    assert (left.box, left.kind) == (1, MismatchKind.UNCOLLECTED)
    assert left.text.startswith("Box 1 double:")
    s.occupy("double1", 0)
    s.press(NEXT)
    assert s.state == "round_over"
