"""`tablectl demo --chip-readers --dealer-mistakes RATE --rounds N --json`: the
scripted dealer's deliberate mistakes are every one caught by the table (rule 4.1), and the
table raises no mismatch where the dealer paid right."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def run_demo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "demo", "--port", "0", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )


@pytest.mark.timeout(300)
def test_rule_4_1_every_mistake_of_the_scripted_dealer_is_caught() -> None:
    done = run_demo(
        "--chip-readers", "--dealer-mistakes", "0.4", "--rounds", "10", "--json", "--seed", "5"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout  # one JSON line; the play went to stderr
    result = json.loads(lines[0])
    assert result["rounds"] == 10
    assert result["mistakes_made"] > 0
    assert result["mistakes_caught"] == result["mistakes_made"]
    assert result["false_alarms"] == 0
    for kind, counts in result["by_kind"].items():
        assert counts["caught"] == counts["made"], kind
    assert "round" in done.stderr  # the dealer's actions, for a person watching


@pytest.mark.timeout(300)
def test_settlement_casino_procedure_every_mistake_of_the_baccarat_dealer_is_caught() -> None:
    """Baccarat on chip readers: wagers stacked on the betting areas' spots, every bet type
    paid by the readers (the Banker's commission on the box's account), and every overpay,
    underpay and uncollected losing wager the dealer makes is caught before NEXT."""
    done = run_demo(
        "--game", "baccarat", "--chip-readers", "--dealer-mistakes", "0.3", "--rounds", "10",
        "--json", "--seed", "5",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    result = json.loads(lines[0])
    assert result["rounds"] == 10
    assert result["mistakes_made"] > 0
    assert result["false_alarms"] == 0
    for kind, counts in result["by_kind"].items():
        assert counts["caught"] == counts["made"], kind
    assert "banker" in done.stderr or "player" in done.stderr  # the coups, for a person watching


def test_dealer_mistakes_need_chip_readers() -> None:
    done = run_demo("--dealer-mistakes", "0.2", "--rounds", "1")
    assert done.returncode == 2
    assert "--dealer-mistakes needs --chip-readers" in done.stderr


@pytest.mark.parametrize("rate", ["1.5", "-0.1", "often"])
def test_a_mistake_rate_outside_0_to_1_is_refused(rate: str) -> None:
    done = run_demo("--chip-readers", "--dealer-mistakes", rate, "--rounds", "1")
    assert done.returncode == 2
    assert "rate from 0 to 1" in done.stderr
