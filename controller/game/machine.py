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

    def __init__(
        self,
        states: Sequence[str],
        transitions: Sequence[Mapping[str, Any]],
        initial: str,
    ) -> None:
        Machine(
            model=self,
            states=list(states),
            transitions=[dict(t) for t in transitions],
            initial=initial,
            auto_transitions=False,
            ignore_invalid_triggers=False,
        )


def fire(model: PhaseModel, trigger: str, rules: Mapping[str, str]) -> None:
    """Run ``trigger`` on ``model``; a refusal becomes `IllegalAction` citing the rule
    ``rules`` names for that trigger."""
    try:
        getattr(model, trigger)()  # the bound trigger: skips trigger()'s name lookup
    except MachineError as exc:
        raise IllegalAction(
            rules[trigger], f"cannot {trigger.replace('_', ' ')} now ({exc.value})"
        ) from exc


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
# clears it (the gate stays locked), and the red lamp flashes (DESIGN.md Runtime model).
HOLD_FACTS = PhaseFacts(
    card_breaks=(HOLD_PROCEDURE, "a card while the table was on hold"),
    lamps={Lamp.HOLD: LampPattern.FLASH},
)
