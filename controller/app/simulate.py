"""`tablectl simulate blackjack|poker`: play many rounds through the game machines, fast,
with simulated players, and print the results."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Protocol, TextIO


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    blackjack = games.add_parser("blackjack", help="basic-strategy players, no-hole-card game")
    blackjack.add_argument("--rounds", type=int, default=100_000)
    blackjack.add_argument("--seed", type=int, default=1)
    blackjack.add_argument("--decks", type=int, default=6)
    blackjack.add_argument("--boxes", type=int, default=1)
    blackjack.add_argument("--json", action="store_true", help="print one JSON object")
    poker = games.add_parser("poker", help="random legal players, five-card draw")
    poker.add_argument("--hands", type=int, default=10_000)
    poker.add_argument("--seed", type=int, default=1)
    poker.add_argument("--players", type=int, default=6)
    poker.add_argument("--json", action="store_true", help="print one JSON object")


class Result(Protocol):
    def as_dict(self) -> dict[str, Any]: ...
    def report(self) -> str: ...


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    result: Result
    if args.game == "blackjack":
        from controller.blackjack.simulate import simulate as play_blackjack

        result = play_blackjack(args.rounds, args.seed, decks=args.decks, boxes=args.boxes)
    else:
        from controller.poker.simulate import simulate as play_poker

        result = play_poker(args.hands, args.seed, players=args.players)
    if args.json:
        print(json.dumps(result.as_dict()), file=out)
    else:
        print(result.report(), file=out)
    return 0
