"""Frozen records the blackjack machine returns for the journal, next to device commands.

Each says what happened and which rule it concerns, so surveillance can ask "which rule,
when, who". Payouts are `controller.blackjack.settlement.Payout`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.blackjack.settlement import Payout
from controller.ports import Command
from controller.shoe_audit import ShoeReport

__all__ = [
    "Doubled",
    "EvenMoneyElected",
    "HoldCleared",
    "HoldDecision",
    "InsuranceTaken",
    "Output",
    "Payout",
    "Refused",
    "RemovalConfirmed",
    "RoundSettled",
    "ShuffleDue",
    "SplitMade",
    "Stood",
    "Violation",
    "WagerPlaced",
]


class HoldDecision(StrEnum):
    """What a supervisor decided about the card(s) that put the table on HOLD."""

    KEEP_CARD = "keep_card"  # the card stands: it goes where the dealing order puts it
    VOID_HAND = "void_hand"  # the round's hand is void: unsettled wagers back (9.6)


@dataclass(frozen=True, slots=True)
class Violation:
    """Something was done out of order. The table is on HOLD until a supervisor clears it."""

    rule: str
    message: str
    state: str
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Refused:
    """A console input the rules refuse; nothing changed, nothing to clear."""

    rule: str
    message: str


@dataclass(frozen=True, slots=True)
class HoldCleared:
    who: str
    decision: HoldDecision
    violations: tuple[Violation, ...]


@dataclass(frozen=True, slots=True)
class WagerPlaced:
    box: int
    person: int
    amount: int


@dataclass(frozen=True, slots=True)
class InsuranceTaken:
    box: int
    person: int
    amount: int


@dataclass(frozen=True, slots=True)
class EvenMoneyElected:
    box: int
    person: int
    paid: bool  # True once every person on the box has elected (10.3b)


@dataclass(frozen=True, slots=True)
class Doubled:
    box: int
    hand: int
    extra: int


@dataclass(frozen=True, slots=True)
class SplitMade:
    box: int
    hand: int
    hands: int
    extra: int


@dataclass(frozen=True, slots=True)
class Stood:
    box: int
    hand: int
    total: int


@dataclass(frozen=True, slots=True)
class RemovalConfirmed:
    """A blackjack paid at once had its cards removed to the discard rack (10.1, 10.3b)."""

    box: int
    rule: str


@dataclass(frozen=True, slots=True)
class ShuffleDue:
    rule: str


@dataclass(frozen=True, slots=True)
class RoundSettled:
    round: int
    wagers_in: int
    paid_out: int
    house_result: int
    dealer: tuple[str, ...]
    void: bool = False


Output = (
    Command
    | Payout
    | Violation
    | Refused
    | HoldCleared
    | WagerPlaced
    | InsuranceTaken
    | EvenMoneyElected
    | Doubled
    | SplitMade
    | Stood
    | RemovalConfirmed
    | ShuffleDue
    | RoundSettled
    | ShoeReport
)
