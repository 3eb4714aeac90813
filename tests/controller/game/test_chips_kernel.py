"""The kernel's settlement check and chip inventory (controller/game/chips.py),
game-agnostic: spots, readings and an inventory, no game.

Pinned record by record and word by word: rule 4.1 (blackjack's settlement clause, the rule
a game hands the check) names the settlement-path tests, the casino's chip inventory the
inventory's. The BOX_* spots are blackjack boxes: a 3-to-2 win, a loss and a push."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

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

WIN = SpotExpected("s1", 1, base=10, owed=10, label="Spot 1")
LOSS = SpotExpected("s2", 2, base=0, owed=0, label="Spot 2")


def readers(rule: str = "3.2") -> SettlementCheck:
    check = SettlementCheck(Sensing.CHIP_READERS, rule)
    check.start([WIN, LOSS], {"s1": 10, "s2": 10})
    return check


def test_rule_is_the_games_own_and_cited() -> None:
    check = readers("3.2")  # a baccarat clause, say: the kernel names no game
    [over] = check.sensed("s1", True, 35)
    assert isinstance(over, PayoutMismatch)
    assert over.text == "Spot 1: paid $25, owed $10: $15 over (rule 3.2)"
    with pytest.raises(IllegalAction) as refused:
        check.verify_next()
    assert refused.value.rule == "3.2" and "Spot 1: paid $25, owed $10" in refused.value.reason


def test_untouched_spots_are_judged_only_when_the_next_round_is_asked_for() -> None:
    check = readers()
    assert check.open == {}
    unpaid, left = check.check_all()
    assert (left.spot, left.kind, left.paid) == ("s2", MismatchKind.UNCOLLECTED, 10)
    assert unpaid.spot == "s1"
    # the winner's spot still reads its stake alone: under by the winnings
    assert check.open["s1"].kind is MismatchKind.UNDER and check.open["s1"].paid == 0


def test_a_spot_read_right_once_is_the_players_after() -> None:
    check = readers()
    assert check.sensed("s1", True, 20) == []
    assert check.sensed("s1", False, 0) == []  # picked up
    check.sensed("s2", False, 0)
    assert check.check_all() == []
    check.verify_next()


def test_the_same_wrong_reading_twice_is_one_record() -> None:
    check = readers()
    assert len(check.sensed("s1", True, 15)) == 1
    assert check.sensed("s1", True, 15) == []
    [again] = check.sensed("s1", True, 16)
    assert again.paid == 6
    [fixed] = check.sensed("s1", True, 20)
    assert isinstance(fixed, MismatchCorrected) and fixed.paid == 10


def test_no_sensing_checks_nothing() -> None:
    check = SettlementCheck(None, "4.1")
    check.start([WIN, LOSS], {"s1": 10, "s2": 10})
    assert not check.active and check.check_all() == []
    check.verify_next()


def test_a_spot_without_a_reading_is_not_checked() -> None:
    check = SettlementCheck(Sensing.CHIP_READERS, "4.1")
    check.start([WIN, LOSS], {"s1": 10})
    assert list(check.expected) == ["s1"]


def test_accept_needs_who_and_a_reason_and_an_open_mismatch() -> None:
    check = readers()
    check.sensed("s1", True, 35)
    for who, reason, box, why in (
        ("", "r", 1, "named"),
        ("s01", " ", 1, "reason"),
        ("s01", "r", 2, "no payout mismatch"),
    ):
        with pytest.raises(IllegalAction, match=why):
            check.accept(who, box, reason)
    [accepted] = check.accept("s01", 1, "tipped back")
    assert (accepted.owed, accepted.paid, accepted.who) == (10, 25, "s01")
    assert check.sensed("s1", True, 99) == []  # accepted: no longer checked this round


def test_chip_inventory_parse_and_check() -> None:
    inventory = ChipInventory.parse("# the house's chips\nchip_id,value\nA1,25\nB2,100\n")
    assert len(inventory) == 2
    alarms = check_chips(inventory, "box1", [("A1", 25), ("ZZ", 25), ("B2", 5)])
    assert [(a.chip_id, a.listed) for a in alarms] == [("ZZ", None), ("B2", 100)]
    assert "not in the chip inventory" in alarms[0].reason
    assert "carries $5, the inventory lists $100" in alarms[1].reason
    assert all("counterfeit" in a.reason for a in alarms)
    assert check_chips(None, "box1", [("ZZ", 1)]) == []


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("id,value\nA1,25\n", "header 'chip_id,value'"),
        ("chip_id,value\nA1,25,3\n", "line 2: two fields"),
        ("chip_id,value\n,25\n", "line 2: an empty chip_id"),
        ("chip_id,value\nA1,0\n", "line 2: value '0'"),
        ("chip_id,value\nA1,2.5\n", "line 2: value '2.5'"),
        ("chip_id,value\nA1,25\nA1,25\n", "line 3: chip A1 is listed twice"),
    ],
)
def test_a_bad_inventory_names_its_line(text: str, why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        ChipInventory.parse(text)


spots = st.lists(st.tuples(st.integers(0, 200), st.integers(0, 300)), min_size=1, max_size=6).map(
    lambda pairs: [SpotExpected(f"s{i}", i, b, o, f"Spot {i}") for i, (b, o) in enumerate(pairs)]
)


@given(spots, st.data())
def test_property_paid_right_in_the_end_never_refuses_and_wrong_always_does(
    expected: list[SpotExpected], data: st.DataObject
) -> None:
    """Whatever the dealer stacks on the way (never emptying a spot in mismatch: that is
    the player's pick-up), a spot whose last reading is its end state leaves nothing open;
    a spot left reading anything else is open at NEXT, citing the rule."""
    check = SettlementCheck(Sensing.CHIP_READERS, "4.1")
    check.start(expected, {e.spot: e.base for e in expected})
    wrong = data.draw(st.sets(st.sampled_from([e.spot for e in expected])))
    for e in expected:
        for reading in data.draw(st.lists(st.integers(1, 600), max_size=3)):
            check.sensed(e.spot, True, reading)
        if e.spot in wrong:
            last = data.draw(st.integers(1, 600).filter(lambda n, e=e: n != e.end))
        else:
            last = e.end
        check.sensed(e.spot, bool(last), last)
    check.check_all()
    still_wrong = {e.spot for e in expected if e.spot in wrong and e.spot not in check.settled}
    assert set(check.open) == still_wrong  # a spot read right once is the player's after
    if still_wrong:
        with pytest.raises(IllegalAction) as refused:
            check.verify_next()
        assert refused.value.rule == "4.1"
    else:
        check.verify_next()


RULE = "4.1"
BOX_WIN = SpotExpected("box1", 1, base=20, owed=30, label="Box 1")  # a 3-to-2 blackjack win
BOX_LOSS = SpotExpected("box2", 2, base=0, owed=0, label="Box 2")
BOX_PUSH = SpotExpected("box3", 3, base=20, owed=0, label="Box 3")


def box_readers(rule: str = RULE, **reads: int) -> SettlementCheck:
    """A chip-reader check of BOX_WIN, BOX_LOSS, BOX_PUSH, each reading its stake unless told."""
    check = SettlementCheck(Sensing.CHIP_READERS, rule)
    now = {"box1": 20, "box2": 20, "box3": 20, **reads}
    check.start([BOX_WIN, BOX_LOSS, BOX_PUSH], now)
    return check


def presence() -> SettlementCheck:
    check = SettlementCheck(Sensing.PRESENCE, RULE)
    check.start([BOX_WIN, BOX_LOSS, BOX_PUSH], {"box1": 20, "box2": 20, "box3": 20})
    return check


# --- money on the page --------------------------------------------------------------------


def test_rule_4_1_money_writes_a_negative_amount_with_its_sign() -> None:
    assert money(-1250) == "-$1,250"
    assert money(1250) == "$1,250" and money(0) == "$0"


# --- the records of a mismatch ------------------------------------------------------------


def test_rule_4_1_uncollected_losing_wager_record() -> None:
    check = box_readers()
    [left] = check.sensed("box2", True, 15)
    assert left == PayoutMismatch(
        2, "box2", MismatchKind.UNCOLLECTED, 0, 15, 15, RULE,
        "Box 2: losing wager not collected: $15 still on the spot (rule 4.1)",
    )  # fmt: skip


def test_rule_4_1_over_and_under_records() -> None:
    check = box_readers()
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
    check = box_readers()
    [unpaid] = check.sensed("box1", True, 20)
    assert isinstance(unpaid, PayoutMismatch)
    assert unpaid.paid == 0 and unpaid.kind is MismatchKind.UNDER
    assert unpaid.text == "Box 1: paid $0, owed $30: $30 under (rule 4.1)"


def test_rule_4_1_a_clause_is_cited_as_a_rule_and_a_house_practice_as_itself() -> None:
    [clause] = box_readers("3.2").sensed("box2", True, 5)
    assert isinstance(clause, PayoutMismatch)
    assert clause.text.endswith("(rule 3.2)")
    [house] = box_readers("house payout practice").sensed("box2", True, 5)
    assert isinstance(house, PayoutMismatch)
    assert house.text.endswith("$5 still on the spot (house payout practice)")
    assert house.rule == "house payout practice"


# --- judging readings ---------------------------------------------------------------------


def test_rule_4_1_a_spot_emptied_without_a_total_reads_nothing() -> None:
    """A reader's "spot empty" edge (no total) is a reading of 0: a losing spot emptied is
    collected, settled, and no record; a winner emptied is under by all it held."""
    check = box_readers()
    assert check.sensed("box2", False, None) == []
    assert check.readings["box2"] == 0 and "box2" in check.settled
    [gone] = check.sensed("box1", False, None)
    assert (gone.kind, gone.reads, gone.paid) == (MismatchKind.UNDER, 0, -20)


def test_rule_4_1_a_bare_presence_edge_is_not_a_reading() -> None:
    check = box_readers()
    assert check.sensed("box1", True, None) == []
    assert check.readings["box1"] == 20 and check.open == {}


def test_rule_4_1_a_spot_read_right_is_the_players_and_never_judged_again() -> None:
    check = box_readers()
    assert check.sensed("box1", True, 50) == []
    assert check.settled == {"box1"}
    assert check.sensed("box1", True, 7) == []  # the player took some: theirs now
    assert check.sensed("box1", False, 0) == []
    assert check.open == {} and check.check_all()[0].spot == "box2"
    assert [s["state"] for s in check.spots() if s["spot"] == "box1"] == ["ok"]


def test_rule_4_1_the_same_wrong_reading_twice_is_one_record_a_new_one_another() -> None:
    check = box_readers()
    [first] = check.sensed("box1", True, 45)
    assert check.sensed("box1", True, 45) == []
    [second] = check.sensed("box1", True, 46)
    assert (first.paid, second.paid) == (25, 26)
    [over] = check.sensed("box1", True, 60)
    assert over.kind is MismatchKind.OVER and check.open["box1"] is over


def test_rule_4_1_corrected_record_carries_owed_and_what_was_paid() -> None:
    check = box_readers()
    check.sensed("box1", True, 45)
    [fixed] = check.sensed("box1", True, 50)
    assert fixed == MismatchCorrected(1, "box1", MismatchKind.UNDER, 30, 30, 50)
    assert check.open == {} and "box1" in check.settled


def test_rule_4_1_a_player_picking_up_a_wrong_payout_leaves_it_open() -> None:
    check = box_readers()
    [wrong] = check.sensed("box1", True, 45)
    assert check.sensed("box1", False, 0) == []
    assert check.open["box1"] is wrong and check.readings["box1"] == 0


def test_rule_4_1_check_all_settles_a_right_spot_and_leaves_it_to_the_player() -> None:
    check = box_readers(box1=50, box2=0)
    assert check.check_all() == []
    assert check.settled == {"box1", "box2", "box3"}
    assert check.sensed("box1", True, 3) == []
    assert [s["state"] for s in check.spots()] == ["ok", "ok", "ok"]


def test_rule_4_1_check_all_judges_each_untouched_spot_once() -> None:
    check = box_readers()
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
    check = box_readers()
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
    check = box_readers("3.2")
    check.sensed("box1", True, 45)
    with pytest.raises(IllegalAction) as refused:
        check.accept(who, box, reason)
    assert (refused.value.rule, refused.value.reason) == ("3.2", message)
    assert "box1" in check.open and check.accepted == {}


def test_rule_4_1_an_accepted_difference_is_recorded_shown_and_no_longer_judged() -> None:
    check = box_readers()
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
    check = box_readers()
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
            "chip ZZ ($5) on box1 is not in the chip inventory: possible counterfeit",
        ),
        ChipAlarm(
            "box1", "B2", 25, 100,
            "chip B2 on box1 carries $25, the inventory lists $100: possible counterfeit",
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
