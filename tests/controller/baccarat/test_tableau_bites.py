"""Tests that bite (`make mutate`): the Table of Play's pure functions
(`controller/baccarat/tableau.py`), each cell and each boundary, and the dealer's words
for the line that decides. The expected tableau is written out here from the published
one (docs/rules/baccarat.md), as the Banker's *stands* (the complement of the
draws the code tabulates), so it is never read back from the code under test."""

from __future__ import annotations

import pytest

from controller.baccarat.tableau import (
    banker_draws,
    banker_rule_text,
    is_natural,
    player_draws,
    point,
)
from controller.cards import Card

# Banker two-card total -> the Player's third-card values on which it STANDS (section 4.2)
BANKER_STANDS_ON = {
    0: "",
    1: "",
    2: "",
    3: "8",
    4: "0189",
    5: "012389",
    6: "01234589",
    7: "0123456789",
}


@pytest.mark.parametrize(
    ("rank", "value"),
    [("A", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8),
     ("9", 9), ("T", 0), ("J", 0), ("Q", 0), ("K", 0)],
)  # fmt: skip
def test_rule_4_2_point_values(rank: str, value: int) -> None:
    """Ace 1, two to nine their face, ten and the pictures nought, in every suit."""
    for suit in "shdc":
        assert point(Card.parse(rank + suit)) == value


@pytest.mark.parametrize(("total", "natural"), [(0, False), (7, False), (8, True), (9, True)])
def test_rule_natural_is_eight_or_nine(total: int, natural: bool) -> None:
    assert is_natural(total) is natural


@pytest.mark.parametrize("total", range(8))
def test_rule_table_of_play_player_draws_on_0_to_5_stands_on_6_and_7(total: int) -> None:
    assert player_draws(total) is (total <= 5)


@pytest.mark.parametrize("banker", range(8))
def test_rule_table_of_play_banker_with_the_player_standing(banker: int) -> None:
    """The Player stood (no third card): the Banker draws on 0-5, stands on 6-7."""
    assert banker_draws(banker, None) is (banker <= 5)
    verb = "draws" if banker <= 5 else "stands"
    assert banker_rule_text(banker, None) == (
        f"Banker {verb} on {banker} with the Player standing (Table of Play)"
    )


@pytest.mark.parametrize(("banker", "third"), [(b, t) for b in range(8) for t in range(10)])
def test_rule_table_of_play_banker_against_the_players_third_card(banker: int, third: int) -> None:
    draws = str(third) not in BANKER_STANDS_ON[banker]
    assert banker_draws(banker, third) is draws
    verb = "draws" if draws else "stands"
    assert banker_rule_text(banker, third) == (
        f"Banker {verb}: {banker} against the Player's third card {third} (Table of Play)"
    )


@pytest.mark.parametrize("banker", [8, 9])
def test_rule_natural_a_banker_total_off_the_tableau_never_draws(banker: int) -> None:
    """8 and 9 are Naturals on two cards: the tableau has no line for them, and the
    function answers "stands" rather than failing if asked."""
    for third in (None, *range(10)):
        assert banker_draws(banker, third) is False
