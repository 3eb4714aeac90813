"""``tablectl io-test``: lists inputs, cycles outputs, and leaves the gate fail-safe when the
process stops (checked from outside the process, on the pin history it leaves behind)."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from controller.app.tools import io_test
from tests.support.gpio import no_pi_gpio

ROOT = Path(__file__).resolve().parents[2]
BLACKJACK = ROOT / "examples" / "blackjack-table.toml"
POKER = ROOT / "examples" / "poker-table.toml"


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    io_test.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_on_the_simulator_it_lists_inputs_and_cycles_outputs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = parse("--config", str(POKER), "--sim", "--step", "0.02", "--duration", "0.8")
    assert io_test.run(args) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("SIMULATOR")
    assert any("input  supervisor" in line and "GPIO17" in line for line in lines)
    assert "output  lamp betting_open: on (GPIO12)" in out
    assert "output  dealer button: seat 1 (GPIO5)" in out
    assert "input   button no_more_bets GPIO2   pressed" in out  # the simulated hand


def test_a_bad_config_is_reported_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "table.toml"
    bad.write_text(BLACKJACK.read_text().replace("box3 = 16", "box3 = 17"))
    assert io_test.run(parse("--config", str(bad), "--sim")) == 2
    err = capsys.readouterr().err
    assert "GPIO17 is used twice" in err and f"{bad}:" in err


def test_without_sim_and_without_gpio_it_refuses_and_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    no_pi_gpio(monkeypatch)  # even on a Pi: the table's GPIO cannot be opened
    assert io_test.run(parse("--config", str(BLACKJACK))) == 3
    assert "--sim" in capsys.readouterr().err


@pytest.mark.parametrize("fail_safe", ["locked", "unlocked"])
def test_the_gate_is_fail_safe_after_the_process_stops(tmp_path: Path, fail_safe: str) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        BLACKJACK.read_text().replace('fail_safe = "locked"', f'fail_safe = "{fail_safe}"')
    )
    history = tmp_path / "pins.json"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "controller.app.tools.io_test",
            "--config",
            str(config),
            "--sim",
            "--step",
            "30",
            "--history",
            str(history),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        # The first output step energises the gate (moves it away from its fail-safe
        # state) for 30 s; stop the controller while it is energised.
        away = "unlocked" if fail_safe == "locked" else "locked"
        for line in proc.stdout:
            if f"output  shoe gate: {away}" in line:
                break
        else:
            pytest.fail("io-test ended before cycling the gate")
        proc.send_signal(signal.SIGTERM)
        rest = proc.stdout.read()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
    assert f"released in its fail-safe state ({fail_safe})" in rest
    record = json.loads(history.read_text())
    gate = record["gate_pin"]
    gate_levels = [level for _, _, gpio, level in record["changes"] if gpio == gate]
    assert record["start"]["gate"] == 0.0  # on start: de-energised, the fail-safe state
    assert gate_levels == [1.0, 0.0]  # energised by the cycle, de-energised on the way out
