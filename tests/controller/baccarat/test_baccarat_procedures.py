"""Baccarat's procedures that no NZ text we have gives, each test named after the procedure
it pins: the commission account settled before a shoe ends (commission account, house
procedure) with the supervisor's decision that accepts it owed, and the supervisor's
shuffle mid-shoe (shuffle ordered by a supervisor, house procedure); and Dealing Style B,
which the NZ definitions of "Banker" and "Player" name: recorded and shown, the cards read
the same."""

from __future__ import annotations

from typing import Any

import pytest

from controller.app.floor.words import DECISION_WORDS
from controller.baccarat.game import SPEC, BaccaratGame
from controller.baccarat.records import (
    ActionRefused,
    CommissionCollected,
    CommissionOwedAccepted,
    ShoeEnded,
    ShuffleConfirmed,
    ShuffleOrdered,
)
from controller.baccarat.rules import (
    COMMISSION_ACCOUNT_RULE,
    DEALING_STYLE_TERMS,
    SHUFFLE_RULE,
    SUPERVISOR_SHUFFLE_RULE,
    WAGERS_RULE,
    BaccaratRules,
    DealingStyle,
)
from controller.baccarat.table import BaccaratTable
from controller.errors import ConfigError, IllegalAction
from controller.ports import ConsoleAction, ConsoleButton, SupervisorAction
from tests.support.baccarat import betting_table, card, cut_card, deal, initial, of, press


def last_coup_banker_wins(table: BaccaratTable, **bets: Any) -> list[Any]:
    """The cutting card out before the coup's first card (so the coup is the shoe's last),
    box 2 on the Banker (10) and any other ``bets`` (box -> amount on the Banker), a Banker
    natural 9 against 0: the coup settles, box 2 owes 5 % of 10 (50 hundredths)."""
    cut_card(table)
    table.place_wager(2, "banker", 10)
    for box, amount in bets.items():
        table.place_wager(int(box[3:]), "banker", amount)
    press(table, ConsoleButton.NO_MORE_BETS)
    out = deal(table, *initial(0, 9))
    assert table.state == "settlement" and table.shoe.is_last(table.coup)
    return out


def test_commission_account_house_procedure_the_shoe_cannot_end_while_a_box_owes() -> None:
    table = betting_table(boxes=3)
    last_coup_banker_wins(table)
    assert table.commission_owed == [0, 50, 0]
    out = press(table, ConsoleButton.NEXT)
    assert [(r.rule, r.reason) for r in of(ActionRefused, out)] == [
        (
            COMMISSION_ACCOUNT_RULE,
            "the shoe cannot end with commission owed: box 2 owes 0.50 (collect 1); "
            "collect it, or a supervisor accepts it owed",
        )
    ]
    assert table.state == "settlement" and of(ShoeEnded, out) == []
    assert table.collect_commission(2) == CommissionCollected(2, 50, 1, 50)
    out = press(table, ConsoleButton.NEXT)
    assert table.state == "shuffle" and len(of(ShoeEnded, out)) == 1


def test_commission_account_house_procedure_the_display_says_which_boxes_owe_what() -> None:
    game = SPEC.make(BaccaratRules(boxes=3, burn_by_first_card=False, chip_unit=5))
    assert isinstance(game, BaccaratGame)
    table = game.table
    table.shuffled()
    last_coup_banker_wins(table, box3=20)  # box 3 owes 100 hundredths: collect 5
    view = game.view()
    assert view["shoe"]["commission_before_end"] == [
        {"box": 2, "owed": 50, "to_collect": 5},
        {"box": 3, "owed": 100, "to_collect": 5},
    ]
    assert view["next_action"] == (
        "Banker wins 9 to 0: pay and collect, collect the commission (box 2: 5, box 3: 5; "
        f"{COMMISSION_ACCOUNT_RULE}), then NEXT ends the shoe"
    )
    table.collect_commission(2)
    table.collect_commission(3)
    view = game.view()
    assert view["shoe"]["commission_before_end"] == []
    assert view["next_action"] == "Banker wins 9 to 0: pay and collect, NEXT ends the shoe"


def test_commission_account_house_procedure_a_supervisor_accepts_it_owed() -> None:
    """The decision names the supervisor and the reason, is journaled, and lets this shoe
    end; the account stays on the box and the next shoe's end asks again."""
    game = SPEC.make(BaccaratRules(boxes=3, burn_by_first_card=False))
    table = game.table
    table.shuffled()
    last_coup_banker_wins(table)
    offered = {d["decision"] for d in game.view()["decisions"]}
    assert "accept_commission_owed" in offered and "accept_commission_owed" in DECISION_WORDS
    out = game.handle(
        SupervisorAction(
            source="supervisor",
            who="s01",
            decision="accept_commission_owed",
            reason="the player left; the debt is on their card",
        )
    )
    assert of(CommissionOwedAccepted, out) == [
        CommissionOwedAccepted("s01", "the player left; the debt is on their card", 1, ((2, 50),))
    ]
    out = press(table, ConsoleButton.NEXT)
    assert table.state == "shuffle" and len(of(ShoeEnded, out)) == 1
    assert table.commission_owed == [0, 50, 0]  # still owed, carried
    assert table.commission_accepted == [0, 0, 0]  # for that shoe only
    assert table.commission_unsettled() == [(2, 50)]


def test_commission_account_house_procedure_owed_after_the_acceptance_is_settled_again() -> None:
    table = betting_table(boxes=3)
    table.commission_owed[0] = 50
    table.accept_commission_owed("s01", "box 1 left")
    last_coup_banker_wins(table)  # box 2 owes after the acceptance
    with pytest.raises(IllegalAction, match=r"box 2 owes 0\.50") as refused:
        table.end_coup()
    assert "box 1" not in refused.value.reason  # box 1's was accepted
    table.accept_commission_owed("s01", "box 2 left too")
    table.end_coup()
    assert table.state == "shuffle"


@pytest.mark.parametrize(
    ("who", "reason", "words"),
    [
        ("", "left", "is named"),
        ("s01", " ", "says why"),
    ],
)
def test_commission_account_house_procedure_accepting_is_named_and_says_why(
    who: str, reason: str, words: str
) -> None:
    table = betting_table(boxes=3)
    table.commission_owed[1] = 50
    with pytest.raises(IllegalAction, match=words) as refused:
        table.accept_commission_owed(who, reason)
    assert refused.value.rule == COMMISSION_ACCOUNT_RULE
    assert table.commission_accepted == [0, 0, 0]


def test_commission_account_house_procedure_accepting_between_coups_and_only_what_is_owed() -> None:
    table = betting_table(boxes=3)
    with pytest.raises(IllegalAction, match="no box owes commission"):
        table.accept_commission_owed("s01", "why")
    table.commission_owed[1] = 50
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    with pytest.raises(IllegalAction, match="between coups") as refused:
        table.accept_commission_owed("s01", "why")
    assert refused.value.rule == COMMISSION_ACCOUNT_RULE
    deal(table, card(0))
    press(table, ConsoleButton.VOID_HAND)  # the dealer asks for a void: held
    with pytest.raises(IllegalAction, match="on HOLD"):
        table.accept_commission_owed("s01", "why")


# --- the supervisor's shuffle mid-shoe (shuffle ordered by a supervisor, house procedure) --


def order(game: Any, who: str = "s01", reason: str = "a card was seen marked") -> list[Any]:
    out: list[Any] = game.handle(
        SupervisorAction(source="supervisor", who=who, decision="order_shuffle", reason=reason)
    )
    return out


def settled_coup(table: BaccaratTable) -> None:
    """One coup on box 1's Player (no commission owed), Player natural 8 against 0."""
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(8, 0))
    assert table.state == "settlement"


@pytest.mark.parametrize("between", ["settlement", "betting", "burn"])
def test_supervisor_shuffle_house_procedure_ends_the_shoe_between_coups(between: str) -> None:
    """Journaled with who and why, then the shoe's end and its audit as the cutting card
    would give; a new shoe is due, and its roads start afresh once it is shuffled."""
    game = SPEC.make(BaccaratRules(boxes=3, burn_by_first_card=between == "burn"))
    table = game.table
    table.shuffled()
    if between != "burn":
        settled_coup(table)
        if between == "betting":
            press(table, ConsoleButton.NEXT)
    assert table.state == between
    assert "order_shuffle" in {d["decision"] for d in game.view()["decisions"]}
    coups = table.shoe.coups
    out = order(game)
    assert of(ShuffleOrdered, out) == [ShuffleOrdered("s01", "a card was seen marked", 1, coups)]
    ended = of(ShoeEnded, out)
    assert len(ended) == 1 and (ended[0].shoe, ended[0].coups) == (1, coups)
    assert table.state == "shuffle" and table.gate_locked is True
    assert game.view()["next_action"] == "New shoe: shuffle the cards and confirm SHUFFLED"
    table.shuffled()
    assert table.shoe.number == 2 and table.shoe.results == []
    assert game.view()["results"] == [] and game.view()["roads"]["counts"]["player"] == 0


@pytest.mark.parametrize("cards", [0, 1, 3])  # the Initial Deal begun, or the Player's third due
def test_supervisor_shuffle_house_procedure_refused_during_a_coup(cards: int) -> None:
    """Not mid-coup: its wagers stand until it is settled or void (NSW Mini Baccarat 5)."""
    game = SPEC.make(BaccaratRules(boxes=3, burn_by_first_card=False))
    table = game.table
    table.shuffled()
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    if cards:
        deal(table, *initial(1, 1)[:cards])
    assert table.state in ("initial_deal", "player_third")
    assert "order_shuffle" not in {d["decision"] for d in game.view()["decisions"]}
    with pytest.raises(IllegalAction, match="a coup is being dealt") as refused:
        order(game)
    assert refused.value.rule == WAGERS_RULE
    assert table.state in ("initial_deal", "player_third") and table.shoe.number == 1


def test_supervisor_shuffle_house_procedure_named_with_a_reason() -> None:
    table = betting_table(boxes=3)
    for who, reason, words in (("", "why", "is named"), ("s01", "", "says why")):
        with pytest.raises(IllegalAction, match=words) as refused:
            table.order_shuffle(who, reason)
        assert refused.value.rule == SUPERVISOR_SHUFFLE_RULE
    assert table.state == "betting"


def test_supervisor_shuffle_house_procedure_refused_with_wagers_on_the_layout() -> None:
    table = betting_table(boxes=3)
    table.place_wager(2, "tie", 10)
    with pytest.raises(IllegalAction, match="wagers are on the layout") as refused:
        table.order_shuffle("s01", "why")
    assert refused.value.rule == SUPERVISOR_SHUFFLE_RULE
    table.place_wager(2, "tie", 0)  # taken down
    table.order_shuffle("s01", "why")
    assert table.state == "shuffle"


def test_supervisor_shuffle_house_procedure_refused_on_hold_and_when_a_shoe_is_due() -> None:
    table = BaccaratTable(BaccaratRules(boxes=3))
    with pytest.raises(IllegalAction, match="already due") as refused:
        table.order_shuffle("s01", "why")
    assert refused.value.rule == SHUFFLE_RULE
    table = betting_table(boxes=3)
    deal(table, card(3))  # a card before NO MORE BETS: HOLD
    with pytest.raises(IllegalAction, match="on HOLD"):
        table.order_shuffle("s01", "why")


def test_supervisor_shuffle_house_procedure_and_the_commission_account() -> None:
    """The shoe it ends is held to the commission account as any other."""
    table = betting_table(boxes=3)
    table.commission_owed[1] = 50
    with pytest.raises(IllegalAction, match="cannot end with commission owed") as refused:
        table.order_shuffle("s01", "why")
    assert refused.value.rule == COMMISSION_ACCOUNT_RULE
    table.accept_commission_owed("s01", "box 2 left")
    table.order_shuffle("s01", "why")
    assert table.state == "shuffle" and table.commission_owed == [0, 50, 0]


# --- Dealing Style B (the definitions of "Banker" and "Player", G98-260, G04-1313) -------


def test_dealing_style_b_definitions_recorded_at_the_shoes_start_and_shown() -> None:
    """The style is a setting (A by default), in each shoe's start record and the view."""
    assert BaccaratRules().dealing_style is DealingStyle.A
    game = SPEC.make(BaccaratRules(boxes=3, burn_by_first_card=False, dealing_style="B"))
    out = game.handle(ConsoleAction(source="console", action="shuffled", args={}))
    assert of(ShuffleConfirmed, out) == [ShuffleConfirmed(1, False, "B")]
    rules = game.view()["rules"]
    assert (rules["dealing_style"], rules["dealing_style_terms"]) == ("B", DEALING_STYLE_TERMS)
    with pytest.raises(ConfigError, match="dealing_style: 'A' or 'B', not 'C'"):
        BaccaratRules(dealing_style="C")  # type: ignore[arg-type]


def test_dealing_style_b_definitions_the_same_cards_in_the_same_order() -> None:
    """Style B changes who handles the cards, not what the controller reads: the same
    cards from the shoe give the same coup, call for call, record for record."""

    def coup(style: str) -> list[Any]:
        table = betting_table(boxes=3, dealing_style=style)
        table.place_wager(1, "banker", 20)
        press(table, ConsoleButton.NO_MORE_BETS)
        out = [*deal(table, *initial(4, 5)), table.due()]
        return out + deal(table, card(5), card(0))

    assert coup("B") == coup("A")
