"""Basic strategy for the New Zealand no-hole-card game, used by the simulator's player.

Source: the standard multi-deck basic strategy for "dealer stands on soft 17, double after
split not allowed, no surrender" as published in the Wizard of Odds basic strategy
engine (wizardofodds.com/games/blackjack/strategy/calculator/, 4-8 decks, S17, no DAS)
and in Griffin, *The Theory of Blackjack* (1999), ch. 2 and 12, adapted to the table:

- No hole card with "original bet only" (the NZ default) loses no more to a dealer
  blackjack than the hole-card game, so the hole-card table applies unchanged (Griffin
  ch. 12). With `DealerBlackjackTakes.EVERYTHING` the no-hole-card adjustments apply:
  hit (do not double) 11 and 10 against a 10 or ace, hit 8,8 against a 10 or ace, and
  do not split aces against an ace.
- Soft doubles are not allowed (double on two cards without an ace), so a soft "double"
  is read as the table's stand-or-hit: soft 18 stands against 2-8, hits 9, 10, ace.
- No surrender. Insurance and even money are never taken (negative expectation).

Codes: H hit, S stand, D double (else hit), P split. Columns are dealer up-cards
2, 3, 4, 5, 6, 7, 8, 9, 10, A.
"""

from __future__ import annotations

from enum import StrEnum

from controller.blackjack.rules import DealerBlackjackTakes

__all__ = ["Action", "basic_strategy_table", "decide"]


class Action(StrEnum):
    HIT = "H"
    STAND = "S"
    DOUBLE = "D"
    SPLIT = "P"


#                 2 3 4 5 6 7 8 9 T A
_HARD = {
    8: "HHHHHHHHHH",
    9: "HDDDDHHHHH",
    10: "DDDDDDDDHH",
    11: "DDDDDDDDDH",
    12: "HHSSSHHHHH",
    13: "SSSSSHHHHH",
    14: "SSSSSHHHHH",
    15: "SSSSSHHHHH",
    16: "SSSSSHHHHH",
}
_SOFT = {  # soft totals, no soft doubling on this table
    13: "HHHHHHHHHH",
    14: "HHHHHHHHHH",
    15: "HHHHHHHHHH",
    16: "HHHHHHHHHH",
    17: "HHHHHHHHHH",
    18: "SSSSSSSHHH",
}
_PAIRS = {  # by pair rank value (ace 11), no double after split
    2: "HHPPPPHHHH",
    3: "HHPPPPHHHH",
    4: "HHHHHHHHHH",
    5: "DDDDDDDDHH",
    6: "HPPPPHHHHH",
    7: "PPPPPPHHHH",
    8: "PPPPPPPPPP",
    9: "PPPPPSPPSS",
    10: "SSSSSSSSSS",
    11: "PPPPPPPPPP",
}


def basic_strategy_table(
    takes: DealerBlackjackTakes,
) -> dict[tuple[int, int, int], Action]:
    """Every decision, keyed (kind, player, up) with kind 0 hard, 1 soft, 2 pair; up 2..11."""
    table: dict[tuple[int, int, int], Action] = {}
    for kind, rows in ((0, _HARD), (1, _SOFT), (2, _PAIRS)):
        for player, row in rows.items():
            for index, code in enumerate(row):
                table[(kind, player, index + 2)] = Action(code)
    if takes is DealerBlackjackTakes.EVERYTHING:
        for up in (10, 11):
            table[(0, 10, up)] = table[(0, 11, up)] = Action.HIT
            table[(2, 8, up)] = Action.HIT
        table[(2, 11, 11)] = Action.HIT
    return table


def decide(
    table: dict[tuple[int, int, int], Action],
    hard: int,
    soft: bool,
    pair: int,
    up: int,
) -> Action:
    """The action for a hand: ``hard`` total (aces 1), ``soft`` if an ace counts 11,
    ``pair`` the pair's value (ace 11) when the hand is a splittable pair else 0,
    ``up`` the dealer's first card (ace 11)."""
    if pair:
        return table[(2, pair, up)]
    if soft:
        total = hard + 10
        if total >= 19:
            return Action.STAND
        return table[(1, max(total, 13), up)]
    if hard >= 17:
        return Action.STAND
    return table[(0, max(hard, 8), up)]
