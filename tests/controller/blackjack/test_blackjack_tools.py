"""The generated diagram is current; the simulator plays through the machine."""

from __future__ import annotations

import json

from controller.blackjack.diagram import DIAGRAM_PATH, render
from controller.blackjack.rules import DealerBlackjackTakes
from controller.blackjack.simulate import simulate
from controller.blackjack.strategy import Action, basic_strategy_table, decide


def test_committed_diagram_is_current() -> None:
    fresh = render()
    assert DIAGRAM_PATH.read_text(encoding="utf-8") == fresh, (
        "docs/blackjack-machine.md is stale: run `python -m controller.blackjack.diagram`"
    )
    assert "insurance_settlement --> dealer_drawing" in fresh


def test_simulate_is_reproducible_and_reports() -> None:
    first = simulate(300, seed=11, boxes=2)
    second = simulate(300, seed=11, boxes=2)
    assert first.mean_return == second.mean_return and first.outcomes == second.outcomes
    data = json.loads(json.dumps(first.as_dict()))
    assert data["rounds"] == 300 and data["hands"] == 600
    assert {"house_edge", "stderr", "rounds_per_second", "outcomes"} <= data.keys()
    assert data["house_edge"] == -first.mean_return
    assert sum(data["outcomes"].values()) >= 600
    assert "house edge" in first.report()


def test_basic_strategy_cells() -> None:
    table = basic_strategy_table(DealerBlackjackTakes.ORIGINAL_ONLY)
    assert decide(table, 11, False, 0, 10) is Action.DOUBLE
    assert decide(table, 16, False, 0, 10) is Action.HIT
    assert decide(table, 12, False, 0, 4) is Action.STAND
    assert decide(table, 7, True, 0, 9) is Action.HIT  # soft 18 against a 9
    assert decide(table, 16, False, 8, 11) is Action.SPLIT
    enhc = basic_strategy_table(DealerBlackjackTakes.EVERYTHING)
    assert decide(enhc, 11, False, 0, 10) is Action.HIT
    assert decide(enhc, 16, False, 8, 10) is Action.HIT
