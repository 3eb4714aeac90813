"""The engineer's wire tools as real processes: `tablectl sim-shoe` serving a pty, and
`tablectl shoe-monitor` reading it through the real driver; and `tablectl demo`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.app.tools.sim_shoe import parse_faults

TABLECTL = [sys.executable, "-m", "controller.app.cli"]


def test_sim_shoe_feeds_shoe_monitor_over_a_pty() -> None:
    shoe = subprocess.Popen(
        [*TABLECTL, "sim-shoe", "--pty", "--seed", "5", "--deal-every", "0.05"],  # till stopped
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert shoe.stdout is not None
        banner = shoe.stdout.readline()
        assert banner.startswith("SIMULATED shoe"), banner
        path = banner.rsplit(" on ", 1)[1].strip()
        monitor = subprocess.run(
            [*TABLECTL, "shoe-monitor", path, "--count", "5"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        shoe.terminate()
        shoe.wait(timeout=30)
    assert monitor.returncode == 0, monitor.stderr
    cards = [line for line in monitor.stdout.splitlines() if line.startswith("card ")]
    assert len(cards) == 5
    assert "hello: shoe SIM-SHOE-0001" in monitor.stdout


def test_shoe_monitor_on_a_missing_port_says_so() -> None:
    result = subprocess.run(
        [*TABLECTL, "shoe-monitor", "/dev/does-not-exist"], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "no device at /dev/does-not-exist" in result.stderr
    assert "Traceback" not in result.stderr


def test_demo_plays_rounds_and_says_it_is_simulated(tmp_path: Path) -> None:
    journal = tmp_path / "demo.sqlite"
    result = subprocess.run(
        [
            *TABLECTL,
            "demo",
            "--pace",
            "0",
            "--rounds",
            "2",
            "--seed",
            "1",
            "--port",
            "0",
            "--journal",
            str(journal),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("SIMULATED blackjack table")
    assert "2 rounds played" in result.stdout
    assert "SIMULATED shoe" in result.stderr  # the log says so too
    verify = subprocess.run(
        [*TABLECTL, "journal", "verify", str(journal)], capture_output=True, text=True
    )
    assert verify.returncode == 0 and verify.stdout.startswith("ok:"), verify.stdout


def test_fault_rates_are_checked() -> None:
    import random

    faults = parse_faults("corrupt=0.1,drop=0.2", random.Random(1))
    assert faults is not None and (faults.corrupt, faults.drop) == (0.1, 0.2)
    with pytest.raises(ValueError, match="unknown fault 'melt'"):
        parse_faults("melt=0.1", random.Random(1))
    with pytest.raises(ValueError, match="not between 0 and 1"):
        parse_faults("drop=2", random.Random(1))
