"""Chip identity on a blackjack table: a chip whose UID is not in the casino's
inventory, or whose value is not the one listed for it, is a `ChipAlarm` (possible
counterfeit); and the spots a dealer blackjack leaves to check (insurance 9.4)."""

from __future__ import annotations

import pytest

from controller.blackjack.game import BlackjackGame
from controller.blackjack.hand import Hand
from controller.blackjack.round import Round
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.blackjack.spots import expected_spots
from controller.errors import BalanceError
from controller.game.chips import ChipAlarm, WinningsPaid
from controller.ports import ChipIdsSensed

INVENTORY = "chip_id,value\nE004015012345678,25\nE0040150DEADBEEF,100\n"


def test_a_counterfeit_chip_is_an_alarm() -> None:
    game = BlackjackGame(Variants(chip_readers=True, chip_inventory=INVENTORY))
    game.pending()
    out = game.handle(
        ChipIdsSensed(
            source="chips",
            spot="box2",
            chip_ids=("E004015012345678", "E0040150DEADBEEF", "E004015000000001"),
            values=(25, 25, 100),  # the second carries 25 but is listed at 100; the third unknown
            seq=4,
        )
    )
    alarms = [o for o in out if isinstance(o, ChipAlarm)]
    assert [(a.chip_id, a.value, a.listed) for a in alarms] == [
        ("E0040150DEADBEEF", 25, 100),
        ("E004015000000001", 100, None),
    ]
    assert all(a.spot == "box2" and "counterfeit" in a.reason for a in alarms)


def test_genuine_chips_raise_nothing_and_no_inventory_checks_nothing() -> None:
    game = BlackjackGame(Variants(chip_readers=True, chip_inventory=INVENTORY))
    event = ChipIdsSensed(source="chips", spot="box1", chip_ids=("E004015012345678",), values=(25,))
    assert not [o for o in game.handle(event) if isinstance(o, ChipAlarm)]
    bare = BlackjackGame(Variants(chip_readers=True))
    bad = ChipIdsSensed(source="chips", spot="box1", chip_ids=("X",), values=(1,))
    assert not [o for o in bare.handle(bad) if isinstance(o, ChipAlarm)]


def test_rule_4_1_insurance_won_is_owed_on_its_spot_and_at_once_payouts_are_not() -> None:
    play = Round(3)
    play.boxes[0].stakes = {1: 20}
    play.boxes[1].stakes = {1: 20}
    play.payouts = [
        Payout(1, 0, 1, Kind.INSURANCE, Outcome.WIN, 10, 10, 20, 0, "9.4"),
        Payout(1, 1, 1, Kind.WAGER, Outcome.LOSE, 20, 0, 0, 20, "4.1"),
        Payout(2, 1, 1, Kind.WAGER, Outcome.BLACKJACK, 20, 20, 30, 0, "10.1", True),
    ]
    spots = {e.spot: (e.base, e.owed) for e in expected_spots(play, WinningsPaid.ON_SPOT)}
    assert spots == {"insurance1": (10, 20), "box1": (0, 0)}  # box2 was paid at once (10.1)
    handed = {e.spot: e.end for e in expected_spots(play, WinningsPaid.HANDED_OVER)}
    assert handed == {"insurance1": 10, "box1": 0}


def doubled_box(extra: int) -> Round:
    play = Round(2)
    box = play.boxes[0]
    box.stakes = {1: 20}
    box.hands.append(Hand())
    box.hands[0].doubled = True
    box.hands[0].extra = {1: extra}
    return play


def test_rule_4_1_a_box_that_doubled_onto_its_double_spot_is_checked_on_both_spots() -> None:
    play = doubled_box(20)
    play.payouts = [Payout(1, 1, 1, Kind.WAGER, Outcome.WIN, 40, 40, 40, 0, "4.1")]
    expected = expected_spots(play, WinningsPaid.ON_SPOT, double_spots=True)
    spots = {e.spot: (e.base, e.owed, e.label) for e in expected}
    assert spots == {"box1": (20, 20, "Box 1"), "double1": (20, 20, "Box 1 double")}
    [spot] = expected_spots(play, WinningsPaid.ON_SPOT)  # doubles on the box spot: checked
    assert (spot.spot, spot.end) == ("box1", 80)


def test_rule_4_1_a_double_for_less_splits_its_result_by_the_chips_on_each_spot() -> None:
    play = doubled_box(10)  # 20 on the box, 10 on the double spot: a push
    play.payouts = [Payout(1, 1, 1, Kind.WAGER, Outcome.PUSH, 30, 30, 0, 0, "4.1")]
    ends = {e.spot: e.end for e in expected_spots(play, WinningsPaid.ON_SPOT, double_spots=True)}
    assert ends == {"box1": 20, "double1": 10}


def test_rule_4_1_a_dealer_blackjack_takes_the_original_wager_and_returns_the_double() -> None:
    play = doubled_box(20)  # the variant that returns what exceeds the original wager
    play.payouts = [Payout(1, 1, 1, Kind.WAGER, Outcome.RETURNED, 40, 20, 0, 20, "4.1")]
    ends = {e.spot: e.end for e in expected_spots(play, WinningsPaid.ON_SPOT, double_spots=True)}
    assert ends == {"box1": 0, "double1": 20}


def test_rule_4_1_winnings_that_do_not_split_exactly_between_the_spots_raise() -> None:
    play = doubled_box(10)
    play.payouts = [Payout(1, 1, 1, Kind.WAGER, Outcome.WIN, 30, 30, 25, 0, "4.1")]
    with pytest.raises(BalanceError, match="does not split"):
        expected_spots(play, WinningsPaid.ON_SPOT, double_spots=True)
