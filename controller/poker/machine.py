"""The hand's phases as a `transitions` machine (strict: no auto transitions, no silent
refusals). The betting, the draw and the showdown inside a phase are plain objects; the
machine only moves between phases, so a hand costs about ten triggers.

    button placed -> blinds posted -> five cards dealt one at a time clockwise from left
    of the button -> first betting round (11.2(c)) -> the draw (11.3) -> final betting
    round (11.4(a)-(b)) -> showdown (11.4(c)) -> pots awarded (11.4(d)) -> button moves.
    One player left at any point wins the pot (11.2(c)(i), 11.4(b)(i)).

``python -m controller.poker.diagram`` draws this table into docs/poker-machine.md.
"""

from __future__ import annotations

from typing import Any

from transitions import Machine, MachineError

from controller.errors import IllegalAction

STATES = [
    "waiting",  # no hand yet; the dealer places the button
    "button_placed",  # the button (maybe dead) is placed, blinds not yet posted
    "dealing",  # blinds posted; five cards to each seat, one at a time, clockwise
    "first_round",  # 11.2(c)
    "drawing",  # 11.3
    "final_round",  # 11.4(a)-(b)
    "showdown",  # 11.4(c)
    "complete",  # pots awarded (11.4(d)); the button moves for the next hand
]

_BETTING_OVER = ["first_round", "final_round"]
_IN_HAND = ["dealing", "first_round", "drawing", "final_round", "showdown"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "place_button", "source": "waiting", "dest": "button_placed"},
    {"trigger": "move_button", "source": "complete", "dest": "button_placed"},
    {"trigger": "post_blinds", "source": "button_placed", "dest": "dealing"},
    {"trigger": "cards_dealt", "source": "dealing", "dest": "first_round"},
    {"trigger": "first_round_closed", "source": "first_round", "dest": "drawing"},
    {"trigger": "draw_completed", "source": "drawing", "dest": "final_round"},
    {"trigger": "final_round_closed", "source": "final_round", "dest": "showdown"},
    {"trigger": "pots_awarded", "source": "showdown", "dest": "complete"},
    {"trigger": "one_player_left", "source": _BETTING_OVER, "dest": "complete"},
    {"trigger": "void_hand", "source": _IN_HAND, "dest": "complete"},
]

RULE_OF_TRIGGER = {
    "place_button": "11.2",
    "move_button": "11.2",
    "post_blinds": "11.2",
    "cards_dealt": "11.2",
    "first_round_closed": "11.2(c)",
    "draw_completed": "11.3(a)",
    "final_round_closed": "11.4(b)",
    "pots_awarded": "11.4(d)",
    "one_player_left": "11.2(c)(i)",
    "void_hand": "supervisor",
}


def build_machine(model: object) -> Machine:
    return Machine(
        model=model,
        states=STATES,
        transitions=TRANSITIONS,
        initial="waiting",
        auto_transitions=False,
        ignore_invalid_triggers=False,
    )


def fire(model: Any, trigger: str) -> None:
    """Run ``trigger``; a refusal becomes `IllegalAction` naming the rule."""
    try:
        getattr(model, trigger)()  # the bound trigger: skips trigger()'s name lookup
    except MachineError as exc:
        raise IllegalAction(
            RULE_OF_TRIGGER[trigger], f"cannot {trigger.replace('_', ' ')} now ({exc.value})"
        ) from exc
