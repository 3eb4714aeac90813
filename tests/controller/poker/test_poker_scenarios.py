"""Scenarios: side pots with three all-ins, the dead button, the rake, unread discards."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from controller.errors import IllegalAction
from controller.poker.console import apply_console
from controller.poker.records import HandSettled, HandStarted, ShowdownOrder
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShowButtonPosition,
    SupervisorAction,
    UnlockShoe,
)
from tests.support.poker import (
    act,
    cards,
    deal,
    flat_call,
    shoe,
    stand_pat,
    table_with,
    to_act,
    unseen,
)


def settled(out: Sequence[object]) -> HandSettled:
    (found,) = [r for r in out if isinstance(r, HandSettled)]
    return found


def test_side_pots_with_three_all_ins() -> None:
    table = table_with({1: 10, 2: 20, 3: 30, 4: 100}, rake_percent=0, maximum_wager=100)
    table.start_hand(button=4)  # seat 1 posts 1, seat 2 posts 2; seat 3 acts first
    deal(
        table,
        {
            1: "As Ah Ad Ac 2c",  # four aces: best
            2: "Ks Kh Kd Kc 2d",  # four kings
            3: "Qs Qh Qd Qc 2h",  # four queens
            4: "3c 5d 7h 9s Jc",  # jack high: worst
        },
    )
    table.raise_(3, 28)  # all-in for 30
    table.call(4)
    table.call(1)  # all-in for 10
    table.call(2)  # all-in for 20
    assert table.all_in == {1, 2, 3}
    stand_pat(table)
    assert table.state == "complete"  # nobody left who could bet after the draw
    result = table.last_settlement
    assert result is not None
    pots = [(a.amount, a.winners) for a in result.awards]
    assert pots == [(40, (1,)), (30, (2,)), (20, (3,))]
    assert table.stacks == {1: 40, 2: 30, 3: 20, 4: 70}


def test_dead_button_when_the_small_blind_leaves() -> None:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100})
    first = act(table, "start_hand", button=1)
    assert ShowButtonPosition(1) in first
    deal(table)
    table.fold(4)
    table.fold(1)
    table.fold(2)  # seat 3 wins the blinds
    table.leave(2)
    out = act(table, "handle", ButtonPressed(source="console", button=ConsoleButton.NEXT))
    started = next(r for r in out if isinstance(r, HandStarted))
    # the last blind moves on one player (3 -> 4); the first blind is seat 3, which posted
    # the last blind; the button lands on seat 2, now empty: a dead button
    assert started.button == 2 and started.button_dead
    assert started.blinds == ((3, 1), (4, 2))
    assert started.seats == (3, 4, 1)  # dealt clockwise from left of the dead button
    assert ShowButtonPosition(2) in out
    deal(table)
    flat_call(table)
    stand_pat(table)
    flat_call(table)
    third = act(table, "start_hand")
    started = next(r for r in third if isinstance(r, HandStarted))
    assert started.button == 3 and started.blinds == ((4, 1), (1, 2))


def test_the_button_moves_one_seat_clockwise_each_hand() -> None:
    table = table_with({1: 100, 2: 100, 3: 100})
    buttons = []
    for _ in range(4):
        started = next(r for r in act(table, "start_hand") if isinstance(r, HandStarted))
        buttons.append(started.button)
        deal(table)
        table.fold(to_act(table))
        if table.state != "complete":
            table.fold(to_act(table))
    assert buttons == [1, 2, 3, 1]


def test_rake_is_capped_and_not_taken_when_the_hand_ends_in_the_first_round() -> None:
    table = table_with({1: 200, 2: 200}, rake_percent=10, rake_cap=3, maximum_wager=50)
    table.start_hand(button=1)  # heads-up: seat 2 posts 1, seat 1 posts 2
    deal(table)
    table.raise_(2, 50)
    result = settled(act(table, "fold", 1))
    assert result.rake == 0 and result.returned == ((2, 50),)
    table.start_hand()
    deal(table)
    flat_call(table)
    stand_pat(table)
    seat = to_act(table)
    table.raise_(seat, 50)
    result = settled(act(table, "call", to_act(table)))
    assert result.chips_in == 104 and result.rake == 3  # 10% of 104 is 10: capped at 3


def test_rake_in_the_first_round_when_configured() -> None:
    table = table_with({1: 100, 2: 100, 3: 100}, no_rake_first_round=False, rake_percent=50)
    table.start_hand(button=1)
    deal(table)
    table.raise_(1, 4)
    table.fold(2)
    result = settled(act(table, "fold", 3))
    # seat 1's uncalled 4 goes back; the pot of 5 (blinds and seat 1's call) is raked
    assert result.returned == ((1, 4),)
    assert result.rake == 2


def test_unread_discards_wait_for_the_hand_to_be_exposed() -> None:
    table = table_with({1: 100, 2: 100}, rake_percent=0)
    table.start_hand(button=1)
    deal(table, {2: "As Ah Kd 7c 2s", 1: "9c 9d 4h 4s 3c"})
    flat_call(table)
    table.discard(2, 2)  # counted on the console, the rack did not read them
    burn, *replacement = unseen(table)[:3]
    for card in (burn, *replacement):
        shoe(table, card)
    table.discard(1, 0)
    flat_call(table)
    assert table.state == "showdown"
    with pytest.raises(IllegalAction) as refused:
        table.expose(2, cards("As Ah Kd 7c 2s"))  # must hold the two replacement cards
    assert refused.value.rule == "11.4(c)"
    out = act(table, "expose", 2, [*cards("As Ah Kd"), *replacement])
    assert any(isinstance(r, ShowdownOrder) for r in out)
    assert table.state == "complete"


def test_a_card_while_betting_holds_the_table_and_accept_sets_it_aside() -> None:
    table = table_with({1: 100, 2: 100})
    table.start_hand(button=1)
    dealt = deal(table)
    # no card is due while players bet: the gate locks and the betting lamp lights
    assert LockShoe() in dealt and SetLamp(Lamp.BETTING_OPEN, LampPattern.STEADY) in dealt
    out = shoe(table, unseen(table)[0])
    assert table.hold is not None and table.hold.rule == "11.2(c)"
    assert not table.can_call(to_act(table))
    cleared = act(table, "supervisor_clear", "supervisor 3", "accept")
    assert table.hold is None and out
    assert UnlockShoe() not in cleared  # still betting: the gate stays locked
    flat_call(table)
    assert table.state == "drawing"


def test_console_and_supervisor_events_reach_the_rules_api() -> None:
    table = table_with({1: 100, 2: 100, 3: 100})
    apply_console(table, ConsoleAction(source="console", action="start_hand", args={"button": 1}))
    deal(table)
    table.take_outputs()
    apply_console(
        table, ConsoleAction(source="console", action="raise", args={"seat": 1, "amount": 4})
    )
    out = table.take_outputs()  # what the console's call produced
    assert out and table.contributed[1] == 6
    with pytest.raises(IllegalAction) as refused:
        apply_console(table, ConsoleAction(source="console", action="call", args={"seat": 3}))
    assert refused.value.rule == "11.2(c)"  # seat 2 is to act
    with pytest.raises(IllegalAction) as chop:
        apply_console(table, ConsoleAction(source="console", action="chop"))
    assert chop.value.rule == "11.4(e)"
    with pytest.raises(IllegalAction):
        apply_console(table, ConsoleAction(source="console", action="sit", args={"seat": 4}))
    shoe(table, unseen(table)[0])  # a card while betting: HOLD
    cleared = act(
        table, "handle", SupervisorAction(source="pin-pad", who="sup 4", decision="accept")
    )
    assert table.hold is None and cleared
