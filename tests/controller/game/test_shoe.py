"""The simulators' shoe (`controller.game.shoe.Shoe`), one for blackjack and baccarat: its
cards, where the cutting card comes out, a seeded shuffle, and a shoe run dry."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from controller.cards import shoe_cards
from controller.errors import RuleError
from controller.game.shoe import Shoe, ShoeEmpty


def test_every_card_of_the_decks_once_in_a_seeded_order() -> None:
    shoe = Shoe(2, random.Random(5), 10)
    dealt = [shoe.draw() for _ in range(104)]
    assert Counter(dealt) == Counter(shoe_cards(2))
    again = Shoe(2, random.Random(5), 10)
    assert [again.draw() for _ in range(104)] == dealt  # the injected Random replays it
    assert dealt != list(shoe_cards(2))  # shuffled


def test_the_cutting_card_comes_out_with_its_cards_behind_it() -> None:
    shoe = Shoe(1, random.Random(1), 12)
    for _ in range(40):
        assert not shoe.cut_card_out
        shoe.draw()
    assert shoe.cut_card_out and shoe.remaining == 12


def test_a_shuffle_puts_every_card_back_and_the_cutting_card_in_its_place() -> None:
    shoe = Shoe(1, random.Random(2), 12)
    first = [shoe.draw() for _ in range(45)]
    shoe.shuffle()
    assert shoe.shuffles == 2 and shoe.remaining == 52 and not shoe.cut_card_out
    assert [shoe.draw() for _ in range(45)] != first


def test_rule_7_1_a_shoe_run_dry_names_the_rule_that_shuffles_at_the_cutting_card() -> None:
    shoe = Shoe(1, random.Random(3), 0, rule="7.1")
    for _ in range(52):
        shoe.draw()
    with pytest.raises(ShoeEmpty, match=r"placed too deep \(rule 7\.1 ") as raised:
        shoe.draw()
    assert isinstance(raised.value, RuleError) and isinstance(raised.value, IndexError)
    dry = Shoe(1, random.Random(3), 0)  # baccarat's: no NZ rule to cite
    for _ in range(52):
        dry.draw()
    with pytest.raises(ShoeEmpty, match=r"placed too deep$"):
        dry.draw()
