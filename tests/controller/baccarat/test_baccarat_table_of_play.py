"""The Table of Play, cell by cell (Player total x Player's third card x Banker total):
the machine takes exactly the cards the tableau allows and holds on every other, and NEXT
pressed with a card due holds too. The expected draws are written out here from the
published tableau (docs/rules/baccarat.md), not read from the code under test.

The pure functions of controller/baccarat/tableau.py are checked too, each cell and each
boundary, with the dealer's words for the line that decides; their expected tableau is
written as the Banker's *stands* (the complement of the draws the code tabulates)."""

from __future__ import annotations

import pytest

from controller.baccarat.records import CoupSettled, Violation
from controller.baccarat.rules import NATURAL_RULE, TABLE_OF_PLAY
from controller.baccarat.tableau import (
    banker_draws,
    banker_rule_text,
    is_natural,
    player_draws,
    point,
)
from controller.cards import Card
from controller.ports import ConsoleButton
from tests.support.baccarat import betting_table, card, deal, initial, of, press

# Banker two-card total -> the Player's third-card values it draws on (section 4.2 table)
BANKER_DRAWS_ON = {
    0: "0123456789",
    1: "0123456789",
    2: "0123456789",
    3: "012345679",
    4: "234567",
    5: "4567",
    6: "67",
    7: "",
}

CELLS = [
    (p, third, b) for p in range(8) for b in range(8) for third in (range(10) if p <= 5 else [None])
]


def banker_should_draw(b: int, third: int | None) -> bool:
    if third is None:  # the Player stood on 6 or 7
        return b <= 5
    return str(third) in BANKER_DRAWS_ON[b]


def coup_to_banker_decision(p: int, third: int | None, b: int):  # type: ignore[no-untyped-def]
    table = betting_table()
    table.place_wager(1, "banker", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    out = deal(table, *initial(p, b))
    assert not of(Violation, out)
    if p <= 5:
        assert table.state == "player_third", "the Player draws on 0-5"
        out = deal(table, card(third, "c"))  # type: ignore[arg-type]
        assert not of(Violation, out)
        assert len(table.player) == 3
    else:
        assert table.state != "player_third", "the Player stands on 6-7"
    return table


@pytest.mark.parametrize(("p", "third", "b"), CELLS)
def test_rule_table_of_play_a_further_card(p: int, third: int | None, b: int) -> None:
    """After the Player's decision: a card goes to the Banker when the tableau says it
    draws; otherwise it is a violation of the Table of Play and the table holds."""
    table = coup_to_banker_decision(p, third, b)
    out = deal(table, card(5, "s"))
    if banker_should_draw(b, third):
        assert not of(Violation, out)
        assert len(table.banker) == 3 and table.state == "settlement"
    else:
        violations = of(Violation, out)
        assert [v.rule for v in violations] == [TABLE_OF_PLAY]
        assert table.state == "hold" and len(table.banker) == 2
        assert table.gate_locked is True


@pytest.mark.parametrize(("p", "third", "b"), CELLS)
def test_rule_table_of_play_next_with_a_card_due(p: int, third: int | None, b: int) -> None:
    """NEXT while the Banker's card is due is a violation (the dealer skipped a card the
    Table of Play requires); when the Banker stands, the coup is settled and NEXT goes on."""
    table = coup_to_banker_decision(p, third, b)
    out = press(table, ConsoleButton.NEXT)
    if banker_should_draw(b, third):
        violations = of(Violation, out)
        assert [v.rule for v in violations] == [TABLE_OF_PLAY]
        assert "Banker draws" in violations[0].message and table.state == "hold"
    else:
        assert not of(Violation, out)
        assert table.state == "betting" and table.coup == 2


@pytest.mark.parametrize("p", range(6))
def test_rule_table_of_play_next_before_the_players_third_card(p: int) -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(p, 3))
    out = press(table, ConsoleButton.NEXT)
    (violation,) = of(Violation, out)
    assert violation.rule == TABLE_OF_PLAY and "Player draws" in violation.message
    assert violation.by == "the NEXT button" and table.state == "hold"


NATURALS = [(p, b) for p in range(10) for b in range(10) if p >= 8 or b >= 8]


@pytest.mark.parametrize(("p", "b"), NATURALS)
def test_rule_natural_stops_the_coup(p: int, b: int) -> None:
    table = betting_table()
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    out = deal(table, *initial(p, b))
    (settled,) = of(CoupSettled, out)
    assert table.state == "settlement" and table.result is not None and table.result.natural
    expected = "player" if p > b else "banker" if b > p else "tie"
    assert settled.winner == expected
    out = deal(table, card(4, "c"))  # a third card after a Natural
    (violation,) = of(Violation, out)
    assert violation.rule == NATURAL_RULE and table.state == "hold"


def test_rule_initial_deal_order_player_banker_player_banker() -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    cards = initial(4, 6)
    dues = []
    for c in cards:
        due = table.due()
        assert due is not None
        dues.append(due[0])
        deal(table, c)
    assert dues == ["player", "banker", "player", "banker"]
    assert table.player == [cards[0], cards[2]] and table.banker == [cards[1], cards[3]]


def test_the_next_line_names_the_card_due_the_hand_and_the_rule() -> None:
    table = betting_table()
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(2, 4), card(5, "c"))  # the Player draws a 5
    due = table.due()
    assert due == ("banker", TABLE_OF_PLAY,
                   "Banker draws: 4 against the Player's third card 5 (Table of Play)")  # fmt: skip


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
