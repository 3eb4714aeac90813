"""Complete six-player draw-poker hands per second: this controller beside pokerkit.

Run: ``.venv/bin/python bench/poker.py [--hands N] [--seed S] [--players P]``.

Both sides play the same number of complete five-card draw hands (blinds, the deal, a
betting round, the draw, a final round, the showdown, the pots) with random legal players
from a seeded ``random.Random``. Ours goes through ``controller.poker.simulate`` (every
card through ``PokerTable.handle(CardDrawn)``, every decision through the rules API, the
transitions machine for the phases); pokerkit plays a fixed-limit five-card draw high
game built from its ``SingleDraw`` base with its own automations for dealing and
showdown. The target is at least five times pokerkit's rate.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import warnings
from typing import Any

from controller.poker.simulate import simulate

TARGET = 5.0


def pokerkit_hands(hands: int, seed: int, players: int) -> float | None:
    """Hands per second of pokerkit playing five-card draw high, or None if missing."""
    try:
        from pokerkit import (
            Automation,
            Deck,
            FixedLimitPokerMixin,
            Mode,
            SingleDraw,
            StandardHighHand,
        )
    except ImportError:
        return None

    class FiveCardDraw(FixedLimitPokerMixin, SingleDraw):
        deck = Deck.STANDARD
        hand_types = (StandardHighHand,)
        hole_dealing_count = 5
        max_completion_betting_or_raising_count = 4

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )
    game: Any = FiveCardDraw(automations, True, 0, (1, 2), 2, mode=Mode.CASH_GAME)
    rng = random.Random(seed)
    # pokerkit warns each time it recycles mucked cards when its stub runs out
    warnings.filterwarnings("ignore", message="Returning reserved")
    start = time.perf_counter()
    for _ in range(hands):
        state = game((200,) * players, players)
        while state.status:
            if state.can_stand_pat_or_discard():
                index = state.stand_patter_or_discarder_index
                held = state.hole_cards[index]
                count = rng.choice((0, 1, 2, 3, 3, 4, 5))
                state.stand_pat_or_discard(rng.sample(held, count))
            elif state.actor_index is not None:
                roll = rng.random()
                if roll < 0.25 and state.can_complete_bet_or_raise_to():
                    state.complete_bet_or_raise_to()
                elif roll < 0.85 or state.checking_or_calling_amount == 0:
                    state.check_or_call()
                else:
                    state.fold()
            else:
                raise RuntimeError("pokerkit hand stuck: add an automation")
    return hands / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    ours = simulate(args.hands, args.seed, args.players)
    theirs = pokerkit_hands(args.hands, args.seed, args.players)
    if args.json:
        ratio_ = None if theirs is None else ours.hands_per_second / theirs
        print(json.dumps({
            "hands": args.hands, "players": args.players,
            "controller_hands_per_second": ours.hands_per_second,
            "pokerkit_hands_per_second": theirs, "ratio": ratio_, "target_ratio": TARGET,
            "met": None if ratio_ is None else ratio_ >= TARGET,
        }))  # fmt: skip
        return
    print(f"{args.hands} complete {args.players}-player five-card draw hands")
    print(f"  controller.poker   {ours.hands_per_second:>10,.0f} hands/s")
    if theirs is None:
        print("  pokerkit           not installed")
        return
    ratio = ours.hands_per_second / theirs
    verdict = "meets" if ratio >= TARGET else "MISSES"
    print(f"  pokerkit           {theirs:>10,.0f} hands/s")
    print(f"  ratio              {ratio:>10.1f}x  ({verdict} the {TARGET:.0f}x target)")


if __name__ == "__main__":
    main()
