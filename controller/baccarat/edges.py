"""The exact house edge of every baccarat wager under a table's rules, as fractions.

Every way the cards of a full shoe can fall (drawn without replacement, the Table of Play
deciding each third card) is enumerated with whole-number weights, and each outcome is
paid by the settlement itself (`settle_bet`): the edge is minus the mean return per unit
staked, commission included. For 8 decks under the default rules this gives the published
figures (banker 1.0579 %, player 1.2351 %, tie 14.36 %; docs/rules/baccarat.md): a pair
wager pays when the hand's first two cards are of one rank, (4d - 1) / (52d - 1) for
d decks. The player rating's theo uses these (docs/ratings.md).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from fractions import Fraction

from controller.baccarat.rules import BaccaratRules, Bet
from controller.baccarat.settlement import CoupResult, settle_bet
from controller.baccarat.tableau import banker_draws, player_draws

__all__ = ["exact_edges", "outcome_weights"]

Outcome = tuple[int, int, int]  # (Player total, Banker total, the Banker's card count)


@functools.cache
def outcome_weights(decks: int) -> tuple[dict[Outcome, int], int]:
    """Each outcome's number of ordered ways to be dealt, over the ways of dealing six
    cards (every outcome's weight scaled to six cards drawn, so they add up exactly)."""
    counts = [16 * decks] + [4 * decks] * 9  # point value 0 (tens and pictures), 1 to 9
    n = sum(counts)
    found: dict[Outcome, int] = defaultdict(int)

    def falling(start: int, k: int) -> int:
        out = 1
        for i in range(k):
            out *= start - i
        return out

    def take(value: int) -> int:
        weight = counts[value]
        counts[value] -= 1
        return weight

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8 or (not player_draws(p) and not banker_draws(b, None)):
                        found[p, b, 2] += w4 * falling(n - 4, 2)
                    elif not player_draws(p):  # the Player stands, the Banker draws
                        for b3 in range(10):
                            if counts[b3]:
                                found[p, (b + b3) % 10, 3] += w4 * counts[b3] * (n - 5)
                    else:
                        for p3 in range(10):
                            w5 = w4 * take(p3)
                            total = (p + p3) % 10
                            if banker_draws(b, p3):
                                for b3 in range(10):
                                    if counts[b3]:
                                        found[total, (b + b3) % 10, 3] += w5 * counts[b3]
                            else:
                                found[total, b, 2] += w5 * (n - 5)
                            counts[p3] += 1
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return dict(found), falling(n, 6)


def _pair_edge(rules: BaccaratRules) -> Fraction:
    """A hand's first two cards of one rank, paid ``pair_odds`` to 1."""
    decks = rules.decks
    pair = Fraction(4 * decks - 1, 52 * decks - 1)
    return 1 - pair * (rules.pair_odds + 1)


@functools.cache
def exact_edges(rules: BaccaratRules) -> dict[str, Fraction]:
    """Each wager's house edge under ``rules``, exact (a fraction of the stake)."""
    weights, total = outcome_weights(rules.decks)
    stake = 200 * rules.chip_unit  # a stake whose halves and commissions are whole
    edges: dict[str, Fraction] = {}
    for bet in (Bet.BANKER, Bet.PLAYER, Bet.TIE):
        returned = Fraction(0)
        for (p, b, banker_cards), weight in weights.items():
            winner = "banker" if b > p else "player" if p > b else "tie"
            result = CoupResult(1, winner, p, b, ("Ts", "Ks"),
                                ("Td", "Kd", "Qd")[:banker_cards], False, False, False)  # fmt: skip
            payout = settle_bet(1, bet, stake, result, rules)
            returned += weight * (
                Fraction(payout.won - payout.lost) - Fraction(payout.commission, 100)
            )
        edges[bet.value] = -returned / (total * stake)
    edges[Bet.PLAYER_PAIR.value] = edges[Bet.BANKER_PAIR.value] = _pair_edge(rules)
    return edges
