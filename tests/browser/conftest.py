"""Browser fixtures: the system's Chromium (Debian's package, never a download) driven by
Playwright, and a blackjack table on the simulators serving its status display."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.runtime.table import RunningTable
from controller.ports import DealerSignedIn
from tests.support.browser import DEALER, Hands, table_config


@pytest.fixture
def table(tmp_path: Path) -> Iterator[RunningTable]:
    """A table on the simulators with dealer d07 signed in (test_sign_in.py signs in at
    the page itself)."""
    running = RunningTable(table_config(tmp_path / "journal.sqlite"), simulate=True, seed=7)
    running.start()
    seen = running.loop.processed
    running.events.put(DealerSignedIn(source="console", staff_id=DEALER.id, name=DEALER.name))
    running.loop.wait_processed(seen, timeout=10)
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def unsigned_table(tmp_path: Path) -> Iterator[RunningTable]:
    """The same table with nobody signed in."""
    running = RunningTable(table_config(tmp_path / "journal.sqlite"), simulate=True, seed=7)
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def hands(table: RunningTable) -> Hands:
    return Hands(table)


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 800, "height": 480})  # type: ignore[attr-defined]
    page = context.new_page()
    yield page
    context.close()
