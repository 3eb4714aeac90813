"""The blackjack round's phases: the states, the transitions between them, and one table
of what each state means at the table (`FACTS`: the rule a card there breaks, the shoe's
gate, the burn, the lamps). The machine runs on a private `PhaseModel` (controller.game):
its triggers skip the rules checks, so only `controller.blackjack.table` fires them,
after its own checks, through `fire`, which turns a refusal into `IllegalAction` citing
the rule of `TRIGGER_RULES`.

``python -m controller.blackjack.diagram`` draws `TRANSITIONS` into the docs.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from controller.game.machine import HOLD_FACTS, PhaseFacts, PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE
from controller.ports import Lamp, LampPattern

__all__ = ["FACTS", "STATES", "TRANSITIONS", "TRIGGER_RULES", "Phase", "Phases"]


class Phase(StrEnum):
    ROUND_OVER = "round_over"
    BETTING = "betting"
    NO_MORE_BETS = "no_more_bets"
    INITIAL_DEAL = "initial_deal"
    INSURANCE = "insurance"
    BOXES_ACTING = "boxes_acting"
    DEALER_SECOND = "dealer_second"
    INSURANCE_SETTLEMENT = "insurance_settlement"
    DEALER_DRAWING = "dealer_drawing"
    SETTLEMENT = "settlement"
    HOLD = "hold"


STATES = [p.value for p in Phase]
_LIVE = [s for s in STATES if s != Phase.HOLD]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "open_betting", "source": "round_over", "dest": "betting"},
    {"trigger": "close_bets", "source": "betting", "dest": "no_more_bets"},
    {"trigger": "start_deal", "source": "no_more_bets", "dest": "initial_deal"},
    {"trigger": "open_insurance", "source": "initial_deal", "dest": "insurance"},
    {"trigger": "start_play", "source": ["initial_deal", "insurance"], "dest": "boxes_acting"},
    {"trigger": "await_dealer_card", "source": "boxes_acting", "dest": "dealer_second"},
    {"trigger": "collect_insurance", "source": "dealer_second", "dest": "insurance_settlement"},
    {
        "trigger": "dealer_draws",
        "source": ["dealer_second", "insurance_settlement"],
        "dest": "dealer_drawing",
    },
    {
        "trigger": "settle",
        "source": ["dealer_second", "insurance_settlement", "dealer_drawing"],
        "dest": "settlement",
    },
    {"trigger": "end_round", "source": "settlement", "dest": "round_over"},
    {"trigger": "raise_hold", "source": _LIVE, "dest": "hold"},
    {"trigger": "void_round", "source": "hold", "dest": "settlement"},
    *({"trigger": f"resume_{s}", "source": "hold", "dest": s} for s in _LIVE),
]

# The rule that orders each step (cited when the machine refuses a trigger).
TRIGGER_RULES: dict[str, str] = {
    "open_betting": "4.2",
    "close_bets": "4.2",
    "start_deal": "4.2",  # no wager made, altered or withdrawn after the first card
    "open_insurance": "9.2",
    "start_play": "9.2",
    "await_dealer_card": "4.1",
    "collect_insurance": "9.5",
    "dealer_draws": "9.5",
    "settle": "4.1",
    "end_round": "4.1",
    "raise_hold": HOLD_PROCEDURE,
    "void_round": "9.6",
    **{f"resume_{s}": HOLD_PROCEDURE for s in _LIVE},
}

_FACTS: dict[Phase, PhaseFacts] = {
    Phase.ROUND_OVER: PhaseFacts(
        card_breaks=("4.2", "a card before betting opened: the round has not started"),
        burn=True,
        lamps={Lamp.DEALER_ACTION: LampPattern.BLINK},
    ),
    Phase.BETTING: PhaseFacts(
        card_breaks=("4.2", "a card before NO MORE BETS: wagers were still open"),
        burn=True,
        lamps={Lamp.BETTING_OPEN: LampPattern.STEADY},
    ),
    Phase.NO_MORE_BETS: PhaseFacts(gate_open=True, burn=True),
    Phase.INITIAL_DEAL: PhaseFacts(gate_open=True),
    Phase.INSURANCE: PhaseFacts(
        card_breaks=("9.2", "a card while insurance was open: close insurance first"),
        lamps={Lamp.INSURANCE_OPEN: LampPattern.STEADY},
    ),
    Phase.BOXES_ACTING: PhaseFacts(gate_open=True),
    Phase.DEALER_SECOND: PhaseFacts(gate_open=True),
    Phase.INSURANCE_SETTLEMENT: PhaseFacts(
        card_breaks=("9.5", "a card before the losing insurance was collected"),
        lamps={Lamp.INSURANCE_OPEN: LampPattern.BLINK, Lamp.DEALER_ACTION: LampPattern.STEADY},
    ),
    Phase.DEALER_DRAWING: PhaseFacts(gate_open=True),
    Phase.SETTLEMENT: PhaseFacts(
        card_breaks=("4.1", "a card after the dealer's hand was complete"),
        lamps={Lamp.DEALER_ACTION: LampPattern.STEADY},
    ),
    Phase.HOLD: HOLD_FACTS,
}
# keyed by the state's text, as the machine holds it (an Enum member hashes by its name)
FACTS: dict[str, PhaseFacts] = {phase.value: facts for phase, facts in _FACTS.items()}


class Phases(PhaseModel):
    """The round's machine, private to the table."""

    def __init__(self) -> None:
        super().__init__(STATES, TRANSITIONS, Phase.ROUND_OVER.value)

    def fire(self, trigger: str) -> None:
        fire(self, trigger, TRIGGER_RULES)
