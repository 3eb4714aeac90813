"""Rounds played through the real game, loop and journal in this thread, for the loop's
tests: the scripted dealer's hands (`sim_hardware.dealer.TableHands`) step each event
through a `TableLoop` and keep it, so a test can play the same events again as bursts."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from controller.app.cli.demo import demo_config
from controller.app.runtime.games import make_game
from controller.app.runtime.loop import TableLoop
from controller.cards import DECK, Card
from controller.journal.store import Journal
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleAction,
    ConsoleButton,
    Event,
    SpotCleared,
    SpotOccupied,
    SupervisorAction,
)
from sim_hardware.dealer import BlackjackDealer, PokerDealer

KEY = b"loop-test-journal-key-32-bytes!!"


class RecordingHands:
    """Each action is one event, stepped through the loop and kept in `events`. The shoe's
    cards carry sequence numbers, as the serial shoe's do (so they are acknowledged)."""

    senses_layout = False

    def __init__(self, loop: TableLoop, rng: random.Random, decks: int) -> None:
        self.loop = loop
        self.decks = decks
        self.rng = rng
        self.events: list[Event] = []
        self.shoe: list[Card] = []
        self.shuffle()

    def step(self, event: Event) -> None:
        self.events.append(event)
        self.loop.step(event)

    def draw(self) -> str:
        card = self.shoe.pop() if self.shoe else self.rng.choice(DECK)
        self.step(CardDrawn(source="shoe", card=card, seq=len(self.events) + 1))
        return str(card)

    def shuffle(self) -> None:
        self.shoe = list(DECK) * self.decks
        self.rng.shuffle(self.shoe)

    def press(self, button: str) -> None:
        self.step(ButtonPressed(source="console", button=ConsoleButton(button)))

    def wager(self, box: int, on: bool) -> None:  # blackjack: the layout's sensors
        self._chips(f"box{box}", on)

    def insurance(self, box: int, on: bool) -> None:
        self._chips(f"insurance{box}", on)

    def _chips(self, spot: str, on: bool) -> None:
        kind = SpotOccupied if on else SpotCleared
        self.step(kind(source="table", spot=spot))

    def console(self, action: str, **args: Any) -> None:
        self.step(ConsoleAction(source="console", action=action, args=args, actor="dealer"))

    def supervisor(self, decision: str, reason: str) -> None:
        self.step(
            SupervisorAction(source="supervisor", who="pit boss", decision=decision, reason=reason)
        )


@dataclasses.dataclass
class Played:
    events: list[Event]
    states: list[dict[str, Any]]


def new_loop(game: str, journal: Journal, **kwargs: Any) -> TableLoop:
    config = demo_config(game, journal.path, port=0)
    return TableLoop(make_game(config), journal, **kwargs)


def play(
    game: str,
    journal_path: Path,
    *,
    rounds: int,
    seed: int,
    publish: Any = None,
    max_steps: int = 3000,
) -> Played:
    """Play ``rounds`` rounds of ``game`` one event at a time; the events and, when
    ``publish`` is not given, the states the loop published."""
    states: list[dict[str, Any]] = []
    with Journal(journal_path, key=KEY) as journal:
        loop = new_loop(game, journal, events=None, publish=publish or states.append)
        rng = random.Random(seed)
        hands = RecordingHands(loop, rng, decks=6 if game == "blackjack" else 1)
        dealer: BlackjackDealer | PokerDealer
        if game == "blackjack":
            dealer = BlackjackDealer(hands, loop.snapshot, rng, insurance_sensors=False)
        else:
            dealer = PokerDealer(hands, loop.snapshot, rng, players=6)
        for _ in range(max_steps):
            if dealer.rounds_finished >= rounds:
                return Played(hands.events, states)
            dealer.step()
    raise AssertionError(f"{game}: {rounds} rounds not played in {max_steps} steps")
