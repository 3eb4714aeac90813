"""`tablectl simulate blackjack|poker`: play many rounds through the game machines, fast,
with simulated players, and print the results."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Protocol, TextIO

from controller.app.cli import at_least
from controller.errors import TableError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    blackjack = games.add_parser("blackjack", help="basic-strategy players, no-hole-card game")
    blackjack.add_argument("--rounds", type=at_least(1), default=100_000)
    blackjack.add_argument("--seed", type=int, default=1)
    blackjack.add_argument("--decks", type=at_least(1), default=6, help="4 to 8 (rule 3.1)")
    blackjack.add_argument("--boxes", type=at_least(1), default=1)
    blackjack.add_argument("--json", action="store_true", help="print one JSON object")
    poker = games.add_parser("poker", help="random legal players, five-card draw")
    poker.add_argument("--hands", type=at_least(1), default=10_000)
    poker.add_argument("--seed", type=int, default=1)
    poker.add_argument("--players", type=at_least(2), default=6)
    poker.add_argument("--json", action="store_true", help="print one JSON object")


class Result(Protocol):
    def as_dict(self) -> dict[str, Any]: ...
    def report(self) -> str: ...


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    result: Result
    try:
        if args.game == "blackjack":
            from controller.blackjack.simulate import simulate as play_blackjack

            result = play_blackjack(args.rounds, args.seed, decks=args.decks, boxes=args.boxes)
        else:
            from controller.poker.simulate import simulate as play_poker

            result = play_poker(args.hands, args.seed, players=args.players)
    except TableError as exc:  # rules the game refuses: 3 decks, 9 boxes, 12 players
        print(f"tablectl simulate {args.game}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict()), file=out)
    else:
        print(result.report(), file=out)
    return 0
