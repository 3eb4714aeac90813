"""`tablectl example-config GAME [--out FILE]`: the example table config of a game, to start
a table's own from (``pit``: the floor view's example floor file)::

    tablectl example-config blackjack > table.toml
    tablectl example-config baccarat --out /etc/tablectl/table.toml

The examples name the demo's staff (dealer d01, PIN 1357; supervisor s01, PIN 2468): give
a real table its own ``[[staff]]`` (``tablectl pin-hash``) and ``[table] id``. ``--deck``
gives the example RFID deck file instead (docs/rfid.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from controller.app.cli import shipped
from controller.game import names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("game", nargs="?", choices=[*names(), "pit"], help="the game (or pit)")
    what.add_argument("--deck", action="store_true", help="the example RFID deck file")
    parser.add_argument(
        "--out", type=Path, default=None, help="write it to this file (default: print it)"
    )


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    out = out or sys.stdout  # looked up now: a test may have replaced it
    resource = shipped.example_deck() if args.deck else shipped.example_config(args.game)
    text = resource.read_text(encoding="utf-8")
    if args.out is None:
        out.write(text)
        return 0
    if args.out.exists():
        print(f"tablectl example-config: {args.out} exists: not overwritten", file=sys.stderr)
        return 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}", file=out)
    return 0
