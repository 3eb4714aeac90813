"""The rating's journal records (docs/ratings.md): a rating's start, its naming, each round
it played, a supervisor's adjustment, its end with every figure, and a move.

Each is journaled under its class name with its fields as the payload; the pit reads them
from the journal rows without importing this module, so the kinds and fields are a schema
(docs/ratings.md, "The rows"). Money is whole chip units; expected values (theo, comp)
are not payments and are carried in hundredths of a chip unit (``*_hundredths``), rounded
half up once. A ``player`` field is who the player is: personal data, marked so
(`PLAYER_MARK`), never on a public topic or the dealer's read-only view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

# `controller.game.records.PLAYER_MARK`, written out: the kernel imports the ratings
PLAYER_MARK = MappingProxyType({"private": "player"})

__all__ = [
    "RatingAdjusted",
    "RatingEnded",
    "RatingMoved",
    "RatingNamed",
    "RatingRound",
    "RatingStarted",
]


@dataclass(frozen=True, slots=True)
class RatingStarted:
    """A rating opened at ``box`` (a seat, at poker). ``player``: the card's number or the
    name keyed (None: anonymous); ``source``: "card" or "console"; ``start``: ISO wall
    time; ``round``: the first round it can count."""

    rating: str
    box: int
    player: str | None = field(metadata=PLAYER_MARK)
    source: str
    start: str
    round: int


@dataclass(frozen=True, slots=True)
class RatingNamed:
    """An open rating given its player (an anonymous one named, or renamed) by ``who``."""

    rating: str
    box: int
    player: str = field(metadata=PLAYER_MARK)
    who: str


@dataclass(frozen=True, slots=True)
class RatingRound:
    """One round a rating counted: the box's wagers by bet type (chips), the player's
    result (+ won, - lost), this round's share of the theo (hundredths), the blackjack
    decisions off basic strategy (None: not judged) and the seconds counted."""

    rating: str
    box: int
    round: int
    wagers: dict[str, int]
    win_loss: int
    theo_hundredths: int
    departures: int | None
    seconds: int


@dataclass(frozen=True, slots=True)
class RatingAdjusted:
    """A supervisor's average bet for a rating, beside the measured one, and why."""

    rating: str
    box: int
    average_bet: int
    measured_average_bet: int
    who: str
    reason: str


@dataclass(frozen=True, slots=True)
class RatingEnded:
    """A rating closed (``reason``: "card", "dealer", "empty", "closed" or "moved"), with
    every figure it measured (docs/ratings.md says how each is worked out)."""

    rating: str
    box: int
    player: str | None = field(metadata=PLAYER_MARK)
    reason: str
    start: str
    end: str
    seconds: int
    rounds: int
    handle: int
    handle_by_bet: dict[str, int]
    average_bet: int
    measured_average_bet: int
    adjusted: bool
    largest_bet: int
    win_loss: int
    theo_hundredths: int
    skill_theo_hundredths: int | None
    departures: int | None
    decisions_per_hour: int
    comp_hundredths: int
    wager_source: str
    game: str


@dataclass(frozen=True, slots=True)
class RatingMoved:
    """The player at ``box`` moved to ``to_box``: ``rating`` ended, ``to_rating`` began."""

    rating: str
    box: int
    to_rating: str
    to_box: int
