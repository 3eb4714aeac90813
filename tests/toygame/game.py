"""High card, the smallest game the kernel can run: every card from the shoe is seen and
journaled; after ``cards_per_round`` cards the round ends with the highest card named.
NEXT starts a round (the shoe's gate unlocks); a card outside a round, or one its one-deck
shoe cannot hold, is a violation that holds the table until a supervisor accepts it.

It takes the table mechanics from the kernel, as a game should, and copies none: its
machine (`PhaseModel`, `fire`) with a ``hold`` state, the HOLD (`Hold.violate`,
`Hold.verify_clear`) and the shoe audit, citing the rule the game brings and its spec
names (``foreign_card_rule``)."""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import GameSpec, Output, Step
from controller.game.hold import Hold
from controller.game.machine import PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE, DecisionOffer, HoldCleared, offers
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleButton,
    DeviceNeeds,
    Event,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    SupervisorAction,
    UnlockShoe,
)
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


class ToyGame:
    name = "toy"

    def __init__(self, rules: ToyRules) -> None:
        self.rules = rules
        self.round = 0
        self.cards: list[Card] = []
        self.phases = ToyPhases()
        self.hold = Hold()
        self.audit = ShoeAudit(1, FOREIGN_CARD_RULE)

    @property
    def round_no(self) -> int:
        return self.round

    def handle(self, event: Event) -> Step:
        if isinstance(event, ButtonPressed) and event.button is ConsoleButton.NEXT:
            return self.next()
        if isinstance(event, CardDrawn):
            return self.card_drawn(event.card)
        if isinstance(event, SupervisorAction):
            return self.accept(event.who)
        return []

    def next(self) -> Step:
        if self.phases.state != "idle":
            raise IllegalAction(ROUND_RULE, "a round is under way")
        self.phases.fire("start")
        self.cards = []
        self.audit.shuffled()  # the deck is shuffled for every round
        return [UnlockShoe()]

    def card_drawn(self, card: Card) -> Step:
        foreign = self.audit.see(card)
        if foreign is not None:
            return self.violate(foreign.rule, foreign.message, card)
        if self.phases.state != "dealing":
            return self.violate(OUTSIDE_RULE, "a card outside a round", card)
        self.cards.append(card)
        out: list[Output] = [ToyCardSeen(str(card), len(self.cards))]
        if len(self.cards) == self.rules.cards_per_round:
            high = max(self.cards, key=lambda c: (c.rank, c.suit))
            self.phases.fire("end")
            self.round += 1
            out += [ToyRoundEnded(str(high)), LockShoe()]
        return out

    def violate(self, rule: str, message: str, card: Card) -> Step:
        violation = self.hold.violate(self.phases, rule, message, card)
        return [violation, LockShoe(), SetLamp(Lamp.HOLD, LampPattern.FLASH)]

    def accept(self, who: str) -> Step:
        """The card stands: set aside, and the table goes on where it was held."""
        self.hold.verify_clear(who)
        cleared = HoldCleared(who, "accept", self.hold.take_violations())
        self.hold.cards.clear()
        self.phases.fire(f"resume_{self.hold.held_from}")
        gate = [UnlockShoe()] if self.phases.state == "dealing" else []
        return [cleared, SetLamp(Lamp.HOLD, LampPattern.OFF), *gate]

    def pending(self) -> Step:
        return [LockShoe()]

    def view(self) -> dict[str, Any]:
        held = self.hold.violation
        return {
            "state": self.phases.state,
            "cards": [str(c) for c in self.cards],
            "hold": None if held is None else dataclasses.asdict(held),
            "decisions": offers(DecisionOffer("accept", "Accept the card: play goes on")),
        }


SPEC = GameSpec(
    name="toy",
    rules=ToyRules,
    make=ToyGame,
    devices=DeviceNeeds(buttons=(ConsoleButton.NEXT,), lamps=(Lamp.HOLD,)),
    console={},
    decisions={"accept": ToyGame.accept},
    foreign_card_rule=FOREIGN_CARD_RULE,
    round_end="ToyRoundEnded",
)


# The same game with its own page drawing, as a game ships one: static/toy.js in this folder,
# registered under the renderer its views name (tests/toygame/test_toy_drawing.py).
DRAWN = dataclasses.replace(SPEC, renderer="toy", page_script="toygame:static/toy.js")
