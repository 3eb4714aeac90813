"""The hand's phases as a `transitions` machine (strict: no auto transitions, no silent
refusals). The betting, the draw and the showdown inside a phase are plain objects; the
machine only moves between phases, so a hand costs about ten triggers.

    button placed -> blinds posted -> five cards dealt one at a time clockwise from left
    of the button -> first betting round (11.2(c)) -> the draw (11.3) -> final betting
    round (11.4(a)-(b)) -> showdown (11.4(c)) -> pots awarded (11.4(d)) -> button moves.
    One player left at any point wins the pot (11.2(c)(i), 11.4(b)(i)).
    From any of them -> hold on a violation -> back where it was (``resume_<state>``), or
    the hand is void (``void_hand``).

``python -m controller.poker.diagram`` draws this table into docs/poker-machine.md.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from controller.game.machine import HOLD_FACTS, PhaseFacts, PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE
from controller.ports import Lamp, LampPattern


class Phase(StrEnum):
    WAITING = "waiting"  # no hand yet; the dealer places the button
    BUTTON_PLACED = "button_placed"  # the button (maybe dead) is placed, blinds not yet posted
    DEALING = "dealing"  # blinds posted; five cards to each seat, one at a time, clockwise
    FIRST_ROUND = "first_round"  # 11.2(c)
    DRAWING = "drawing"  # 11.3
    FINAL_ROUND = "final_round"  # 11.4(a)-(b)
    SHOWDOWN = "showdown"  # 11.4(c)
    COMPLETE = "complete"  # pots awarded (11.4(d)); the button moves for the next hand
    HOLD = "hold"  # a violation: nothing is dealt or bet until a supervisor clears it


STATES = [p.value for p in Phase]
_LIVE = [s for s in STATES if s != Phase.HOLD]

_BETTING_OVER = ["first_round", "final_round"]
IN_HAND = frozenset({"dealing", "first_round", "drawing", "final_round", "showdown"})

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
    {"trigger": "raise_hold", "source": _LIVE, "dest": "hold"},
    # the hand void (only a HOLD that went up in a hand: `controller.poker.table`)
    {"trigger": "void_hand", "source": "hold", "dest": "complete"},
    *({"trigger": f"resume_{s}", "source": "hold", "dest": s} for s in _LIVE),
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
    "raise_hold": HOLD_PROCEDURE,
    "void_hand": HOLD_PROCEDURE,
    **{f"resume_{s}": HOLD_PROCEDURE for s in _LIVE},
}


DEAL_RULE = "11.2"  # the deal precedes 11.2(c); its clauses are not in docs/rules/poker.md
FOREIGN_CARD_RULE = DEAL_RULE
"""The rule a card the deck cannot hold breaks (`controller.shoe_audit`): 11.2, the deal of
one 52-card deck. The Division 13 definition of a defective deck ("wrong count,
duplicates, jokers...", NZ Gazette 1999 No. 11 pp. 266-269) has no clause number, and the
table already cites 11.2 for a card dealt twice. An unknown RFID tag, or a reader lost
with the gate open, holds the table under it too."""

LAMPS = (Lamp.BETTING_OPEN, Lamp.DEALER_ACTION, Lamp.HOLD)  # the lamps poker drives
_BETTING_OPEN = {Lamp.BETTING_OPEN: LampPattern.STEADY}

# What each state means at the table: the rule a card there breaks (no card is due),
# whether the shoe's gate is open (no card is due while players bet: it stays locked), and
# the lamps: BETTING_OPEN while a betting round is open. On HOLD the red lamp flashes over
# the lamps of the state the HOLD went up in (`controller.poker.table.PokerTable.signals`).
_FACTS: dict[Phase, PhaseFacts] = {
    Phase.WAITING: PhaseFacts(card_breaks=(DEAL_RULE, "no hand is being dealt")),
    Phase.BUTTON_PLACED: PhaseFacts(card_breaks=(DEAL_RULE, "the blinds are not posted")),
    Phase.DEALING: PhaseFacts(gate_open=True),
    Phase.FIRST_ROUND: PhaseFacts(
        card_breaks=("11.2(c)", "players are betting"), lamps=_BETTING_OPEN
    ),
    Phase.DRAWING: PhaseFacts(gate_open=True),
    Phase.FINAL_ROUND: PhaseFacts(
        card_breaks=("11.4(b)", "players are betting"), lamps=_BETTING_OPEN
    ),
    Phase.SHOWDOWN: PhaseFacts(card_breaks=(DEAL_RULE, "the hand is in its showdown")),
    Phase.COMPLETE: PhaseFacts(card_breaks=(DEAL_RULE, "the hand is complete")),
    Phase.HOLD: HOLD_FACTS,
}
FACTS: dict[str, PhaseFacts] = {phase.value: facts for phase, facts in _FACTS.items()}


class Phases(PhaseModel):
    """The hand's machine, private to the table: its triggers skip the rules checks."""

    def __init__(self) -> None:
        super().__init__(STATES, TRANSITIONS, Phase.WAITING.value)

    def fire(self, trigger: str) -> None:
        """Run ``trigger``; a refusal becomes `IllegalAction` naming the rule."""
        fire(self, trigger, RULE_OF_TRIGGER)
