"""A possible counterfeit chip from a chip reader's CHIP_IDS to the journal: the
simulated reader on a pty, the real serial driver, the game's check against the config's
chip inventory, and the journal's ChipAlarm rows."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from controller.app.cli.demo_chips import open_chip_reader, with_chip_readers
from controller.app.config import parse_config
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable

ROOT = Path(__file__).resolve().parents[3]
INVENTORY = "chip_id,value\n" + "".join(f"E0040150000000{n:02X},25\n" for n in range(6))


@pytest.mark.timeout(60)
def test_a_counterfeit_chip_on_the_wire_is_journaled(tmp_path: Path) -> None:
    (tmp_path / "chips.csv").write_text(INVENTORY)
    text = (ROOT / "examples" / "blackjack-table.toml").read_text()
    config = parse_config(
        text + '\n[chips]\ninventory = "chips.csv"\n', source="t.toml", base=tmp_path
    )
    config = dataclasses.replace(
        with_chip_readers(config), journal_path=tmp_path / "journal.sqlite", display_port=0
    )
    table = RunningTable(config, simulate=True, serve=False, seed=1).start()
    try:
        sim, driver = open_chip_reader(table)
        try:
            genuine = [(f"E0040150000000{n:02X}", 25) for n in range(6)]  # two frames
            sim.sense_ids("box3", [*genuine, ("E004015000000001", 100), ("E0040150DEADBEEF", 5)])
            assert sim.wait_until_acknowledged(10.0)  # acknowledged: journaled
        finally:
            driver.close()
            sim.close()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not table.loop.wait_idle(0.1):
            pass
    finally:
        table.stop()
    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        rows = list(journal.entries())
    sensed = [r for r in rows if r.kind == "ChipIdsSensed"]
    assert len(sensed) == 2 and all(r.source == "chips" for r in sensed)
    alarms = [r.payload for r in rows if r.kind == "ChipAlarm"]
    assert [(a["chip_id"], a["value"], a["listed"]) for a in alarms] == [
        ("E004015000000001", 100, 25),  # listed at 25: carries 100
        ("E0040150DEADBEEF", 5, None),
    ]
