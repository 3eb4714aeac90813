"""`tablectl config check FILE`: check a table config without starting anything.

Exit 0 and a summary when it is good; exit 2 and one line per mistake, each naming the key
and its line, when it is not: every mistake it can find, in one run. It runs every check
`tablectl run` runs before it opens a device (`controller.app.preflight`), so a config that
checks ok starts, with one exception: a folder the table writes in (the journal's) that does
not exist yet on this machine is not a mistake in the file but a step left, said as a
warning with the command that makes it (exit 0; `run` refuses until it is made). The
example configs check ok with that one step left: /var/lib/tablectl.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.app.cli import say
from controller.app.config import load_config
from controller.app.preflight import findings, steps_left
from controller.errors import ConfigError

NAME = "tablectl config"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = sub.add_parser("check", help="check a table config")
    check.add_argument("file", type=Path)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.file)
    except ConfigError as exc:
        say(NAME, exc)
        return 2
    mistakes, folders = steps_left(findings(config))
    if mistakes:
        for mistake in mistakes:
            say(NAME, mistake)
        return 2
    pins = config.pins
    print(
        f"{args.file}: ok: table {config.table_id} ({config.game}), limits "
        f"{config.minimum}-{config.maximum}, shoe {config.shoe.url}, "
        f"{len(pins.spots)} spots, {len(pins.buttons)} buttons, journal {config.journal_path}"
    )
    for folder in folders:
        print(
            f"tablectl config: warning: {folder}; the step left before `tablectl run` on this "
            f"machine: {folder.step}",
            file=sys.stderr,
        )
    return 0
