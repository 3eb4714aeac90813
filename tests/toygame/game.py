"""High card, the smallest game the kernel can run: every card from the shoe is seen and
journaled; after ``cards_per_round`` cards the round ends with the highest card named.
NEXT starts a round (the shoe's gate unlocks); a card outside a round, or one its one-deck
shoe cannot hold, is a violation that holds the table until a supervisor accepts it.

It takes the table mechanics from the kernel, as a game should, and copies none: its table
is a `GameTable` (its machine, `PhaseModel` and `fire`, with a ``hold`` state; the HOLD,
`violate` and `begin_clear`; the gate and lamps told from its states' facts, `FACTS`), its
game the kernel's adapter `TableGame` (events, console and decisions in, outputs out, the
view), and the shoe audit cites the rule the game brings and its spec names
(``foreign_card_rule``). It says no gate or lamp command itself: its rules and its facts."""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import GameSpec, Output
from controller.game.machine import HOLD_FACTS, PhaseFacts, PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE, DecisionOffer, HoldCleared, Violation, offers
from controller.game.table import GameTable, TableGame
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton, DeviceNeeds, Event, Lamp
from controller.shoe_audit import ShoeAudit

ROUND_RULE = "toy 1"  # NEXT starts a round, one at a time
OUTSIDE_RULE = "toy 2"  # a card comes only during a round
FOREIGN_CARD_RULE = "toy 4"  # a card the one-deck shoe cannot hold (controller.shoe_audit)

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "start", "source": "idle", "dest": "dealing"},
    {"trigger": "end", "source": "dealing", "dest": "idle"},
    {"trigger": "raise_hold", "source": ["idle", "dealing"], "dest": "hold"},
    {"trigger": "resume_idle", "source": "hold", "dest": "idle"},
    {"trigger": "resume_dealing", "source": "hold", "dest": "dealing"},
]
TRIGGER_RULES = {
    "start": ROUND_RULE,
    "end": ROUND_RULE,
    **{t: HOLD_PROCEDURE for t in ("raise_hold", "resume_idle", "resume_dealing")},
}

# What each state means at the table: the gate opens only for a round's cards; on HOLD
# the gate locks and the red lamp flashes (the kernel's HOLD_FACTS).
FACTS = {
    "idle": PhaseFacts(),
    "dealing": PhaseFacts(gate_open=True),
    "hold": HOLD_FACTS,
}


class ToyPhases(PhaseModel):
    def __init__(self) -> None:
        super().__init__(["idle", "dealing", "hold"], TRANSITIONS, "idle")

    def fire(self, trigger: str) -> None:
        fire(self, trigger, TRIGGER_RULES)


@dataclasses.dataclass(frozen=True)
class ToyRules:
    cards_per_round: int = 2


@dataclasses.dataclass(frozen=True, slots=True)
class ToyCardSeen:
    card: str
    position: int


@dataclasses.dataclass(frozen=True, slots=True)
class ToyRoundEnded:
    high: str


class ToyTable(GameTable):
    """The toy's rules; the kernel's base does the rest."""

    FACTS = FACTS
    LAMPS = (Lamp.HOLD,)  # the one lamp the toy needs (its spec's devices)

    def __init__(self, rules: ToyRules) -> None:
        super().__init__(ToyPhases(), "idle")
        self.rules = rules
        self.round = 0
        self.cards: list[Card] = []
        self.audit = ShoeAudit(1, FOREIGN_CARD_RULE)

    @property
    def held(self) -> Violation | None:
        """The violation holding the table, if any."""
        return self._hold.violation

    def handle(self, event: Event) -> list[Output]:
        if isinstance(event, ButtonPressed) and event.button is ConsoleButton.NEXT:
            self.next()
        elif isinstance(event, CardDrawn):
            self.card_drawn(event.card)
        return self.take_outputs()

    def next(self) -> None:
        if self._phases.state != "idle":
            raise IllegalAction(ROUND_RULE, "a round is under way")
        self._phases.fire("start")
        self.cards = []
        self.audit.shuffled()  # the deck is shuffled for every round

    def card_drawn(self, card: Card) -> None:
        foreign = self.audit.see(card)
        if foreign is not None:
            self.violate(foreign.rule, foreign.message, card)
            return
        if self._phases.state != "dealing":
            self.violate(OUTSIDE_RULE, "a card outside a round", card)
            return
        self.cards.append(card)
        self._out.append(ToyCardSeen(str(card), len(self.cards)))
        if len(self.cards) == self.rules.cards_per_round:
            high = max(self.cards, key=lambda c: (c.rank, c.suit))
            self._phases.fire("end")
            self.round += 1
            self._out.append(ToyRoundEnded(str(high)))

    def supervisor_clear(self, who: str, decision: str) -> HoldCleared:
        """The toy's one decision: the card stands, set aside, and the table goes on
        where it was held."""
        cleared = HoldCleared(who, "accept", self.begin_clear(who))
        self._hold.cards.clear()
        self._phases.fire(f"resume_{self._hold.held_from}")
        self._out.append(cleared)
        return cleared


class ToyGame(TableGame):
    table: ToyTable

    def __init__(self, rules: ToyRules) -> None:
        super().__init__(SPEC, ToyTable(rules))

    @property
    def round_no(self) -> int:
        return self.table.round

    def snapshot(self) -> object:
        held = self.table.held
        return {
            "state": self.table.state,
            "cards": [str(c) for c in self.table.cards],
            "hold": None if held is None else dataclasses.asdict(held),
        }

    def offered(self) -> list[dict[str, Any]]:
        return offers(DecisionOffer("accept", "Accept the card: play goes on"))


SPEC = GameSpec(
    name="toy",
    rules=ToyRules,
    make=ToyGame,
    devices=DeviceNeeds(buttons=(ConsoleButton.NEXT,), lamps=(Lamp.HOLD,)),
    console={},
    decisions={"accept": ToyTable.supervisor_clear},
    foreign_card_rule=FOREIGN_CARD_RULE,
    round_end="ToyRoundEnded",
)


# The same game with its own page drawing, as a game ships one: static/toy.js in this folder,
# registered under the renderer its views name (tests/toygame/test_toy_drawing.py).
DRAWN = dataclasses.replace(SPEC, renderer="toy", page_script="toygame:static/toy.js")
