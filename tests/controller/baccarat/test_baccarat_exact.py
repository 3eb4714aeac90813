"""The exact house edges, computed by enumerating every way the cards of a full 8-deck
shoe can fall (drawing without replacement, the Table of Play deciding each third card),
then paid by the settlement functions: they must equal the published figures
(docs/rules/baccarat.md, and the values in the issue) to the fourth decimal. This
checks the tableau and the payouts together, with no randomness."""

from __future__ import annotations

from collections import defaultdict

import pytest

from controller.baccarat.rules import BaccaratRules, Bet, Variant
from controller.baccarat.settlement import CoupResult, settle_bet
from controller.baccarat.tableau import banker_draws, player_draws

Key = tuple[int, int, int]  # (player total, banker total, banker's cards)


def outcomes(decks: int) -> dict[Key, float]:
    """The probability of each (Player total, Banker total, Banker card count)."""
    counts = [16 * decks] + [4 * decks] * 9  # point value 0 (tens and pictures), 1 to 9
    found: dict[Key, float] = defaultdict(float)

    def take(value: int, left: int) -> float:
        weight = counts[value] / left
        counts[value] -= 1
        return weight

    n = sum(counts)
    for p1 in range(10):
        w1 = take(p1, n)
        for b1 in range(10):
            w2 = w1 * take(b1, n - 1)
            for p2 in range(10):
                w3 = w2 * take(p2, n - 2)
                for b2 in range(10):
                    w4 = w3 * take(b2, n - 3)
                    p, b = (p1 + p2) % 10, (b1 + b2) % 10
                    if p >= 8 or b >= 8 or (not player_draws(p) and not banker_draws(b, None)):
                        found[p, b, 2] += w4
                    elif not player_draws(p):  # the Player stands, the Banker draws
                        for b3 in range(10):
                            if counts[b3]:
                                found[p, (b + b3) % 10, 3] += w4 * counts[b3] / (n - 4)
                    else:
                        for p3 in range(10):
                            w5 = w4 * take(p3, n - 4)
                            p_total = (p + p3) % 10
                            if banker_draws(b, p3):
                                for b3 in range(10):
                                    if counts[b3]:
                                        w6 = w5 * counts[b3] / (n - 5)
                                        found[p_total, (b + b3) % 10, 3] += w6
                            else:
                                found[p_total, b, 2] += w5
                            counts[p3] += 1
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return found


@pytest.fixture(scope="module")
def eight() -> dict[Key, float]:
    return outcomes(8)


def edge(found: dict[Key, float], bet: Bet, rules: BaccaratRules) -> float:
    """Minus the expected return per unit staked, paid by `settle_bet`."""
    stake = 20
    total = 0.0
    for (p, b, banker_cards), probability in found.items():
        winner = "banker" if b > p else "player" if p > b else "tie"
        result = CoupResult(1, winner, p, b, ("Ts", "Ks"), ("Td", "Kd", "Qd")[:banker_cards],
                            False, False, False)  # fmt: skip
        payout = settle_bet(1, bet, stake, result, rules)
        total += probability * (payout.won - payout.lost - payout.commission / 100) / stake
    return -total


def test_the_probabilities_add_up(eight: dict[Key, float]) -> None:
    assert sum(eight.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("bet", "variant", "published"),
    [
        (Bet.BANKER, Variant.COMMISSION, 0.010579),
        (Bet.PLAYER, Variant.COMMISSION, 0.012351),
        (Bet.TIE, Variant.COMMISSION, 0.143596),
        (Bet.BANKER, Variant.NO_COMMISSION, 0.014581),  # any winning Banker 6 pays 1 to 2
        (Bet.BANKER, Variant.THREE_CARD_7_PUSH, 0.010183),  # "EZ"-style
    ],
)
def test_exact_house_edge_8_decks(
    eight: dict[Key, float], bet: Bet, variant: Variant, published: float
) -> None:
    assert edge(eight, bet, BaccaratRules(variant=variant)) == pytest.approx(published, abs=6e-6)


def test_exact_no_commission_edge_6_decks() -> None:
    """1.4548 % for 6 decks (docs/rules/baccarat.md)."""
    rules = BaccaratRules(decks=6, variant=Variant.NO_COMMISSION)
    assert edge(outcomes(6), Bet.BANKER, rules) == pytest.approx(0.014548, abs=6e-6)
