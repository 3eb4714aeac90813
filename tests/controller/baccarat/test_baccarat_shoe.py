"""The shoe as baccarat deals it: the new shoe's burn (the first card's value), the cutting
card and the coups after it, the shoe's end with its audit, and the results history the
roads are drawn from (reset at a new shoe).

The shoe's state (controller/baccarat/shoe.py) is pinned too: the burn (casino procedure: the
first card exposed, its point value burned after it, a ten-value card 10), the cutting card
(casino procedure: the coup under way finished, then ``coups_after_cut_card`` more; out
where a coup's first card would be, counted from that coup), once per shoe, and what a new
shoe starts afresh, each expected number worked out from the procedure
(docs/rules/baccarat.md)."""

from __future__ import annotations

import random

import pytest

from controller.baccarat.records import CardBurned, CutCardOut, ShoeEnded, Violation
from controller.baccarat.rules import SHUFFLE_RULE, BaccaratRules
from controller.baccarat.shoe import ShoeState
from controller.baccarat.table import BaccaratTable
from controller.cards import DECK, Card
from controller.errors import ConfigError
from controller.game.records import ActionRefused
from controller.game.shoe import Shoe
from controller.ports import CardDrawn, ConsoleButton
from tests.support.baccarat import betting_table, cut_card, deal, initial, of, press


def play_coup(table: BaccaratTable, player: int = 7, banker: int = 6) -> None:
    """A coup where both hands stand (no third card), to settlement."""
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(player, banker))
    assert table.state == "settlement"


@pytest.mark.parametrize(("first", "burns"), [("As", 1), ("5h", 5), ("9d", 9), ("Tc", 10),
                                              ("Ks", 10)])  # fmt: skip
def test_rule_burn_the_first_cards_value_says_how_many_are_burned(first: str, burns: int) -> None:
    table = BaccaratTable(BaccaratRules())
    table.shuffled()
    table.take_outputs()  # the gate as commanded
    assert table.state == "burn" and table.gate_locked is False
    (exposed,) = of(CardBurned, deal(table, Card.parse(first)))
    assert exposed == CardBurned(first, True, burns)
    for left in range(burns - 1, -1, -1):
        assert table.state == "burn"
        (burned,) = of(CardBurned, deal(table, DECK[20 + left]))
        assert burned.left == left
    assert table.state == "betting" and table.coup == 1
    assert table.audit.cards_seen == burns + 1  # the burn is counted by the shoe audit


def test_next_during_the_burn_is_refused_with_the_cards_still_to_burn() -> None:
    table = BaccaratTable(BaccaratRules())
    table.shuffled()
    deal(table, Card.parse("3h"))
    (refused,) = of(ActionRefused, press(table, ConsoleButton.NEXT))
    assert "3 more card(s)" in refused.reason


def test_rule_cutting_card_during_a_coup_one_more_coup_then_the_shoe_ends() -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(7, 6)[:2])
    (cut,) = of(CutCardOut, cut_card(table))
    assert cut == CutCardOut(1, 2)
    deal(table, *initial(7, 6)[2:])
    press(table, ConsoleButton.NEXT)
    assert table.state == "betting" and table.coup == 2  # one more coup
    play_coup(table)
    out = press(table, ConsoleButton.NEXT)
    (ended,) = of(ShoeEnded, out)
    assert table.state == "shuffle" and ended.coups == 2 and ended.report.cards_seen == 8
    (violation,) = of(Violation, deal(table, Card.parse("4s")))  # no card before the shuffle
    assert violation.rule == SHUFFLE_RULE


def test_rule_cutting_card_where_a_coups_first_card_would_be_that_coup_is_the_last() -> None:
    table = betting_table()
    play_coup(table)
    (cut,) = of(CutCardOut, cut_card(table))  # out after coup 1: before coup 2's first card
    assert cut.last_coup == 2
    press(table, ConsoleButton.NEXT)
    play_coup(table)
    press(table, ConsoleButton.NEXT)
    assert table.state == "shuffle"
    fresh = betting_table()
    cut_card(fresh)  # betting open, no card of coup 1 out yet: coup 1 is the last
    play_coup(fresh)
    press(fresh, ConsoleButton.NEXT)
    assert fresh.state == "shuffle"


def test_coups_after_the_cutting_card_is_the_casinos_setting() -> None:
    table = betting_table(coups_after_cut_card=2, cut_card_from_end=18)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, initial(7, 6)[0])
    assert of(CutCardOut, cut_card(table))[0].last_coup == 3
    assert cut_card(table) == []  # the level stays high: reported once


def test_a_new_shoe_is_confirmed_by_shuffled_never_by_next() -> None:
    table = betting_table()
    cut_card(table)
    play_coup(table)
    press(table, ConsoleButton.NEXT)
    assert table.state == "shuffle" and len(table.shoe.results) == 1
    (refused,) = of(ActionRefused, press(table, ConsoleButton.NEXT))
    assert refused.rule == SHUFFLE_RULE
    table.shuffled()
    assert table.state == "betting" and table.shoe.results == [] and table.shoe.number == 2


def test_the_shoes_results_are_the_roads_input() -> None:
    table = betting_table()
    play_coup(table, 7, 6)
    press(table, ConsoleButton.NEXT)
    play_coup(table, 6, 6)
    assert table.shoe.results == [
        {"winner": "player", "player_total": 7, "banker_total": 6, "natural": False,
         "player_pair": False, "banker_pair": False},
        {"winner": "tie", "player_total": 6, "banker_total": 6, "natural": False,
         "player_pair": False, "banker_pair": False},
    ]  # fmt: skip


def test_shoe_audit_across_a_whole_shoe() -> None:
    """A whole 8-deck shoe through the table: every card read is counted, none extra, and
    what is left behind the cutting card is reported unseen at the shoe's end."""
    rules = BaccaratRules()
    table = BaccaratTable(rules)
    shoe = Shoe(8, random.Random(7), rules.cut_card_from_end)
    table.shuffled()
    ended: list[ShoeEnded] = []
    dealt = 0
    cut = False
    while not ended:
        state = table.state
        if state == "betting":
            table.place_wager(1, "banker", 10)
            press(table, ConsoleButton.NO_MORE_BETS)
        elif state == "settlement":
            for box, _ in table.commission_unsettled():  # collected before the shoe ends
                table.collect_commission(box)
            ended += of(ShoeEnded, press(table, ConsoleButton.NEXT))
        else:
            if shoe.cut_card_out and not cut:
                cut = True
                cut_card(table)
            table.handle(CardDrawn(source="shoe", card=shoe.draw()))
            dealt += 1
        assert state != "hold", table.violations
    report = ended[0].report
    assert report.cards_seen == dealt and report.reconciled
    assert report.unseen_cards == 8 * 52 - dealt == shoe.remaining
    assert 16 - 12 <= shoe.remaining <= 16  # at most two coups after the cut card


def test_rules_refuse_what_a_shoe_cannot_be() -> None:
    with pytest.raises(ConfigError, match="6 or 8 decks"):
        BaccaratRules(decks=4)
    with pytest.raises(ConfigError, match="cut_card_from_end"):
        BaccaratRules(cut_card_from_end=6)
    with pytest.raises(ConfigError, match="boxes"):
        BaccaratRules(boxes=15)


def fresh(**rules: object) -> ShoeState:
    shoe = ShoeState(BaccaratRules(**rules))  # type: ignore[arg-type]
    shoe.new_shoe()
    return shoe


def test_rule_shuffle_a_table_before_its_first_shoe_has_nothing_to_burn_or_end() -> None:
    """Before the first SHUFFLED: shoe 0, no coups, no history, no burn due, no cutting
    card, no last coup (the display reads these from the start)."""
    shoe = ShoeState(BaccaratRules())
    assert (shoe.number, shoe.coups, shoe.results) == (0, 0, [])
    assert (shoe.burns_due, shoe.burn_first, shoe.burn_done) == (0, False, True)
    assert (shoe.cut_card_out, shoe.last_coup, shoe.is_last(10**6)) == (False, None, False)


def test_rule_shuffle_a_new_shoe_starts_everything_afresh() -> None:
    shoe = fresh(cut_card_from_end=20, coups_after_cut_card=2)
    shoe.coups = 40
    shoe.results.append({"winner": "tie"})
    shoe.burns_due = 3
    shoe.cutting_card("during", 40)
    shoe.new_shoe()
    assert shoe.number == 2
    assert (shoe.coups, shoe.results, shoe.burns_due) == (0, [], 0)
    assert (shoe.cut_card_out, shoe.last_coup) == (False, None)
    assert shoe.burn_first is True and shoe.burn_done is False
    # the cutting card is looked for again in the new shoe
    assert shoe.cutting_card("during", 3) == CutCardOut(3, 5)


def test_rule_burn_not_by_the_first_card_when_the_casino_says_so() -> None:
    shoe = fresh(burn_by_first_card=False)
    assert (shoe.number, shoe.burn_first, shoe.burns_due, shoe.burn_done) == (1, False, 0, True)


@pytest.mark.parametrize(
    ("first", "burns"),
    [("As", 1), ("2h", 2), ("5d", 5), ("9c", 9), ("Ts", 10), ("Jh", 10), ("Qd", 10), ("Kc", 10)],
)
def test_rule_burn_the_first_card_exposed_says_how_many_follow(first: str, burns: int) -> None:
    shoe = fresh()
    assert shoe.burn_done is False
    assert shoe.burn(Card.parse(first)) == CardBurned(first, True, burns)
    assert (shoe.burn_first, shoe.burns_due, shoe.burn_done) == (False, burns, False)
    for left in range(burns - 1, -1, -1):
        assert shoe.burn(Card.parse("7s")) == CardBurned("7s", False, left)
        assert shoe.burn_done is (left == 0)


def test_rule_cutting_card_during_a_coup_that_coup_then_the_casinos_count() -> None:
    """Out during coup 30: coup 30 is finished, then 1 more (the default): 31 is last."""
    shoe = fresh()
    assert shoe.cutting_card("during", 30) == CutCardOut(30, 31)
    assert (shoe.cut_card_out, shoe.last_coup) == (True, 31)
    assert (shoe.is_last(30), shoe.is_last(31), shoe.is_last(32)) == (False, True, True)


@pytest.mark.parametrize(
    ("after", "during", "before", "between"),
    [(0, 30, 30, 31), (1, 31, 30, 31), (2, 32, 31, 32), (3, 33, 32, 33)],
)
def test_rule_cutting_card_where_it_comes_out(
    after: int, during: int, before: int, between: int
) -> None:
    """Coup 30 and ``after`` coups after the cutting card's coup:
    - during coup 30: 30 is finished, then ``after`` more;
    - where coup 30's first card would be: 30 is the first of them (never fewer than
      30 itself);
    - between coups, after 30 (where 31's first card would be): 31 at least."""
    rules = {"coups_after_cut_card": after, "cut_card_from_end": 6 * (after + 1)}
    for when, last in (("during", during), ("before", before), ("after", between)):
        shoe = fresh(**rules)
        assert shoe.cutting_card(when, 30) == CutCardOut(30, last)
        assert shoe.last_coup == last
        assert shoe.is_last(last) and not shoe.is_last(last - 1)


def test_rule_cutting_card_once_per_shoe() -> None:
    """A second sighting (the reader repeats, the level stays high) changes nothing."""
    shoe = fresh()
    assert shoe.cutting_card("before", 12) == CutCardOut(12, 12)
    for when in ("during", "before", "after"):
        assert shoe.cutting_card(when, 13) is None
    assert shoe.last_coup == 12
