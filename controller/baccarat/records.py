"""Frozen records the baccarat table returns for the journal, next to device commands.

Each says what happened and which rule it concerns. Card fields carry the ``private``
metadata the pit's privacy rule looks for: baccarat is dealt face up, so nothing is
withheld (the spec's ``private_cards`` is False), but a card is marked as a card.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

from controller.baccarat.settlement import CARD, CoupResult, Payout
from controller.game.records import ActionRefused, HoldCleared, Violation
from controller.shoe_audit import ShoeReport

__all__ = [
    "ActionRefused",
    "BetsClosed",
    "CardBurned",
    "CommissionCollected",
    "CommissionOwedAccepted",
    "CoupResult",
    "CoupSettled",
    "CutCardOut",
    "HoldCleared",
    "HoldDecision",
    "Payout",
    "ShoeEnded",
    "ShuffleConfirmed",
    "ShuffleOrdered",
    "Violation",
    "WagerPlaced",
]


class HoldDecision(StrEnum):
    """What a supervisor decided about what put the table on HOLD."""

    BURN_CARD = "burn_card"  # the card(s) out of turn are set aside; the coup goes on
    VOID_HAND = "void_hand"  # the coup is void: every wager back ("Void", G98-191)


@dataclasses.dataclass(frozen=True, slots=True)
class WagerPlaced:
    """A box's wager on one bet set while betting is open (0: withdrawn)."""

    box: int
    bet: str
    amount: int


@dataclasses.dataclass(frozen=True, slots=True)
class BetsClosed:
    """NO MORE BETS: the coup's stakes and the table differential they make."""

    coup: int
    wagers_in: int
    differential: int  # Banker stakes less Player stakes ("Table Differential", G98-260)


@dataclasses.dataclass(frozen=True, slots=True)
class ShuffleConfirmed:
    """The dealer confirmed the new shoe shuffled; ``burn``: the first card decides the burn;
    ``dealing_style``: who handles the cards this shoe ("A", or "B": seated players handle
    the hands, the NZ definitions of "Banker" and "Player")."""

    shoe: int
    burn: bool
    dealing_style: str = "A"


@dataclasses.dataclass(frozen=True, slots=True)
class CardBurned:
    """A card burned at a new shoe: ``exposed`` for the first card (its value says how many
    follow), ``left``: burns still due after this one."""

    card: str = dataclasses.field(metadata=CARD)
    exposed: bool = False
    left: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class CutCardOut:
    """The cutting card came out; ``last_coup``: the shoe's last coup (casino procedure)."""

    coup: int
    last_coup: int


@dataclasses.dataclass(frozen=True, slots=True)
class ShoeEnded:
    """The shoe's last coup is over: its audit (cards seen against the composition)."""

    shoe: int
    coups: int
    report: ShoeReport


@dataclasses.dataclass(frozen=True, slots=True)
class CoupSettled:
    """The coup is settled (or void): the round's end. Chips in = chips out + house."""

    coup: int
    winner: str | None  # None: void
    wagers_in: int
    paid_out: int
    house_result: int
    commission: int  # hundredths owed on the boxes' commission accounts this coup
    void: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class CommissionCollected:
    """The dealer collected a box's commission account (5.10(b)): what it owed exactly
    (hundredths), what was taken in chips, and the rounding up (hundredths)."""

    box: int
    owed: int
    collected: int
    rounding: int


@dataclasses.dataclass(frozen=True, slots=True)
class CommissionOwedAccepted:
    """A supervisor (named, saying why) accepted that shoe ``shoe`` ends with these
    commission accounts owed, ``(box, hundredths)`` each: they stay on the boxes' accounts
    (commission account, house procedure)."""

    who: str
    reason: str
    shoe: int
    owed: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True, slots=True)
class ShuffleOrdered:
    """A supervisor (named, saying why) ordered the shoe shuffled between coups: shoe
    ``shoe`` ends after ``coups`` coups, as the cutting card would end it (`ShoeEnded`
    follows), and a new shoe is due (shuffle ordered by a supervisor, house procedure)."""

    who: str
    reason: str
    shoe: int
    coups: int
