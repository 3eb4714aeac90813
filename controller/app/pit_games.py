"""The floor view asks the registry about the games (issue 14): what a game is called on
the floor, which journal row ends its round, and (through its spec's
``settlement_figures``) what that row says of the money. A game registered in this
process, which the pit's code has never heard of, is counted like the built-in ones; the
pit's modules name no game.

(Reconstructed by the issue-17 helper from its callers and tests/pit/test_pit_games.py,
after that helper overwrote the uncommitted original by mistake: check it against what
you meant.)
"""

from __future__ import annotations

from controller.errors import ConfigError
from controller.game import registry
from controller.game.contract import GameSpec


def _specs() -> list[GameSpec]:
    """Every game this process can load (one that does not import is left out)."""
    found = []
    for name in registry.names():
        try:
            found.append(registry.spec(name))
        except ConfigError:
            continue
    return found


def round_ends() -> dict[str, GameSpec]:
    """Each game's round-end record kind -> its spec (the shift figures' rows)."""
    return {spec.round_end: spec for spec in _specs() if spec.round_end}


def game_words(name: str) -> str:
    """A game's name as the floor says it: its spec's title, or its name capitalised when
    this process does not know it."""
    try:
        return registry.spec(name).words
    except ConfigError:
        return name.capitalize()
