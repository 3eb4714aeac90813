"""`tablectl secrets --config FILE [--rotate]`: create the secret files a table config names.

- The console secret (``[display] console_secret_file``, default ``console.secret`` beside
  the journal): what makes the kiosk's browser the table's console (docs/security.md).
  Created group-readable (0o640), so the kiosk user, in the service's group, can read it.
  ``--rotate`` replaces it: restart the controller and the kiosk (its start script asks
  `tablectl kiosk-url` again), and every browser that was the console is one no longer.
- The journal's HMAC key (``[journal] key_file``, default the journal's path + ``.key``),
  readable by the service only (0o600). Made only for a table whose journal is not yet
  there; it is never rotated here: a new key comes with a new journal (docs/security.md).

Prints one line per file: created, rotated, kept, or why not. Run it at install as the
service's user (``sudo -u tablectl``), before the first start; `tablectl run` also creates
a missing console secret (and logs it) so that a first start works.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from controller.app.config import TableConfig, load_config
from controller.app.secrets import create_secret, read_secret
from controller.errors import ConfigError

CONSOLE_MODE = 0o640  # the kiosk user reads it through the service's group


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, type=Path, help="the table config (TOML)")
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="replace the console secret (the journal key comes only with a new journal)",
    )


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        return 2
    failed = False
    path = config.console_secret_file
    try:
        if not path.exists():
            create_secret(path, mode=CONSOLE_MODE)
            print(f"created {path} (the console secret)", file=out)
        elif args.rotate:
            create_secret(path, overwrite=True, mode=CONSOLE_MODE)
            print(
                f"rotated {path} (the console secret): restart the controller and the kiosk",
                file=out,
            )
        else:
            read_secret(path, "the console secret")  # kept only if it is a good one
            print(f"kept {path} (the console secret; --rotate replaces it)", file=out)
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        failed = True
    failed = journal_key(config, out) or failed
    return 1 if failed else 0


def journal_key(config: TableConfig, out: TextIO) -> bool:
    """The journal's key, made by the journal's own module (`controller.app.journal_files`);
    True if it could not be made."""
    from controller.app.journal_files import create_journal_key, journal_key_path

    path = journal_key_path(config)
    if path.exists():
        print(f"kept {path} (the journal key; a new key comes with a new journal)", file=out)
        return False
    try:
        create_journal_key(config)
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        return True
    print(f"created {path} (the journal key)", file=out)
    return False
