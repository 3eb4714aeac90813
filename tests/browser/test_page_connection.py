"""The page against a real `tablectl demo` process: SIGKILL it and the page says
DISCONNECTED within 2 s; restart it on the same journal and port and the page comes back by
itself, showing the state recovered from the journal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from sim_hardware.testbed import free_port

TABLECTL = [sys.executable, "-c", "from controller.app.cli import main; raise SystemExit(main())"]
ROOT = Path(__file__).resolve().parents[2]


def start_demo(journal: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*TABLECTL, "demo", "--journal", str(journal), "--port", str(port), "--pace", "0.05"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def state_of(port: int, timeout: float = 20.0) -> dict[str, Any]:
    """The controller's state once its server answers (polled: a process starting up)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1) as r:
                state: dict[str, Any] = json.load(r)
                if state.get("view"):
                    return state
        except OSError:
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise TimeoutError("the demo never published a state")
        time.sleep(0.1)  # polling a process that is starting, not waiting for a result


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[tuple[Path, int, list[subprocess.Popen[bytes]]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield tmp_path / "journal.sqlite", free_port(), procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_killed_controller_shows_disconnected_within_2_s_and_a_restart_recovers(
    page: Page, demo: tuple[Path, int, list[subprocess.Popen[bytes]]]
) -> None:
    journal, port, procs = demo
    procs.append(start_demo(journal, port))
    state_of(port)
    page.goto(f"http://127.0.0.1:{port}/")
    expect(page.locator("#conn")).to_have_text("LIVE")
    page.wait_for_function(
        "() => window.tablePage.state && window.tablePage.state.journal_seq > 20"
    )
    expect(page.locator("#recovered")).to_be_hidden()  # a fresh journal
    os.kill(procs[0].pid, signal.SIGKILL)
    killed = time.monotonic()
    procs[0].wait(timeout=10)
    expect(page.locator("#disconnected")).to_be_visible(timeout=2000)
    assert time.monotonic() - killed < 2.0
    expect(page.locator("body")).to_have_attribute("data-conn", "disconnected")
    shown = page.evaluate("window.tablePage.state.journal_seq")

    procs.append(start_demo(journal, port))
    expect(page.locator("#conn")).to_have_text("LIVE", timeout=20000)  # by itself, no reload
    expect(page.locator("#disconnected")).to_be_hidden()
    expect(page.locator("#recovered")).to_be_visible()
    recovered = page.evaluate("window.tablePage.state")
    assert recovered["recovered"] is True
    assert recovered["journal_seq"] > shown  # the journal went on from where it stopped


def test_a_hung_controller_shows_disconnected_within_2_s_by_the_ping_watchdog(
    page: Page, demo: tuple[Path, int, list[subprocess.Popen[bytes]]]
) -> None:
    """SIGSTOP: the connection stays open but nothing arrives (a frozen controller). Only the
    page's watchdog on the 0.5 s pings can tell; SIGCONT brings it back."""
    journal, port, procs = demo
    procs.append(start_demo(journal, port))
    state_of(port)
    page.goto(f"http://127.0.0.1:{port}/surveillance")
    expect(page.locator("#conn")).to_have_text("LIVE")
    os.kill(procs[0].pid, signal.SIGSTOP)
    stopped = time.monotonic()
    try:
        expect(page.locator("#disconnected")).to_be_visible(timeout=2000)
        assert time.monotonic() - stopped < 2.0
    finally:
        os.kill(procs[0].pid, signal.SIGCONT)
    expect(page.locator("#conn")).to_have_text("LIVE", timeout=10000)
