"""The game kernel: the contract every game implements (`Game`, `GameSpec`), the records
all games share, and the registry the app finds games in by name (never naming one)."""

from controller.game.contract import Game, GameSpec, Output, Record, Step
from controller.game.records import ActionRefused, DecisionOffer, HoldCleared, Violation
from controller.game.registry import (
    DEFAULT,
    UnknownGame,
    device_needs,
    names,
    register,
    spec,
    unregister,
)

__all__ = [
    "DEFAULT",
    "ActionRefused",
    "DecisionOffer",
    "Game",
    "GameSpec",
    "HoldCleared",
    "Output",
    "Record",
    "Step",
    "UnknownGame",
    "Violation",
    "device_needs",
    "names",
    "register",
    "spec",
    "unregister",
]
