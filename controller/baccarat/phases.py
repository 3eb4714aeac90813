"""The coup's phases: the states, the transitions between them, and one table of what
each state means at the table (`FACTS`: the rule a card there breaks, the shoe's gate,
the burn, the lamps). The machine runs on the kernel's private `PhaseModel`; only
`controller.baccarat.table` fires it, after its own checks, through the kernel's `fire`,
which turns a refusal into `IllegalAction` citing the rule in `TRIGGER_RULES`.

``python -m controller.baccarat.diagram`` draws `TRANSITIONS` into docs/baccarat.md.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from controller.baccarat.rules import (
    BURN_RULE,
    CUT_CARD_RULE,
    SHUFFLE_RULE,
    SUPERVISOR_SHUFFLE_RULE,
    TABLE_OF_PLAY,
    VOID_RULE,
    WAGERS_RULE,
)
from controller.game.machine import HOLD_FACTS, PhaseFacts, PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE
from controller.ports import Lamp, LampPattern

__all__ = [
    "BETWEEN_COUPS",
    "DEALING",
    "FACTS",
    "LAMPS",
    "STATES",
    "TRANSITIONS",
    "TRIGGER_RULES",
    "Phase",
    "Phases",
]


class Phase(StrEnum):
    SHUFFLE = "shuffle"  # a new shoe is due: shuffle it and confirm SHUFFLED
    BURN = "burn"  # the new shoe's first card, and the cards its value burns
    BETTING = "betting"
    INITIAL_DEAL = "initial_deal"  # NO MORE BETS called: Player, Banker, Player, Banker
    PLAYER_THIRD = "player_third"  # the Player's third card is due
    BANKER_THIRD = "banker_third"  # the Banker's third card is due
    SETTLEMENT = "settlement"  # both hands complete: pay and collect, then NEXT
    HOLD = "hold"


STATES = [p.value for p in Phase]
_LIVE = [s for s in STATES if s != Phase.HOLD]
DEALING = frozenset({Phase.INITIAL_DEAL, Phase.PLAYER_THIRD, Phase.BANKER_THIRD})  # a card due
# between coups, where a supervisor may order the shoe shuffled (not during a coup)
BETWEEN_COUPS = frozenset({Phase.BURN, Phase.BETTING, Phase.SETTLEMENT})
_DRAWING = ["initial_deal", "player_third", "banker_third"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "shuffled", "source": "shuffle", "dest": "burn"},
    {"trigger": "open_betting", "source": "burn", "dest": "betting"},
    {"trigger": "close_bets", "source": "betting", "dest": "initial_deal"},
    {"trigger": "player_draws", "source": "initial_deal", "dest": "player_third"},
    {"trigger": "banker_draws", "source": ["initial_deal", "player_third"], "dest": "banker_third"},
    {"trigger": "settle", "source": _DRAWING, "dest": "settlement"},
    {"trigger": "next_coup", "source": "settlement", "dest": "betting"},
    {"trigger": "end_shoe", "source": "settlement", "dest": "shuffle"},
    {"trigger": "order_shuffle", "source": ["burn", "betting", "settlement"], "dest": "shuffle"},
    {"trigger": "raise_hold", "source": _LIVE, "dest": "hold"},
    {"trigger": "void_coup", "source": "hold", "dest": "settlement"},
    *({"trigger": f"resume_{s}", "source": "hold", "dest": s} for s in _LIVE),
]

TRIGGER_RULES: dict[str, str] = {
    "shuffled": SHUFFLE_RULE,
    "open_betting": BURN_RULE,
    "close_bets": WAGERS_RULE,
    "player_draws": TABLE_OF_PLAY,
    "banker_draws": TABLE_OF_PLAY,
    "settle": TABLE_OF_PLAY,
    "next_coup": WAGERS_RULE,
    "end_shoe": CUT_CARD_RULE,
    "order_shuffle": SUPERVISOR_SHUFFLE_RULE,
    "raise_hold": HOLD_PROCEDURE,
    "void_coup": VOID_RULE,
    **{f"resume_{s}": HOLD_PROCEDURE for s in _LIVE},
}

LAMPS = (Lamp.BETTING_OPEN, Lamp.DEALER_ACTION, Lamp.HOLD)  # the lamps baccarat drives

_FACTS: dict[Phase, PhaseFacts] = {
    Phase.SHUFFLE: PhaseFacts(
        card_breaks=(SHUFFLE_RULE, "a card before the new shoe's shuffle was confirmed"),
        lamps={Lamp.DEALER_ACTION: LampPattern.BLINK},
    ),
    Phase.BURN: PhaseFacts(
        gate_open=True, burn=True, lamps={Lamp.DEALER_ACTION: LampPattern.STEADY}
    ),
    Phase.BETTING: PhaseFacts(
        card_breaks=(WAGERS_RULE, "a card before NO MORE BETS: wagers were still open"),
        lamps={Lamp.BETTING_OPEN: LampPattern.STEADY},
    ),
    Phase.INITIAL_DEAL: PhaseFacts(gate_open=True),
    Phase.PLAYER_THIRD: PhaseFacts(gate_open=True),
    Phase.BANKER_THIRD: PhaseFacts(gate_open=True),
    Phase.SETTLEMENT: PhaseFacts(
        card_breaks=(TABLE_OF_PLAY, "a card after both hands were complete"),
        lamps={Lamp.DEALER_ACTION: LampPattern.STEADY},
    ),
    Phase.HOLD: HOLD_FACTS,
}
FACTS: dict[str, PhaseFacts] = {phase.value: facts for phase, facts in _FACTS.items()}


class Phases(PhaseModel):
    """The coup's machine, private to the table."""

    def __init__(self) -> None:
        super().__init__(STATES, TRANSITIONS, Phase.SHUFFLE.value)

    def fire(self, trigger: str) -> None:
        fire(self, trigger, TRIGGER_RULES)
