"""`tablectl config check FILE`: check a table config without starting anything.

Exit 0 and a summary when it is good; exit 2 and one line naming the key and its line when
it is not. It runs every check `tablectl run` runs before it opens a device
(`controller.app.preflight`), so a config that checks ok starts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from controller.app.config import load_config
from controller.app.preflight import preflight
from controller.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="config_command", required=True, metavar="ACTION")
    check = sub.add_parser("check", help="check a table config")
    check.add_argument("file", type=Path)


def run(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.file)
        preflight(config)
    except ConfigError as exc:
        print(f"tablectl config: {exc}", file=sys.stderr)
        return 2
    pins = config.pins
    print(
        f"{args.file}: ok: table {config.table_id} ({config.game}), limits "
        f"{config.minimum}-{config.maximum}, shoe {config.shoe.url}, "
        f"{len(pins.spots)} spots, {len(pins.buttons)} buttons, journal {config.journal_path}"
    )
    return 0
