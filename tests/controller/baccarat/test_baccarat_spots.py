"""The baccarat layout's sensors (`controller/baccarat/layout.py`, `spots.py`): one spot
per betting area of a box, the chips on a spot placed as its wager through the same rules
API the console uses, refusals journaled, a wager changed after NO MORE BETS held (NSW Mini
Baccarat 5), and a table without sensors keyed on the console as before."""

from __future__ import annotations

from controller.baccarat.records import ActionRefused, Violation, WagerPlaced
from controller.baccarat.rules import WAGERS_RULE, Bet
from controller.baccarat.spots import parse_spot, spot_name
from controller.game.chips import ChipAlarm
from controller.ports import ChipIdsSensed, ConsoleButton
from tests.support.baccarat import (
    betting_table,
    chips,
    covered,
    deal,
    initial,
    of,
    press,
    reader_table,
)
from tests.support.refusals import refusal


def test_a_spot_is_named_by_its_wager_and_its_box_and_read_back_in_one_place() -> None:
    names = {bet: spot_name(bet, 3) for bet in Bet}
    assert names == {
        Bet.PLAYER: "player3",
        Bet.BANKER: "banker3",
        Bet.TIE: "tie3",
        Bet.PLAYER_PAIR: "player_pair3",
        Bet.BANKER_PAIR: "banker_pair3",
    }
    assert all(parse_spot(name) == (bet, 3) for bet, name in names.items())
    assert parse_spot("banker_pair12") == (Bet.BANKER_PAIR, 12)
    for other in ("box3", "insurance3", "banker", "tie03", "pair3", "banker3.p2"):
        assert parse_spot(other) is None, other


def test_rule_nsw_mini_5_chips_on_a_spot_are_its_wager_placed_through_the_rules_api() -> None:
    table = reader_table()
    out = chips(table, "banker3", 20) + chips(table, "player_pair3", 5)
    assert of(WagerPlaced, out) == [WagerPlaced(3, "banker", 20), WagerPlaced(3, "player_pair", 5)]
    assert table.bets[2] == {Bet.BANKER: 20, Bet.PLAYER_PAIR: 5}
    # more chips change the wager; the reader's 0 withdraws it
    assert of(WagerPlaced, chips(table, "banker3", 30)) == [WagerPlaced(3, "banker", 30)]
    assert of(WagerPlaced, chips(table, "banker3", 0)) == [WagerPlaced(3, "banker", 0)]
    assert table.bets[2] == {Bet.PLAYER_PAIR: 5}


def test_rule_nsw_mini_5_a_sensed_wager_the_rules_refuse_is_journaled_and_blocks_no_more_bets() -> (
    None
):
    table = reader_table(maximum_wager=100)
    out = chips(table, "banker3", 500)
    [refused] = of(ActionRefused, out)
    assert (refused.action, refused.rule) == ("sensor banker3", WAGERS_RULE)
    assert "outside the table's limits" in refused.reason
    assert table.bets[2] == {}
    # a Player wager beside the Banker's, never together (NSW Mini Baccarat 5)
    chips(table, "banker4", 50)
    [together] = of(ActionRefused, chips(table, "player4", 50))
    assert "never on the Player and the Banker together" in together.reason
    # the refused chips still lie on the layout: no coup until they come off
    rule, reason = refusal(table.verify_no_more_bets)
    assert rule == WAGERS_RULE
    assert "chips on banker3 ($500) are not a wager" in reason
    assert of(ActionRefused, press(table, ConsoleButton.NO_MORE_BETS))
    chips(table, "banker3", 0)
    chips(table, "player4", 0)
    press(table, ConsoleButton.NO_MORE_BETS)
    assert table.state == "initial_deal"
    assert table.stakes == [(4, Bet.BANKER, 50)]


def test_rule_nsw_mini_5_a_keyed_wager_needs_the_chips_its_spot_reads() -> None:
    table = reader_table()
    rule, reason = refusal(lambda: table.place_wager(3, "banker", 20))
    assert (rule, reason) == (
        WAGERS_RULE,
        "banker3's chip reader reads $0: a wager is the chips placed on its spot, so $20 needs "
        "those chips there",
    )
    chips(table, "banker3", 20)
    assert refusal(lambda: table.place_wager(3, "banker", 25))[0] == WAGERS_RULE
    assert refusal(lambda: table.place_wager(3, "banker", 0))[1] == (
        "banker3's chip reader reads $20: a wager is the chips placed on its spot, so take them off"
    )
    assert table.place_wager(3, "banker", 20) == WagerPlaced(3, "banker", 20)


def test_rule_nsw_mini_5_presence_sensors_back_a_keyed_wager_and_withdraw_it_when_cleared() -> None:
    table = betting_table(spot_sensors=True)
    rule, reason = refusal(lambda: table.place_wager(2, "tie", 10))
    assert (rule, reason) == (
        WAGERS_RULE,
        "no chips sensed on tie2: a wager is chips placed on its spot; put the chips on the spot",
    )
    assert covered(table, "tie2") == []  # presence alone places nothing: the amount is keyed
    assert table.place_wager(2, "tie", 10) == WagerPlaced(2, "tie", 10)
    table.take_outputs()
    assert of(WagerPlaced, covered(table, "tie2", False)) == [WagerPlaced(2, "tie", 0)]
    covered(table, "player5")  # chips nobody keyed: NO MORE BETS waits for the wager
    assert "chips on player5 (sensed) are not a wager" in refusal(table.verify_no_more_bets)[1]


def test_rule_nsw_mini_5_a_wager_changed_after_no_more_bets_holds_the_table() -> None:
    table = reader_table()
    chips(table, "banker3", 20)
    press(table, ConsoleButton.NO_MORE_BETS)
    out = chips(table, "banker3", 40)
    [violation] = of(Violation, out)
    assert violation.rule == WAGERS_RULE
    assert violation.message == (
        "the wager on banker3 changed after NO MORE BETS: $20 staked, $40 on the spot now"
    )
    assert violation.by == "the sensor on banker3"
    assert table.state == "hold"
    assert table.stakes == [(3, Bet.BANKER, 20)]  # the coup's stake stands


def test_rule_nsw_mini_5_chips_put_on_or_taken_off_after_no_more_bets_hold_the_table() -> None:
    table = betting_table(spot_sensors=True)
    covered(table, "player1")
    table.place_wager(1, "player", 10)
    press(table, ConsoleButton.NO_MORE_BETS)
    deal(table, *initial(2, 3)[:1])
    assert covered(table, "player1") == []  # the same chips, still there
    [taken] = of(Violation, covered(table, "player1", False))
    assert (taken.rule, taken.state) == (WAGERS_RULE, "initial_deal")
    assert "$10 staked, $0 on the spot now" in taken.message
    table2 = betting_table(spot_sensors=True)
    press(table2, ConsoleButton.NO_MORE_BETS)
    [placed] = of(Violation, covered(table2, "tie4"))
    assert "$0 staked, chips on the spot now" in placed.message


def test_a_table_without_spot_sensors_keys_its_wagers_on_the_console_as_before() -> None:
    table = betting_table()
    assert chips(table, "banker3", 20) == []
    assert covered(table, "player3") == []
    assert table.bets[2] == {}
    assert table.place_wager(3, "banker", 20) == WagerPlaced(3, "banker", 20)
    press(table, ConsoleButton.NO_MORE_BETS)
    assert of(Violation, chips(table, "banker3", 0)) == []
    assert table.payout_check.sensing is None


def test_a_spot_name_the_layout_does_not_have_is_ignored() -> None:
    table = reader_table(boxes=3)
    assert chips(table, "banker9", 20) == []
    assert chips(table, "box1", 20) == []
    assert table.bets == [{}, {}, {}]


def test_chip_ids_on_a_spot_are_checked_against_the_casinos_inventory() -> None:
    inventory = "chip_id,value\nE004015012345678,25\n"
    table = reader_table(chip_inventory=inventory)
    event = ChipIdsSensed(
        source="chips", spot="banker3", chip_ids=("E004015012345678", "E0040150FFFFFFFF"),
        values=(25, 25),
    )  # fmt: skip
    [alarm] = of(ChipAlarm, table.handle(event))
    assert (alarm.spot, alarm.chip_id, alarm.listed) == ("banker3", "E0040150FFFFFFFF", None)


def test_rule_nsw_mini_5_no_more_bets_names_chips_that_are_not_a_wager_word_for_word() -> None:
    """Every spot is looked at, to the last box, past the spots that are backed, and past
    a spot of a box the table does not have; the dealer reads what is wrong."""
    table = betting_table(spot_sensors=True, boxes=3)
    covered(table, "banker9")  # no box 9 at this table: nothing to back
    covered(table, "banker1")
    table.place_wager(1, "banker", 10)  # backed
    covered(table, "player3")  # the last box: chips nobody keyed
    assert refusal(table.verify_no_more_bets) == (
        WAGERS_RULE,
        "chips on player3 (sensed) are not a wager: no wager was placed on it; take them off, "
        "or place the wager, before NO MORE BETS",
    )
    covered(table, "player3", False)
    press(table, ConsoleButton.NO_MORE_BETS)
    assert table.stakes == [(1, Bet.BANKER, 10)]
