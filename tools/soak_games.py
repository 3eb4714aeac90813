"""Which game the soak plays, found through the registry (`controller.game.registry`).

The soak knows its default game (blackjack, the table it was written for, whose profile is
below) and no other: any other registered game is played when its spec names a scripted
dealer (`GameSpec.sim_dealer`) whose class hands out a `SoakProfile` (``soak_profile()``,
sim_hardware/soak_profile.py says what it holds); the spec itself gives the round-end
record and its settlement figures. A game without either is refused in one line saying
what is missing.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from controller.errors import ConfigError
from controller.game import spec
from controller.game.contract import GameSpec, SettlementFigures
from sim_hardware.dealer import TableHands
from sim_hardware.soak_profile import SoakProfile
from sim_hardware.testbed import write_config

DEFAULT = "blackjack"  # the soak's own game: its profile is here, every other its dealer's

# The default game's profile: the states of controller/blackjack/phases.py as the view says
# them, the example table of 6 decks, and no insurance sensors (the remote hands key it).
BLACKJACK = SoakProfile(
    write_config=write_config,
    decks=6,
    no_card_states=("round_over", "betting", "insurance", "insurance_settlement", "settlement"),
    gate_open_states=(
        "no_more_bets",
        "initial_deal",
        "boxes_acting",
        "dealer_second",
        "dealer_drawing",
    ),
    rest_states=("round_over", "betting"),
    foreign_card_rule="3.3",  # controller.blackjack.rules.FOREIGN_CARD_RULE
    dealer_options={"insurance_sensors": False},
)


class Dealer(Protocol):
    """A scripted dealer (`controller.app.cli.demo.Dealer`): one action per ``step``."""

    rounds_finished: int

    def step(self) -> str: ...


@dataclass(frozen=True)
class SoakGame:
    """A registered game and what the soak needs to play and check it."""

    spec: GameSpec
    profile: SoakProfile
    dealer_factory: Callable[..., Dealer]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def round_end(self) -> str:
        """The journal kind that ends a round (`GameSpec.round_end`)."""
        if self.spec.round_end is None:  # checked in `soak_game`
            raise ConfigError(f"the game {self.name!r} names no round-end record")
        return self.spec.round_end

    @property
    def figures(self) -> SettlementFigures:
        """A round-end payload -> (drop, house win) (`GameSpec.settlement_figures`)."""
        if self.spec.settlement_figures is None:  # checked in `soak_game`
            raise ConfigError(f"the game {self.name!r} names no settlement figures")
        return self.spec.settlement_figures

    def dealer(
        self, hands: TableHands, state: Callable[[], dict[str, Any]], rng: random.Random
    ) -> Dealer:
        return self.dealer_factory(hands, state, rng, **self.profile.dealer_options)


def soak_game(name: str = DEFAULT) -> SoakGame:
    """The game ``name`` as the soak plays it; `ConfigError` (one line) when it cannot be:
    an unknown game (the registry lists the known), no scripted dealer, no soak profile, or
    no round-end record or settlement figures to check each round's balance against."""
    found = spec(name)
    if found.sim_dealer is None:
        raise ConfigError(f"the game {name!r} names no scripted dealer (GameSpec.sim_dealer)")
    if found.round_end is None or found.settlement_figures is None:
        raise ConfigError(
            f"the game {name!r} names no round-end record and settlement figures: "
            "the soak could not check that every round balances"
        )
    module, _, attribute = found.sim_dealer.partition(":")
    factory = getattr(importlib.import_module(module), attribute)
    if name == DEFAULT:
        return SoakGame(found, BLACKJACK, factory)
    make_profile = getattr(factory, "soak_profile", None)
    if make_profile is None:
        raise ConfigError(
            f"the game {name!r}: its scripted dealer {found.sim_dealer} has no soak_profile() "
            "(sim_hardware/soak_profile.py says what the soak needs from it)"
        )
    profile = make_profile()
    if not isinstance(profile, SoakProfile):
        raise ConfigError(f"the game {name!r}: {found.sim_dealer}.soak_profile() is no SoakProfile")
    return SoakGame(found, profile, factory)
