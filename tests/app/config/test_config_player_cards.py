"""``[[player_cards]]``: the players' card readers at the boxes, each mistake named at its
entry and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.app.config.player_cards import PROTOCOLS, PlayerCardReader
from controller.errors import ConfigError
from drivers.player_cards import PLAYER_CARD_SOURCES

ROOT = Path(__file__).resolve().parents[3]
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text()


def readers(*entries: str) -> str:
    return BLACKJACK + "".join(f"\n[[player_cards]]\n{entry}\n" for entry in entries)


def test_each_entry_is_a_box_reader_named_for_its_box() -> None:
    config = parse_config(
        readers(
            'box = 1\nprotocol = "rdm6300"\nurl = "/dev/serial/by-id/usb-box1"',
            'box = 4\nprotocol = "hid"\nurl = "usb://ffff:0035"\nrepeat_window_ms = 250',
        ),
        source="t.toml",
    )
    assert config.player_cards == (
        PlayerCardReader(1, "rdm6300", "/dev/serial/by-id/usb-box1"),
        PlayerCardReader(4, "hid", "usb://ffff:0035", 250),
    )
    assert [r.name for r in config.player_cards] == ["player-cards-1", "player-cards-4"]


def test_no_entries_no_readers() -> None:
    assert parse_config(BLACKJACK, source="t.toml").player_cards == ()


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        (['box = 1\nprotocol = "rdm6300"'], r"player_cards\[0\]\.url: is missing"),
        (
            ['box = 1\nprotocol = "rdm6300"\nurl = "x"\nbaud = 9600'],
            r"player_cards\[0\]\.baud: unknown key",
        ),
        (
            ['box = "1"\nprotocol = "hid"\nurl = "x"'],
            r"player_cards\[0\]\.box: must be a int, not '1'",
        ),
        (
            ['box = true\nprotocol = "hid"\nurl = "x"'],
            r"player_cards\[0\]\.box: must be a int, not True",
        ),
        (
            ['box = 0\nprotocol = "hid"\nurl = "x"'],
            r"player_cards\[0\]\.box: must be a box number from 1",
        ),
        (
            ['box = 2\nprotocol = "tablectl"\nurl = "x"'],
            r"player_cards\[0\]\.protocol: must be one of rdm6300",
        ),
        (
            ['box = 2\nprotocol = "hid"\nurl = " "'],
            r"player_cards\[0\]\.url: must name the reader's port",
        ),
        (
            ['box = 2\nprotocol = "hid"\nurl = "x"\nrepeat_window_ms = 10'],
            r"player_cards\[0\]\.repeat_window_ms: must be at least 50 ms",
        ),
        (
            ['box = 2\nprotocol = "hid"\nurl = "a"', 'box = 2\nprotocol = "hid"\nurl = "b"'],
            r"player_cards\[1\]\.box: box 2 has a reader already",
        ),
    ],
)
def test_a_mistake_is_named_at_its_entry_and_line(entries: list[str], why: str) -> None:
    with pytest.raises(ConfigError, match=rf"t\.toml:\d+: {why}"):
        parse_config(readers(*entries), source="t.toml")


def test_a_section_that_is_not_an_array_of_tables_is_refused() -> None:
    text = BLACKJACK + '\n[player_cards]\nbox = 1\nprotocol = "hid"\nurl = "x"\n'
    with pytest.raises(ConfigError, match=r"player_cards: must be \[\[player_cards\]\] entries"):
        parse_config(text, source="t.toml")


def test_the_config_knows_exactly_the_readers_the_drivers_have() -> None:
    assert set(PROTOCOLS) == set(PLAYER_CARD_SOURCES)
