"""The round's data (controller/blackjack/round.py) as the table's read-only queries show it
(the status display reads these): a fresh table, and each next round counted on and cleared
of the last one's money (4.1)."""

from __future__ import annotations

from controller.blackjack.records import RoundSettled
from controller.blackjack.table import BlackjackTable
from tests.support.blackjack import betting
from tests.support.blackjack_script import NEXT, NO_MORE_BETS
from tests.support.refusals import refusal


def test_rule_4_1_a_fresh_table_shows_no_round_money_or_deal() -> None:
    table = BlackjackTable()
    assert (table.round, table.wagers_in, table.payouts, table.settled) == (0, 0, [], None)
    assert (table.deal_order, table.deal_position, table.boxes_in_play) == ((), 0, ())
    assert table.current_box is None and table.current_hand is None


def test_rule_4_1_each_round_is_numbered_on_and_starts_with_no_money() -> None:
    s = betting()
    t = s.table
    assert refusal(lambda: t.verify_place_wager(0, 1, 4)) == ("4.1", "no box 0 on this table")
    for number in (1, 2, 3):
        assert t.round == number
        assert (t.wagers_in, t.payouts, t.settled, t.boxes_in_play) == (0, [], None, ())
        t.place_wager(2, 1, 4)
        s.press(NO_MORE_BETS)
        s.deal("9s", "7d", "8c")
        s.press(NEXT)  # 17 stands
        s.deal("Th")  # dealer 17
        assert s.of(RoundSettled)[-1].round == number
        s.press(NEXT, NEXT)  # the round ends; betting opens for the next
