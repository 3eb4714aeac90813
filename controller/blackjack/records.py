"""Frozen records the blackjack machine returns for the journal, next to device commands.

Each says what happened and which rule it concerns, so surveillance can ask "which rule,
when, who". Payouts are `controller.blackjack.settlement.Payout`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from controller.blackjack.settlement import Payout
from controller.game.chips import ChipAlarm, MismatchAccepted, MismatchCorrected, PayoutMismatch
from controller.game.records import (
    CARD_MARK,
    ActionRefused,
    HoldCleared,
    LimitOverridden,
    Violation,
)
from controller.ports import Command
from controller.shoe_audit import ShoeReport

__all__ = [
    "ActionRefused",
    "BoxVoided",
    "CardBurned",
    "Doubled",
    "EvenMoneyElected",
    "HoldCleared",
    "HoldDecision",
    "InsuranceTaken",
    "Output",
    "Payout",
    "RemovalConfirmed",
    "RoundSettled",
    "ShuffleConfirmed",
    "ShuffleDue",
    "SplitMade",
    "Stood",
    "Violation",
    "WagerChanged",
    "WagerPlaced",
]


class HoldDecision(StrEnum):
    """What a supervisor decided about the card(s) that put the table on HOLD."""

    KEEP_CARD = "keep_card"  # the card stands: it goes where the dealing order puts it
    VOID_HAND = "void_hand"  # the round's hand is void: unsettled wagers back (9.6)
    VOID_BOX = "void_box"  # one box's hand is void (9.6), with its insurance; play goes on


@dataclass(frozen=True, slots=True)
class BoxVoided:
    """A supervisor voided one box's hand and its insurance (9.6); the round goes on."""

    who: str
    box: int


@dataclass(frozen=True, slots=True)
class ShuffleConfirmed:
    """The shoe was shuffled: confirmed by the dealer (``by="console"``) or by the shoe's
    own report of a reload (``by="shoe"``), never by NEXT. ``due``: the 7.1 clause that
    asked for it, if any. ``burns``: cards to burn before the next round's first card."""

    due: str | None
    by: str
    burns: int


@dataclass(frozen=True, slots=True)
class CardBurned:
    """A card burned after the shuffle (surrounding rules); ``left``: burns still due."""

    card: str = field(metadata=CARD_MARK)
    left: int


@dataclass(frozen=True, slots=True)
class WagerChanged:
    """A supervisor changed a wager the layout's sensor had reported: both
    amounts, and who."""

    box: int
    person: int
    sensed: int
    amount: int
    who: str


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
    paid: bool  # paid 1 to 1 at once (10.3a)
    cards_removed: bool = False  # the box's cards go to the discard rack (10.3b)


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
    dealer: tuple[str, ...] = field(metadata=CARD_MARK)  # the dealer's cards
    void: bool = False


Output = (
    Command
    | Payout
    | Violation
    | ActionRefused
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
    | ShuffleConfirmed
    | CardBurned
    | BoxVoided
    | WagerChanged
    | PayoutMismatch
    | MismatchCorrected
    | MismatchAccepted
    | ChipAlarm
    | LimitOverridden
)
