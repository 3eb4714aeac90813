"""The simulator plays coups through the machine; its house edges agree with the exact
published values for 8 decks within three standard errors. A modest count
keeps the suite quick; docs/baccarat.md has the 10-million-coup figures."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from controller.baccarat import simulate as baccarat_simulate
from controller.baccarat.rules import Variant
from controller.baccarat.simulate import simulate

# 60,000 simulated coups: long for a unit test, and left out of make mutate's runs
pytestmark = pytest.mark.slow

# exact house edges, 8 decks (commission 5 %, tie 8 to 1, pairs 11 to 1), per unit staked
EXACT_8_DECKS = {
    "banker": 0.010579,
    "player": 0.012351,
    "tie": 0.143596,
    "player_pair": 0.103614,
    "banker_pair": 0.103614,
}
ROUNDS = 60_000


@pytest.fixture(scope="module")
def eight_decks() -> baccarat_simulate.SimulationResult:
    return simulate(ROUNDS, seed=17, decks=8)


@pytest.mark.parametrize("bet", sorted(EXACT_8_DECKS))
def test_house_edge_within_three_standard_errors(
    eight_decks: baccarat_simulate.SimulationResult, bet: str
) -> None:
    edge, stderr = eight_decks.edges[bet]
    assert 0 < stderr < 0.05
    assert abs(edge - EXACT_8_DECKS[bet]) < 3 * stderr, (bet, edge, stderr)


def test_the_result_says_what_the_command_prints(
    eight_decks: baccarat_simulate.SimulationResult,
) -> None:
    out: dict[str, Any] = eight_decks.as_dict()
    assert out["rounds"] == ROUNDS and out["decks"] == 8
    assert out["rounds_per_second"] == pytest.approx(ROUNDS / eight_decks.seconds)
    for bet in EXACT_8_DECKS:
        assert set(out[bet]) == {"house_edge", "stderr"}
    outcomes = out["outcomes"]
    assert sum(outcomes.values()) == ROUNDS
    assert eight_decks.shoes >= ROUNDS // 90  # a shoe is about 80 coups: shoes really end
    assert "banker" in eight_decks.report()


def test_a_seeded_run_replays_exactly() -> None:
    first, second = simulate(2000, seed=3), simulate(2000, seed=3)
    assert first.edges == second.edges and first.outcomes == second.outcomes


def test_no_commission_banker_edge_is_higher_and_the_player_edge_the_same() -> None:
    """Any winning Banker 6 paying 1 to 2: 1.458 % for 8 decks (docs/rules/baccarat.md)."""
    plain = simulate(8_000, seed=5)
    no_commission = simulate(8_000, seed=5, variant=Variant.NO_COMMISSION)
    assert no_commission.edges["player"] == plain.edges["player"]  # same cards, same seed
    assert no_commission.edges["banker"] != plain.edges["banker"]


def test_the_command_line_shape() -> None:
    parser = argparse.ArgumentParser()
    baccarat_simulate.add_arguments(parser)
    args = parser.parse_args(["--rounds", "500", "--seed", "2", "--decks", "6"])
    result = baccarat_simulate.run(args)
    assert result.rounds == 500 and result.decks == 6
    with pytest.raises(SystemExit):
        parser.parse_args(["--decks", "7"])
