"""A journal that does not check out stops the table for good, not in a loop: `tablectl
run` ends with `JOURNAL_REFUSED` (which the unit's ``RestartPreventExitStatus`` names, so
systemd does not start it again into the same refusal), at the start and when the full
check after the start finds a row broken; `tablectl demo` stops like `run`, with one line,
instead of dealing on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.app.cli.run import JOURNAL_REFUSED
from tests.security.test_journal_tampering import (  # the played journal, copied per test
    ROOT,
    checkpoint_seq,
    journal_of,
    played,
    table,
    tamper,
)
from tests.support.cli import tablectl

__all__ = ["played", "table"]  # fixtures

pytestmark = pytest.mark.timeout(180)


def stderr_lines(result: subprocess.CompletedProcess[str], prefix: str) -> list[str]:
    assert "Traceback" not in result.stderr, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith(prefix)]


def test_a_journal_refused_at_start_exits_with_the_status_the_unit_does_not_restart(
    table: Path,
) -> None:
    row = checkpoint_seq(table) + 2
    tamper(table, f"UPDATE journal SET round = 77 WHERE seq = {row}")
    result = tablectl("run", "--config", str(table), "--sim")
    assert result.returncode == JOURNAL_REFUSED, result
    assert len(stderr_lines(result, "tablectl run: journal row ")) == 1


def test_a_config_mistake_still_exits_2_and_is_restarted(tmp_path: Path) -> None:
    broken = tmp_path / "table.toml"
    broken.write_text("[table]\nid = 7\n")
    result = tablectl("run", "--config", str(broken), "--sim")
    assert result.returncode == 2 != JOURNAL_REFUSED, result


def test_the_demo_stops_on_a_journal_found_broken_after_the_start(table: Path) -> None:
    """Row 4 is before the checkpoint: the start takes it on trust, the full check after
    the start finds it, and the demo stops with one line, as `run` does."""
    tamper(table, "UPDATE journal SET round = 77 WHERE seq = 4")
    command = [sys.executable, "-m", "controller.app.cli", "demo", "--config", str(table)]
    command += ["--journal", str(journal_of(table)), "--port", "0", "--pace", "0"]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == JOURNAL_REFUSED, result
    assert stderr_lines(result, "tablectl demo: ") == [
        "tablectl demo: stopped: journal row 4: content changed since it was written (or "
        "the row was made without the key)"
    ], result.stderr
