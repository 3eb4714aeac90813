"""`tablectl` as a test runs it: ``python -m controller.app.cli`` in a subprocess, from the
repository root, with its output captured as text and a timeout."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tablectl_command(*args: str) -> list[str]:
    """The command line of ``tablectl *args`` (for a `subprocess.Popen` of the caller's)."""
    return [sys.executable, "-m", "controller.app.cli", *args]


def tablectl(
    *args: str,
    timeout: float = 60,
    stdin: str = "",
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``tablectl *args`` to its end; never raises on its exit status.

    ``stdin`` is all the command reads (a PIN and its newline, say): empty unless given, so
    a prompt never waits on the terminal. ``env`` replaces the environment (None: ours)."""
    return subprocess.run(
        tablectl_command(*args),
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )
