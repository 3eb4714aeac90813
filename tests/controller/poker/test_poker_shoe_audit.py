"""The duplicate-card detector on the draw-poker table (controller/shoe_audit.py).

One 52-card deck per hand: a card read twice in a hand, other than an earlier discard
shuffled back under 11.3(b), is a possible foreign card (a defective deck, "duplicates",
Division 13 definitions). The table holds citing 11.2, the deal of one deck, since the
defective-deck definition has no clause number in docs/rules/."""

from __future__ import annotations

from controller.cards import Card
from controller.game import spec
from controller.game.records import Violation
from controller.poker.table import HoldDecision, PokerTable
from controller.ports import LockShoe
from controller.shoe_audit import ShoeReport
from tests.support.poker import act, deal, flat_call, shoe, table_with, unseen


def to_the_draw() -> PokerTable:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100})
    table.start_hand(button=1)
    deal(table)
    flat_call(table)
    assert table.state == "drawing"
    return table


def test_11_2_a_dealt_card_drawn_again_in_the_draw_is_a_foreign_card() -> None:
    table = to_the_draw()
    table.discard(2, 1, table.hands[2][:1])
    shoe(table, unseen(table)[0])  # the burn
    again = table.hands[3][0]  # seat 3 holds it: a second copy came out of the shoe
    out = shoe(table, again)
    violations = [r for r in out if isinstance(r, Violation)]
    assert [v.rule for v in violations] == [spec("poker").foreign_card_rule] == ["11.2"]
    assert "foreign card" in violations[0].message
    assert LockShoe() in out
    assert table.hold is not None and table.hold.rule == "11.2"


def test_11_2_a_clean_deck_reports_nothing_at_the_next_shuffle() -> None:
    table = to_the_draw()
    while table.state == "drawing" and table.draw is not None and table.draw.drawer:
        table.discard(table.draw.drawer, 0)
    flat_call(table)
    assert table.state == "complete"
    out = act(table, "start_hand")
    assert not [r for r in out if isinstance(r, ShoeReport)]  # the stub is private news
    assert table.audit.cards_seen == 0


def test_11_2_the_shoe_end_report_names_the_extra_card_at_the_next_shuffle() -> None:
    table = to_the_draw()
    table.discard(2, 1, table.hands[2][:1])
    shoe(table, unseen(table)[0])  # the burn
    again = table.hands[3][0]
    shoe(table, again)  # one copy too many: HOLD
    table.supervisor_clear("pit boss", HoldDecision.VOID_HAND)
    out = act(table, "start_hand")
    reports = [r for r in out if isinstance(r, ShoeReport)]
    assert len(reports) == 1 and reports[0].extra == ((str(again), 1),)
    assert not reports[0].reconciled


def test_11_2_an_accepted_second_copy_is_set_aside_and_the_seat_still_gets_a_card() -> None:
    """Found by the stateful fuzzing: a duplicate accepted into a hand made a four-card hand
    after a discard, and a showdown that could not evaluate it."""
    table = table_with({1: 100, 2: 100})
    table.start_hand(button=1)
    first = table.in_hand[0]
    shoe(table, Card.parse("2s"))
    out = shoe(table, Card.parse("2s"))  # a second 2s from a one-deck shoe: HOLD
    assert [r.rule for r in out if isinstance(r, Violation)] == ["11.2"]
    table.supervisor_clear("pit boss", HoldDecision.ACCEPT)
    assert [str(c) for c in table.hands[first]] == ["2s"]
    assert all(len(cards) == 0 for seat, cards in table.hands.items() if seat != first)
    rest = iter(c for c in unseen(table) if c != Card.parse("2s"))
    while table.state == "dealing":
        shoe(table, next(rest))
    assert all(len(set(cards)) == 5 for cards in table.hands.values())
