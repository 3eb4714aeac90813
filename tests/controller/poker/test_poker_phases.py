"""The machine, its diagram, the display model, the simulator, and the chips property."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.cards import DECK
from controller.game.records import Violation
from controller.poker.diagram import DOC, document
from controller.poker.display import status
from controller.poker.records import HandSettled
from controller.poker.rules import PokerRules
from controller.poker.simulate import _act, play_hand, simulate
from controller.poker.table import PokerTable
from controller.ports import CardDrawn
from tests.support.poker import act, deal, table_with


def test_the_committed_diagram_is_the_machines_own() -> None:
    assert DOC.read_text() == document(), "run: python -m controller.poker.diagram"
    assert "stateDiagram-v2" in document() and "showdown --> complete" in document()


def test_machine_is_strict() -> None:
    table = PokerTable()
    assert not hasattr(table, "to_showdown")  # no auto transitions
    for seat in (1, 2):
        table.sit(seat, 50)
    try:
        table.fold(1)
    except ValueError as refused:  # IllegalAction is a ValueError
        assert "11.2(c)" in str(refused)
    else:
        raise AssertionError("fold before a hand was accepted")


def test_display_model_is_frozen_json_and_says_who_acts() -> None:
    table = table_with({1: 100, 2: 100, 3: 100})
    table.start_hand(button=1)
    deal(table)
    view = status(table)
    data = json.loads(json.dumps(view.as_dict()))
    assert data["action"]["seat"] == 1 and data["action"]["call"] == 2
    assert data["action"]["raise_min"] == 2 and data["action"]["raise_max"] == 10
    assert data["limits"] == [2, 10] and data["button"] == 1 and data["blinds"] == [2, 3]
    assert data["pots"] == [[3, [1, 2, 3]]]  # one pot: nobody is all in
    assert data["uncalled"] == []  # seat 1 may still call the last blind


def test_simulation_is_seeded_and_reports_the_pots() -> None:
    ticks = iter(range(100))
    first = simulate(60, seed=7, players=6, clock=lambda: float(next(ticks)))
    again = simulate(60, seed=7, players=6, clock=lambda: 0.0)
    data = first.as_dict()
    assert {"hands", "hands_per_second", "split_pots", "odd_chips", "rake", "pots"} <= set(data)
    assert data["hands"] == 60 and data["hands_per_second"] == 60.0
    assert (first.rake, first.pot_chips, first.pots) == (again.rake, again.pot_chips, again.pots)
    assert "split pots" in first.report()
    json.dumps(data)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    stacks=st.lists(st.integers(1, 60), min_size=2, max_size=10),
    blinds=st.sampled_from([(1,), (1, 2), (1, 2, 4)]),
    rake=st.integers(0, 20),
    hands=st.integers(1, 4),
)
def test_every_chip_is_accounted_for_after_random_legal_hands(
    seed: int, stacks: list[int], blinds: tuple[int, ...], rake: int, hands: int
) -> None:
    rules = PokerRules(
        seats=max(len(stacks), len(blinds) + 1),
        blinds=blinds,
        minimum_wager=2,
        maximum_wager=12,
        rake_percent=rake,
        rake_cap=7,
    )
    table = PokerTable(rules)
    for seat, chips in enumerate(stacks, start=1):
        table.sit(seat, chips)
    rng = random.Random(seed)
    total = sum(stacks)
    raked = 0
    for _ in range(hands):
        if not table.can_start_hand():
            break
        for record in play_hand(table, rng):
            if isinstance(record, HandSettled):
                raked += record.rake
        assert table.state == "complete"
        assert sum(table.stacks.values()) + raked == total


RULES_CITED = {"11.2", "11.2(c)", "11.3(a)", "11.3(b)", "11.4(b)"}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), at=st.integers(1, 80))
def test_a_card_out_of_place_ends_on_hold_citing_the_rule(seed: int, players: int, at: int) -> None:
    """Random legal play, and at step ``at`` the shoe gives a card some player holds."""
    table = PokerTable(PokerRules(seats=8))
    for seat in range(1, players + 1):
        table.sit(seat, 100)
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    table.start_hand()
    step = 0
    while table.state != "complete" and table.hold is None:
        step += 1
        held = [c for cards in table.hands.values() for c in cards]
        if step >= at and held:
            out = act(table, "handle", CardDrawn(source="test", card=rng.choice(held)))
            violations = [r for r in out if isinstance(r, Violation)]
            assert violations and violations[0].rule in RULES_CITED
            break
        if table.state in ("first_round", "final_round") and table.betting is not None:
            actor = table.betting.to_act
            assert actor is not None
            _act(table, actor, rng)
        elif table.state == "drawing" and table.draw is not None and not table.draw.owed:
            drawer = table.draw.drawer
            assert drawer is not None
            table.discard(drawer, 1, table.hands[drawer][:1])
        else:
            card = next(c for c in deck if c not in table.seen)
            table.handle(CardDrawn(source="test", card=card))
    if table.hold is not None:
        assert table.hold.rule in RULES_CITED
        table.supervisor_clear("supervisor", "void_hand")
        assert sum(table.stacks.values()) == 100 * players  # a void hand returns every chip
    else:
        assert table.last_settlement is not None
        assert sum(table.stacks.values()) + table.last_settlement.rake == 100 * players
