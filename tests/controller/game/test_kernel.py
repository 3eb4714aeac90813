"""The game kernel's shared parts: the machines on private models with one
`fire`, one table of per-state facts per game, the shared HOLD and its records."""

from __future__ import annotations

import pytest

from controller.blackjack import phases as bj
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE, Violation, cite
from controller.poker import phases as pk
from controller.poker.table import PokerTable


@pytest.mark.parametrize(
    "name", ["settle", "raise_hold", "resume_betting", "is_hold", "may_settle"]
)
def test_blackjack_raw_triggers_are_not_on_the_table(name: str) -> None:
    assert not hasattr(BlackjackTable(), name)


@pytest.mark.parametrize("name", ["void_hand", "place_button", "pots_awarded", "is_waiting"])
def test_poker_raw_triggers_are_not_on_the_table(name: str) -> None:
    assert not hasattr(PokerTable(), name)


def test_a_refused_trigger_is_an_illegal_action_citing_the_rule() -> None:
    phases = bj.Phases()
    with pytest.raises(IllegalAction) as refused:
        phases.fire("settle")  # from round_over: no dealer's hand to settle
    assert refused.value.rule == "4.1"
    with pytest.raises(IllegalAction) as poker:
        pk.Phases().fire("pots_awarded")
    assert poker.value.rule == "11.4(d)"


def test_every_state_has_its_facts() -> None:
    assert set(bj.FACTS) == set(bj.STATES) and set(pk.FACTS) == set(pk.STATES)
    assert {s for s, f in bj.FACTS.items() if f.gate_open} == {
        "no_more_bets",
        "initial_deal",
        "boxes_acting",
        "dealer_second",
        "dealer_drawing",
    }
    assert bj.FACTS["hold"].card_breaks == (HOLD_PROCEDURE, "a card while the table was on hold")
    assert all(rule in bj.TRIGGER_RULES for rule in (t["trigger"] for t in bj.TRANSITIONS))


def test_the_shared_hold() -> None:
    hold = Hold()
    hold.verify_not_held()
    first = Violation("9.5", "a card before the losing insurance was collected", "As")
    hold.note(first, Card.parse("As"), "dealer_second")
    hold.note(Violation("4.1", "another"), None, "hold")  # kept; the first still holds
    with pytest.raises(IllegalAction) as held:
        hold.verify_not_held()
    assert held.value.rule == "9.5"
    with pytest.raises(IllegalAction) as nameless:
        hold.verify_clear("")
    assert nameless.value.rule == HOLD_PROCEDURE
    assert hold.verify_clear("s01") is first and hold.card == Card.parse("As")
    assert hold.take_violations()[0] == first
    assert hold.violation is None


def test_a_citation_says_rule_only_for_a_clause() -> None:
    assert cite("9.5") == "rule 9.5" and cite("11.4(c)") == "rule 11.4(c)"
    assert cite(HOLD_PROCEDURE) == "hold procedure"
