"""`tablectl`: the one command-line entry point.

Each sub-command lives in its own module under `controller.app` and offers
``add_arguments(parser)`` and ``run(args) -> int`` (the exit code: 0 done, 1 failed, 2 bad
usage or config; `run` and `demo`: 65 a journal that does not check out, which the unit
does not restart, `controller.app.cli.run.JOURNAL_REFUSED`).

Bad input gets one line on stderr that names it, and a non-zero exit, never a traceback:
a bad option is refused by the parser in one line (`Parser`), numbers are
checked where they are parsed (`port`, `at_least`), and an error a command did not catch
itself is printed in one line here (with ``-vv`` its traceback is logged too). Output cut
short by a closed pipe (``tablectl journal export ... | head``) ends quietly, as it does
for any Unix tool.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import NoReturn

from controller.app.cli.prompt import PromptEnded
from controller.errors import TableError
from controller.game.arguments import whole

log = logging.getLogger(__name__)

COMMANDS = {
    "run": ("controller.app.cli.run", "run a table from its config"),
    "demo": ("controller.app.cli.demo", "run a simulated table (the README's main command)"),
    "config": ("controller.app.cli.config_check", "check a table config"),
    "journal": ("controller.app.cli.journal", "verify, export, replay, recall the journal"),
    "pin-hash": ("controller.app.cli.pin_hash", "hash a staff PIN for a [[staff]] entry"),
    "secrets": ("controller.app.cli.secrets", "create the console secret and the journal key"),
    "kiosk-url": ("controller.app.cli.kiosk_url", "print the URL the table's kiosk opens once"),
    "pit": ("controller.app.floor.view", "the floor view: every table seen on the MQTT broker"),
    "sim-shoe": ("controller.app.tools.sim_shoe", "serve a simulated shoe on a pty or TCP port"),
    "shoe-monitor": (
        "controller.app.tools.shoe_monitor",
        "watch a shoe's line: cards, status, faults",
    ),
    "rfid-monitor": ("controller.app.tools.rfid_monitor", "watch an RFID reader: tags and cards"),
    "deck": ("controller.app.tools.deck", "enrol a deck of tagged cards, or check one"),
    "shoe-conformance": (
        "controller.app.tools.conformance",
        "check a shoe's firmware against docs/protocol.md, case by case",
    ),
    "io-test": ("controller.app.tools.io_test", "check a table's GPIO wiring input by input"),
    "simulate": ("controller.app.cli.simulate", "play many rounds through the rules, fast"),
    "example-config": ("controller.app.cli.example_config", "print a game's example table config"),
    "deploy-files": ("controller.app.cli.deploy_files", "write the systemd unit, kiosk, mosquitto"),
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose refusal is one line naming the problem (and exit 2); the
    usage is one ``--help`` away. Sub-command parsers are made of the same class."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def say(name: str, error: Exception) -> None:
    """``error`` on stderr after the command's name: a config's mistakes one line each."""
    for line in str(error).splitlines() or [""]:
        print(f"{name}: {line}", file=sys.stderr)


def tcp_port(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535 (0: any free port)."""
    value = whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a TCP port (0 to 65535)")
    return value


def seconds(text: str) -> float:
    """An argparse type: a time in seconds, zero or more (and finite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0.0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds, 0 or more")
    return value


def version() -> str:
    """The installed package's version: pyproject.toml's, the one place it is written."""
    try:
        return metadata.version("tablectl")
    except metadata.PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="tablectl", description="Open table controller for casino card shoes and consoles."
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output")
    parser.add_argument("--version", action="version", version=f"tablectl {version()}")
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
    name = f"tablectl {args.command}"
    try:
        code: int = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
    except BrokenPipeError:
        # the reader went away (``| head``): stop quietly, as a Unix tool would; point
        # stdout at /dev/null so that the flush at exit does not complain again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13  # what a shell reports for a tool ended by SIGPIPE
    except KeyboardInterrupt:
        return 128 + 2
    except PromptEnded as exc:  # Ctrl-D or Ctrl-C at a prompt: the line ends after the prompt
        print(f"{chr(10) if exc.asked else ''}{name}: {exc}", file=sys.stderr)
        return exc.exit_code
    except TableError as exc:
        log.debug("%s failed", name, exc_info=True)
        say(name, exc)
        return 2
    except OSError as exc:
        log.debug("%s failed", name, exc_info=True)
        print(f"{name}: {exc}", file=sys.stderr)
        return 1
    return code
