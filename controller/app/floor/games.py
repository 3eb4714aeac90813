"""What the floor view knows of the games, asked of the registry and never by a game's
name, so a new game needs no change here: what a game is called on the floor (``title``),
its states in words (``state_words``), which journal row ends its round (``round_end``)
and what that row says of the money (``settlement_figures``).

A table may run a game this pit does not have installed: its rows still count where they
can (alarms, sign-ins), its name is shown as it is, and its rounds count no money.
"""

from __future__ import annotations

import logging

from controller.errors import ConfigError
from controller.game import registry
from controller.game.contract import GameSpec

log = logging.getLogger(__name__)


def specs() -> list[GameSpec]:
    """The spec of every game this pit can load (one that does not load is left out, so
    the floor goes on showing the others)."""
    found = []
    for name in registry.names():
        try:
            found.append(registry.spec(name))
        except ConfigError as exc:
            log.debug("the pit leaves out a game: %s", exc)
    return found


def round_ends() -> dict[str, GameSpec]:
    """The journal kind that ends a round -> the game whose round it ends."""
    return {spec.round_end: spec for spec in specs() if spec.round_end}


def game_words(name: str) -> str:
    """A game's name as the floor says it ("Draw poker"); one this pit does not know,
    capitalised."""
    try:
        return registry.spec(name).words
    except ConfigError:
        return name.capitalize()
