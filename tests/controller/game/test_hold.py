"""The kernel's HOLD (controller/game/hold.py), the part every game shares because "a card
leaves the shoe whether or not the rules allow it" (docs/architecture.md).

Named after what they pin: the hold procedure (the controller's own HOLD, cleared only by
a named supervisor) and the Gazette rule the violation cites (9.5, 10.3 here)."""

from __future__ import annotations

import logging

import pytest

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE, Violation

INSURANCE = Violation("9.5", "a card before the losing insurance was collected", "As")
EVEN_MONEY = Violation("10.3", "a card before the box's cards were taken", "Kd")
ACE, KING = Card.parse("As"), Card.parse("Kd")


def test_hold_procedure_remembers_the_state_the_hold_went_up_in() -> None:
    assert Hold("round_over").held_from == "round_over"
    assert Hold().held_from == ""  # no state named: nothing to resume into yet


def test_rule_9_5_the_first_violation_noted_holds_the_table_and_every_card_is_kept() -> None:
    hold = Hold()
    hold.note(INSURANCE, ACE, "dealer_second")
    hold.note(EVEN_MONEY, KING, "hold")
    hold.note(Violation("9.5", "no card"), None, "hold")
    assert (hold.violation, hold.card) == (INSURANCE, ACE)
    assert [v.rule for v in hold.violations] == ["9.5", "10.3", "9.5"]
    assert hold.cards == [(ACE, "dealer_second"), (KING, "hold")]
    with pytest.raises(IllegalAction) as held:
        hold.verify_not_held()
    assert held.value.rule == "9.5"
    assert held.value.reason == (
        "the table is on HOLD (a card before the losing insurance was collected): supervisor"
    )


def test_rule_9_5_taking_the_violations_clears_the_hold_and_keeps_the_cards() -> None:
    hold = Hold()
    hold.note(INSURANCE, ACE, "dealer_second")
    hold.note(EVEN_MONEY, KING, "hold")
    assert hold.take_violations() == (INSURANCE, EVEN_MONEY)
    assert (hold.violation, hold.card, hold.violations) == (None, None, [])
    assert hold.cards == [(ACE, "dealer_second"), (KING, "hold")]  # the game routes them
    hold.verify_not_held()


def test_hold_procedure_nothing_to_clear_and_a_nameless_supervisor_are_refused() -> None:
    hold = Hold()
    with pytest.raises(IllegalAction) as idle:
        hold.verify_clear("s01")
    assert (idle.value.rule, idle.value.reason) == (HOLD_PROCEDURE, "the table is not on hold")
    hold.note(INSURANCE, ACE, "dealer_second")
    with pytest.raises(IllegalAction) as nameless:
        hold.verify_clear("")
    assert (nameless.value.rule, nameless.value.reason) == (
        HOLD_PROCEDURE,
        "a supervisor clearing a hold must be named",
    )
    assert hold.violation is INSURANCE  # still held
    assert hold.verify_clear("s01") is INSURANCE


class _Machine:
    """The least a game's machine with a ``hold`` state offers `Hold.violate`."""

    def __init__(self, state: str) -> None:
        self.state = state
        self.fired: list[str] = []

    def fire(self, trigger: str) -> None:
        self.fired.append(trigger)
        if trigger == "raise_hold":
            self.state = "hold"


def test_hold_procedure_violate_names_the_state_holds_the_machine_and_logs_the_card(
    caplog: pytest.LogCaptureFixture,
) -> None:
    hold, machine = Hold(), _Machine("dealer_second")
    with caplog.at_level(logging.WARNING, logger="controller.game.hold"):
        first = hold.violate(machine, "9.5", "a card before the losing insurance", ACE)
    assert first == Violation(
        "9.5", "a card before the losing insurance", "As", state="dealer_second", by="the shoe"
    )
    assert (machine.state, machine.fired, hold.held_from) == (
        "hold",
        ["raise_hold"],
        "dealer_second",
    )
    assert (hold.violation, hold.card, hold.cards) == (first, ACE, [(ACE, "dealer_second")])
    assert caplog.messages == ["HOLD: rule 9.5: a card before the losing insurance (card As)"]
    second = hold.violate(machine, "hold procedure", "a button", None, by="the VOID HAND button")
    assert (second.state, second.card, second.by) == ("hold", None, "the VOID HAND button")
    assert machine.fired == ["raise_hold"]  # already held: the machine stays, the HOLD too
    assert (hold.violation, hold.held_from, hold.violations) == (
        first,
        "dealer_second",
        [first, second],
    )


def test_hold_procedure_a_blank_supervisor_name_is_refused() -> None:
    hold = Hold()
    hold.note(INSURANCE, ACE, "dealer_second")
    with pytest.raises(IllegalAction) as blank:
        hold.verify_clear("  ")
    assert (blank.value.rule, blank.value.reason) == (
        HOLD_PROCEDURE,
        "a supervisor clearing a hold must be named",
    )
