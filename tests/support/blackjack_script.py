"""Scripted rounds: a rule test reads like the round a dealer deals.

Every event goes through `ScriptedTable.send`, the one place that feeds the machine, so a
variant can send the same script through the simulated shoe over a pty and simulated GPIO
buttons instead (pass another ``feed``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from controller.blackjack.records import HoldDecision, Output
from controller.blackjack.rules import Variants
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleButton,
    Event,
    ShoeStatusChanged,
    SpotCleared,
    SpotOccupied,
)

NEXT = ConsoleButton.NEXT
DOUBLE = ConsoleButton.DOUBLE
SPLIT = ConsoleButton.SPLIT
NO_MORE_BETS = ConsoleButton.NO_MORE_BETS
INSURANCE_CLOSED = ConsoleButton.INSURANCE_CLOSED
EVEN_MONEY = ConsoleButton.EVEN_MONEY
VOID_HAND = ConsoleButton.VOID_HAND

T = TypeVar("T")


class ScriptedTable:
    """A table plus the dealer's hands: ``deal("9s", "As")``, ``press(NEXT)``, ``clear(...)``."""

    def __init__(
        self,
        variants: Variants | None = None,
        feed: Callable[[BlackjackTable, Event], list[Output]] | None = None,
    ) -> None:
        self.table = BlackjackTable(variants)
        self._feed = feed or (lambda table, event: table.handle(event))
        self.log: list[Output] = self.table.take_outputs()

    # the one place events reach the machine
    def send(self, event: Event) -> list[Output]:
        out = self._feed(self.table, event)
        self.log.extend(out)
        return out

    def deal(self, *cards: str) -> list[Output]:
        out: list[Output] = []
        for text in cards:
            out += self.send(CardDrawn(source="shoe", card=Card.parse(text)))
        return out

    def press(self, *buttons: ConsoleButton) -> list[Output]:
        out: list[Output] = []
        for button in buttons:
            out += self.send(ButtonPressed(source="console", button=button))
        return out

    def occupy(self, spot: str, total: int | None = None) -> list[Output]:
        if total is None:
            return self.send(SpotOccupied(source="layout", spot=spot))
        return self.send(ChipsSensed(source="chips", spot=spot, total=total))

    def clear(self, *spots: str) -> list[Output]:
        out: list[Output] = []
        for spot in spots:
            out += self.send(SpotCleared(source="layout", spot=spot))
        return out

    def cut_card(self, seen: bool = True) -> list[Output]:
        """The shoe's status: the cutting card is out (``seen``) or back in the shoe."""
        return self.send(
            ShoeStatusChanged(
                source="shoe", cut_card_seen=seen, shoe_empty=False, door_open=False,
                gate_locked=False,
            )
        )  # fmt: skip

    def supervisor(self, who: str, decision: HoldDecision, box: int | None = None) -> list[Output]:
        self.table.supervisor_clear(who, decision, box)
        out = self.table.take_outputs()
        self.log.extend(out)
        return out

    def shuffled(self, burn: str | None = "2c") -> list[Output]:
        """The dealer shuffles and confirms SHUFFLED on the console; then the burn card
        (the table's default burns one; ``burn=None`` burns none)."""
        self.table.shuffled()
        out = self.table.take_outputs()
        self.log.extend(out)
        if burn is not None:
            out += self.deal(burn)
        return out

    def open(self) -> list[Output]:
        """Play starts with a shuffle (7.1a), then the burn; NEXT opens betting."""
        return self.shuffled() + self.press(NEXT)

    def of(self, kind: type[T], out: list[Any] | None = None) -> list[T]:
        return [o for o in (self.log if out is None else out) if isinstance(o, kind)]

    @property
    def state(self) -> str:
        return self.table.state


def start(wagers: dict[str, int], variants: Variants | None = None, **kwargs: Any) -> ScriptedTable:
    """A table with betting open, ``wagers`` placed by chip readers, bets closed."""
    script = ScriptedTable(variants, **kwargs)
    script.open()  # the shoe was shuffled (7.1a) and a card burned: betting opens
    for spot, total in wagers.items():
        script.occupy(spot, total)
    script.press(NO_MORE_BETS)
    return script
