"""The table config: every mistake is one line naming the key and its line, exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from controller.app.config import parse_config, rules_from_dict
from controller.blackjack.rules import DoubleOn, Variants
from controller.errors import ConfigError
from controller.game.jsonable import to_jsonable

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_examples_are_good() -> None:
    config = parse_config(EXAMPLE, source="bj.toml")
    assert (config.table_id, config.game, config.minimum, config.maximum) == (
        "bj-01",
        "blackjack",
        2,
        100,
    )
    assert config.rules.double_on is DoubleOn.ANY_TWO_NO_ACE
    assert config.rules.smallest_chip == 1
    poker = parse_config((ROOT / "examples" / "poker-table.toml").read_text(), source="dp.toml")
    assert poker.rules.minimum_wager == poker.minimum and poker.rules.chip_unit == 1


@pytest.mark.parametrize(
    ("old", "new", "message", "needle"),
    [
        (
            "minimum = 2\n",
            'minimum = "two"\n',
            "limits.minimum: must be a whole number",
            "minimum =",
        ),
        (
            "decks = 6\n",
            "decks = 6\ncolour = 'red'\n",
            "blackjack.colour: unknown rule option",
            "colour",
        ),
        (
            "port = 8080\n",
            "port = 8080\nbrightness = 3\n",
            "display.brightness: unknown key",
            "brightness",
        ),
        (
            "minimum = 2\n",
            "minimum = 200\n",
            "minimum 200 is above the maximum 100 (rule 11.5",
            "minimum =",
        ),
        ("next = 3\n", "next = 2\n", "2", "next = 2"),  # a pin used twice: no_more_bets is 2
        ('double_on = "any_two_no_ace"', 'double_on = "always"', "is not one of", "double_on"),
        ("decks = 6\n", "decks = 9\n", "4 to 8 decks (rule 3.1)", "[blackjack]"),
    ],
    ids=[
        "wrong-type",
        "unknown-rule",
        "unknown-key",
        "min-above-max",
        "pin-twice",
        "bad-enum",
        "decks-out-of-range",
    ],
)
def test_a_mistake_names_the_key_and_line(old: str, new: str, message: str, needle: str) -> None:
    assert old in EXAMPLE
    text = EXAMPLE.replace(old, new, 1)
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="bad.toml")
    assert message in str(caught.value)
    assert f"bad.toml:{line_of(text, needle)}" in str(caught.value)


def test_a_missing_device_section_is_named() -> None:
    start = EXAMPLE.index("[shoe]")
    end = EXAMPLE.index("[display]")
    with pytest.raises(ConfigError, match=r"the \[shoe\] section is missing"):
        parse_config(EXAMPLE[:start] + EXAMPLE[end:], source="bad.toml")


def test_rules_round_trip_through_the_journal_form() -> None:
    variants = Variants(decks=8, double_on=DoubleOn.ANY_TWO)
    values = to_jsonable(variants)
    values.pop("type")
    assert rules_from_dict("blackjack", values) == variants


@pytest.mark.parametrize(
    ("old", "new", "mistakes"),
    [
        ("minimum = 2\n", 'minimum = "two"\n', 1),
        ("[limits]", "[limitz]", 2),  # an unknown section, and [limits] missing
        ("next = 3\n", "next = 2\n", 1),
    ],
)
def test_run_and_check_say_one_line_and_exit_2(
    tmp_path: Path, old: str, new: str, mistakes: int
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(EXAMPLE.replace(old, new, 1))
    for command in (["config", "check", str(path)], ["run", "--config", str(path)]):
        result = subprocess.run(
            [sys.executable, "-m", "controller.app.cli", *command],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        lines = result.stderr.strip().splitlines()
        assert len(lines) == mistakes, result.stderr
        assert all(line.startswith("tablectl ") and str(path) in line for line in lines)


def test_a_configured_shoe_that_is_not_there_stops_the_start(tmp_path: Path) -> None:
    text = EXAMPLE.replace("/var/lib/tablectl/bj-01.sqlite", str(tmp_path / "j.sqlite"))
    path = tmp_path / "table.toml"
    path.write_text(text)
    result = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "run", "--config", str(path), "--sim", "gpio"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "no device at /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_SHOE01" in result.stderr
    assert "Traceback" not in result.stderr
