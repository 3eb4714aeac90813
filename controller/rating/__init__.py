"""Player rating: who plays at each box, for how long, what they wagered and won, and
what the house can expect to win from them (docs/ratings.md). `RatingBook` keeps a
table's open ratings; every game's adapter (`controller.game.table.TableGame`) feeds it."""

from controller.rating.book import (
    RATING_RULE,
    BoxRound,
    Decision,
    DecisionCost,
    RatingBook,
    RatingSettings,
    RoundFigures,
    half_up,
    settings_from_json,
    settings_json,
)
from controller.rating.records import (
    RatingAdjusted,
    RatingEnded,
    RatingMoved,
    RatingNamed,
    RatingRound,
    RatingStarted,
)

__all__ = [
    "RATING_RULE",
    "BoxRound",
    "Decision",
    "DecisionCost",
    "RatingAdjusted",
    "RatingBook",
    "RatingEnded",
    "RatingMoved",
    "RatingNamed",
    "RatingRound",
    "RatingSettings",
    "RatingStarted",
    "RoundFigures",
    "half_up",
    "settings_from_json",
    "settings_json",
]
