"""A warning while any member of staff still has one of the shipped demo PINs (the README
prints them): a line in the log, and the state's ``demo_pins`` (the staff ids) that the
dealer's and surveillance's displays show (tests/browser/test_demo_pins_chip.py), on a
real table and in the demo itself."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli.demo import demo_config
from controller.app.config import StaffMember
from controller.app.console import supervisor
from controller.app.console.supervisor import DEMO_PINS, hash_pin, on_demo_pins
from controller.app.pin_hashes import check_pin
from controller.app.runtime.table import RunningTable

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)


class Watch:
    """A feed that notes when a published state names staff on demo PINs."""

    def __init__(self) -> None:
        self.seen = threading.Event()
        self.demo_pins: list[str] = []

    def start(self) -> Watch:
        return self

    def publish(self, state: dict[str, Any]) -> None:
        if state.get("demo_pins"):
            self.demo_pins = list(state["demo_pins"])
            self.seen.set()

    def close(self) -> None:
        pass


def running(config: Any) -> tuple[RunningTable, Watch]:
    table = RunningTable(config, simulate=True)
    watch = Watch()
    table.feeds.append(watch)
    return table.start(), watch


def test_staff_on_the_demo_pins_are_named_in_the_log_and_on_the_display(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    table, watch = running(demo_config("blackjack", tmp_path / "journal.sqlite", port=0))
    try:
        assert watch.seen.wait(timeout=60), "no state named the staff on demo PINs"
        assert watch.demo_pins == ["d01", "s01"]  # examples/*-table.toml's staff
        assert any(
            "staff d01, s01 still have the shipped demo PINs" in r.getMessage()
            for r in caplog.records
        )
    finally:
        table.stop()


def test_staff_with_their_own_pins_get_no_warning(tmp_path: Path) -> None:
    config = demo_config("blackjack", tmp_path / "journal.sqlite", port=0)
    own = tuple(
        dataclasses.replace(m, pin_hash=hash_pin(f"90{i}1", log2_n=10))
        for i, m in enumerate(config.staff)
    )
    table, watch = running(dataclasses.replace(config, staff=own))
    try:
        assert table.pin_check is not None
        table.pin_check.join(timeout=60)
        assert not table.pin_check.is_alive() and table.demo_pins == []
        assert not watch.seen.is_set()
    finally:
        table.stop()


def test_a_table_stopped_during_the_check_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check runs scrypt in OpenSSL on a thread of its own; left running while the
    process exits, it crashed `tablectl run` on SIGTERM (SIGSEGV, 1 start in 40). Stopping
    the table ends the check after the scrypt in hand and waits for it. Here the first
    check is still in hand when the stop is asked, and lasts 1 s more."""
    started: list[RunningTable] = []
    finished: list[str] = []

    def slow_check(pin: str, stored: str) -> bool:
        while not started:  # the table is handed over once its start returns
            time.sleep(0.01)
        started[0].closing.wait(timeout=30)  # in hand until the stop is asked
        time.sleep(1.0)
        finished.append(pin)
        return check_pin(pin, stored)

    monkeypatch.setattr(supervisor, "check_pin", slow_check)
    table, watch = running(demo_config("blackjack", tmp_path / "journal.sqlite", port=0))
    started.append(table)
    assert table.pin_check is not None and table.pin_check.is_alive()
    table.stop()
    assert not table.pin_check.is_alive()
    assert finished == ["1357"]  # waited for the check in hand; the next 2 never began
    assert table.demo_pins == [] and not watch.seen.is_set()


def test_a_demo_pin_hashed_anew_is_still_found() -> None:
    """Not the examples' hash strings: any hash that verifies a demo PIN."""
    staff = [
        StaffMember("d09", "New Dealer", "dealer", hash_pin(DEMO_PINS[0], log2_n=10)),
        StaffMember("s09", "New Supervisor", "supervisor", hash_pin("8642", log2_n=10)),
    ]
    assert on_demo_pins(staff) == ["d09"]


def test_the_demo_says_it_too(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "controller.app.cli", "demo", "--rounds", "1"]
    command += ["--pace", "0", "--port", "0", "--journal", str(tmp_path / "journal.sqlite")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=100)
    assert result.returncode == 0, result.stderr
    assert "staff d01, s01 still have the shipped demo PINs" in result.stderr
