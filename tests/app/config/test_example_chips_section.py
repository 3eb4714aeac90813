"""The example table config carries the settlement check by the chips (rule 4.1)
commented out, so an installer finds it where the other sections are: uncommented as it
stands it is a valid config that checks the payouts, and it names only keys that exist."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from controller.app.config import parse_config
from controller.app.config.chips import SCHEMA
from controller.blackjack.rules import Variants
from controller.game.chips import WinningsPaid

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()
KEYS = ("settlement_check", "chip_readers", "winnings_paid", r"\[chips\]", "reader", "inventory")
COMMENTED = re.compile(rf"^# ((?:{'|'.join(KEYS)})(?=[ =]).*)$", re.MULTILINE)


def uncommented() -> str:
    """The example with its chip lines turned on, comments kept."""
    return COMMENTED.sub(r"\1", EXAMPLE)


def test_the_example_has_the_chips_section_commented_out_with_each_key_explained() -> None:
    lines = [m.group(0) for m in COMMENTED.finditer(EXAMPLE)]
    assert len(lines) == len(KEYS), lines
    assert all("  # " in line or " # " in line for line in lines), "a key without its why"
    assert parse_config(EXAMPLE, source="t.toml").chip_reader == ""  # off as shipped


def test_rule_4_1_the_example_uncommented_checks_the_payouts_by_the_chips(
    tmp_path: Path,
) -> None:
    (tmp_path / "chips.csv").write_text("chip_id,value\nE004015012345678,25\n")
    config = parse_config(uncommented(), source="t.toml", base=tmp_path)
    rules = config.rules
    assert isinstance(rules, Variants)
    assert rules.settlement_check and rules.chip_readers
    assert rules.winnings_paid is WinningsPaid.ON_SPOT
    assert "E004015012345678,25" in rules.chip_inventory
    assert config.chip_reader.startswith("/dev/serial/by-id/")


def test_the_example_names_only_the_chips_keys_the_config_reads() -> None:
    section = tomllib.loads(uncommented())["chips"]
    assert set(section) == set(SCHEMA)
