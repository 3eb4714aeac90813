"""The kernel's `fire` moves a plain transition itself (for speed: a dict look-up instead
of transitions' event queue). What must not change: the same destinations as the machine,
the same refusals (`IllegalAction` citing the trigger's rule), and a machine with any
callback or condition still runs every trigger through transitions."""

from __future__ import annotations

import pytest

from controller.errors import IllegalAction
from controller.game.machine import PhaseModel, fire
from controller.poker.machine import RULE_OF_TRIGGER, TRANSITIONS, Phases

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
    fire(model, "go", RULES)  # the condition says no: transitions leaves it in a
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
