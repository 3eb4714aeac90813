"""Draw poker: the clauses a clause-by-clause check found misread, one test each,
named after the clause (New Zealand Gazette 1999 No. 11, Division 13 section 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.errors import ConfigError, IllegalAction
from controller.game.records import Violation
from controller.poker.console import apply_console
from controller.poker.display import status
from controller.poker.records import (
    CardSetAside,
    HandsRequested,
    ReshuffleAllowed,
    ShowdownOrder,
)
from controller.poker.rules import PokerRules
from controller.poker.table import HoldDecision, Output, PokerTable
from controller.ports import ButtonPressed, ConsoleAction, ConsoleButton
from tests.support.poker import act, deal, drawing, flat_call, shoe, stand_pat, table_with, unseen
from tests.support.poker_scenes import poker_showdown

EXAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "poker-table.toml").read_text()


def violations(out: list[Output]) -> list[Violation]:
    return [r for r in out if isinstance(r, Violation)]


def reshuffles(out: list[Output]) -> list[ReshuffleAllowed]:
    return [r for r in out if isinstance(r, ReshuffleAllowed)]


# --- 11.3(b): the stub count -------------------------------------------------------------


def six_players_dealt() -> PokerTable:
    table = table_with({seat: 100 for seat in range(1, 7)})
    table.start_hand(button=6)  # blinds on seats 1 and 2; the draw starts at seat 1
    deal(table)  # 30 cards out
    return table


def empty_the_stub_and_reshuffle(table: PokerTable) -> None:
    """Seats 1-4 replace five cards each: with the burn, the stray card and the 30 dealt,
    that is all 52. Seat 5's draw then needs the 11.3(b) reshuffle at once, and a discard
    of seat 1 is a legal card for it."""
    for seat in (1, 2, 3, 4):
        table.discard(seat, 5, list(table.hands[seat]))
        for card in unseen(table)[:5]:
            assert not violations(shoe(table, card))
    assert drawing(table).stub == 0 and not unseen(table)  # the shoe is physically empty
    out = act(table, "discard", 5, 5, list(table.hands[5]))
    (reshuffle,) = reshuffles(out)
    assert reshuffle.seat == 5 and reshuffle.excluded_seats == (5, 6)
    earlier = drawing(table).rack.known[1][0]
    assert not violations(shoe(table, earlier))  # not a "possible foreign card"
    assert table.hold is None and earlier in table.hands[5]


def test_11_3b_a_card_accepted_while_players_bet_is_counted_out_of_the_stub() -> None:
    table = six_players_dealt()
    stray = unseen(table)[0]
    assert violations(shoe(table, stray))[0].rule == "11.2(c)"  # no card is due: HOLD
    cleared = act(table, "supervisor_clear", "pit boss 4", HoldDecision.ACCEPT)
    assert CardSetAside(str(stray), "11.2(c)") in cleared
    flat_call(table)
    assert drawing(table).stub == 52 - 30 - 1  # the stray card is out of the stub
    shoe(table, unseen(table)[0])  # the burn
    empty_the_stub_and_reshuffle(table)


def test_11_3b_a_card_accepted_before_the_draw_announcement_is_counted_out_of_the_stub() -> None:
    table = six_players_dealt()
    flat_call(table)
    shoe(table, unseen(table)[0])  # the burn
    stray = unseen(table)[0]  # seat 1 has not announced: no card is due
    assert violations(shoe(table, stray))[0].rule == "11.3(a)"
    table.supervisor_clear("pit boss 4", HoldDecision.ACCEPT)
    assert drawing(table).stub == 52 - 30 - 2 and stray not in table.hands[1]
    empty_the_stub_and_reshuffle(table)


def test_11_3b_a_second_card_during_a_hold_is_set_aside_and_counted_out_of_the_stub() -> None:
    table = six_players_dealt()
    stray, second = unseen(table)[:2]
    shoe(table, stray)  # HOLD (11.2(c))
    out = shoe(table, second)  # out of the shoe all the same
    assert "set aside" in violations(out)[0].message
    table.supervisor_clear("pit boss 4", HoldDecision.ACCEPT)
    flat_call(table)
    assert drawing(table).stub == 52 - 30 - 2
    assert second not in unseen(table)


# --- 11.3(b): the reshuffled discards run out too -----------------------------------------


def test_11_3b_a_later_player_may_have_every_earlier_players_discards() -> None:
    """Eight players, everybody replaces five: the stub (11 after the burn) runs out in
    seat 3's draw, and the discards of seats 1 and 2 run out in seat 5's. Seat 5 may then
    have the discards of seats 3 and 4, who themselves drew from the reshuffled discards;
    never its own; and seat 6 may have seat 5's."""
    table = table_with({seat: 100 for seat in range(1, 9)}, seats=8)
    table.start_hand(button=8)  # the draw starts at seat 1
    deal(table)
    flat_call(table)
    shoe(table, unseen(table)[0])  # the burn
    rack = drawing(table).rack
    records: list[Output] = []
    for seat in (1, 2, 3):
        records += act(table, "discard", seat, 5, list(table.hands[seat]))
        for card in unseen(table)[:5]:
            records += shoe(table, card)
    (first,) = reshuffles(records)
    assert first.seat == 3 and first.owners == ((1, 5), (2, 5))
    pile = [c for s in (1, 2) for c in rack.known[s]]
    for card in pile[:4]:  # seat 3's last four
        assert not violations(shoe(table, card))
    table.discard(4, 5, list(table.hands[4]))
    for card in pile[4:9]:
        assert not violations(shoe(table, card))
    records = act(table, "discard", 5, 5, list(table.hands[5]))
    records += shoe(table, pile[9])  # the pile's last card: seat 5 still needs four
    (second,) = reshuffles(records)
    assert second.seat == 5 and second.owners == ((3, 5), (4, 5))
    assert second.excluded_seats == (5, 6, 7, 8)
    own = rack.known[5][0]
    assert violations(shoe(table, own))[0].rule == "11.3(b)"  # its own discard: never
    table.supervisor_clear("pit boss 2", HoldDecision.VOID_HAND)


def test_11_3b_the_second_reshuffle_completes_the_draw() -> None:
    table = table_with({seat: 100 for seat in range(1, 9)}, seats=8)
    table.start_hand(button=8)
    deal(table)
    flat_call(table)
    shoe(table, unseen(table)[0])  # the burn
    rack = drawing(table).rack
    for seat in (1, 2, 3):
        table.discard(seat, 5, list(table.hands[seat]))
        for card in unseen(table)[:5]:
            shoe(table, card)
    pile = [c for s in (1, 2) for c in rack.known[s]]
    for card in pile[:4]:
        shoe(table, card)
    table.discard(4, 5, list(table.hands[4]))
    for card in pile[4:9]:
        shoe(table, card)
    table.discard(5, 5, list(table.hands[5]))
    second_pile = [pile[9], *rack.known[3], *rack.known[4]]
    for card in second_pile[:5]:
        assert not violations(shoe(table, card))
    assert drawing(table).drawer == 6
    table.discard(6, 2, list(table.hands[6][:2]))
    # seat 6 draws from the same pile while it lasts (seat 5's discards were never in it:
    # test_draw.py::test_rule_11_3_b_a_later_player_draws_only_from_the_reshuffle_...)
    later = second_pile[5:7]
    for card in later:
        assert not violations(shoe(table, card))
    stand_pat(table)
    assert table.state == "final_round"
    assert all(len(set(table.hands[s])) == 5 for s in range(1, 9))


# --- 11.4(c): who must show ---------------------------------------------------------------


def test_11_4c_a_hand_equal_to_or_above_the_called_hand_must_show() -> None:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100}, rake_percent=0)
    table.start_hand(button=4)  # blinds on seats 1 and 2; the opener is seat 3
    deal(
        table,
        {
            3: "Kc Kd 8h 5s 2c",  # the called hand: kings
            4: "7c 7d 7h 4s 3c",  # trips: above the kings, shows
            1: "As Ah 9d 6c 4d",  # aces: below the trips but above the kings, shows
            2: "Qs Qh Jd 6s 3d",  # queens: below the called hand, may muck
        },
    )
    flat_call(table)
    stand_pat(table)
    table.raise_(3, 2)  # seat 3 bets: the player being called
    table.call(4)
    table.call(1)
    out = act(table, "call", 2)
    (order,) = [r for r in out if isinstance(r, ShowdownOrder)]
    assert order.called == 3
    assert order.must_expose == (3, 4, 1)
    assert order.may_muck == (2,)
    assert order.winners == (4,)


# --- 11.4(c): any player may request to see any or all hands ------------------------------


def three_way_showdown() -> PokerTable:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100}, rake_percent=0)
    table.start_hand(button=4)  # blinds 1 and 2; seat 3 opens after the draw
    deal(table, {3: "Kc Kd 8h 5s 2c", 4: "7c 7d 7h 4s 3c", 1: "Qs Qh Jd 6s 3d"})
    table.call(3)
    table.call(4)
    table.call(1)
    table.fold(2)  # seat 2 is at the table but not in the showdown
    stand_pat(table)
    table.raise_(3, 2)
    table.call(4)
    table.call(1)
    assert table.state == "complete" and table.showdown_order is not None
    assert table.showdown_order.may_muck == (1,)
    return table


def test_11_4c_any_player_may_request_to_see_any_or_all_hands_in_the_showdown() -> None:
    table = three_way_showdown()
    assert table.can_request_to_see(2, 1)
    table.take_outputs()
    apply_console(
        table,
        ConsoleAction(source="console", action="request_to_see", args={"by_seat": 2, "seat": 1}),
    )
    out = table.take_outputs()  # what the console's call produced
    assert out == [HandsRequested(2, (1,), "11.4(c)")]
    all_hands = act(table, "request_to_see", by_seat=4)  # no seat named: all of them
    assert all_hands == [HandsRequested(4, (3, 4, 1), "11.4(c)")]
    view = json.loads(json.dumps(status(table).as_dict()))
    assert [r["seats"] for r in view["requests"]] == [[1], [3, 4, 1]]
    assert view["showdown_seats"] == [3, 4, 1]
    assert out[0].as_dict()["record"] == "HandsRequested"  # journaled as a record


def test_11_4c_only_hands_involved_in_the_final_showdown_may_be_requested() -> None:
    table = three_way_showdown()
    for by, seat in ((1, 2), (9, 1), (1, 5)):
        assert not table.can_request_to_see(by, seat)
        with pytest.raises(IllegalAction) as refused:
            table.request_to_see(by, seat)
        assert refused.value.rule == "11.4(c)"
    table.start_hand()
    with pytest.raises(IllegalAction) as before:
        table.request_to_see(1, None)  # a new hand: no showdown yet
    assert before.value.rule == "11.4(c)"


# --- 11.5(a): the blinds and the table notice ----------------------------------------------


def test_11_5a_a_blind_above_the_table_maximum_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as refused:
        PokerRules(blinds=(5, 20), minimum_wager=2, maximum_wager=10)
    assert "poker.blinds" in str(refused.value) and "11.5(a)" in str(refused.value)
    assert "maximum" in str(refused.value)
    text = EXAMPLE.replace("blinds = [1, 2]", "blinds = [1, 20]")
    assert text != EXAMPLE
    with pytest.raises(ConfigError) as caught:
        parse_config(text, source="dp.toml")
    assert "poker.blinds" in str(caught.value) and "maximum wager 10" in str(caught.value)
    PokerRules(blinds=(1, 10), minimum_wager=2, maximum_wager=10)  # at the maximum: fine
    PokerRules(blinds=(1, 2), minimum_wager=2, maximum_wager=10)  # a first blind below the
    # minimum is the usual fraction of the last blind: docs/poker.md, "Blinds and 11.5"


# --- side pots (all-in, surrounding rules) ---------------------------------------------------


def test_all_in_side_pots_are_shown_only_when_an_all_in_makes_one() -> None:
    table = table_with({1: 5, 2: 100, 3: 100, 4: 100})
    table.start_hand(button=1)  # seat 2 posts 1, seat 3 posts 2; seat 4 acts first
    deal(table)
    table.raise_(4, 6)  # a bet level of 8 nobody has matched yet: still one pot
    view = status(table)
    assert view.pots == ((11, (1, 2, 3, 4)),) and view.uncalled == ()
    table.call(1)  # all in for 5: now a side pot above 5
    view = status(table)
    assert view.pots == ((13, (1, 2, 3, 4)), (3, (2, 3, 4)))
    table.fold(2)
    table.fold(3)  # seat 4's 3 above seat 1's all-in cannot be called: it goes back
    view = status(table)
    assert view.pots == ((13, (1, 4)),) and view.uncalled == ((4, 3),)


def test_a_pot_shown_is_the_pot_settled_once_the_betting_is_over() -> None:
    table = table_with({1: 5, 2: 100, 3: 100, 4: 100}, rake_percent=0)
    table.start_hand(button=1)
    deal(
        table,
        {1: "As Ah Ad Ac 2c", 4: "Ks Kh Kd Kc 2d", 2: "Qs Qh 9d 8c 3d", 3: "Js Jh 9c 8d 3h"},
    )
    table.raise_(4, 6)
    table.call(1)
    table.call(2)
    table.call(3)
    view = status(table)
    assert view.pots == ((20, (1, 2, 3, 4)), (9, (2, 3, 4)))
    stand_pat(table)
    flat_call(table)
    settled = table.last_settlement
    assert settled is not None
    assert [(a.amount, a.winners) for a in settled.awards] == [(20, (1,)), (9, (4,))]


def test_11_4_d_the_showdown_and_the_awards_leave_the_screen_when_the_next_hand_is_dealt() -> None:
    game = poker_showdown()
    shown = game.view()
    assert shown["showdown"] is not None and shown["settlement"] is not None
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))  # the next hand
    dealing = game.view()
    assert dealing["state"] == "dealing"
    assert (dealing["showdown"], dealing["settlement"], dealing["showdown_seats"]) == (
        None,
        None,
        [],
    )
