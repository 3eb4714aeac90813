"""``[chips] inventory``: the casino's chip inventory read and checked with the
config, its text in the rules the game runs with; every mistake names its place."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.blackjack.game import BlackjackGame
from controller.errors import ConfigError
from controller.game.chips import ChipAlarm
from controller.ports import ChipIdsSensed

ROOT = Path(__file__).resolve().parents[3]
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text()
POKER = (ROOT / "examples" / "poker-table.toml").read_text()
CHIPS = '\n[chips]\ninventory = "chips.csv"\n'


def test_the_inventory_goes_into_the_rules_and_the_game_checks_chips(tmp_path: Path) -> None:
    (tmp_path / "chips.csv").write_text("chip_id,value\nE004015012345678,25\n")
    config = parse_config(BLACKJACK + CHIPS, source="t.toml", base=tmp_path)
    assert "E004015012345678,25" in config.rules.chip_inventory
    game = BlackjackGame(config.rules)
    fake = ChipIdsSensed(source="chips", spot="box1", chip_ids=("E004015012345679",), values=(25,))
    assert [o for o in game.handle(fake) if isinstance(o, ChipAlarm)]


def test_no_chips_section_no_inventory() -> None:
    assert parse_config(BLACKJACK, source="t.toml").rules.chip_inventory == ""


@pytest.mark.parametrize(
    ("csv", "why"),
    [
        (None, "chips.inventory: cannot read the chip inventory"),
        ("id,value\n", "chips.inventory: .*header 'chip_id,value'"),
        ("chip_id,value\nE004015012345678,25\nE004015012345678,5\n", "line 3: chip .* twice"),
    ],
)
def test_a_bad_inventory_is_named(tmp_path: Path, csv: str | None, why: str) -> None:
    if csv is not None:
        (tmp_path / "chips.csv").write_text(csv)
    with pytest.raises(ConfigError, match=why):
        parse_config(BLACKJACK + CHIPS, source="t.toml", base=tmp_path)


def test_a_game_that_reads_no_chips_refuses_the_section(tmp_path: Path) -> None:
    (tmp_path / "chips.csv").write_text("chip_id,value\n")
    with pytest.raises(ConfigError, match="reads no chips"):
        parse_config(POKER + CHIPS, source="t.toml", base=tmp_path)


def test_a_chip_reader_needs_the_chip_readers_rule(tmp_path: Path) -> None:
    reader = '\n[chips]\nreader = "/dev/ttyUSB1"\n'
    with pytest.raises(ConfigError, match=r"chips\.reader: a chip reader needs .*chip_readers"):
        parse_config(BLACKJACK + reader, source="t.toml")
    text = BLACKJACK.replace("[blackjack]", "[blackjack]\nchip_readers = true", 1)
    assert parse_config(text + reader, source="t.toml").chip_reader == "/dev/ttyUSB1"
    assert parse_config(text, source="t.toml").chip_reader == ""
