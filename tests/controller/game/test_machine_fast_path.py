"""The kernel's `fire` moves a plain transition itself (for speed: a dict look-up instead
of transitions' event queue). What must not change: the same destinations as the machine,
the same refusals (`IllegalAction` citing the trigger's rule), and a machine with any
callback or condition still runs every trigger through transitions.

A refused trigger is an `IllegalAction` citing the rule that orders the step (11.2(c) for
poker's first betting round); any callback anywhere on the machine (machine hooks, a
state's on_enter/on_exit, a final state, a transition's prepare/conditions/before/after)
sends every trigger through transitions, so the callback runs."""

from __future__ import annotations

from typing import Any

import pytest
from transitions import Machine

from controller.blackjack import phases as bj
from controller.errors import IllegalAction
from controller.game.machine import HOLD_FACTS, PhaseModel, _plain_moves, fire
from controller.game.records import HOLD_PROCEDURE
from controller.poker import phases as pk
from controller.poker.phases import RULE_OF_TRIGGER, TRANSITIONS, Phases
from controller.ports import Lamp, LampPattern

RULES = {"go": "1.1", "back": "1.2"}


def test_plain_moves_are_exactly_the_machines_transitions() -> None:
    moves = Phases()._moves
    expected = {
        (t["trigger"], source): t["dest"]
        for t in TRANSITIONS
        for source in ([t["source"]] if isinstance(t["source"], str) else t["source"])
    }
    assert moves == expected


def test_fast_path_reaches_the_same_state_as_the_machine() -> None:
    fast, slow = Phases(), Phases()
    slow._moves = {}  # every trigger through transitions
    triggers = ("place_button", "post_blinds", "cards_dealt", "first_round_closed",
                "draw_completed", "final_round_closed", "pots_awarded", "move_button")  # fmt: skip
    for trigger in triggers:
        fast.fire(trigger)
        slow.fire(trigger)
        assert fast.state == slow.state
    assert fast.state == "button_placed"


def test_rule_11_2_c_refused_trigger_still_raises_citing_the_rule() -> None:
    phases = Phases()
    with pytest.raises(IllegalAction) as caught:
        phases.fire("first_round_closed")  # no hand yet
    assert caught.value.rule == RULE_OF_TRIGGER["first_round_closed"] == "11.2(c)"
    assert phases.state == "waiting"


def test_a_machine_with_a_condition_is_not_short_cut() -> None:
    allowed: list[bool] = [False]

    class Guarded(PhaseModel):
        def ok(self) -> bool:
            return allowed[0]

    model = Guarded(
        ["a", "b"],
        [{"trigger": "go", "source": "a", "dest": "b", "conditions": "ok"},
         {"trigger": "back", "source": "b", "dest": "a"}],
        "a",
    )  # fmt: skip
    assert model._moves == {}
    with pytest.raises(IllegalAction, match=r"cannot go now \(its condition is not met\)"):
        fire(model, "go", RULES)  # the condition says no: refused, never a quiet False
    assert model.state == "a"
    allowed[0] = True
    fire(model, "go", RULES)
    assert model.state == "b"


def test_a_machine_with_an_on_enter_callback_is_not_short_cut() -> None:
    entered: list[str] = []

    class Noted(PhaseModel):
        def note(self) -> None:
            entered.append(self.state)

    model = Noted(
        [{"name": "a"}, {"name": "b", "on_enter": "note"}],  # type: ignore[list-item]
        [{"trigger": "go", "source": "a", "dest": "b"}],
        "a",
    )
    assert model._moves == {}
    fire(model, "go", RULES)
    assert entered == ["b"]


STATES = ["a", "b"]
GO_BACK = [
    {"trigger": "go", "source": "a", "dest": "b"},
    {"trigger": "back", "source": "b", "dest": "a"},
]


def noop(*_: object) -> None:
    """A callback that does nothing: its presence alone matters."""


def test_rule_11_2_c_a_refused_trigger_names_the_step_and_why() -> None:
    phases = Phases()
    with pytest.raises(IllegalAction) as refused:
        phases.fire("first_round_closed")  # no hand yet
    assert refused.value.rule == "11.2(c)"
    assert refused.value.reason == (
        "cannot first round closed now (Can't trigger event first_round_closed from state waiting!)"
    )


def test_issue_16_a_plain_move_is_made_without_transitions_event_queue() -> None:
    model = PhaseModel(STATES, GO_BACK, "a")
    assert model._moves == {("go", "a"): "b", ("back", "b"): "a"}
    called: list[str] = []
    model.go = lambda: called.append("go")  # type: ignore[attr-defined]
    fire(model, "go", RULES)
    assert model.state == "b" and called == []


def test_strict_machine_has_no_auto_transitions_and_refuses_invalid_triggers() -> None:
    model = PhaseModel(STATES, GO_BACK, "a")
    assert not hasattr(model, "to_b")
    model._moves = {}  # through transitions
    with pytest.raises(IllegalAction) as refused:
        fire(model, "back", RULES)
    assert refused.value.rule == "1.2" and model.state == "a"


@pytest.mark.parametrize(
    "hook",
    [
        "before_state_change",
        "after_state_change",
        "prepare_event",
        "finalize_event",
        "on_exception",
        "on_final",
    ],
)
def test_issue_16_a_machine_hook_sends_every_trigger_through_transitions(hook: str) -> None:
    callbacks: dict[str, Any] = {hook: noop}
    machine = Machine(model=None, states=STATES, transitions=GO_BACK, initial="a", **callbacks)
    assert _plain_moves(machine) == {}
    plain = Machine(model=None, states=STATES, transitions=GO_BACK, initial="a")
    assert _plain_moves(plain) != {}


@pytest.mark.parametrize(
    "state_b",
    [
        {"name": "b", "on_enter": noop},
        {"name": "b", "on_exit": noop},
        {"name": "b", "final": True},
    ],
    ids=["on_enter", "on_exit", "final"],
)
def test_issue_16_a_state_callback_or_final_state_is_not_short_cut(state_b: Any) -> None:
    model = PhaseModel(["a", state_b], GO_BACK, "a")
    assert model._moves == {}
    fire(model, "go", RULES)
    assert model.state == "b"


@pytest.mark.parametrize("key", ["prepare", "conditions", "unless", "before", "after"])
def test_issue_16_a_transition_with_any_callback_is_not_short_cut(key: str) -> None:
    ran: list[str] = []

    class Model(PhaseModel):
        def hook(self) -> bool:
            ran.append(key)
            return key != "unless"  # an unless that says no lets the move happen

    go = {"trigger": "go", "source": "a", "dest": "b", key: "hook"}
    model = Model(STATES, [go, GO_BACK[1]], "a")
    assert model._moves == {}
    fire(model, "go", RULES)
    assert model.state == "b" and ran == [key]


def test_hold_procedure_facts_no_card_gate_locked_red_lamp_flashing() -> None:
    assert HOLD_FACTS.card_breaks == (HOLD_PROCEDURE, "a card while the table was on hold")
    assert (HOLD_FACTS.gate_open, HOLD_FACTS.burn) == (False, False)
    assert HOLD_FACTS.lamps == {Lamp.HOLD: LampPattern.FLASH}


def test_rule_4_2_only_the_states_that_say_so_open_the_gate_or_take_the_burn_card() -> None:
    """A state's facts default to the safe side (docs/architecture.md): gate locked, no
    burn card expected; a card before the round's deal breaks 4.2 unless it is the burn."""
    assert {s for s, f in bj.FACTS.items() if f.burn} == {"round_over", "betting", "no_more_bets"}
    assert {s for s, f in pk.FACTS.items() if f.gate_open} == {"dealing", "drawing"}
    assert {s for s, f in pk.FACTS.items() if f.burn} == set()
