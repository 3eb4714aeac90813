"""The duplicate-card detector on the blackjack table (controller/shoe_audit.py).

A card seen more often than the shoe's N decks hold it is a possible foreign card: the
table holds citing rule 3.3 (the shoe is 4 to 8 decks; no clause of docs/rules/ names a
foreign card exactly, see the module docstring), and the shoe-end report at the shuffle
reconciles what was seen against the shoe."""

from __future__ import annotations

from controller.blackjack.records import HoldDecision, Violation
from controller.blackjack.rules import Variants
from controller.cards import Card
from controller.game import spec
from controller.ports import LockShoe
from controller.shoe_audit import ShoeAudit, ShoeReport
from tests.support.blackjack_script import NEXT, NO_MORE_BETS, ScriptedTable, start

FOUR_DECKS = Variants(decks=4, cut_card_from_end=52)
FOUR_BOXES = {"box1": 10, "box2": 10, "box3": 10, "box4": 10}


def test_3_3_a_fifth_ace_of_spades_in_a_four_deck_shoe_holds_the_table() -> None:
    script = start(FOUR_BOXES, FOUR_DECKS)
    script.deal("As", "As", "As", "As", "9h")  # four boxes' first cards, the dealer's
    assert script.state == "initial_deal"
    out = script.deal("As")  # box 1's second card: a fifth As in four decks
    violations = script.of(Violation, out)
    assert [v.rule for v in violations] == [spec("blackjack").foreign_card_rule] == ["3.3"]
    assert "foreign card" in violations[0].message and violations[0].card == "As"
    assert script.state == "hold"
    assert LockShoe() in out


def test_3_3_the_shoe_holding_the_copy_is_no_violation() -> None:
    script = start(FOUR_BOXES, FOUR_DECKS)
    script.deal("As", "As", "As", "9h", "9h")  # four As over boxes 1-3 and 4 stays legal
    assert script.state == "initial_deal"
    assert not script.of(Violation)


def test_3_3_a_kept_foreign_card_is_routed_once_and_not_counted_again() -> None:
    script = start(FOUR_BOXES, FOUR_DECKS)
    script.deal("As", "As", "As", "As", "9h", "As")
    script.supervisor("pit boss", HoldDecision.KEEP_CARD)
    assert script.state == "initial_deal"  # the card stood: box 1 has its two cards
    ace = Card.parse("As")
    assert script.table.audit.count(ace) == 5
    assert script.table.boxes[0].hands[0].cards == [ace, ace]
    script.deal("2c", "3c", "4c")  # the other boxes' seconds: play goes on, no new hold
    assert script.state != "hold"
    assert len(script.of(Violation)) == 1


def test_3_3_the_shuffle_reports_the_shoe_end_and_counts_afresh() -> None:
    script = ScriptedTable(Variants(decks=4, cut_card_from_end=52))
    script.open()
    script.occupy("box1", 10)
    script.press(NO_MORE_BETS)
    script.deal("Ts", "9h")
    script.cut_card()  # the cutting card came out during the round: 7.1(c)
    script.deal("8s")
    script.press(NEXT)  # box 1 stands on 18
    script.deal("8h")  # dealer 17: settlement
    assert script.state == "settlement"
    script.press(NEXT)  # round over, shuffle due under 7.1(c)
    out = script.shuffled(burn=None)  # the shuffle: the shoe's end is reported
    reports = script.of(ShoeReport, out)
    # the round's four cards and the burn after the first shuffle
    assert len(reports) == 1 and reports[0].cards_seen == 5 and reports[0].reconciled
    assert reports[0].unseen_cards == 4 * 52 - 5
    assert script.table.audit.cards_seen == 0
    script.deal("Kc")  # the burn after this shuffle is counted too
    assert script.table.audit.cards_seen == 1
    assert not script.of(Violation)


def test_shoe_end_report_names_missing_and_extra_cards() -> None:
    audit = ShoeAudit(1, "11.2")
    for text in ("As", "As", "Kd"):
        audit.see(Card.parse(text))
    report = audit.shoe_end()
    assert report.extra == (("As", 1),)
    assert ("As", 1) not in report.unseen and ("Kd", 1) not in report.unseen
    assert report.unseen_cards == 50 and report.extra_cards == 1 and not report.reconciled
    assert audit.cards_seen == 0


def test_a_returned_card_may_be_seen_again() -> None:
    audit = ShoeAudit(1, "11.2")
    ace = Card.parse("As")
    assert audit.see(ace) is None
    audit.returned(ace)
    assert audit.see(ace) is None
    foreign = audit.see(ace)
    assert foreign is not None and foreign.seen == 2 and foreign.holds == 1
