"""`tablectl`: the one command-line entry point.

Each sub-command lives in its own module under `controller.app` and offers
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code: 0 done, 1 failed, 2 bad
usage or config).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

COMMANDS = {
    "run": ("controller.app.run", "run a table from its config"),
    "demo": ("controller.app.demo", "run a simulated table (the README's main command)"),
    "config": ("controller.app.config_check", "check a table config"),
    "journal": ("controller.app.journal_cli", "verify, export, replay, recall the journal"),
    "pin-hash": ("controller.app.pin_hash", "hash a supervisor PIN for the table config"),
    "pit": ("controller.app.pit_view", "the floor view: every table seen on the MQTT broker"),
    "sim-shoe": ("controller.app.sim_shoe", "serve a simulated shoe on a pty or TCP port"),
    "shoe-monitor": ("controller.app.shoe_monitor", "watch a shoe's line: cards, status, faults"),
    "rfid-monitor": ("controller.app.rfid_monitor", "watch an RFID reader: tags and cards"),
    "io-test": ("controller.app.io_test", "check a table's GPIO wiring input by input"),
    "simulate": ("controller.app.simulate", "play many rounds through the rules, fast"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablectl", description="Open table controller for casino card shoes and consoles."
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        command = sub.add_parser(name, help=help_text, description=module.__doc__)
        command.formatter_class = argparse.RawDescriptionHelpFormatter
        module.add_arguments(command)
        command.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    level = (logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
