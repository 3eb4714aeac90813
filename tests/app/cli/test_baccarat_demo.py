"""`tablectl demo --game baccarat`: the registry's entry is all the demo needs (its
example config, its scripted dealer from the spec, the real drivers on simulated devices):
coups are dealt to the end, the Table of Play's third cards included, and the journal
holds every coup settled and balanced."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.app.runtime.journal_files import open_journal

ROOT = Path(__file__).resolve().parents[3]


def test_the_demo_deals_baccarat_coups(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "demo", "--game", "baccarat", "--pace",
         "0", "--rounds", "6", "--port", "0", "--seed", "11", "--journal", str(journal)],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "SIMULATED baccarat table bc-01" in out and "6 rounds played" in out
    assert "Player's first card (Initial Deal" in out
    with open_journal(journal, readonly=True) as opened:
        assert opened.verify() > 0
        rows = list(opened.entries())
    settled = [row.payload for row in rows if row.kind == "CoupSettled"]
    assert len(settled) >= 6
    assert all(c["wagers_in"] == c["paid_out"] + c["house_result"] for c in settled)
    assert any(row.kind == "CardBurned" for row in rows)  # the new shoe's burn
    assert not [row for row in rows if row.kind in ("Violation", "ControllerFault")]
