"""Play complete rounds through the real machine with a basic-strategy player.

`simulate` deals from a seeded `Shoe`, feeds every card and console press to
`BlackjackTable.handle` exactly as the event loop would, and reports the player's return
per initial unit. Used by ``tablectl simulate blackjack`` (the spec's ``simulator``:
`HELP`, `add_arguments`, `run`) and by bench/blackjack.py.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.blackjack.records import ShuffleDue
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind
from controller.blackjack.strategy import Action, basic_strategy_table, decide
from controller.blackjack.table import BlackjackTable
from controller.cards import ACE, DECK
from controller.errors import RuleError
from controller.game.arguments import PROGRESS_EVERY, Progress, at_least
from controller.game.shoe import Shoe
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton, ShoeStatusChanged

__all__ = ["HELP", "SimulationError", "SimulationResult", "add_arguments", "run", "simulate"]

HELP = "basic-strategy players, no-hole-card game"

STAKE = 2  # chip units per box and round: 3 to 2 on a blackjack stays whole


class SimulationError(RuleError, RuntimeError):
    """The simulated round did something the machine refused: a bug, never expected."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    rounds: int
    boxes: int
    decks: int
    seed: int
    hands: int  # box-rounds played (rounds x boxes)
    mean_return: float  # player's return per initial unit (negative: house advantage)
    stderr: float  # of mean_return, from the per-round results (boxes share a dealer)
    seconds: float
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def house_edge(self) -> float:
        return -self.mean_return

    @property
    def rounds_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "game": "blackjack",
            "rounds": self.rounds,
            "boxes": self.boxes,
            "decks": self.decks,
            "seed": self.seed,
            "hands": self.hands,
            "player_return": self.mean_return,
            "house_edge": self.house_edge,
            "stderr": self.stderr,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds_per_second,
            "outcomes": dict(sorted(self.outcomes.items())),
        }

    def report(self) -> str:
        lines = [
            f"blackjack: {self.rounds} rounds x {self.boxes} box(es), {self.decks} decks, "
            f"seed {self.seed}",
            f"player return per initial unit: {self.mean_return * 100:+.3f}% "
            f"± {self.stderr * 100:.3f}% (1 s.e.)",
            f"house edge: {self.house_edge * 100:.3f}%",
            f"{self.rounds_per_second:,.0f} rounds per second ({self.seconds:.2f} s)",
            "outcomes (per hand): "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())),
        ]
        return "\n".join(lines)


def simulate(
    rounds: int,
    seed: int,
    decks: int = 6,
    boxes: int = 1,
    variants: Variants | None = None,
    clock: Callable[[], float] = time.perf_counter,
    table_cls: type[BlackjackTable] = BlackjackTable,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``rounds`` complete rounds on ``boxes`` boxes, one basic-strategy player each.

    ``variants`` overrides ``decks``; ``table_cls`` lets a benchmark count triggers;
    ``progress(done, rounds)`` is told every `PROGRESS_EVERY` rounds and at the end.
    """
    v = variants or Variants(decks=decks, cut_card_from_end=min(78, decks * 13))
    table = table_cls(v)
    shoe = Shoe(v.decks, random.Random(seed), v.cut_card_from_end, rule="7.1")
    strategy = basic_strategy_table(v.dealer_blackjack_takes)
    drawn = {card: CardDrawn(source="sim-shoe", card=card) for card in DECK}
    press = {b: ButtonPressed(source="sim-console", button=b) for b in ConsoleButton}
    cut = ShoeStatusChanged(
        source="sim-shoe", cut_card_seen=True, shoe_empty=False, door_open=False, gate_locked=False
    )
    reloaded = ShoeStatusChanged(
        source="sim-shoe", cut_card_seen=False, shoe_empty=False, door_open=False, gate_locked=False
    )
    handle = table.handle
    next_ = press[ConsoleButton.NEXT]
    outcomes: Counter[str] = Counter()
    total = total_sq = 0.0
    cut_reported = False

    def draw() -> None:
        nonlocal cut_reported
        if shoe.cut_card_out and not cut_reported:
            cut_reported = True
            due = any(type(o) is ShuffleDue for o in handle(cut))
            if due and table.shuffle.due == "7.1(b)":
                shoe.shuffle()
                table.shuffled()
                handle(reloaded)
                cut_reported = False
                burn()
        handle(drawn[shoe.draw()])

    def burn() -> None:
        while table.shuffle.burns_due:  # the burn after the shuffle
            handle(drawn[shoe.draw()])

    started = clock()
    table.shuffled()  # play starts with a shuffle (7.1a): the shoe is fresh
    burn()
    handle(next_)
    for done in range(rounds):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, rounds)
        for number in range(1, boxes + 1):
            table.place_wager(number, 1, STAKE)
        handle(press[ConsoleButton.NO_MORE_BETS])
        while True:
            state = table.state
            if table.awaiting_removal:
                handle(next_)  # the paid blackjack's cards go to the discard rack
            elif state == "boxes_acting":
                hand = table.current_hand
                if hand is None:  # pragma: no cover - boxes_acting always has a hand
                    raise SimulationError("no acting hand in boxes_acting")
                cards = hand.cards
                if len(cards) < 2:
                    draw()
                    continue
                acting = table.current_box
                if acting is None:  # pragma: no cover - a current hand has its box
                    raise SimulationError("no acting box in boxes_acting")
                box = acting.number
                up = table.dealer.cards[0].rank
                up = 11 if up == ACE else min(up, 10)
                pair = 0
                if cards[0].rank == cards[1].rank and table.can_split(box):
                    pair = 11 if cards[0].rank == ACE else min(cards[0].rank, 10)
                action = decide(strategy, hand.hard, hand.soft, pair, up)
                if action is Action.SPLIT:
                    handle(press[ConsoleButton.SPLIT])
                elif action is Action.DOUBLE and table.can_double(box):
                    handle(press[ConsoleButton.DOUBLE])
                    draw()
                elif action is Action.STAND and table.can_stand(box):
                    handle(next_)
                else:
                    draw()
            elif state == "settlement":
                break
            elif state == "insurance":
                handle(next_)  # basic strategy never insures
            elif state == "hold" or state == "insurance_settlement":
                raise SimulationError(f"simulated round went to {state}: {table.violations}")
            else:
                draw()
        net = 0
        for payout in table.payouts:
            if payout.kind is Kind.WAGER:
                outcomes[payout.outcome.value] += 1
            net += payout.won - payout.lost
        # One sample per round: the boxes of a round share the dealer's hand, so their
        # results are correlated and must not count as independent samples.
        r = net / (STAKE * boxes)
        total += r
        total_sq += r * r
        handle(next_)  # end of round (7.1c decided here)
        if table.shuffle.due:
            shoe.shuffle()
            table.shuffled()  # the dealer confirms it: NEXT is never "shuffled"
            handle(reloaded)  # the cutting card is back in the shoe
            cut_reported = False
            burn()
        handle(next_)  # betting opens
    seconds = clock() - started
    if progress is not None:
        progress(rounds, rounds)
    n = rounds
    mean = total / n if n else 0.0
    var = (total_sq / n - mean * mean) if n else 0.0
    stderr = math.sqrt(max(var, 0.0) / n) if n else 0.0
    hands = rounds * boxes
    return SimulationResult(
        rounds, boxes, v.decks, seed, hands, mean, stderr, seconds, dict(outcomes)
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``tablectl simulate blackjack``'s options (the app adds ``--json``)."""
    parser.add_argument("--rounds", type=at_least(1), default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decks", type=at_least(1), default=6, help="4 to 8 (rule 3.1)")
    parser.add_argument("--boxes", type=at_least(1), default=1)


def run(args: argparse.Namespace) -> SimulationResult:
    """The run ``args`` ask for; decks or boxes the rules refuse raise their `RuleError`
    (3 decks: rule 3.1), which the app prints in one line."""
    return simulate(
        args.rounds,
        args.seed,
        decks=args.decks,
        boxes=args.boxes,
        progress=getattr(args, "progress", None),
    )
