"""`tablectl demo --shoe rfid`: the demo's rounds dealt through a simulated RDM6300 at the
mouth of a shoe of tagged decks, read by the real RFID driver through the deck files the
simulated shoe wrote, to the journal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from controller.app.cli.demo import demo_config
from controller.app.runtime.journal_files import open_journal

ROOT = Path(__file__).resolve().parents[3]


def test_demo_config_puts_an_rfid_shoe_on_the_simulator() -> None:
    config = demo_config("blackjack", None, None, shoe="rfid")
    assert config.shoe.protocol == "rdm6300" and config.shoe.simulated and config.shoe.rfid
    assert demo_config("blackjack", None, None, shoe="serial").shoe.protocol == "tablectl"


def test_demo_plays_rounds_on_an_rfid_shoe_to_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "demo", "--shoe", "rfid", "--pace", "0",
         "--rounds", "2", "--port", "0", "--seed", "7", "--journal", str(journal)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 rounds played" in done.stdout
    with open_journal(journal, readonly=True) as opened:
        rows = list(opened.entries())
    drawn = [r.payload for r in rows if r.kind == "CardDrawn"]
    assert len(drawn) > 8 and all(p["tag"] and p["seq"] is None for p in drawn)
    assert not [r for r in rows if r.kind in ("Violation", "ControllerFault", "DeviceFault")]
    assert sum(r.kind == "RoundSettled" for r in rows) >= 2
