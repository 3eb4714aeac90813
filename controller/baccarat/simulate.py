"""`tablectl simulate baccarat`: play coups through the real machine and measure each
wager's house edge.

Every card goes through `BaccaratTable.handle` as the event loop would give it (a
`CardDrawn` from a seeded shoe, the console's NO MORE BETS and NEXT, the shoe's cutting
card report), so the figures test the machine's Table of Play and settlement, not a
separate model. Three boxes wager every coup: Banker and Banker pair, Player and Player
pair, Tie (one box may not hold both Player and Banker). The stake is 20 units, so 5 %
commission is exactly one unit and a no-commission Banker 6 pays exactly half.

The house edge of a wager is minus its mean return per unit staked, commission
included, ties counted as the push they are; ``stderr`` is the standard error of that
mean over the coups. Exact values for 8 decks: Banker 1.0579 %, Player 1.2351 %,
Tie (8 to 1) 14.3596 %, either pair (11 to 1) 10.3614 %.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.baccarat.phases import DEALING
from controller.baccarat.rules import BaccaratRules, Variant
from controller.baccarat.table import BaccaratTable
from controller.cards import DECK
from controller.errors import RuleError
from controller.game.arguments import PROGRESS_EVERY, Progress
from controller.game.shoe import Shoe
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton, ShoeStatusChanged

__all__ = [
    "BETS",
    "HELP",
    "SimulationError",
    "SimulationResult",
    "add_arguments",
    "run",
    "simulate",
]

HELP = "baccarat: every wager through the machine, the house edge of each"
STAKE = 20
BETS = ("banker", "player", "tie", "player_pair", "banker_pair")
_LAYOUT = ((1, "banker"), (1, "banker_pair"), (2, "player"), (2, "player_pair"), (3, "tie"))


class SimulationError(RuleError, RuntimeError):
    """The simulated coup did something the machine refused: a bug, never expected."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    rounds: int
    decks: int
    seed: int
    variant: str
    seconds: float  # wall clock
    cpu_seconds: float  # this process's CPU time: one core's throughput on a shared machine
    edges: dict[str, tuple[float, float]]  # bet -> (house edge, stderr), as fractions
    shoes: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "game": "baccarat",
            "rounds": self.rounds,
            "decks": self.decks,
            "seed": self.seed,
            "variant": self.variant,
            "shoes": self.shoes,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds_per_second,
            "cpu_seconds": self.cpu_seconds,
            "rounds_per_cpu_second": self.rounds / self.cpu_seconds if self.cpu_seconds else 0.0,
            "outcomes": dict(sorted(self.outcomes.items())),
        }
        for bet, (edge, stderr) in self.edges.items():
            out[bet] = {"house_edge": edge, "stderr": stderr}
        return out

    def report(self) -> str:
        lines = [
            f"baccarat: {self.rounds} coups, {self.decks} decks, {self.variant}, seed "
            f"{self.seed}, {self.shoes} shoes",
            *(
                f"  {bet:<12} house edge {edge * 100:+.3f}% ± {se * 100:.3f}% (1 s.e.)"
                for bet, (edge, se) in self.edges.items()
            ),
            f"{self.rounds_per_second:,.0f} coups per second ({self.seconds:.2f} s; "
            f"{self.cpu_seconds:.2f} s of CPU)",
            "results: " + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())),
        ]
        return "\n".join(lines)


def simulate(
    rounds: int,
    seed: int,
    decks: int = 8,
    variant: Variant = Variant.COMMISSION,
    clock: Callable[[], float] = time.perf_counter,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``rounds`` coups through the machine, every wager on the layout each coup;
    ``progress(done, rounds)`` is told every `PROGRESS_EVERY` coups and at the end."""
    rules = BaccaratRules(decks=decks, boxes=3, variant=variant, maximum_wager=STAKE)
    table = BaccaratTable(rules)
    shoe = Shoe(decks, random.Random(seed), rules.cut_card_from_end)
    drawn = {card: CardDrawn(source="sim-shoe", card=card) for card in DECK}
    no_more_bets = ButtonPressed(source="sim-console", button=ConsoleButton.NO_MORE_BETS)
    next_ = ButtonPressed(source="sim-console", button=ConsoleButton.NEXT)
    cut = ShoeStatusChanged(
        source="sim-shoe", cut_card_seen=True, shoe_empty=False, door_open=False, gate_locked=False
    )
    reloaded = ShoeStatusChanged(
        source="sim-shoe", cut_card_seen=False, shoe_empty=False, door_open=False, gate_locked=False
    )
    handle, place = table.handle, table.place_wager
    index = {bet: i for i, bet in enumerate(BETS)}
    total = [0.0] * len(BETS)
    total_sq = [0.0] * len(BETS)
    winners = {"banker": 0, "player": 0, "tie": 0}
    cut_reported = False
    started, cpu_started = clock(), time.process_time()
    for done in range(rounds):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, rounds)
        if table.state == "shuffle":
            shoe.shuffle()
            table.shuffled()
            handle(reloaded)
            cut_reported = False
            while table.state == "burn":
                handle(drawn[shoe.draw()])
        for box, bet in _LAYOUT:
            place(box, bet, STAKE)
        handle(no_more_bets)
        while table.state in DEALING:
            if shoe.cut_card_out and not cut_reported:
                cut_reported = True
                handle(cut)
            handle(drawn[shoe.draw()])
        result = table.result
        if result is None or table.state != "settlement":
            raise SimulationError(f"the coup went to {table.state}: {table.violations}")
        winners[result.winner] += 1
        for payout in table.payouts:
            r = (payout.won - payout.lost - payout.commission / 100) / STAKE
            i = index[payout.bet]
            total[i] += r
            total_sq[i] += r * r
        if table.shoe.is_last(table.coup):  # the shoe ends only with commission collected
            for box, _ in table.commission_unsettled():
                table.collect_commission(box)
        handle(next_)
    seconds, cpu_seconds = clock() - started, time.process_time() - cpu_started
    if progress is not None:
        progress(rounds, rounds)
    edges = {}
    for bet, i in index.items():
        mean = total[i] / rounds
        var = max(total_sq[i] / rounds - mean * mean, 0.0)
        edges[bet] = (-mean, math.sqrt(var / rounds))
    return SimulationResult(
        rounds,
        decks,
        seed,
        variant.value,
        seconds,
        cpu_seconds,
        edges,
        table.shoe.number,
        winners,
    )


def _rounds(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 coup, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rounds", type=_rounds, default=100_000, help="coups to play")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=int, choices=(6, 8), default=8)
    parser.add_argument(
        "--variant", choices=[v.value for v in Variant], default=Variant.COMMISSION.value
    )


def run(args: argparse.Namespace) -> SimulationResult:
    return simulate(
        args.rounds,
        args.seed,
        decks=args.decks,
        variant=Variant(args.variant),
        progress=getattr(args, "progress", None),
    )
