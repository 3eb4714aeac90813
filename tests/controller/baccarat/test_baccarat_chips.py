"""The baccarat settlement checked by the chips (the kernel's `controller/game/chips.py`,
fed by `controller/baccarat/spots.py`): after the result each sensed spot against what the
rules pay on it, for every wager and variant, the commission owed on the box's account and
never taken off the spot; an overpay, an underpay or an uncollected losing wager holds NEXT
with the box and the amounts, until the spot reads right or a supervisor, named, accepts
the difference with a reason."""

from __future__ import annotations

from typing import Any

import pytest

from controller.baccarat.game import SPEC
from controller.baccarat.records import ActionRefused, CoupSettled, Payout
from controller.baccarat.rules import SETTLEMENT_RULE, Variant
from controller.baccarat.table import BaccaratTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.chips import (
    MismatchAccepted,
    MismatchCorrected,
    MismatchKind,
    PayoutMismatch,
    WinningsPaid,
)
from controller.ports import ConsoleButton, SupervisorAction
from tests.support.baccarat import (
    betting_table,
    card,
    chips,
    covered,
    deal,
    initial,
    of,
    press,
    reader_table,
)
from tests.support.refusals import refusal

BANKER_9_TO_2 = initial(2, 9)  # a Banker natural: Banker wins 9 to 2
PLAYER_9_TO_2 = initial(9, 2)
TIE_8 = initial(8, 8)


def coup(table: BaccaratTable, cards: list[Card], **wagers: int) -> list[Any]:
    """Each wager by its spot's chips, NO MORE BETS, the cards: the records to the result."""
    for spot, amount in wagers.items():
        chips(table, spot, amount)
    press(table, ConsoleButton.NO_MORE_BETS)
    return deal(table, *cards)


def spot(table: BaccaratTable, name: str) -> dict[str, Any]:
    return next(s for s in table.payout_check.spots() if s["spot"] == name)


def test_rule_5_10b_a_banker_win_is_paid_in_full_on_the_spot_and_the_commission_owed_on_the_account() -> (  # noqa: E501
    None
):
    table = reader_table()
    coup(table, BANKER_9_TO_2, banker3=20)
    assert spot(table, "banker3") | {"state": "-"} == {
        "spot": "banker3", "box": 3, "end": 40, "base": 20, "owed": 20, "reads": 20,
        "state": "-", "kind": "", "text": "",
    }  # fmt: skip
    assert table.commission_owed[2] == 100  # 5 % of 20: one unit, on the account
    assert chips(table, "banker3", 40) == []
    assert spot(table, "banker3")["state"] == "ok"
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_rule_5_10b_commission_taken_off_the_spot_is_an_underpay_the_account_already_owes_it() -> (
    None
):
    table = reader_table()
    coup(table, BANKER_9_TO_2, banker3=20)
    [under] = of(PayoutMismatch, chips(table, "banker3", 39))
    assert (under.box, under.spot, under.kind, under.owed, under.paid) == (
        3, "banker3", MismatchKind.UNDER, 20, 19,
    )  # fmt: skip
    assert under.rule == SETTLEMENT_RULE
    assert under.text == (
        "Box 3 Banker: paid $19, owed $20: $1 under (settlement (casino procedure))"
    )


def test_settlement_an_overpay_on_banker_holds_next_with_the_box_and_the_amounts() -> None:
    table = reader_table()
    coup(table, BANKER_9_TO_2, banker3=20)
    [over] = of(PayoutMismatch, chips(table, "banker3", 45))
    assert (over.kind, over.owed, over.paid, over.reads) == (MismatchKind.OVER, 20, 25, 45)
    [refused] = of(ActionRefused, press(table, ConsoleButton.NEXT))
    assert refused.rule == SETTLEMENT_RULE
    assert "Box 3 Banker: paid $25, owed $20: $5 over" in refused.reason
    assert table.state == "settlement"
    # the dealer takes the $5 back: the spot reads right, NEXT goes on
    [corrected] = of(MismatchCorrected, chips(table, "banker3", 40))
    assert (corrected.box, corrected.kind, corrected.reads) == (3, MismatchKind.OVER, 40)
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_settlement_an_uncollected_losing_player_wager_holds_next() -> None:
    table = reader_table()
    coup(table, BANKER_9_TO_2, player4=10, banker3=20)
    chips(table, "banker3", 40)
    out = press(table, ConsoleButton.NEXT)  # the losing Player wager was never taken
    [left] = of(PayoutMismatch, out)
    assert (left.box, left.spot, left.kind, left.paid) == (
        4, "player4", MismatchKind.UNCOLLECTED, 10,
    )  # fmt: skip
    assert left.text == (
        "Box 4 Player: losing wager not collected: $10 still on the spot "
        "(settlement (casino procedure))"
    )
    assert of(ActionRefused, out)[0].rule == SETTLEMENT_RULE
    chips(table, "player4", 0)
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_settlement_an_underpaid_player_win_holds_next() -> None:
    table = reader_table()
    coup(table, PLAYER_9_TO_2, player2=50)
    [under] = of(PayoutMismatch, chips(table, "player2", 90))
    assert (under.kind, under.owed, under.paid) == (MismatchKind.UNDER, 50, 40)
    assert of(ActionRefused, press(table, ConsoleButton.NEXT))


def test_rule_nsw_mini_5_tie_player_and_banker_stand_on_a_tie_and_the_tie_pays_its_odds() -> None:
    table = reader_table()
    coup(table, TIE_8, banker1=20, tie1=10, player2=30)
    assert {s["spot"]: s["end"] for s in table.payout_check.spots()} == {
        "banker1": 20,  # stands (stand-off)
        "tie1": 90,  # 8 to 1 beside the stake
        "player2": 30,
    }
    [short] = of(PayoutMismatch, chips(table, "banker1", 10))  # a stand-off cut short
    assert short.text.startswith("Box 1 Banker: $10 of the stake taken, owed $0: $10 under")
    chips(table, "banker1", 20)
    chips(table, "tie1", 90)
    press(table, ConsoleButton.NEXT)  # the Player's spot untouched: it stands, as owed
    assert table.state == "betting"


def test_pair_wager_casino_page_a_banker_pair_pays_11_to_1_on_the_spot() -> None:
    table = reader_table()
    cards = [Card.parse(c) for c in ("Th", "4h", "2h", "4d")]  # Banker 4-4: a natural 8, a pair
    coup(table, cards, banker_pair5=10, player_pair5=10)
    ends = {s["spot"]: s["end"] for s in table.payout_check.spots()}
    assert ends == {"banker_pair5": 120, "player_pair5": 0}
    assert of(PayoutMismatch, chips(table, "banker_pair5", 110))[0].kind is MismatchKind.UNDER


def test_no_commission_banker_6_pays_half_rounded_up_and_the_spot_is_checked_for_it() -> None:
    table = reader_table(variant=Variant.NO_COMMISSION)
    coup(table, [*initial(0, 6), card(0)], banker3=15)  # Player 0 draws a ten; Banker 6 wins
    [payout] = [p for p in table.payouts if p.bet == "banker"]
    assert (payout.won, payout.rounding) == (8, 50)
    assert spot(table, "banker3")["end"] == 23
    assert table.commission_owed[2] == 0
    assert chips(table, "banker3", 23) == []


def test_three_card_7_push_variant_a_pushed_banker_stays_on_its_spot() -> None:
    table = reader_table(variant=Variant.THREE_CARD_7_PUSH)
    # Player 0 draws a ten (0); Banker 3 draws (on anything but an 8) a 4: a three-card 7
    coup(table, [*initial(0, 3), card(0), card(4)], banker3=20)
    assert [p.outcome for p in table.payouts] == ["push"]
    assert spot(table, "banker3")["end"] == 20


def test_winnings_handed_over_leave_only_the_stake_to_check() -> None:
    table = reader_table(winnings_paid=WinningsPaid.HANDED_OVER)
    coup(table, BANKER_9_TO_2, banker3=20)
    assert spot(table, "banker3")["end"] == 20
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_a_supervisor_accepts_a_payout_difference_by_name_with_a_reason_and_next_goes_on() -> None:
    game = SPEC.make(SPEC.rules(chip_readers=True, settlement_check=True, burn_by_first_card=False))
    table = game.table
    table.shuffled()
    coup(table, BANKER_9_TO_2, banker3=20)
    chips(table, "banker3", 45)
    names = [d["decision"] for d in game.offered()]
    assert "accept_payout" in names
    accept = SupervisorAction(
        source="supervisor", who="s01", decision="accept_payout", reason="", args={"box": 3}
    )
    assert refusal(lambda: game.handle(accept)) == (
        SETTLEMENT_RULE,
        "accepting a payout difference needs a reason",
    )
    reasoned = SupervisorAction(
        source="supervisor", who="s01", decision="accept_payout", reason="paid in cash",
        args={"box": 3},
    )  # fmt: skip
    [accepted] = of(MismatchAccepted, game.handle(reasoned))
    assert (accepted.box, accepted.kind, accepted.owed, accepted.paid, accepted.who) == (
        3, MismatchKind.OVER, 20, 25, "s01",
    )  # fmt: skip
    assert accepted.reason == "paid in cash"
    assert "accept_payout" not in [d["decision"] for d in game.offered()]
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"
    nothing = SupervisorAction(
        source="supervisor", who="s01", decision="accept_payout", reason="x", args={"box": 3}
    )
    try:
        game.handle(nothing)
    except IllegalAction as exc:
        assert exc.reason == "box 3 has no payout mismatch to accept"
    else:  # pragma: no cover
        raise AssertionError("accepting with nothing open was allowed")


def test_void_a_voided_coup_leaves_every_stake_on_its_spot() -> None:
    table = reader_table()
    coup(table, BANKER_9_TO_2[:2], banker3=20, player4=10)
    press(table, ConsoleButton.VOID_HAND)
    table.supervisor_clear("s01", "void_hand")
    assert {s["spot"]: s["end"] for s in table.payout_check.spots()} == {
        "banker3": 20,
        "player4": 10,
    }
    assert of(PayoutMismatch, chips(table, "player4", 0))[0].kind is MismatchKind.UNDER


def test_presence_sensors_alone_catch_an_uncollected_losing_wager_at_next() -> None:
    table = betting_table(spot_sensors=True, settlement_check=True)
    covered(table, "player4")
    table.place_wager(4, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *BANKER_9_TO_2)
    [left] = of(PayoutMismatch, press(table, ConsoleButton.NEXT))
    assert (left.spot, left.kind, left.paid) == ("player4", MismatchKind.UNCOLLECTED, 10)
    covered(table, "player4", False)
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting"


def test_the_display_tells_the_dealer_exactly_what_the_rules_pay_and_what_is_wrong() -> None:
    game = SPEC.make(SPEC.rules(chip_readers=True, settlement_check=True, burn_by_first_card=False))
    table = game.table
    table.shuffled()
    out = coup(table, BANKER_9_TO_2, banker3=20, tie3=10)
    paid = {p.bet: p.returned + p.won for p in of(Payout, out)}
    view = game.view()
    shown = {s["spot"]: s["end"] for s in view["payout_check"]}
    assert shown == {"banker3": paid["banker"], "tie3": paid["tie"]} == {"banker3": 40, "tie3": 0}
    assert of(CoupSettled, out)[0].commission == 100
    chips(table, "banker3", 45)
    [box3] = [b for b in game.view()["boxes"] if b["number"] == 3]
    assert box3["mismatch"] == (
        "Box 3 Banker: paid $25, owed $20: $5 over (settlement (casino procedure))"
    )
    assert game.view()["next_action"] == (
        "Banker wins 9 to 2: Box 3 Banker: paid $25, owed $20: $5 over (settlement (casino "
        "procedure)): correct the spot, or a supervisor accepts"
    )


def test_settlement_a_supervisor_s_shuffle_waits_for_the_coup_to_be_paid_right() -> None:
    table = reader_table()
    coup(table, BANKER_9_TO_2, banker3=20)
    chips(table, "banker3", 45)  # $5 over
    with pytest.raises(IllegalAction) as refused:
        table.order_shuffle("Pat", "a marked card")
    assert refused.value.rule == SETTLEMENT_RULE and "$5 over" in refused.value.reason
    chips(table, "banker3", 40)
    table.collect_commission(3)  # the Banker's win owes commission: the shoe may end
    table.order_shuffle("Pat", "a marked card")
    assert table.state == "shuffle" and not table.payout_check.active


def test_settlement_a_spot_emptied_during_the_coup_is_checked_from_empty() -> None:
    """Presence sensors: a losing wager's chips taken off while the coup is dealt hold the
    table (NSW Mini Baccarat 5); a supervisor lets the coup play on, and at the result the
    spot is checked from what it shows, empty: nothing is left to collect."""
    table = betting_table(spot_sensors=True, settlement_check=True)
    covered(table, "player4")
    table.place_wager(4, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    covered(table, "player4", False)
    assert table.state == "hold"
    table.supervisor_clear("Pat", "burn_card")  # play on: the stakes stand
    deal(table, *BANKER_9_TO_2)
    assert table.state == "settlement"
    assert [(s["spot"], s["reads"]) for s in table.payout_check.spots()] == [("player4", 0)]
    assert not of(PayoutMismatch, press(table, ConsoleButton.NEXT))
    assert table.state == "betting"


def test_settlement_without_the_check_the_sensors_only_back_the_wagers() -> None:
    """`spot_sensors` without `settlement_check`: the layout backs the wagers, and nothing
    checks the payouts; NEXT ends the coup whatever the spots show."""
    table = betting_table(spot_sensors=True)
    covered(table, "player4")
    table.place_wager(4, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *BANKER_9_TO_2)  # the Player loses; its chips stay on the spot
    assert not table.payout_check.active
    assert not of(PayoutMismatch, press(table, ConsoleButton.NEXT))
    assert table.state == "betting"
