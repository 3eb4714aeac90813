"""The blackjack table is built from parts: the round's data, the round's flow, the rules
API and the layout's sensors, held by the table and sharing one `Round`, and the table's
one `Hold`, machine and list of outputs (from its one base, the kernel's `GameTable`) for
the table's life; no other class hierarchy, no hooks."""

from __future__ import annotations

import pytest

from controller.blackjack.hand import Box
from controller.blackjack.records import HoldDecision, Violation
from controller.blackjack.round import Round
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE
from controller.game.table import GameTable
from controller.poker.table import PokerTable
from tests.support.blackjack_script import ScriptedTable


def test_the_table_is_a_composition_not_a_hierarchy() -> None:
    # the one base is the kernel's table (the HOLD, the outputs, the gate and lamps);
    # the parts are still plain objects the table holds
    assert BlackjackTable.__mro__ == (BlackjackTable, GameTable, object)
    table = BlackjackTable()
    parts = (table._flow, table._rules, table._layout)
    assert all(type(p).__mro__[1:] == (object,) for p in parts)
    assert table._flow.play is table._rules.play is table._layout.play is table._play
    assert table._flow.hold is table._hold and table._flow.phases is table._phases
    assert table._flow.out is table._rules._out is table._out  # one list, drained in place
    out = table._out
    table.take_outputs()
    assert table._out is out


def test_a_new_round_clears_the_same_round_in_place() -> None:
    s = ScriptedTable()
    play = s.table._play
    s.open()
    s.table.place_wager(1, 1, 10)
    assert s.table.boxes[0].stakes == {1: 10} and s.table.round == 1
    assert isinstance(play, Round) and s.table._play is play
    assert s.table.boxes is play.boxes and s.table.payouts is play.payouts


def test_the_round_refuses_a_box_it_has_not() -> None:
    play = Round(3)
    assert isinstance(play.box(3), Box)
    with pytest.raises(IllegalAction) as refused:
        play.box(4)
    assert refused.value.rule == "4.1"


def test_blackjack_keeps_every_violation_and_card_in_the_shared_hold() -> None:
    s = ScriptedTable()
    s.deal("As", "Kd")  # before the shuffle, then one on the HOLD
    hold = s.table._hold
    assert [v.rule for v in s.table.violations] == ["7.1", HOLD_PROCEDURE]
    assert s.table.violations is hold.violations
    assert hold.violation == s.table.violations[0] and hold.held_from == "round_over"
    assert [(str(c), state) for c, state in hold.cards] == [("As", "round_over"), ("Kd", "hold")]
    s.supervisor("s01", HoldDecision.VOID_HAND)
    assert hold.violation is None and not hold.violations and not hold.cards
    assert s.state == "round_over"


def test_the_shared_hold_notes_and_gives_up_its_violations() -> None:
    hold = Hold("betting")
    first = Violation("4.2", "a card before NO MORE BETS", "As")
    hold.note(first, Card.parse("As"), "betting")
    hold.note(Violation("4.2", "again"), None, "hold")
    assert hold.violation == first and hold.card == Card.parse("As")
    assert hold.take_violations() == (first, Violation("4.2", "again"))
    assert hold.violation is None and hold.cards == [(Card.parse("As"), "betting")]


def test_the_poker_hand_is_read_only_on_the_table() -> None:
    table = PokerTable()
    assert table.in_hand is table.hand.in_hand
    with pytest.raises(AttributeError):
        table.in_hand = [1, 2]  # type: ignore[misc]
