"""The exact house edge and a departure's cost, timed, next to the simulator's edge.

Run: ``.venv/bin/python bench/expectation.py [--rounds N] [--json]``

The exact row computes `controller.blackjack.expectation.house_edge` from cold (every
cache emptied) under the default variants, as a table does once at start; the simulator
row plays ``--rounds`` one-box rounds through the machine (6 decks) and reports its edge
with one standard error and its time. The cost row times `decision_cost` per decision
once the edge is known, as play recognition calls it. Target: the exact edge under 0.2 s
on the machine measured, so that a Raspberry Pi 4's core (roughly five times slower at
pure Python: an estimate, not a measurement) computes it at table start under 1 s.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace

from controller.blackjack import expectation
from controller.blackjack.expectation import Allowed, decision_cost, house_edge
from controller.blackjack.rules import DealerBlackjackTakes, Variants
from controller.blackjack.simulate import simulate
from controller.cards import Card

TARGET_SECONDS = 0.2
VARIANTS = {
    "defaults": Variants(),
    "H17, DAS, 4 hands, everything": replace(
        Variants(),
        dealer_hits_soft_17=True,
        double_after_split=True,
        max_split_hands=4,
        dealer_blackjack_takes=DealerBlackjackTakes.EVERYTHING,
    ),
}


def cold_edge(variants: Variants) -> tuple[float, float]:
    """(edge, seconds) with every memo emptied first."""
    for cached in (expectation._edge, expectation._versus, expectation.dealer_outcomes):
        cached.cache_clear()
    expectation._dealer_from.cache_clear()
    started = time.perf_counter()
    edge = house_edge(variants)
    return edge.percent, time.perf_counter() - started


def cost_seconds(calls: int) -> float:
    """Seconds per `decision_cost` call over a mix of hands, warm."""
    rules = Variants()
    hands = [
        ([Card.parse("Ts"), Card.parse("6h")], 10, "stand", Allowed()),
        ([Card.parse("8s"), Card.parse("8h")], 6, "hit", Allowed(double=True, split=True)),
        ([Card.parse("6s"), Card.parse("5h")], 11, "hit", Allowed(double=True)),
        ([Card.parse("As"), Card.parse("7h")], 9, "stand", Allowed()),
    ]
    house_edge(rules)
    started = time.perf_counter()
    for i in range(calls):
        cards, up, action, allowed = hands[i % len(hands)]
        decision_cost(rules, cards, up, action, allowed=allowed)
    return (time.perf_counter() - started) / calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    exact = {name: cold_edge(v) for name, v in VARIANTS.items()}
    sim = simulate(args.rounds, seed=2026)
    per_cost = cost_seconds(2000)
    slowest = max(seconds for _, seconds in exact.values())
    if args.json:
        print(json.dumps({
            "exact": {n: {"house_edge_percent": e, "seconds": s} for n, (e, s) in exact.items()},
            "simulator": {"rounds": args.rounds, "house_edge_percent": sim.house_edge * 100,
                          "stderr_percent": sim.stderr * 100, "seconds": sim.seconds},
            "decision_cost_us": per_cost * 1e6,
            "target_seconds": TARGET_SECONDS, "met": slowest < TARGET_SECONDS,
        }))  # fmt: skip
        return 0
    print("blackjack house edge of basic strategy, one core")
    print(f"  {'':50} {'edge':>16} {'seconds':>9}")
    for name, (edge, seconds) in exact.items():
        print(f"  {'exact, infinite shoe: ' + name:50} {edge:>15.4f}% {seconds:>9.3f}")
    sim_edge = f"{sim.house_edge * 100:.3f}% ± {sim.stderr * 100:.3f}"
    print(
        f"  {f'simulator, 6 decks, {args.rounds:,} rounds':50} {sim_edge:>16} {sim.seconds:>9.2f}"
    )
    print(f"  decision_cost: {per_cost * 1e6:.1f} us per decision (warm)")
    verdict = "met" if slowest < TARGET_SECONDS else "MISSED"
    print(f"  target: exact edge under {TARGET_SECONDS} s here (1 s on a Pi): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
