"""Complete hands with random legal players through the same table and machine.

``simulate(hands, seed, players=6)`` plays ``hands`` hands at a table of ``players``
seats. The deck is shuffled by a seeded ``random.Random`` and every card goes through
``PokerTable.handle(CardDrawn(...))`` exactly as the shoe's reads would; every decision
goes through the rules API (``can_*`` then the action), so a run replays exactly from its
seed. The clock is injected for ``hands_per_second``. A player whose stack runs below the
last blind buys back in to the starting stack between hands.

The CLI (``tablectl simulate poker --hands N --seed S --players P [--json]``, the spec's
``simulator``: `HELP`, `add_arguments`, `run`) prints ``SimulationResult.report()`` or
``json.dumps(SimulationResult.as_dict())``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from controller.cards import DECK
from controller.errors import BalanceError
from controller.game.arguments import PROGRESS_EVERY, Progress, at_least
from controller.poker.records import HandSettled, ReshuffleAllowed
from controller.poker.rules import PokerRules
from controller.poker.table import HoldDecision, PokerTable
from controller.ports import CardDrawn

HELP = "random legal players, five-card draw"
SOURCE = "sim-poker"
# Events are immutable values: one CardDrawn per card serves every hand of every run.
_READS = {card: CardDrawn(source=SOURCE, card=card) for card in DECK}


@dataclass(frozen=True, slots=True)
class SimulationResult:
    hands: int
    players: int
    seed: int
    seconds: float
    hands_per_second: float
    pots: int  # pots awarded (main and side)
    pot_chips: int  # chips awarded from pots
    rake: int
    split_pots: int  # pots divided between two or more hands (11.4(d))
    odd_chips: int  # pots whose indivisible remainder went by suit (11.4(d))
    side_pots: int
    showdowns: int
    uncontested: int
    reshuffles: int  # draws completed from earlier discards (11.3(b))

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def report(self) -> str:
        return "\n".join(
            [
                f"draw poker: {self.hands} hands, {self.players} players, seed {self.seed}",
                f"  {self.hands_per_second:,.0f} hands per second ({self.seconds:.2f} s)",
                f"  pots awarded     {self.pots} ({self.side_pots} side pots), "
                f"{self.pot_chips} chips",
                f"  rake             {self.rake} chips",
                f"  showdowns        {self.showdowns}, uncontested {self.uncontested}",
                f"  split pots       {self.split_pots} (11.4(d))",
                f"  odd chips        {self.odd_chips} awarded by suit (11.4(d))",
                f"  reshuffles       {self.reshuffles} (11.3(b))",
            ]
        )


def play_hand(table: PokerTable, rng: random.Random) -> list[object]:
    """One complete hand with random legal players; returns everything the table said
    (each card's `handle` takes what the calls before it left, in order)."""
    deck = list(DECK)
    rng.shuffle(deck)
    table.start_hand()
    out: list[object] = []
    handle = table.handle
    position = 5 * len(table.in_hand)
    for card in deck[:position]:  # the deal: one card at a time, routed by the table
        out += handle(_READS[card])
        if table.hold is not None:  # a shuffled deck has no duplicate
            table.supervisor_clear(SOURCE, HoldDecision.VOID_HAND)
    while table.state != "complete":
        state = table.state
        if state == "dealing" or (state == "drawing" and _card_due(table)):
            if position == len(deck) and table.draw is not None:
                # 11.3(b): the dealer shuffles the eligible discards and deals from them;
                # with none left, a card from elsewhere is a violation and the hand void
                pile = sorted(table.draw.pool or (), key=str)
                rng.shuffle(pile)
                deck += pile or [c for cards in table.draw.rack.known.values() for c in cards]
            out += handle(_READS[deck[position]])
            position += 1
            if table.hold is not None:
                table.supervisor_clear(SOURCE, HoldDecision.VOID_HAND)
        elif state == "drawing" and table.draw is not None:
            seat = table.draw.drawer
            if seat is None:
                raise BalanceError("draw with no drawer")
            count = rng.choice((0, 1, 2, 3, 3, 4, 5))
            held = table.hands[seat]
            table.discard(seat, count, rng.sample(held, count))
        elif state in ("first_round", "final_round") and table.betting is not None:
            seat = table.betting.to_act
            if seat is None:
                raise BalanceError("betting round with no one to act")
            _act(table, seat, rng)
        else:
            raise BalanceError(f"simulation stuck in {state}")
    out += table.take_outputs()
    return out


def _card_due(table: PokerTable) -> bool:
    draw = table.draw
    return draw is not None and bool(draw.owed)


def _act(table: PokerTable, seat: int, rng: random.Random) -> None:
    """A random legal decision: raise a quarter of the time when allowed, else check when
    nothing is owed, else call most of the time, else fold."""
    betting = table.betting
    if betting is None:
        return
    roll = rng.random()
    if roll < 0.25:
        low, high = betting.raise_bounds(seat)
        if low > 0:
            unit = table.rules.chip_unit
            amount = rng.randrange(low, high + 1, unit) if high > low else low
            if table.can_raise(seat, amount):
                table.raise_(seat, amount)
                return
    if betting.to_call(seat) == 0:
        table.check(seat)
    elif roll < 0.85:
        table.call(seat)
    else:
        table.fold(seat)


def simulate(
    hands: int,
    seed: int,
    players: int = 6,
    *,
    rules: PokerRules | None = None,
    stack: int = 200,
    clock: Callable[[], float] = time.perf_counter,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``hands`` complete hands of ``players`` random legal players (seeded);
    ``progress(done, hands)`` is told every `PROGRESS_EVERY` hands and at the end."""
    rules = rules or PokerRules(seats=max(players, 2))
    rng = random.Random(seed)
    table = PokerTable(rules)
    for seat in range(1, players + 1):
        table.sit(seat, stack)
    totals = dict.fromkeys(
        ("pots", "pot_chips", "rake", "split_pots", "odd_chips", "side_pots", "showdowns",
         "uncontested", "reshuffles"),
        0,
    )  # fmt: skip
    start = clock()
    for done in range(hands):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, hands)
        for seat, chips in table.stacks.items():
            if chips < rules.last_blind:
                table.add_chips(seat, stack - chips)
        for record in play_hand(table, rng):
            if isinstance(record, ReshuffleAllowed):
                totals["reshuffles"] += 1
            elif isinstance(record, HandSettled):
                totals["rake"] += record.rake
                for award in record.awards:
                    totals["pots"] += 1
                    totals["pot_chips"] += award.amount
                    totals["side_pots"] += award.pot > 0
                    totals["split_pots"] += len(award.winners) > 1
                    totals["odd_chips"] += award.odd_chip > 0
                if record.awards and record.awards[0].hand == "uncontested":
                    totals["uncontested"] += 1
                else:
                    totals["showdowns"] += 1
    seconds = max(clock() - start, 1e-9)
    if progress is not None:
        progress(hands, hands)
    return SimulationResult(
        hands=hands,
        players=players,
        seed=seed,
        seconds=seconds,
        hands_per_second=hands / seconds,
        **totals,
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``tablectl simulate poker``'s options (the app adds ``--json``)."""
    parser.add_argument("--hands", type=at_least(1), default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=at_least(2), default=6)


def run(args: argparse.Namespace) -> SimulationResult:
    """The run ``args`` ask for; more players than the table seats raise the rules' error,
    which the app prints in one line."""
    return simulate(
        args.hands, args.seed, players=args.players, progress=getattr(args, "progress", None)
    )
