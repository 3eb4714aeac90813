"""`tablectl secrets --config FILE [--rotate]`: create the secret files a table config names.

- The console secret (``[display] console_secret_file``, default ``console.secret`` beside
  the journal): what makes the kiosk's browser the table's console (docs/security.md).
  Created group-readable (0o640), so the kiosk user, in the service's group, can read it.
  ``--rotate`` replaces it: restart the controller and the kiosk (its start script asks
  `tablectl kiosk-url` again), and every browser that was the console is one no longer.
- The journal's HMAC key (``[journal] key_file``, default the journal's path + ``.key``),
  readable by the service only (0o600). Made only for a table whose journal is not yet
  there; it is never rotated here: a new key comes with a new journal (docs/security.md).

- The pit signing key (``[pit] signing_key_file``, default ``pit-signing.key`` beside the
  journal), for a table with a ``[pit]``: the Ed25519 key every message to the pit is
  signed with, readable by the service only (0o600). ``--public-key`` prints its public
  key as the line the pit's floor file takes under ``[keys]`` (made first if missing).

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
    parser.add_argument(
        "--public-key",
        action="store_true",
        help="print the table's pit public key as the floor file's [keys] line, and exit",
    )


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "public_key", False):  # a caller's own Namespace may not name it
        return public_key(config, out)
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
    failed = pit_signing_key(config, out) or failed
    return 1 if failed else 0


def pit_signing_key(config: TableConfig, out: TextIO) -> bool:
    """The table's pit signing key, for a table with a ``[pit]``; True if it could not be
    made (or a key that is there is not a good one)."""
    from controller.app.pit.signing import TABLE_KEY_WHAT, signing_key_path, table_signing_key

    if config.pit is None:
        return False
    path = signing_key_path(config)
    try:
        if path.exists():
            table_signing_key(config)
            print(f"kept {path} ({TABLE_KEY_WHAT}; --public-key prints its public key)", file=out)
        else:
            table_signing_key(config, create=True)
            print(f"created {path} ({TABLE_KEY_WHAT}; --public-key prints its public key)",
                  file=out)  # fmt: skip
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        return True
    return False


def public_key(config: TableConfig, out: TextIO) -> int:
    """``"<table id>" = "ed25519:..."``: the line for the floor file's ``[keys]``."""
    from controller.app.pit.signing import public_text, table_signing_key

    if config.pit is None:
        print("tablectl secrets: the table config has no [pit] section", file=sys.stderr)
        return 2
    try:
        key = table_signing_key(config, create=True)
    except ConfigError as exc:
        print(f"tablectl secrets: {exc}", file=sys.stderr)
        return 1
    print(f'"{config.table_id}" = "{public_text(key)}"', file=out)
    return 0


def journal_key(config: TableConfig, out: TextIO) -> bool:
    """The journal's key, made by the journal's own module (`controller.app.runtime.journal_files`);
    True if it could not be made."""
    from controller.app.runtime.journal_files import create_journal_key, journal_key_path

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
