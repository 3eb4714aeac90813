"""Poker hands played through the real game, loop and journal, for the privacy tests.

`LoopHands` is the scripted dealer's hands (`sim_hardware.dealer.TableHands`) on a
`TableLoop` run synchronously: every card, button, console key and supervisor decision is
one `TableLoop.step`, journaled as the table would journal it, and every state the loop
publishes is kept. `Mischief` adds what a real table also sees: a card out of turn or
twice, discards keyed wrongly (in any case, as text), an exposed hand, a request to chop,
a card the reader could not read.
"""

from __future__ import annotations

import inspect
import random
from pathlib import Path
from typing import Any

from controller.app.config import TableConfig
from controller.app.runtime.loop import TableLoop
from controller.cards import DECK, Card
from controller.journal.store import Journal
from controller.poker.game import PokerGame
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleAction,
    ConsoleButton,
    DeviceFault,
    Event,
    Fault,
    SupervisorAction,
)
from sim_hardware.dealer import PokerDealer

JOURNAL_KEY = b"privacy-test-journal-key-32-bytes!"


def open_journal(path: Path) -> Journal:
    """A journal for the tests, keyed when the journal takes a key."""
    if "key" in inspect.signature(Journal).parameters:
        return Journal(path, key=JOURNAL_KEY)  # type: ignore[call-arg, unused-ignore]
    return Journal(path)


class LoopHands:
    """The dealer's hands: each action is one event stepped through the loop."""

    senses_layout = False

    def __init__(self, loop: TableLoop, rng: random.Random) -> None:
        self.loop = loop
        self.rng = rng
        self.shoe: list[Card] = []
        self.shuffle()

    def step(self, event: Event) -> None:
        self.loop.step(event)

    def draw(self) -> str:
        card = self.shoe.pop() if self.shoe else self.rng.choice(DECK)
        self.step(CardDrawn(source="shoe", card=card))
        return str(card)

    def shuffle(self) -> None:
        self.shoe = list(DECK)
        self.rng.shuffle(self.shoe)

    def press(self, button: str) -> None:
        self.step(ButtonPressed(source="console", button=ConsoleButton(button)))

    def wager(self, box: int, on: bool) -> None:  # blackjack only
        raise AssertionError("a poker table has no boxes")

    def insurance(self, box: int, on: bool) -> None:  # blackjack only
        raise AssertionError("a poker table has no insurance")

    def console(self, action: str, **args: Any) -> None:
        self.step(ConsoleAction(source="console", action=action, args=args, actor="dealer"))

    def supervisor(self, decision: str, reason: str) -> None:
        self.step(
            SupervisorAction(source="supervisor", who="pit boss", decision=decision, reason=reason)
        )


def as_typed(card: Card, style: int) -> str:
    """A card as a console or a person might key it: "Qc", "QC", "qc", "10h"."""
    text = str(card)
    if style == 1:
        return text.upper()
    if style == 2:
        return text.lower()
    if style == 3 and text[0] == "T":
        return "10" + text[1]
    return text


MISCHIEF = (
    "stray_card",
    "wrong_discard",
    "discard_as_text",
    "expose",
    "chop",
    "unreadable_card",
    "supervisor",
    "unknown_args",
)


def mischief(hands: LoopHands, kind: str, rng: random.Random) -> None:
    """One thing a dealer, a console or a reader gets wrong."""
    cards = rng.sample(DECK, 3)
    typed = [as_typed(c, rng.randrange(4)) for c in cards]
    seat = rng.randint(1, 6)
    if kind == "stray_card":
        hands.step(CardDrawn(source="shoe", card=cards[0]))
    elif kind == "wrong_discard":
        hands.console("discard", seat=seat, count=len(typed), cards=typed)
    elif kind == "discard_as_text":
        hands.console("discard", seat=seat, count=2, cards=" ".join(typed[:2]))
    elif kind == "expose":
        hands.console("expose", seat=seat, cards=typed + typed[:2])
    elif kind == "chop":
        hands.console("chop")
    elif kind == "unreadable_card":
        detail = f"card code {typed[0]!r} after {typed[1]}"
        hands.step(DeviceFault(source="shoe", fault=Fault.BAD_CARD, detail=detail))
    elif kind == "supervisor":
        decision = rng.choice(("accept", "void_hand", "keep_card"))
        hands.supervisor(decision, f"saw {typed[0]} on the layout")
    elif kind == "unknown_args":
        hands.console("discard", seat=seat, count=1, cards=typed[:1], card=typed[1])


def play(
    config: TableConfig,
    journal: Journal,
    seed: int,
    *,
    hands_to_play: int,
    mischief_steps: dict[int, str] | None = None,
    max_steps: int = 1500,
) -> list[dict[str, Any]]:
    """Play ``hands_to_play`` hands (the scripted dealer's random legal players, with
    ``mischief_steps``: step number -> what goes wrong then); return every state the loop
    published."""
    states: list[dict[str, Any]] = []
    game = PokerGame(config.rules)
    loop = TableLoop(game, journal, events=None, publish=states.append)  # type: ignore[arg-type]
    rng = random.Random(seed)
    hands = LoopHands(loop, rng)
    dealer = PokerDealer(hands, loop.snapshot, rng, players=6)
    loop.step(ButtonPressed(source="console", button=ConsoleButton.NEXT))  # a first state
    for number in range(max_steps):
        if dealer.rounds_finished >= hands_to_play:
            break
        what = (mischief_steps or {}).get(number)
        if what is not None:
            mischief(hands, what, rng)
        else:
            dealer.step()
    return states


_TYPED = {as_typed(card, style) for card in DECK for style in range(4)}
_CODES = {str(card) for card in DECK} | {"10" + str(card)[1] for card in DECK if card.rank == 10}


def cards_named(value: Any) -> list[str]:
    """Every card a JSON value names, found independently of the publisher's patterns: a
    string (or key) that is nothing but cards as anyone might key them ("Qc", "QC", "qc",
    "10h", "Qc 2s"), or a word in other text that is a card as the rules write it."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += cards_named(key) + cards_named(item)
    elif isinstance(value, list):
        for item in value:
            found += cards_named(item)
    elif isinstance(value, str):
        words = [w for w in value.replace(",", " ").replace(";", " ").split() if w]
        if words and all(w in _TYPED for w in words):
            found.append(value)
        found += [
            w for w in "".join(c if c.isalnum() else " " for c in value).split() if w in _CODES
        ]
    return found
