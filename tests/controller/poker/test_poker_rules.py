"""One test per rule clause of section 11 the table enforces, named after the clause."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from controller.errors import IllegalAction
from controller.game.records import Violation
from controller.poker.records import (
    DrawTaken,
    HandSettled,
    ReshuffleAllowed,
    ShowdownOrder,
)
from controller.poker.table import HoldDecision, Output, PokerTable
from controller.ports import Lamp, LampPattern, LockShoe, SetLamp, ShowLimits
from tests.support.poker import (
    act,
    betting,
    deal,
    drawing,
    flat_call,
    shoe,
    stand_pat,
    table_with,
    unseen,
)


def settled(out: Sequence[object]) -> HandSettled:
    found = [r for r in out if isinstance(r, HandSettled)]
    assert len(found) == 1, out
    return found[0]


def four_players_to_the_draw() -> PokerTable:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100})
    table.start_hand(button=1)  # blinds: seat 2 posts 1, seat 3 posts 2
    deal(table)
    flat_call(table)
    assert table.state == "drawing"
    return table


def test_11_2c_first_round_starts_left_of_the_last_blind_and_goes_in_order() -> None:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100})
    table.start_hand(button=1)
    deal(table)
    assert table.state == "first_round"
    assert betting(table).to_act == 4  # left of seat 3
    with pytest.raises(IllegalAction) as refused:
        table.call(1)
    assert refused.value.rule == "11.2(c)"
    table.call(4)
    assert betting(table).to_act == 1
    assert not table.can_call(2)


def test_11_2c_i_the_only_player_left_wins_the_pot() -> None:
    table = table_with({1: 100, 2: 100, 3: 100})
    table.start_hand(button=1)  # seat 2 posts 1, seat 3 posts 2; seat 1 acts first
    deal(table)
    table.fold(1)
    out = act(table, "fold", 2)
    result = settled(out)
    assert table.state == "complete"
    assert result.awards[0].winners == (3,) and result.awards[0].hand == "uncontested"
    assert result.rake == 0  # no rake when the hand ends in the first round
    assert table.stacks == {1: 100, 2: 99, 3: 101}
    with pytest.raises(IllegalAction):
        table.check(3)


def test_11_3a_the_draw_goes_clockwise_from_left_of_the_button() -> None:
    table = four_players_to_the_draw()
    assert drawing(table).drawer == 2  # not 4, left of the last blind
    with pytest.raises(IllegalAction) as refused:
        table.discard(4, 1)
    assert refused.value.rule == "11.3(a)"
    with pytest.raises(IllegalAction) as too_many:
        table.discard(2, 6)
    assert too_many.value.rule == "11.3(a)"
    thrown = table.hands[2][:2]
    out = act(table, "discard", 2, 2, thrown)
    assert out[0] == DrawTaken(2, 2, tuple(str(c) for c in thrown))
    burn, first, second = unseen(table)[:3]
    shoe(table, burn)
    shoe(table, first)
    assert drawing(table).drawer == 2 and drawing(table).owed == 1
    shoe(table, second)
    assert drawing(table).drawer == 3
    assert first in table.hands[2] and second in table.hands[2] and thrown[0] not in table.hands[2]
    assert len(table.hands[2]) == 5


def test_11_3a_a_card_before_the_announcement_holds_the_table() -> None:
    table = four_players_to_the_draw()
    table.discard(2, 0)
    stray = unseen(table)[0]
    shoe(table, stray)  # the burn
    out = shoe(table, unseen(table)[0])  # seat 3 announced nothing
    violation = next(r for r in out if isinstance(r, Violation))
    assert violation.rule == "11.3(a)"
    assert LockShoe() in out and SetLamp(Lamp.HOLD, LampPattern.FLASH) in out
    with pytest.raises(IllegalAction) as held:
        table.discard(3, 0)
    assert held.value.rule == "11.3(a)"


def six_players_stub_runs_out() -> tuple[PokerTable, list[Output]]:
    """Six players, seats 1-4 replace five cards each: seat 5's draw empties the stub."""
    table = table_with({seat: 100 for seat in range(1, 7)})
    table.start_hand(button=6)  # blinds 1 and 2; the draw starts at seat 1
    deal(table)
    flat_call(table)
    shoe(table, unseen(table)[0])  # burn: 21 cards left in the stub
    for seat in (1, 2, 3, 4):
        table.discard(seat, 5, list(table.hands[seat]))
        for card in unseen(table)[:5]:
            shoe(table, card)
    assert drawing(table).stub == 1
    table.discard(5, 5, list(table.hands[5]))
    out = shoe(table, unseen(table)[0])  # the stub's last card
    return table, out


def test_11_3b_only_earlier_players_discards_may_be_reshuffled() -> None:
    table, out = six_players_stub_runs_out()
    reshuffle = next(r for r in out if isinstance(r, ReshuffleAllowed))
    assert reshuffle.seat == 5
    assert reshuffle.owners == ((1, 5), (2, 5), (3, 5), (4, 5))
    assert reshuffle.excluded_seats == (5, 6)
    assert len(reshuffle.cards) == 20
    own_discard = drawing(table).rack.known[5][0]
    out = shoe(table, own_discard)  # seat 5's own discard: not to be reshuffled
    violation = next(r for r in out if isinstance(r, Violation))
    assert violation.rule == "11.3(b)" and violation.card == str(own_discard)
    assert table.hold is not None and table.hold.rule == "11.3(b)"
    with pytest.raises(IllegalAction) as held:
        table.discard(6, 0)
    assert held.value.rule == "11.3(b)"


def test_stub_runs_out_with_two_players_still_to_draw() -> None:
    table, _ = six_players_stub_runs_out()
    eligible = [c for s in (1, 2, 3, 4) for c in drawing(table).rack.known[s]]
    for card in eligible[:4]:
        assert not [r for r in shoe(table, card) if isinstance(r, Violation)]
    assert drawing(table).drawer == 6
    thrown = table.hands[6][:3]
    table.discard(6, 3, thrown)
    for card in eligible[4:7]:
        assert not [r for r in shoe(table, card) if isinstance(r, Violation)]
    assert table.state == "final_round"
    assert all(len(table.hands[s]) == 5 for s in range(1, 7))
    # a card that was already redealt from the reshuffled pile cannot come again
    flat_call(table)
    assert table.state == "complete"


def test_11_4a_final_round_is_opened_left_of_the_last_blind() -> None:
    table = four_players_to_the_draw()
    stand_pat(table)
    assert table.state == "final_round"
    assert betting(table).to_act == 4
    with pytest.raises(IllegalAction) as refused:
        table.check(2)  # left of the button, where the draw began: not the opener
    assert refused.value.rule == "11.4(a)"
    assert table.can_check(4) and table.can_fold(4) and table.can_raise(4, 2)
    assert not table.can_call(4)  # the opener opens, checks or folds


def test_11_4b_i_the_only_player_left_after_the_draw_wins() -> None:
    table = four_players_to_the_draw()
    stand_pat(table)
    table.raise_(4, 6)  # the opener bets 6
    table.fold(1)
    table.fold(2)
    result = settled(act(table, "fold", 3))
    assert result.awards[0].winners == (4,)
    assert result.returned == ((4, 6),)  # the uncalled bet goes back, unraked
    assert result.awards[0].amount + result.rake == 8
    assert result.rake == 5 * 8 // 100


def test_11_4c_the_called_player_exposes_first_then_only_equal_or_better() -> None:
    table = table_with({1: 100, 2: 100, 3: 100}, rake_percent=0)
    table.start_hand(button=1)  # blinds 2 and 3
    deal(table, {1: "Jc Jd 4h 4s 9c", 2: "Kc Kd 8h 5s 2c", 3: "Ac Qd 8s 6h 3d"})
    flat_call(table)
    stand_pat(table)
    table.check(1)  # the opener, left of the last blind
    table.raise_(2, 2)  # seat 2 bets: seat 2 is the player being called
    table.call(3)
    out = act(table, "call", 1)
    order = next(r for r in out if isinstance(r, ShowdownOrder))
    assert order.called == 2
    assert order.must_expose == (2, 1)  # seat 3's ace high is lower: it may be mucked
    assert order.may_muck == (3,)
    assert order.winners == (1,) and order.winning_hand == "two pair"


def test_11_4d_three_way_split_the_odd_chip_to_the_highest_card_by_suit() -> None:
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100}, rake_percent=0)
    table.start_hand(button=4)  # seat 1 posts 1, seat 2 posts 2; seat 3 acts first
    deal(
        table,
        {2: "9c 8s 7h 6d 5d", 3: "9h 8d 7c 6s 5s", 4: "9d 8c 7s 6h 5h", 1: "2c 2d 3h 4s Kc"},
    )
    table.call(3)
    table.call(4)
    table.fold(1)  # leaves its blind of 1: the pot is 7
    table.check(2)
    stand_pat(table)
    result = settled(flat_call(table))
    (award,) = result.awards
    assert award.amount == 7 and award.winners == (2, 3, 4)
    # 9♥ is the highest card by suit (rank first, then suit); reading suit first would
    # have given it to seat 2 for the 8♠
    assert award.odd_chip_seat == 3 and award.odd_chip == 1
    assert dict(award.shares) == {2: 2, 3: 3, 4: 2}


def test_11_4e_no_division_of_the_pot_by_agreement() -> None:
    table = four_players_to_the_draw()
    assert not table.can_chop()
    with pytest.raises(IllegalAction) as refused:
        table.request_chop()
    assert refused.value.rule == "11.4(e)"
    assert table.state == "drawing"


def test_11_5_wagers_lie_between_the_table_notices_minimum_and_maximum() -> None:
    table = table_with({1: 100, 2: 100, 3: 3}, minimum_wager=2, maximum_wager=10)
    out = act(table, "start_hand", button=2)  # seat 3 posts 1, seat 1 posts 2; seat 2 first
    assert ShowLimits(2, 10) in out
    deal(table)
    for amount in (1, 11):
        with pytest.raises(IllegalAction) as refused:
            table.raise_(2, amount)
        assert refused.value.rule == "11.5"
    assert table.can_raise(2, 2) and table.can_raise(2, 10)
    table.call(2)
    # seat 3 (1 in, 2 left): a raise of 1 is below the minimum but all-in: allowed
    assert table.can_raise(3, 1)
    with pytest.raises(IllegalAction):
        table.raise_(3, 2)  # table stakes: more than it has
    table.raise_(3, 1)
    assert 3 in table.all_in


def test_11_5_raise_cap_from_the_table_config() -> None:
    table = table_with({1: 100, 2: 100, 3: 100}, raise_cap=2)
    table.start_hand(button=1)
    deal(table)
    table.raise_(1, 2)
    table.raise_(2, 2)
    with pytest.raises(IllegalAction) as refused:
        table.raise_(3, 2)
    assert refused.value.rule == "11.5"
    table.call(3)


def test_hold_refuses_play_until_a_supervisor_clears_it() -> None:
    table, _ = six_players_stub_runs_out()
    shoe(table, drawing(table).rack.known[5][0])
    assert table.hold is not None
    with pytest.raises(IllegalAction):
        table.supervisor_clear("", HoldDecision.ACCEPT)
    out = act(table, "supervisor_clear", "pit boss 7", HoldDecision.VOID_HAND)
    result = settled(out)
    assert result.void and result.rake == 0
    assert table.hold is None and table.state == "complete"
    assert table.stacks == {seat: 100 for seat in range(1, 7)}
