"""A test that needs a tool this machine may lack (Debian's chromium, mosquitto, openssl)
or a kernel that grants real-time scheduling.

On a developer's machine without it the test skips, naming what is missing. In CI
(``CI=true``, as `.ci/run` runs) a missing tool fails the test instead: `.ci/run` installs
every one of them, so a skip there would hide a test that never ran (README, "Tests that
are skipped, and when").
"""

from __future__ import annotations

import os

import pytest


def missing(what: str) -> None:
    """Skip (or, in CI, fail) because ``what`` is not installed."""
    unavailable(f"{what} is not installed (.ci/run installs it)")


def unavailable(why: str) -> None:
    """Skip (or, in CI, fail) because this machine cannot show what the test checks
    (``why``): a tool that is missing, a kernel that refuses real-time scheduling."""
    if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"{why}: in CI every test must run")
    pytest.skip(f"{why} (README, 'Tests that are skipped, and when')")
