"""Blackjack rounds per second through the real machine, next to a bare `transitions` baseline.

Run: ``.venv/bin/python bench/blackjack.py [--rounds N] [--boxes B]``

The table row plays complete one-box rounds with the basic-strategy player through
`controller.blackjack.simulate` (every card and button an event into
`BlackjackTable.handle`). The baseline row is a minimal strict Machine
(``auto_transitions=False, ignore_invalid_triggers=False``) that fires the same number of
triggers per round as the table did, and nothing else: the floor the library sets.
Target: at least 3,000 one-box rounds per second on one core.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from transitions import Machine

from controller.blackjack.rules import Variants
from controller.blackjack.simulate import simulate
from controller.blackjack.table import TRANSITIONS, BlackjackTable

TARGET = 3000
TRIGGERS = {t["trigger"] for t in TRANSITIONS}


class CountingTable(BlackjackTable):
    """The real table, with every transitions trigger counted (for the baseline only)."""

    fired = 0

    def __init__(self, variants: Variants | None = None) -> None:
        super().__init__(variants)
        phases = self._phases  # the machine's private model: its triggers are counted
        for name in TRIGGERS:
            trigger = getattr(phases, name)

            def counted(
                *args: object, _trigger: Callable[..., bool] = trigger, **kwargs: object
            ) -> bool:
                CountingTable.fired += 1
                return bool(_trigger(*args, **kwargs))

            setattr(phases, name, counted)


def triggers_per_round(rounds: int, boxes: int) -> float:
    CountingTable.fired = 0
    simulate(rounds, seed=1, boxes=boxes, table_cls=CountingTable)
    return CountingTable.fired / rounds


def baseline(rounds: int, per_round: float) -> float:
    """Rounds per second of a strict Machine firing ``per_round`` triggers per round."""

    class Model:
        pass

    n = max(2, round(per_round))
    states = [f"s{i}" for i in range(n)]
    transitions = [
        {"trigger": f"t{i}", "source": f"s{i}", "dest": f"s{(i + 1) % n}"} for i in range(n)
    ]
    model = Model()
    Machine(
        model=model,
        states=states,
        transitions=transitions,
        initial="s0",
        auto_transitions=False,
        ignore_invalid_triggers=False,
    )
    fire = [getattr(model, f"t{i}") for i in range(n)]
    started = time.perf_counter()
    for _ in range(rounds):
        for trigger in fire:
            trigger()
    return rounds / (time.perf_counter() - started)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50_000)
    parser.add_argument("--boxes", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    per_round = triggers_per_round(min(args.rounds, 5000), args.boxes)
    result = simulate(args.rounds, seed=2026, boxes=args.boxes)
    floor = baseline(args.rounds, per_round)
    table_rate = result.rounds_per_second
    if args.json:
        print(json.dumps({
            "rounds": args.rounds, "boxes": args.boxes, "triggers_per_round": per_round,
            "table_rounds_per_second": table_rate, "transitions_rounds_per_second": floor,
            "target_rounds_per_second": TARGET if args.boxes == 1 else None,
            "met": table_rate >= TARGET if args.boxes == 1 else None,
        }))  # fmt: skip
        return 0
    print(f"blackjack, {args.boxes} box(es), {args.rounds:,} rounds, one core")
    print(f"  {'':34} {'rounds/s':>10} {'us/round':>9}")
    print(f"  {'BlackjackTable (rules + events)':34} {table_rate:>10,.0f} {1e6 / table_rate:>9.1f}")
    print(
        f"  {f'bare transitions ({per_round:.1f} triggers)':34} {floor:>10,.0f} {1e6 / floor:>9.1f}"
    )
    print(f"  house edge {result.house_edge * 100:.2f}% ± {result.stderr * 100:.2f}%")
    if args.boxes == 1:
        verdict = "met" if table_rate >= TARGET else "MISSED"
        print(f"  target {TARGET:,} one-box rounds/s: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
