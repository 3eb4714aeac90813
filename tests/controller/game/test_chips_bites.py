"""Tests that bite (`make mutate`): the kernel's settlement check and chip inventory
(controller/game/chips.py), pinned record by record and word by word.

Each test is named after what it pins: rule 4.1 (blackjack's settlement clause, the rule a
game hands the check) for the settlement path, the casino's chip inventory for the
inventory. Deterministic, no game: spots, readings and an inventory only."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.errors import ConfigError, IllegalAction
from controller.game.chips import (
    CHIP_RULE,
    ChipAlarm,
    ChipInventory,
    MismatchAccepted,
    MismatchCorrected,
    MismatchKind,
    PayoutMismatch,
    Sensing,
    SettlementCheck,
    SpotExpected,
    WinningsPaid,
    check_chips,
    money,
)

RULE = "4.1"
WIN = SpotExpected("box1", 1, base=20, owed=30, label="Box 1")  # a 3-to-2 blackjack win
LOSS = SpotExpected("box2", 2, base=0, owed=0, label="Box 2")
PUSH = SpotExpected("box3", 3, base=20, owed=0, label="Box 3")


def readers(rule: str = RULE, **reads: int) -> SettlementCheck:
    """A chip-reader check of WIN, LOSS, PUSH, each reading its stake unless told."""
    check = SettlementCheck(Sensing.CHIP_READERS, rule)
    now = {"box1": 20, "box2": 20, "box3": 20, **reads}
    check.start([WIN, LOSS, PUSH], now)
    return check


def presence() -> SettlementCheck:
    check = SettlementCheck(Sensing.PRESENCE, RULE)
    check.start([WIN, LOSS, PUSH], {"box1": 20, "box2": 20, "box3": 20})
    return check


# --- money on the page --------------------------------------------------------------------


def test_rule_4_1_money_writes_a_negative_amount_with_its_sign() -> None:
    assert money(-1250) == "-$1,250"
    assert money(1250) == "$1,250" and money(0) == "$0"


# --- the records of a mismatch ------------------------------------------------------------


def test_rule_4_1_uncollected_losing_wager_record() -> None:
    check = readers()
    [left] = check.sensed("box2", True, 15)
    assert left == PayoutMismatch(
        2, "box2", MismatchKind.UNCOLLECTED, 0, 15, 15, RULE,
        "Box 2: losing wager not collected: $15 still on the spot (rule 4.1)",
    )  # fmt: skip


def test_rule_4_1_over_and_under_records() -> None:
    check = readers()
    [over] = check.sensed("box1", True, 55)
    assert over == PayoutMismatch(
        1,
        "box1",
        MismatchKind.OVER,
        30,
        35,
        55,
        RULE,
        "Box 1: paid $35, owed $30: $5 over (rule 4.1)",
    )
    assert over.difference == 5
    [short] = check.sensed("box3", True, 19)
    assert short == PayoutMismatch(
        3, "box3", MismatchKind.UNDER, 0, -1, 19, RULE,
        "Box 3: $1 of the stake taken, owed $0: $1 under (rule 4.1)",
    )  # fmt: skip


def test_rule_4_1_a_winner_left_at_its_stake_was_paid_nothing_not_robbed() -> None:
    """paid == 0 is "paid $0", not "$0 of the stake taken": nothing was taken."""
    check = readers()
    [unpaid] = check.sensed("box1", True, 20)
    assert isinstance(unpaid, PayoutMismatch)
    assert unpaid.paid == 0 and unpaid.kind is MismatchKind.UNDER
    assert unpaid.text == "Box 1: paid $0, owed $30: $30 under (rule 4.1)"


def test_rule_4_1_a_clause_is_cited_as_a_rule_and_a_house_practice_as_itself() -> None:
    [clause] = readers("3.2").sensed("box2", True, 5)
    assert isinstance(clause, PayoutMismatch)
    assert clause.text.endswith("(rule 3.2)")
    [house] = readers("house payout practice").sensed("box2", True, 5)
    assert isinstance(house, PayoutMismatch)
    assert house.text.endswith("$5 still on the spot (house payout practice)")
    assert house.rule == "house payout practice"


# --- judging readings ---------------------------------------------------------------------


def test_rule_4_1_a_spot_emptied_without_a_total_reads_nothing() -> None:
    """A reader's "spot empty" edge (no total) is a reading of 0: a losing spot emptied is
    collected, settled, and no record; a winner emptied is under by all it held."""
    check = readers()
    assert check.sensed("box2", False, None) == []
    assert check.readings["box2"] == 0 and "box2" in check.settled
    [gone] = check.sensed("box1", False, None)
    assert (gone.kind, gone.reads, gone.paid) == (MismatchKind.UNDER, 0, -20)


def test_rule_4_1_a_bare_presence_edge_is_not_a_reading() -> None:
    check = readers()
    assert check.sensed("box1", True, None) == []
    assert check.readings["box1"] == 20 and check.open == {}


def test_rule_4_1_a_spot_read_right_is_the_players_and_never_judged_again() -> None:
    check = readers()
    assert check.sensed("box1", True, 50) == []
    assert check.settled == {"box1"}
    assert check.sensed("box1", True, 7) == []  # the player took some: theirs now
    assert check.sensed("box1", False, 0) == []
    assert check.open == {} and check.check_all()[0].spot == "box2"
    assert [s["state"] for s in check.spots() if s["spot"] == "box1"] == ["ok"]


def test_rule_4_1_the_same_wrong_reading_twice_is_one_record_a_new_one_another() -> None:
    check = readers()
    [first] = check.sensed("box1", True, 45)
    assert check.sensed("box1", True, 45) == []
    [second] = check.sensed("box1", True, 46)
    assert (first.paid, second.paid) == (25, 26)
    [over] = check.sensed("box1", True, 60)
    assert over.kind is MismatchKind.OVER and check.open["box1"] is over


def test_rule_4_1_corrected_record_carries_owed_and_what_was_paid() -> None:
    check = readers()
    check.sensed("box1", True, 45)
    [fixed] = check.sensed("box1", True, 50)
    assert fixed == MismatchCorrected(1, "box1", MismatchKind.UNDER, 30, 30, 50)
    assert check.open == {} and "box1" in check.settled


def test_rule_4_1_a_player_picking_up_a_wrong_payout_leaves_it_open() -> None:
    check = readers()
    [wrong] = check.sensed("box1", True, 45)
    assert check.sensed("box1", False, 0) == []
    assert check.open["box1"] is wrong and check.readings["box1"] == 0


def test_rule_4_1_check_all_settles_a_right_spot_and_leaves_it_to_the_player() -> None:
    check = readers(box1=50, box2=0)
    assert check.check_all() == []
    assert check.settled == {"box1", "box2", "box3"}
    assert check.sensed("box1", True, 3) == []
    assert [s["state"] for s in check.spots()] == ["ok", "ok", "ok"]


def test_rule_4_1_check_all_judges_each_untouched_spot_once() -> None:
    check = readers()
    found = check.check_all()
    assert [(m.spot, m.kind) for m in found] == [
        ("box1", MismatchKind.UNDER),
        ("box2", MismatchKind.UNCOLLECTED),
    ]
    assert check.check_all() == []  # open ones are not found twice


def test_rule_4_1_presence_corrects_an_uncollected_wager_when_emptied() -> None:
    check = presence()
    assert check.sensed("box2", True, None) == []  # presence judges at check_all
    [left] = check.check_all()  # the winner cannot be weighed: only the loser
    assert (left.spot, left.kind, left.reads) == ("box2", MismatchKind.UNCOLLECTED, 20)
    [fixed] = check.sensed("box2", False, None)
    assert fixed == MismatchCorrected(2, "box2", MismatchKind.UNCOLLECTED, 0, 0, 0)
    assert check.readings["box2"] == 0
    assert [s["reads"] for s in check.spots() if s["spot"] == "box2"] == [0]
    check.verify_next()


# --- refusing the next round, and accepting a difference ---------------------------------


def test_rule_4_1_next_refused_naming_every_open_mismatch() -> None:
    check = readers()
    check.sensed("box1", True, 45)
    check.sensed("box2", True, 5)
    with pytest.raises(IllegalAction) as refused:
        check.verify_next()
    assert refused.value.rule == RULE
    assert refused.value.reason == (
        "settlement does not match the chips: "
        "Box 1: paid $25, owed $30: $5 under (rule 4.1); "
        "Box 2: losing wager not collected: $5 still on the spot (rule 4.1): "
        "correct the spot, or a supervisor accepts the difference with a reason"
    )


@pytest.mark.parametrize(
    ("who", "box", "reason", "message"),
    [
        ("", 1, "tipped", "a supervisor accepting a payout must be named"),
        ("  ", 1, "tipped", "a supervisor accepting a payout must be named"),
        ("s01", 1, " ", "accepting a payout difference needs a reason"),
        ("s01", 3, "tipped", "box 3 has no payout mismatch to accept"),
    ],
)
def test_rule_4_1_accepting_needs_a_name_a_reason_and_a_mismatch(
    who: str, box: int, reason: str, message: str
) -> None:
    check = readers("3.2")
    check.sensed("box1", True, 45)
    with pytest.raises(IllegalAction) as refused:
        check.accept(who, box, reason)
    assert (refused.value.rule, refused.value.reason) == ("3.2", message)
    assert "box1" in check.open and check.accepted == {}


def test_rule_4_1_an_accepted_difference_is_recorded_shown_and_no_longer_judged() -> None:
    check = readers()
    check.sensed("box1", True, 45)
    [accepted] = check.accept(" s01 ", 1, " player tipped it back ")
    assert accepted == MismatchAccepted(
        1, "box1", MismatchKind.UNDER, 30, 25, "s01", "player tipped it back"
    )
    assert check.accepted == {"box1": accepted} and check.open == {}
    assert check.sensed("box1", True, 99) == []
    [shown] = [s for s in check.spots() if s["spot"] == "box1"]
    assert (shown["state"], shown["text"]) == ("accepted", "Box 1: accepted by s01")
    assert "box1" not in {m.spot for m in check.check_all()}


def test_rule_4_1_the_display_rows_of_every_state() -> None:
    check = readers()
    check.sensed("box1", True, 50)  # right: ok
    check.sensed("box2", True, 5)  # uncollected: mismatch
    rows = check.spots()
    assert rows == [
        {
            "spot": "box1",
            "box": 1,
            "end": 50,
            "base": 20,
            "owed": 30,
            "reads": 50,
            "state": "ok",
            "kind": "",
            "text": "",
        },
        {
            "spot": "box2",
            "box": 2,
            "end": 0,
            "base": 0,
            "owed": 0,
            "reads": 5,
            "state": "mismatch",
            "kind": "uncollected",
            "text": "Box 2: losing wager not collected: $5 still on the spot (rule 4.1)",
        },
        {
            "spot": "box3",
            "box": 3,
            "end": 20,
            "base": 20,
            "owed": 0,
            "reads": 20,
            "state": "waiting",
            "kind": "",
            "text": "",
        },
    ]


def test_rule_4_1_the_table_file_spells_the_casino_practice_on_spot_or_handed_over() -> None:
    """examples/blackjack-table.toml: ``winnings_paid = "on_spot"`` or ``"handed_over"``."""
    assert WinningsPaid("on_spot") is WinningsPaid.ON_SPOT
    assert WinningsPaid("handed_over") is WinningsPaid.HANDED_OVER
    example = (Path(__file__).parents[3] / "examples" / "blackjack-table.toml").read_text()
    assert '"on_spot": winnings stacked on the spot; "handed_over": stake only' in example


# --- the chip inventory -----------------------------------------------------------------


def test_chip_inventory_alarms_name_the_chip_the_spot_and_the_listed_value() -> None:
    inventory = ChipInventory({"A1": 25, "B2": 100})
    alarms = check_chips(inventory, "box1", [("A1", 25), ("ZZ", 5), ("B2", 25)])
    assert alarms == [
        ChipAlarm(
            "box1", "ZZ", 5, None,
            "chip ZZ (5) on box1 is not in the chip inventory: possible counterfeit",
        ),
        ChipAlarm(
            "box1", "B2", 25, 100,
            "chip B2 on box1 carries 25, the inventory lists 100: possible counterfeit",
        ),
    ]  # fmt: skip
    assert all(a.rule == CHIP_RULE == "chip inventory" for a in alarms)


def test_chip_inventory_comments_blank_lines_and_indented_comments_are_skipped() -> None:
    text = (
        "# the house's chips, issued 2026\n"
        "chip_id,value\n"
        "A1,25\n"
        "\n"
        "   \n"
        " , \n"
        "   # an indented comment\n"
        "B2,1\n"
    )
    assert ChipInventory.parse(text).values == {"A1": 25, "B2": 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", ": the first line must be the header 'chip_id,value'"),
        ("id,value\nA1,25\n", ": the first line must be the header 'chip_id,value'"),
        ("chip_id,value\n\nA1,25,3\n", " line 3: two fields, chip_id and value"),
        ("chip_id,value\n,25\n", " line 2: an empty chip_id"),
        ("chip_id,value\nA1,0\n", " line 2: value '0' is not a whole number of chip units above 0"),
        ("chip_id,value\nA1,2.5\n", " line 2: value '2.5' is not a whole number of chip units"),
        ("chip_id,value\nA1,-5\n", " line 2: value '-5' is not a whole number of chip units"),
        ("chip_id,value\nA1,25\nA1,25\n", " line 3: chip A1 is listed twice"),
    ],
)
def test_chip_inventory_a_bad_file_names_its_line(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as bad:
        ChipInventory.parse(text)
    assert str(bad.value).startswith(f"the chip inventory{message}")


def test_chip_inventory_errors_name_the_file_given() -> None:
    with pytest.raises(ConfigError, match=r"^/etc/tablectl/chips\.csv line 2: an empty chip_id$"):
        ChipInventory.parse("chip_id,value\n,25\n", source="/etc/tablectl/chips.csv")
