"""``[board]`` (controller/app/config/board.py): the players' board's name, casino,
language and colours, each checked and named by its key when wrong; left out, defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.app.config.board import BoardConfig
from controller.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "baccarat-table.toml").read_text()


def without_board(text: str) -> str:
    start = text.index("[board]")
    return text[:start] + text[text.index("[supervisor]") :]


def with_board(lines: str) -> str:
    return without_board(EXAMPLE) + "\n[board]\n" + lines + "\n"


def test_the_examples_give_a_board() -> None:
    for game in ("baccarat", "blackjack", "poker"):
        config = parse_config((ROOT / "examples" / f"{game}-table.toml").read_text())
        assert config.board.casino == "Demo Casino"
        assert config.board.language == "en"
        assert config.board.colours == {
            "background": "#0b3d2e",
            "foreground": "#ffffff",
            "accent": "#ffc400",
        }


def test_a_table_without_the_section_still_has_a_board() -> None:
    config = parse_config(without_board(EXAMPLE))
    assert config.board == BoardConfig()
    assert config.board.language == "en" and config.board.closed_after == 3


def test_every_key_is_read() -> None:
    config = parse_config(
        with_board(
            'name = "Baccarat 3"\ncasino = "Te Whare"\nlanguage = "zh-Hans"\n'
            'background = "#000"\nforeground = "#FFFFFF"\naccent = "#c0ffee"\nclosed_after = 10'
        )
    )
    assert config.board == BoardConfig(
        name="Baccarat 3",
        casino="Te Whare",
        language="zh-Hans",
        background="#000",
        foreground="#FFFFFF",
        accent="#c0ffee",
        closed_after=10,
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('language = "fr"', "board.language: must be one of en, zh-Hans"),
        ('background = "red"', "board.background: 'red' is not a CSS hex colour"),
        ('accent = "#ffc4000"', "board.accent: '#ffc4000' is not a CSS hex colour"),
        (
            'foreground = "#fff; background: url(x)"',
            "board.foreground: '#fff; background: url(x)' is not a CSS hex colour",
        ),
        ('casino = "' + "x" * 41 + '"', "board.casino: must be printable text of at most 40"),
        ('name = "Table\\n3"', "board.name: must be printable text"),
        ("closed_after = 0", "board.closed_after: must be whole seconds from 1 to 60"),
        ('closed_after = "3"', "board.closed_after: must be a whole number"),
        ("brightness = 3", "board.brightness: unknown key"),
    ],
)
def test_a_wrong_value_is_refused_naming_the_key_and_what_is_allowed(
    line: str, message: str
) -> None:
    text = with_board(line)
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="bad.toml")
    assert message in str(caught.value)
    key_line = [n for n, t in enumerate(text.splitlines(), 1) if t.startswith(line[:6])][-1]
    assert f"bad.toml:{key_line}" in str(caught.value)
