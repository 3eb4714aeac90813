"""The game a table config asks for, found in the registry (`controller.game`).

The app never names a game: ``[table] game`` is looked up among the registered games,
whose `GameSpec` says how to build it from the config's rules (``config.rules``, the
``[<game>]`` section), what hardware it needs, and what its console offers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.game import Game, GameSpec, spec
from controller.game.table import TableGame

if TYPE_CHECKING:
    from controller.app.config import TableConfig


def game_spec(config: TableConfig) -> GameSpec:
    return spec(config.game)


def make_game(config: TableConfig) -> Game:
    """A fresh game for the config's table (a replay then brings it up to date), rating
    players as ``[rating]`` says (docs/ratings.md)."""
    game = spec(config.game).make(config.rules)
    if isinstance(game, TableGame):
        game.rate(config.rating)
    return game
