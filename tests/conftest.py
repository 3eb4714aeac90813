"""Shared fixtures: a guard that fails any test leaking a thread (pymodbus habit), and the
session's one browser."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.needs import missing
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium for the whole run, driven by Playwright. Playwright's sync API
    allows one running instance per thread, so every browser test shares this one."""
    from playwright import sync_api  # the dev extra installs it: missing, the test fails

    if not CHROMIUM.exists():
        missing("Debian's chromium")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    leaked = [
        t
        for t in threading.enumerate()
        if t not in before and t.is_alive() and not t.name.startswith(("pydevd", "asyncio"))
    ]
    for thread in leaked:
        thread.join(timeout=2.0)
    still = [t.name for t in leaked if t.is_alive()]
    assert not still, f"test leaked threads: {still}"
