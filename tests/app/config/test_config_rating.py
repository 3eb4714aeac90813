"""``[rating]``: player rating's keys, their defaults, and a bad key named
(docs/ratings.md)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.app.config.rating import parse_fraction
from controller.errors import ConfigError
from controller.rating import RatingSettings

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()


def _with(lines: str) -> str:
    return f"{EXAMPLE}\n[rating]\n{lines}\n"


def test_left_out_ratings_are_off() -> None:
    assert parse_config(EXAMPLE, source="t.toml").rating == RatingSettings()
    assert RatingSettings().enabled is False and RatingSettings().show_names is False


def test_the_given_keys() -> None:
    rating = parse_config(
        _with(
            'enabled = true\nempty_rounds = 5\nreinvestment = "25%"\nblackjack_edge = "0.46%"\n'
            'card_pattern = "[0-9]{10}"\nshow_names = true'
        ),
        source="t.toml",
    ).rating
    assert rating == RatingSettings(
        enabled=True,
        empty_rounds=5,
        reinvestment=Fraction(1, 4),
        blackjack_edge=Fraction(46, 10000),
        card_pattern="[0-9]{10}",
        show_names=True,
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [("25%", Fraction(1, 4)), ("1/4", Fraction(1, 4)), ("0.25", Fraction(1, 4)), ("0", 0)],
)
def test_a_rate_is_an_exact_fraction(text: str, value: Fraction) -> None:
    assert parse_fraction(text) == value


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("empty_rounds = 0", r"rating.empty_rounds: must be 1 or more"),
        ('reinvestment = "a lot"', r"rating.reinvestment: must be a percentage or a fraction"),
        ('reinvestment = "150%"', r"rating.reinvestment: must be at most 100%"),
        ('blackjack_edge = "1/0"', r"rating.blackjack_edge: must be a percentage or a fraction"),
        ('card_pattern = "[0-9"', r"rating.card_pattern: not a regular expression"),
        ("show_names = 1", r"rating.show_names: must be a bool"),
        ("colour = 1", r"rating.colour"),
    ],
)
def test_a_bad_key_is_named(line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(_with(line), source="t.toml")
