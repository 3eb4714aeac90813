"""Browser fixtures: the system's Chromium (Debian's package, never a download) driven by
Playwright, and a blackjack table on the simulators serving its status display."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import Hands, table_config

from controller.app.table import RunningTable


@pytest.fixture
def table(tmp_path: Path) -> Iterator[RunningTable]:
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
