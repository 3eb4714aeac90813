"""`tablectl deploy-files DIR`: write the files a Pi is set up with into DIR, as the package
ships them (docs/install.md says where each goes)::

    DIR/tablectl.service          the systemd unit (/etc/systemd/system/)
    DIR/tablectl-kiosk.sh         the kiosk's start script (the kiosk user's autostart)
    DIR/mosquitto/mosquitto.conf  the pit's broker (/etc/mosquitto/conf.d/)
    DIR/mosquitto/tablectl.acl    who may write which topics (/etc/mosquitto/)

A file already in DIR is left as it is (and named) unless ``--force``: a unit edited for a
table is not overwritten by surprise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from controller.app.cli import shipped


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="the folder to write them into (made if missing)")
    parser.add_argument("--force", action="store_true", help="overwrite files already there")


def run(args: argparse.Namespace, *, out: TextIO | None = None) -> int:
    out = out or sys.stdout  # looked up now: a test may have replaced it
    kept = []
    for name, resource in shipped.deploy_files():
        target = args.dir / name
        if target.exists() and not args.force:
            kept.append(name)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(resource.read_bytes())
        target.chmod(0o755 if name.endswith(".sh") else 0o644)
        print(f"wrote {target}", file=out)
    if kept:
        print(
            f"tablectl deploy-files: already in {args.dir}, left as they are (--force to "
            f"overwrite): {', '.join(kept)}",
            file=sys.stderr,
        )
        return 1
    return 0
