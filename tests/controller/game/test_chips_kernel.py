"""The kernel's settlement check and chip inventory (controller/game/chips.py),
game-agnostic: spots, readings and an inventory, no game."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.errors import ConfigError, IllegalAction
from controller.game.chips import (
    ChipInventory,
    MismatchCorrected,
    MismatchKind,
    PayoutMismatch,
    Sensing,
    SettlementCheck,
    SpotExpected,
    check_chips,
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
    assert "carries 5, the inventory lists 100" in alarms[1].reason
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
