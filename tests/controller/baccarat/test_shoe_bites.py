"""Tests that bite (`make mutate`): the baccarat shoe's state (`controller/baccarat/shoe.py`):
the burn (casino procedure: the first card exposed, its point value burned after it, a
ten-value card 10), the cutting card (casino procedure: the coup under way finished, then
``coups_after_cut_card`` more; out where a coup's first card would be, counted from that
coup), once per shoe, and what a new shoe starts afresh. Each expected number is worked
out here from the procedure (docs/rules/baccarat.md)."""

from __future__ import annotations

import pytest

from controller.baccarat.records import CardBurned, CutCardOut
from controller.baccarat.rules import BaccaratRules
from controller.baccarat.shoe import ShoeState
from controller.cards import Card


def fresh(**rules: object) -> ShoeState:
    shoe = ShoeState(BaccaratRules(**rules))  # type: ignore[arg-type]
    shoe.new_shoe()
    return shoe


def test_rule_shuffle_a_table_before_its_first_shoe_has_nothing_to_burn_or_end() -> None:
    """Before the first SHUFFLED: shoe 0, no coups, no history, no burn due, no cutting
    card, no last coup (the display reads these from the start)."""
    shoe = ShoeState(BaccaratRules())
    assert (shoe.number, shoe.coups, shoe.results) == (0, 0, [])
    assert (shoe.burns_due, shoe.burn_first, shoe.burn_done) == (0, False, True)
    assert (shoe.cut_card_out, shoe.last_coup, shoe.is_last(10**6)) == (False, None, False)


def test_rule_shuffle_a_new_shoe_starts_everything_afresh() -> None:
    shoe = fresh(cut_card_from_end=20, coups_after_cut_card=2)
    shoe.coups = 40
    shoe.results.append({"winner": "tie"})
    shoe.burns_due = 3
    shoe.cutting_card("during", 40)
    shoe.new_shoe()
    assert shoe.number == 2
    assert (shoe.coups, shoe.results, shoe.burns_due) == (0, [], 0)
    assert (shoe.cut_card_out, shoe.last_coup) == (False, None)
    assert shoe.burn_first is True and shoe.burn_done is False
    # the cutting card is looked for again in the new shoe
    assert shoe.cutting_card("during", 3) == CutCardOut(3, 5)


def test_rule_burn_not_by_the_first_card_when_the_casino_says_so() -> None:
    shoe = fresh(burn_by_first_card=False)
    assert (shoe.number, shoe.burn_first, shoe.burns_due, shoe.burn_done) == (1, False, 0, True)


@pytest.mark.parametrize(
    ("first", "burns"),
    [("As", 1), ("2h", 2), ("5d", 5), ("9c", 9), ("Ts", 10), ("Jh", 10), ("Qd", 10), ("Kc", 10)],
)
def test_rule_burn_the_first_card_exposed_says_how_many_follow(first: str, burns: int) -> None:
    shoe = fresh()
    assert shoe.burn_done is False
    assert shoe.burn(Card.parse(first)) == CardBurned(first, True, burns)
    assert (shoe.burn_first, shoe.burns_due, shoe.burn_done) == (False, burns, False)
    for left in range(burns - 1, -1, -1):
        assert shoe.burn(Card.parse("7s")) == CardBurned("7s", False, left)
        assert shoe.burn_done is (left == 0)


def test_rule_cutting_card_during_a_coup_that_coup_then_the_casinos_count() -> None:
    """Out during coup 30: coup 30 is finished, then 1 more (the default): 31 is last."""
    shoe = fresh()
    assert shoe.cutting_card("during", 30) == CutCardOut(30, 31)
    assert (shoe.cut_card_out, shoe.last_coup) == (True, 31)
    assert (shoe.is_last(30), shoe.is_last(31), shoe.is_last(32)) == (False, True, True)


@pytest.mark.parametrize(
    ("after", "during", "before", "between"),
    [(0, 30, 30, 31), (1, 31, 30, 31), (2, 32, 31, 32), (3, 33, 32, 33)],
)
def test_rule_cutting_card_where_it_comes_out(
    after: int, during: int, before: int, between: int
) -> None:
    """Coup 30 and ``after`` coups after the cutting card's coup:
    - during coup 30: 30 is finished, then ``after`` more;
    - where coup 30's first card would be: 30 is the first of them (never fewer than
      30 itself);
    - between coups, after 30 (where 31's first card would be): 31 at least."""
    rules = {"coups_after_cut_card": after, "cut_card_from_end": 6 * (after + 1)}
    for when, last in (("during", during), ("before", before), ("after", between)):
        shoe = fresh(**rules)
        assert shoe.cutting_card(when, 30) == CutCardOut(30, last)
        assert shoe.last_coup == last
        assert shoe.is_last(last) and not shoe.is_last(last - 1)


def test_rule_cutting_card_once_per_shoe() -> None:
    """A second sighting (the reader repeats, the level stays high) changes nothing."""
    shoe = fresh()
    assert shoe.cutting_card("before", 12) == CutCardOut(12, 12)
    for when in ("during", "before", "after"):
        assert shoe.cutting_card(when, 13) is None
    assert shoe.last_coup == 12
