"""`tablectl pin-hash`: print the hash of a staff member's PIN for the table config.

The PIN is typed at a prompt (twice, not echoed), never given on the command line where
the shell history and ``ps`` would keep it. The output line goes in that person's
``[[staff]]`` entry (docs/security.md)::

    [[staff]]
    id = "d07"
    name = "Aroha Ngata"
    role = "dealer"          # or "supervisor"
    pin_hash = "scrypt$14$8$1$...$..."

The pit's floor view takes the same hashes in its staff file (``tablectl pit --staff``,
roles ``pit_manager`` and ``surveillance``: `controller.app.floor.staff`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from controller.app.cli.prompt import Ask, ask_hidden, terminal_getpass
from controller.app.console.supervisor import hash_pin
from controller.errors import ConfigError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--stdin",
        action="store_true",
        help="read the PIN from the first line of standard input (for scripts), not a prompt",
    )


def run(
    args: argparse.Namespace,
    *,
    out: TextIO = sys.stdout,
    prompt: Ask = terminal_getpass,
) -> int:
    if getattr(args, "stdin", False):
        pin = sys.stdin.readline().rstrip("\r\n")
    else:
        pin = ask_hidden("PIN: ", prompt)
        if ask_hidden("Again: ", prompt) != pin:
            print("tablectl pin-hash: the two PINs differ", file=sys.stderr)
            return 1
    try:
        stored = hash_pin(pin)
    except ConfigError as exc:
        print(f"tablectl pin-hash: {exc}", file=sys.stderr)
        return 2
    print(f'pin_hash = "{stored}"', file=out)
    return 0
