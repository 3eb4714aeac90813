"""Five-card evaluations per second: controller.poker.hand_value beside the peers.

Run: ``.venv/bin/python bench/evaluator.py [--hands N] [--seed S]``. Every evaluator is
given the same random hands of ``controller.cards.Card`` and must convert them itself,
because that is what the showdown would have to do. Peers that are not installed
(phevaluator is not a project dependency) are reported as such.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence

from controller.cards import DECK, Card
from controller.poker import hand_value

Evaluate = Callable[[Sequence[Card]], object]


def _peers() -> dict[str, Evaluate | str]:
    peers: dict[str, Evaluate | str] = {"controller.poker.hand_value": hand_value}
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        to_treys = {card: TreysCard.new(str(card)) for card in DECK}

        def treys_eval(cards: Sequence[Card]) -> object:
            return evaluator.evaluate([], [to_treys[c] for c in cards])

        peers["treys"] = treys_eval
    except ImportError:
        peers["treys"] = "not installed"
    try:
        import phevaluator

        to_phe = {card: phevaluator.Card(str(card)).id_ for card in DECK}

        def phe_eval(cards: Sequence[Card]) -> object:
            return phevaluator.evaluate_cards(*[to_phe[c] for c in cards])

        peers["phevaluator"] = phe_eval
    except ImportError:
        peers["phevaluator"] = "not installed"
    try:
        from pokerkit import StandardHighHand

        def pokerkit_eval(cards: Sequence[Card]) -> object:
            return StandardHighHand("".join(str(c) for c in cards))

        peers["pokerkit StandardHighHand"] = pokerkit_eval
    except ImportError:
        peers["pokerkit StandardHighHand"] = "not installed"
    return peers


def measure(evaluate: Evaluate, hands: list[list[Card]], clock: Callable[[], float]) -> float:
    start = clock()
    for cards in hands:
        evaluate(cards)
    return len(hands) / (clock() - start)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    hands = [rng.sample(DECK, 5) for _ in range(args.hands)]
    rates: dict[str, float | str] = {}
    for name, evaluate in _peers().items():
        if isinstance(evaluate, str):
            rates[name] = evaluate
            if not args.json:
                print(f"{name:28} {evaluate}")
            continue
        sample = hands if "pokerkit" not in name else hands[: max(1, len(hands) // 20)]
        rate = measure(evaluate, sample, time.perf_counter)
        rates[name] = rate
        if not args.json:
            print(f"{name:28} {rate:>12,.0f} evaluations/s  ({len(sample):,} hands)")
    if args.json:
        print(json.dumps({"hands": args.hands, "evaluations_per_second": rates}))


if __name__ == "__main__":
    main()
