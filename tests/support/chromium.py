"""The browser the tests drive: Debian's Chromium (.ci/run installs it, never a download),
headless, with what it would do on its own (updates, sync, background fetches) turned off."""

from __future__ import annotations

from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
