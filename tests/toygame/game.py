"""High card, the smallest game the kernel can run: every card from the shoe is seen and
journaled; after ``cards_per_round`` cards the round ends with the highest card named.
NEXT starts a round (the shoe's gate unlocks); a card outside a round is a violation that
holds the table until a supervisor accepts it."""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import GameSpec, Output, Step
from controller.game.records import DecisionOffer, offers
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


@dataclasses.dataclass(frozen=True, slots=True)
class ToyViolation:
    rule: str
    message: str
    card: str


class ToyGame:
    name = "toy"

    def __init__(self, rules: ToyRules) -> None:
        self.rules = rules
        self.round = 0
        self.cards: list[Card] = []
        self.dealing = False
        self.hold: ToyViolation | None = None

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
        if self.dealing or self.hold is not None:
            raise IllegalAction("toy 1", "a round is under way")
        self.dealing, self.cards = True, []
        return [UnlockShoe()]

    def card_drawn(self, card: Card) -> Step:
        if not self.dealing:
            self.hold = ToyViolation("toy 2", "a card outside a round", str(card))
            return [self.hold, LockShoe(), SetLamp(Lamp.HOLD, LampPattern.FLASH)]
        self.cards.append(card)
        out: list[Output] = [ToyCardSeen(str(card), len(self.cards))]
        if len(self.cards) == self.rules.cards_per_round:
            high = max(self.cards, key=lambda c: (c.rank, c.suit))
            self.dealing = False
            self.round += 1
            out += [ToyRoundEnded(str(high)), LockShoe()]
        return out

    def accept(self, who: str) -> Step:
        if self.hold is None:
            raise IllegalAction("toy 3", "the table is not on HOLD")
        self.hold = None
        return [SetLamp(Lamp.HOLD, LampPattern.OFF)]

    def pending(self) -> Step:
        return [LockShoe()]

    def view(self) -> dict[str, Any]:
        return {
            "state": "hold" if self.hold else "dealing" if self.dealing else "idle",
            "cards": [str(c) for c in self.cards],
            "hold": None if self.hold is None else dataclasses.asdict(self.hold),
            "decisions": offers(DecisionOffer("accept", "Accept the card: play goes on")),
        }


SPEC = GameSpec(
    name="toy",
    rules=ToyRules,
    make=ToyGame,
    devices=DeviceNeeds(buttons=(ConsoleButton.NEXT,), lamps=(Lamp.HOLD,)),
    console={},
    decisions={"accept": ToyGame.accept},
    round_end="ToyRoundEnded",
)
