"""`tablectl simulate GAME`: play many rounds through a game's machines, fast, with
simulated players, and print the results (``--json``: one JSON object).

Every game that has a simulator is a GAME here, with its own options (``tablectl simulate
GAME --help``). For a game's author: the game's spec names the module (``simulator``),
which defines ``HELP`` (a line for this help), ``add_arguments(parser)`` (its options)
and ``run(args) -> result``, the result having ``as_dict()`` and ``report()``; this
module names no game, so a new game needs no change here. ``args.progress`` is the
simulator's progress hook (`controller.game.arguments.Progress`): a bar on a terminal,
none with ``--json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import sys
from types import ModuleType
from typing import Any, Protocol, TextIO

from controller import game as games
from controller.app.cli.progress import Bar, progress_bar
from controller.errors import ConfigError, TableError
from controller.game.arguments import Progress

log = logging.getLogger(__name__)

NEEDS = ("HELP", "add_arguments", "run")  # what a simulator module defines


class Result(Protocol):
    def as_dict(self) -> dict[str, Any]: ...
    def report(self) -> str: ...


def simulator(name: str) -> ModuleType:
    """The simulator module of game ``name``; a `ConfigError` naming the game and what is
    wrong when it has none, does not import, or lacks one of `NEEDS`."""
    spec = games.spec(name)
    if spec.simulator is None:
        raise ConfigError(f"the game {name!r} has no simulator (its GameSpec's simulator)")
    try:
        module = importlib.import_module(spec.simulator)
    except ImportError as exc:
        raise ConfigError(
            f"the game {name!r}: its simulator {spec.simulator} does not import: {exc}"
        ) from exc
    missing = [attribute for attribute in NEEDS if not hasattr(module, attribute)]
    if missing:
        raise ConfigError(
            f"the game {name!r}: its simulator {spec.simulator} lacks {', '.join(missing)}"
        )
    return module


def _with_simulator() -> list[str]:
    """The games whose spec names a simulator (a game that does not load is left out, so
    one broken game never stops the other commands; `tablectl config` names it)."""
    found = []
    for name in games.names():
        try:
            if games.spec(name).simulator is not None:
                found.append(name)
        except ConfigError as exc:
            log.debug("tablectl simulate: %s", exc)
    return found


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in _with_simulator():
        try:
            module = simulator(name)
        except ConfigError as exc:  # said when the game is asked for, in one line
            sub.add_parser(name, help="(cannot run: see its error)").set_defaults(broken=str(exc))
            continue
        game = sub.add_parser(name, help=str(module.HELP))
        module.add_arguments(game)
        game.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    result: Result
    try:
        if getattr(args, "broken", None):
            raise ConfigError(args.broken)
        module = simulator(args.game)
        unit = f"{games.spec(args.game).round_word}s"
        with progress_bar(None, f"simulate {args.game}", unit, quiet=args.json) as bar:
            args.progress = _moves(bar)
            result = module.run(args)
    except TableError as exc:  # rules the game refuses: 3 decks, 9 boxes, 12 players
        print(f"tablectl simulate {args.game}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result.as_dict()), file=out)
    else:
        print(result.report(), file=out)
    return 0


def _moves(bar: Bar) -> Progress:
    """A simulator's ``progress(done, total)`` moving ``bar``."""

    def progress(done: int, total: int) -> None:
        if bar.total != total:
            bar.total = total
            bar.refresh()  # drawn at once with its end, however fast the run
        bar.update(done - bar.n)

    return progress
