"""The Table of Play: whether the Player and the Banker stand or draw a third card.

The NZ definitions pages call it "the mandatory instructions" (G98-260, "Table of Play")
but the table itself is on a page we have not seen, so this is the universal tableau
(Saint Lucia Gaming, Racing and Betting Act s 35-02, and the secondary sources of the
docs/rules/baccarat.md, which all agree):

- a Natural (8 or 9 on either hand's first two cards) stops the coup: nobody draws;
- the Player draws on 0-5 and stands on 6-7;
- the Player stood: the Banker draws on 0-5 and stands on 6-7;
- the Player drew: the Banker's draw depends on its total and the Player's third card's
  point value (`BANKER_DRAWS_ON`).

Pure functions over point counts; `controller.baccarat.table` asks them card by card.
"""

from __future__ import annotations

from controller.cards import ACE, Card

__all__ = [
    "BANKER_DRAWS_ON",
    "POINTS",
    "banker_draws",
    "banker_rule_text",
    "is_natural",
    "player_draws",
    "point",
]

# rule 4.2 (by the Point Count definition): ace 1, 2-9 their face, ten and pictures 0
POINTS: dict[int, int] = {
    rank: (1 if rank == ACE else rank if rank < 10 else 0) for rank in range(2, ACE + 1)
}

# Banker total (after the Player drew) -> the Player's third-card values it draws against
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


def point(card: Card) -> int:
    """The card's point value (rule 4.2)."""
    return POINTS[card.rank]


def is_natural(total: int) -> bool:
    """8 or 9 on the first two cards ("Natural", G98-260)."""
    return total >= 8


def player_draws(player_total: int) -> bool:
    """The Player, neither hand a Natural, draws on 0-5 and stands on 6-7."""
    return player_total <= 5


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """The Banker, neither hand a Natural: ``player_third`` is the point value of the
    Player's third card, None when the Player stood (then 0-5 draws)."""
    if player_third is None:
        return banker_total <= 5
    return player_third in BANKER_DRAWS_ON.get(banker_total, frozenset())


def banker_rule_text(banker_total: int, player_third: int | None) -> str:
    """The line of the tableau that decides, in the dealer's words."""
    if player_third is None:
        verb = "draws" if banker_total <= 5 else "stands"
        return f"Banker {verb} on {banker_total} with the Player standing (Table of Play)"
    verb = "draws" if banker_draws(banker_total, player_third) else "stands"
    return (
        f"Banker {verb}: {banker_total} against the Player's third card {player_third} "
        "(Table of Play)"
    )
