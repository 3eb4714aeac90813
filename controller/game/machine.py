"""What both games' state machines share: a strict `transitions` machine on a private
model, one `fire` that turns a refused trigger into `IllegalAction` citing the rule, and
the facts each state of a game carries (`PhaseFacts`), kept in one table per game.

The machine lives on a small private model, not on the table: its triggers (``settle``,
``raise_hold``...) move the phase and skip every rules check, so they are never part of
a table's public API; the table fires them through `fire` after its own checks. A trigger
the machine refuses is a bug in that order or an input at the wrong moment, and either way
it is an `IllegalAction` naming the rule that orders the step, never a quiet False nor a
`MachineError` that would journal as a ControllerFault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from transitions import Machine, MachineError

from controller.errors import IllegalAction
from controller.game.records import HOLD_PROCEDURE
from controller.ports import Lamp, LampPattern

__all__ = ["HOLD_FACTS", "PhaseFacts", "PhaseModel", "fire"]


class PhaseModel:
    """The private model a game's machine runs on: ``state`` and the triggers only."""

    state: str
    _moves: dict[tuple[str, str], str]  # the plain moves `fire` makes itself

    def __init__(
        self,
        states: Sequence[str],
        transitions: Sequence[Mapping[str, Any]],
        initial: str,
    ) -> None:
        machine = Machine(
            model=self,
            states=list(states),
            transitions=[dict(t) for t in transitions],
            initial=initial,
            auto_transitions=False,
            ignore_invalid_triggers=False,
        )
        self._moves = _plain_moves(machine)


def _plain_moves(machine: Machine) -> dict[tuple[str, str], str]:
    """(trigger, source) -> dest for every transition the machine would run with nothing
    but the state change: no conditions, no callbacks on it, its states or the machine.
    `fire` moves those itself (a dict look-up instead of transitions' event queue, about a
    tenth of the cost at draw poker's rate); anything else, and every refusal, still
    goes through the machine, so its checks and its MachineError are the ones that apply.
    Empty when the machine has any callback at all (then every trigger goes through it)."""
    hooks = ("before_state_change", "after_state_change", "prepare_event", "finalize_event")
    if any(getattr(machine, hook, None) for hook in (*hooks, "on_exception", "on_final")):
        return {}
    if any(
        state.on_enter or state.on_exit or getattr(state, "final", False)
        for state in machine.states.values()
    ):
        return {}
    moves: dict[tuple[str, str], str] = {}
    for trigger, event in machine.events.items():
        for source, candidates in event.transitions.items():
            if len(candidates) != 1:
                return {}
            move = candidates[0]
            if move.prepare or move.conditions or move.before or move.after:
                return {}
            if move.dest is not None:  # an internal transition (no dest) stays on the machine
                moves[trigger, source] = move.dest
    return moves


def fire(model: PhaseModel, trigger: str, rules: Mapping[str, str]) -> None:
    """Run ``trigger`` on ``model``; a refusal becomes `IllegalAction` citing the rule
    ``rules`` names for that trigger."""
    dest = model._moves.get((trigger, model.state))
    if dest is not None:  # a plain move (see _plain_moves): the machine's own table
        model.state = dest
        return
    try:
        moved = getattr(model, trigger)()  # the bound trigger: skips trigger()'s name lookup
    except MachineError as exc:
        raise IllegalAction(
            rules[trigger], f"cannot {trigger.replace('_', ' ')} now ({exc.value})"
        ) from exc
    if not moved:  # a transition's condition said no: refused as loudly as a wrong state
        raise IllegalAction(
            rules[trigger], f"cannot {trigger.replace('_', ' ')} now (its condition is not met)"
        )


@dataclasses.dataclass(frozen=True, slots=True)
class PhaseFacts:
    """What one state of a game's machine means at the table.

    ``card_breaks``: the (rule, message) a card leaving the shoe here breaks (None: a card
    may come); ``gate_open``: the shoe's gate is unlocked here; ``burn``: after a shuffle,
    the burn card comes here; ``lamps``: the lamps lit here (any other is off)."""

    card_breaks: tuple[str, str] | None = None
    gate_open: bool = False
    burn: bool = False
    lamps: Mapping[Lamp, LampPattern] = dataclasses.field(default_factory=dict)


# The HOLD state, where a game's machine has one: no card may come until a supervisor
# clears it (the gate stays locked), and the red lamp flashes (docs/architecture.md).
HOLD_FACTS = PhaseFacts(
    card_breaks=(HOLD_PROCEDURE, "a card while the table was on hold"),
    lamps={Lamp.HOLD: LampPattern.FLASH},
)
