"""`tablectl config check FILE`: check a table config without starting anything.

Exit 0 and a summary when it is good; exit 2 and one line per mistake, each naming the key
and its line, when it is not: every mistake it can find, in one run. It runs every check
`tablectl run` runs before it opens a device (`controller.app.runtime.preflight`), so a config that
checks ok starts. A file that is right on a machine without the folder the table writes in
(the journal's: the examples' /var/lib/tablectl) exits 1 with the one step left, the
command that makes the folder; `run` refuses until it is made.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from controller.app.cli import say
from controller.app.config import load_config
from controller.app.runtime.preflight import findings, steps_left
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
    found = findings(config)
    mistakes, folders = steps_left(found)
    if mistakes:
        for mistake in found:
            say(NAME, mistake)
        return 2
    if folders:
        for folder in folders:
            say(NAME, ConfigError(folder.step))
        return 1
    pins = config.pins
    print(
        f"{args.file}: ok: table {config.table_id} ({config.game}), limits "
        f"{config.minimum}-{config.maximum}, shoe {config.shoe.url}, "
        f"{len(pins.spots)} spots, {len(pins.buttons)} buttons, journal {config.journal_path}"
    )
    return 0
