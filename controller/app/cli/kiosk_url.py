"""`tablectl kiosk-url --config FILE`: print the URL the table's kiosk opens once.

The URL carries the console secret (``/?console=<secret>``); the controller answers it by
setting the console cookie and sending the browser on to ``/``, so the secret leaves the
address bar. The kiosk's start script runs this and hands the URL to Chromium
(deploy/tablectl-kiosk.sh, docs/install.md): it is never written anywhere else. Reading the
secret needs the service's group (docs/security.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from controller.app.config import load_config
from controller.app.secrets import read_secret
from controller.errors import ConfigError

WILDCARD = ("0.0.0.0", "::", "")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, type=Path, help="the table config (TOML)")


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        config = load_config(args.config)
        secret = read_secret(config.console_secret_file, "the console secret")
    except ConfigError as exc:
        print(f"tablectl kiosk-url: {exc}", file=sys.stderr)
        return 2
    scheme = "https" if config.tls_cert_file else "http"
    host = "127.0.0.1" if config.display_host in WILDCARD else config.display_host
    if ":" in host:
        host = f"[{host}]"
    print(f"{scheme}://{host}:{config.display_port}/?console={secret.hex()}", file=out)
    return 0
