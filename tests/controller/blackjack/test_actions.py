"""The blackjack rules API (controller/blackjack/actions.py) at its edges, each named after the
clause it pins. A refusal is checked word for word: its reason is what the dealer reads on
the display."""

from __future__ import annotations

import pytest

from controller.blackjack import actions
from controller.blackjack.actions import parse_spot
from controller.blackjack.game import BlackjackGame
from controller.blackjack.records import (
    Doubled,
    EvenMoneyElected,
    InsuranceTaken,
    SplitMade,
    Stood,
    WagerChanged,
    WagerPlaced,
)
from controller.blackjack.rules import DoubleOn, OddStakes, Variants
from controller.errors import IllegalAction
from controller.game.records import TABLE_LIMITS, TABLE_VARIANT, ActionRefused, LimitOverridden
from controller.ports import SupervisorAction
from tests.support.blackjack import betting, dealt
from tests.support.blackjack_script import DOUBLE, EVEN_MONEY, NEXT, NO_MORE_BETS, SPLIT
from tests.support.refusals import refusal

TV = TABLE_VARIANT


# --- 4.1 / 4.2: wagers ------------------------------------------------------------------


def test_rule_4_2_no_wager_after_betting_closed_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    assert refusal(lambda: s.table.place_wager(1, 1, 6)) == (
        "4.2",
        "no wager is made, altered or withdrawn after betting closed",
    )


def test_rule_4_1_three_people_on_a_box_and_not_four() -> None:
    s = betting()
    t = s.table
    t.place_wager(2, 1, 4)
    t.place_wager(2, 2, 6)
    assert t.place_wager(2, 3, 8) == WagerPlaced(2, 3, 8)  # the third person is allowed
    assert t.boxes[1].stakes == {1: 4, 2: 6, 3: 8}
    assert refusal(lambda: t.place_wager(2, 4, 2)) == ("4.1", "at most 3 people on a box")
    assert refusal(lambda: t.place_wager(2, 0, 2)) == ("4.1", "at most 3 people on a box")


def test_rule_4_1_a_wager_is_whole_chips_and_never_negative() -> None:
    t = betting(Variants(smallest_chip=5)).table
    for amount in (-5, -1, 7):
        assert refusal(lambda a=amount: t.place_wager(1, 1, a)) == (
            "4.1",
            f"a wager of {amount} is not whole chips",
        )
    assert t.boxes[0].stakes == {}
    assert t.can_place_wager(1, 1, 10) and not t.can_place_wager(1, 1, 7)
    assert t.place_wager(1, 1, 0) == WagerPlaced(1, 1, 0)  # nothing to withdraw: no harm
    t.place_wager(1, 1, 10)
    assert t.place_wager(1, 1, 0) == WagerPlaced(1, 1, 0)  # 0 withdraws: not refused


def test_rule_4_2_withdrawing_a_wager_takes_it_off_the_box() -> None:
    s = betting()
    t = s.table
    t.place_wager(3, 1, 4)
    t.place_wager(4, 1, 6)
    t.place_wager(3, 1, 0)
    assert t.boxes[2].stakes == {}
    assert [o for o in t.take_outputs() if isinstance(o, WagerPlaced)] == [
        WagerPlaced(3, 1, 4),
        WagerPlaced(4, 1, 6),
        WagerPlaced(3, 1, 0),
    ]
    s.press(NO_MORE_BETS)
    assert [b.number for b in t.boxes_in_play] == [4]
    assert t.wagers_in == 6


def test_rule_4_1_box_holder_first_and_cannot_leave_while_others_bet_behind() -> None:
    t = betting().table
    assert refusal(lambda: t.place_wager(5, 2, 4)) == (
        "4.1",
        "people bet behind a box holder: box holder first",
    )
    t.place_wager(5, 1, 4)
    t.place_wager(5, 2, 6)
    assert refusal(lambda: t.place_wager(5, 1, 0)) == (
        "4.1",
        "the box holder cannot leave while others bet behind",
    )
    t.place_wager(5, 1, 8)  # the holder may change the wager while others bet behind
    assert t.boxes[4].stakes == {1: 8, 2: 6}
    t.place_wager(5, 2, 0)
    t.place_wager(5, 1, 0)  # alone on the box again: the holder may leave
    assert t.boxes[4].stakes == {}


def test_rule_10_1_a_wager_whose_3_to_2_is_not_whole_chips_is_refused() -> None:
    t = betting(Variants(smallest_chip=2)).table
    # 10 is whole chips of 2, but 3 to 2 on it is 15: not whole chips of 2
    assert refusal(lambda: t.place_wager(1, 1, 10)) == (
        "10.1",
        "a wager of 10 is refused: a blackjack on it is paid 3 to 2, 15, which is not whole "
        "chips of 2 (the Gazette has no rounding clause; this table refuses such wagers)",
    )
    assert t.place_wager(1, 1, 4) == WagerPlaced(1, 1, 4)


def test_rule_4_1_spot_sensors_back_every_keyed_wager_word_for_word() -> None:
    s = betting(Variants(spot_sensors=True))
    t = s.table
    assert refusal(lambda: t.place_wager(2, 1, 4)) == (
        "4.1",
        "no chips sensed on box2: a wager is chips placed in the box (4.1); put the chips on "
        "the spot",
    )
    s.occupy("box2", 4)
    s.occupy("box2.p2", 6)
    assert t.boxes[1].stakes == {1: 4, 2: 6}
    assert refusal(lambda: t.place_wager(2, 1, 8)) == (
        "4.1",
        "box2's sensor reported 4: changing it to 8 needs the supervisor (journaled with "
        "both amounts)",
    )
    assert refusal(lambda: t.place_wager(2, 2, 2)) == (
        "4.1",
        "box2.p2's sensor reported 6: changing it to 2 needs the supervisor (journaled with "
        "both amounts)",
    )
    assert refusal(lambda: t.place_wager(2, 3, 2)) == (
        "4.1",
        "no chips sensed on box2.p3: a wager is chips placed in the box (4.1); put the chips "
        "on the spot",
    )


def test_rule_4_1_a_supervisor_changing_a_wager_is_named_and_journaled() -> None:
    s = betting(Variants(spot_sensors=True))
    t = s.table
    assert refusal(lambda: t.change_wager("  ", 1, 1, 4)) == (
        "4.1",
        "a supervisor changing a wager must be named",
    )
    assert t.change_wager("Ana", 1, 1, 4) == WagerChanged(1, 1, 0, 4, "Ana")  # nothing sensed
    assert t.boxes[0].stakes == {1: 4}
    # the change is the supervisor's, not a reading: the spot still reads empty
    assert refusal(lambda: t.place_wager(1, 1, 4))[0] == "4.1"
    s.occupy("box3", 6)
    assert t.change_wager("Ana", 3, 1, 2) == WagerChanged(3, 1, 6, 2, "Ana")
    journaled = s.log + t.take_outputs()
    assert [o for o in journaled if isinstance(o, (WagerPlaced, WagerChanged))] == [
        WagerPlaced(1, 1, 4),
        WagerChanged(1, 1, 0, 4, "Ana"),
        WagerPlaced(3, 1, 6),
        WagerPlaced(3, 1, 2),
        WagerChanged(3, 1, 6, 2, "Ana"),
    ]


def test_rule_4_2_no_more_bets_refusals_word_for_word() -> None:
    s = betting()
    assert refusal(s.table.no_more_bets) == ("4.1", "no wager on any box")
    s.table.place_wager(1, 1, 4)
    s.table.no_more_bets()
    assert refusal(s.table.no_more_bets) == ("4.2", "betting is not open (state no_more_bets)")


# --- the sensors' spot names --------------------------------------------------------------


def test_spot_names_parse_once_and_the_same_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # the parser caches what it has seen: start from an empty cache, so the names are
    # parsed here (not answered from an earlier test's, or mutmut's clean run's, cache)
    monkeypatch.setattr(actions, "_SPOTS", {})
    for _ in range(2):  # the second answer comes from the cache, and must be the same
        assert parse_spot("insurance0012.p002") == ("insurance", 12, 2)
        assert parse_spot("double0006") == ("double", 6, 1)
        assert parse_spot("sensorX0009") == ("sensorX", 9, 1)
        assert parse_spot("box0001.p0002.p0003") is None
        assert parse_spot("box0003.P0002") == ("box0003.P", 2, 1)
        assert parse_spot("box.p0002") is None
        assert parse_spot("box0004.pq") is None
        assert parse_spot("0005") == ("", 5, 1)


# --- 9.2-9.3, 10.3: insurance and even money ----------------------------------------------


def test_rule_9_2_insurance_only_while_offered_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d 8c")
    assert refusal(lambda: s.table.insure(1, 1, 2)) == (
        "9.2",
        "insurance is offered only on a dealer ace, before more cards",
    )
    s = dealt({(1, 1): 4}, "9s Ad 8c")
    assert refusal(lambda: s.table.insure(1, 2, 2)) == (
        "9.2",
        "person 2 has no initial wager on box 1",
    )


def test_rule_9_3_a_insurance_from_one_chip_to_half_the_wager() -> None:
    s = dealt({(1, 1): 5}, "9s Ad 8c", Variants(odd_stakes=OddStakes.ROUND_DOWN))
    t = s.table
    for amount in (0, 3, -1):
        assert refusal(lambda a=amount: t.insure(1, 1, a)) == (
            "9.3(a)",
            f"insurance {amount}: from one chip to half the wager 5",
        )
    assert t.insure(1, 1, 1) == InsuranceTaken(1, 1, 1)  # one chip is allowed
    assert t.wagers_in == 6
    assert t.insure(1, 1, 2) == InsuranceTaken(1, 1, 2)  # raised to half: 2 more, not 3
    assert t.wagers_in == 7
    assert t.boxes[0].insurance == {1: 2}
    assert [o for o in t.take_outputs() if isinstance(o, InsuranceTaken)] == [
        InsuranceTaken(1, 1, 1),
        InsuranceTaken(1, 1, 2),
    ]


def test_rule_9_3_b_insurance_payable_in_chips() -> None:
    s = dealt({(1, 1): 8}, "9s Ad 8c", Variants(smallest_chip=2))
    assert refusal(lambda: s.table.insure(1, 1, 3)) == (
        "9.3(b)",
        "insurance 3 could not be paid 2 to 1 in chips",
    )


def test_rule_9_2_insurance_taken_back_while_open_leaves_the_books() -> None:
    s = dealt({(2, 1): 4}, "9s Ad 8c")
    s.table.take_outputs()
    s.occupy("insurance2", 2)
    assert s.table.wagers_in == 6
    out = s.clear("insurance2")
    assert s.table.wagers_in == 4
    assert s.table.boxes[1].insurance == {}
    assert s.of(InsuranceTaken, out) == [InsuranceTaken(2, 1, 0)]
    out = s.clear("insurance2")  # nothing on it any more: nothing to take back
    assert not s.of(InsuranceTaken, out)
    assert s.table.wagers_in == 4


def test_rule_10_3_even_money_refusals_word_for_word() -> None:
    s = dealt({(1, 1): 4}, "9s 7d Ac")
    assert refusal(lambda: s.table.even_money(1, 1)) == (
        "10.3",
        "even money is offered only on a dealer ace, before more cards",
    )
    # box 1: a shared blackjack; box 2: no blackjack; dealer ace
    s = dealt({(1, 1): 4, (1, 2): 6, (2, 1): 4}, "As 9h Ad Kc 8d")
    t = s.table
    assert refusal(lambda: t.even_money(1, 3)) == ("10.3", "person 3 has no wager on box 1")
    assert refusal(lambda: t.even_money(2, 1)) == ("10.3", "box 2 has no unpaid blackjack")
    t.even_money(1, 1)
    assert refusal(lambda: t.even_money(1, 1)) == (
        "10.3(a)",
        "person 1 on box 1 was already paid even money",
    )
    assert refusal(lambda: t.insure(1, 1, 2)) == ("10.3", "this person elected even money")
    t.insure(1, 2, 2)
    assert refusal(lambda: t.even_money(1, 2)) == ("10.3", "this person took insurance")


def test_rule_10_3_b_every_person_paid_at_once_settles_the_box() -> None:
    s = dealt({(1, 1): 4, (1, 2): 6, (3, 1): 4}, "As 9h Ad Kc 8d")
    t = s.table
    assert t.even_money(1, 1) == EvenMoneyElected(1, 1, True, False)  # 10.3(b): cards stay
    assert not t.boxes[0].settled_at_once
    assert t.even_money(1, 2) == EvenMoneyElected(1, 2, True, True)
    assert t.boxes[0].settled_at_once
    assert refusal(lambda: t.verify_void_box(1)) == (
        "9.6",
        "box 1 was paid at once: its hand is settled",
    )
    t.verify_void_box(3)  # box 3's hand is still in play


def test_rule_10_3_even_money_button_finds_the_box_with_the_blackjack() -> None:
    s = dealt({(1, 1): 4, (2, 1): 4}, "9s Ah Ad Kc Kd")  # box 1 19, box 2 blackjack
    out = s.press(EVEN_MONEY)
    assert s.of(EvenMoneyElected, out) == [EvenMoneyElected(2, 1, True, True)]
    assert not s.of(ActionRefused, out)


# --- 7.1: the shuffle ---------------------------------------------------------------------


def test_rule_7_1_shuffled_between_rounds_or_when_the_cut_card_comes_first() -> None:
    s = betting()
    t = s.table
    assert refusal(t.verify_shuffled) == (
        "7.1",
        "the shoe is shuffled between rounds, not in betting",
    )
    t.place_wager(1, 1, 4)
    s.press(NO_MORE_BETS)
    assert not t.can_shuffled()  # no shuffle is due
    assert refusal(t.verify_shuffled) == (
        "7.1",
        "the shoe is shuffled between rounds, not in no_more_bets",
    )
    s.cut_card()  # the cutting card comes out as the round's first card (7.1b)
    assert t.can_shuffled()
    s.table.shuffled()


# --- table variants: doubles, splits, must draw -------------------------------------------


def test_table_variant_only_a_two_card_hand_is_doubled() -> None:
    s = dealt({(1, 1): 4}, "2s 7d 3c")
    s.deal("2h")
    assert refusal(lambda: s.table.double(1)) == (TV, "only a two-card hand may be doubled")


def test_table_variant_no_ace_in_a_doubled_hand_by_default() -> None:
    s = dealt({(1, 1): 4}, "As 7d 5c")
    assert refusal(lambda: s.table.double(1)) == (
        TV,
        "a hand with an ace may not be doubled on this table",
    )


def test_table_variant_double_on_nine_to_eleven_only_both_ends() -> None:
    v = Variants(double_on=DoubleOn.NINE_TO_ELEVEN)
    for first, second, allowed in (
        ("4s", "4h", False),  # 8
        ("5s", "4h", True),  # 9
        ("6s", "5h", True),  # 11
        ("7s", "5h", False),  # 12
        ("As", "8h", False),  # soft 19 (hard 9)
    ):
        t = dealt({(1, 1): 4}, f"{first} 7d {second}", v).table
        assert t.can_double(1) is allowed, (first, second)
        if not allowed:
            assert refusal(lambda t=t: t.verify_double(1)) == (
                TV,
                "only hard 9, 10 or 11 may be doubled on this table",
            )


def test_table_variant_double_extra_from_one_chip_up_to_the_wager() -> None:
    t = dealt({(1, 1): 4}, "5s 7d 5c").table
    assert refusal(lambda: t.double(1, 5)) == (
        TV,
        "a double of 5 on box 1: the extra wager is up to the original wager, 4 "
        "(surrounding rules)",
    )
    assert t.double(1, 1) == Doubled(1, 1, 1)
    assert t.wagers_in == 5
    t = dealt({(1, 1): 4}, "5s 7d 5c").table
    assert t.double(1, 4) == Doubled(1, 1, 4)
    assert t.wagers_in == 8


def test_table_variant_double_in_whole_chips_and_the_full_wager_by_default() -> None:
    v = Variants(smallest_chip=5)
    t = dealt({(1, 1): 10}, "5s 7d 5c", v).table
    assert refusal(lambda: t.double(1, 7)) == (TV, "a double of 7 is not whole chips")
    assert t.can_double(1)  # the default is the full wager, whole chips
    t.verify_double(1)
    assert t.double(1) == Doubled(1, 1, 10)


def test_table_variant_double_spot_of_a_person_with_no_wager_is_refused() -> None:
    s = dealt({(1, 1): 4}, "5s 7d 5c", Variants(double_spots=True))
    s.occupy("double1", 4)
    s.occupy("double1.p2", 1)
    out = s.press(DOUBLE)
    assert s.of(ActionRefused, out) == [
        ActionRefused(
            "double button",
            TV,
            "a double of 1 on box 1: the extra wager is up to the original wager, 0 "
            "(surrounding rules)",
        )
    ]
    assert not s.table.boxes[0].hands[0].doubled


def test_table_variant_split_only_a_pair_of_equal_rank() -> None:
    for cards in ("Ts 7d 8c", "Js 7d Kc"):
        t = dealt({(1, 1): 4}, cards).table
        assert refusal(lambda t=t: t.split(1)) == (TV, "only a pair of equal rank may be split")
    s = dealt({(1, 1): 4}, "4s 7d 4c")
    s.deal("2h")  # 4, 4, 2: a pair at the front, but three cards
    assert refusal(lambda: s.table.split(1)) == (TV, "only a pair of equal rank may be split")


def test_table_variant_split_hands_records_and_no_double_after_split() -> None:
    s = dealt({(1, 1): 4, (1, 2): 2}, "8s 7d 8h")
    t = s.table
    assert t.split(1) == SplitMade(1, 1, 2, 6)
    assert SplitMade(1, 1, 2, 6) in t.take_outputs()  # journaled
    assert t.wagers_in == 12
    s.deal("3c")
    first, second = t.boxes[0].hands
    assert [str(c) for c in first.cards] == ["8s", "3c"]
    assert [str(c) for c in second.cards] == ["8h"]
    assert refusal(lambda: t.double(1)) == (TV, "no double after a split on this table")
    s.press(NEXT)  # 11: a player must draw to 11, so NEXT is refused ...
    s.deal("9d")  # ... and the first hand draws: 20
    s.press(NEXT)
    s.deal("2c")  # the second hand's second card: 8, 2
    assert refusal(lambda: t.double(1)) == (TV, "no double after a split on this table")
    s.deal("Ts")  # 20
    assert t.stand(1) == Stood(1, 2, 20)
    journaled = s.log + t.take_outputs()
    assert s.of(Stood, journaled) == [Stood(1, 1, 20), Stood(1, 2, 20)]


def test_table_variant_split_aces_take_one_card_each() -> None:
    s = dealt({(1, 1): 4}, "As 7d Ah")
    s.table.split(1)
    s.deal("5c")  # the first ace's one card: that hand is done
    assert s.table.current_hand is s.table.boxes[0].hands[1]
    s.deal("9c")
    assert s.state == "dealer_second"
    assert [h.total for h in s.table.boxes[0].hands] == [16, 20]


def test_table_variant_split_to_three_hands_and_the_second_hand_split() -> None:
    s = dealt({(1, 1): 4}, "8s 7d 8h")
    t = s.table
    t.split(1)
    s.deal("Tc")
    s.press(NEXT)  # 18 stands
    s.deal("8d")  # the second hand: 8, 8
    assert t.split(1) == SplitMade(1, 2, 3, 4)
    s.deal("8c")  # hand 2: 8, 8 again, but three hands is the most
    assert refusal(lambda: t.split(1)) == (TV, "at most 3 hands per box")


def test_table_variant_must_draw_to_eleven_word_for_word() -> None:
    t = dealt({(1, 1): 4}, "5s 7d 6c").table
    assert refusal(lambda: t.stand(1)) == (TV, "a player must draw to 11")
    assert not t.can_stand(1)
    t = dealt({(1, 1): 4}, "5s 7d 7c").table
    assert t.can_stand(1)
    assert t.stand(1) == Stood(1, 1, 12)


def test_split_button_refusal_reaches_the_display() -> None:
    s = dealt({(1, 1): 4}, "Ts 7d 8c")
    out = s.press(SPLIT)
    assert s.of(ActionRefused, out) == [
        ActionRefused("split button", TV, "only a pair of equal rank may be split")
    ]


def test_table_variant_double_from_the_double_spot_in_large_chips() -> None:
    v = Variants(double_spots=True, smallest_chip=5)
    s = dealt({(1, 1): 10}, "5s 7d 5c", v)
    s.occupy("double1", 10)
    s.press(DOUBLE)
    assert s.of(Doubled) == [Doubled(1, 1, 10)]
    assert not s.of(ActionRefused)


# --- the table's limits ([limits], the limit sign): they bind everyone -------------------

LIMITS = Variants(minimum_wager=2, maximum_wager=100)
OUTSIDE = "is outside the table's limits, 2 to 100 on the limit sign: only a supervisor's " \
    "override, with the reason, lets it stand"  # fmt: skip


def test_table_limits_a_wager_from_the_minimum_to_the_maximum_and_no_further() -> None:
    t = betting(LIMITS).table
    assert t.place_wager(1, 1, 2) == WagerPlaced(1, 1, 2)  # the minimum itself
    assert t.place_wager(2, 1, 100) == WagerPlaced(2, 1, 100)  # the maximum itself
    for amount in (1, 101):
        assert refusal(lambda a=amount: t.place_wager(3, 1, a)) == (
            TABLE_LIMITS,
            f"a wager of {amount} {OUTSIDE}",
        )
    assert t.place_wager(1, 1, 0) == WagerPlaced(1, 1, 0)  # withdrawing is never outside
    assert not t.can_place_wager(3, 1, 101) and t.can_place_wager(3, 1, 100)


def test_table_limits_the_rules_alone_have_no_maximum_but_keep_a_minimum() -> None:
    t = betting(Variants(minimum_wager=4)).table
    assert t.place_wager(1, 1, 1_000_000) == WagerPlaced(1, 1, 1_000_000)
    assert refusal(lambda: t.place_wager(2, 1, 2)) == (
        TABLE_LIMITS,
        "a wager of 2 is outside the table's limits, at least 4 on the limit sign: only a "
        "supervisor's override, with the reason, lets it stand",
    )


def test_table_limits_bind_a_supervisors_change_wager() -> None:
    s = betting(LIMITS)
    t = s.table
    assert refusal(lambda: t.change_wager("s01", 1, 1, 1_000_000)) == (
        TABLE_LIMITS,
        f"a wager of 1000000 {OUTSIDE}",
    )
    assert t.boxes[0].stakes == {} and t.take_outputs() == []
    assert t.change_wager("s01", 1, 1, 100) == WagerChanged(1, 1, 0, 100, "s01")


def test_table_limits_a_supervisors_override_lets_a_wager_stand_with_the_reason() -> None:
    t = betting(LIMITS).table
    assert refusal(lambda: t.override_limit("s01", 1, 1, 500, " ")) == (
        TABLE_LIMITS,
        "an override of the table's limits says why",
    )
    assert refusal(lambda: t.override_limit("s01", 1, 1, 100, "vip")) == (
        TABLE_LIMITS,
        "a wager of 100 is within the table's limits, 2 to 100: change it without an override",
    )
    assert refusal(lambda: t.override_limit("  ", 1, 1, 500, "vip")) == (
        "4.1",
        "a supervisor changing a wager must be named",
    )
    t.take_outputs()
    t.place_wager(2, 1, 2)
    assert t.override_limit("s01", 2, 2, 500, "  shift manager approved ") == WagerChanged(
        2, 2, 0, 500, "s01"
    )
    assert t.boxes[1].stakes == {1: 2, 2: 500}
    assert [o for o in t.take_outputs() if not isinstance(o, WagerPlaced)] == [
        WagerChanged(2, 2, 0, 500, "s01"),
        LimitOverridden("s01", "box2.p2", 500, 2, 100, "shift manager approved"),
    ]


def test_table_limits_an_override_keeps_every_other_check_of_a_wager() -> None:
    t = betting(LIMITS).table
    assert refusal(lambda: t.override_limit("s01", 1, 1, 501, "vip"))[0] == "10.1"  # 3 to 2
    s = dealt({(1, 1): 4}, "9s 7d 8c", LIMITS)
    assert refusal(lambda: s.table.override_limit("s01", 2, 1, 500, "vip")) == (
        "4.2",
        "no wager is made, altered or withdrawn after betting closed",
    )


def test_table_limits_the_game_takes_the_override_with_the_actions_reason() -> None:
    game = BlackjackGame(LIMITS)
    game.table = betting(LIMITS).table

    def decide(decision: str, why: str = "", **args: object) -> list[object]:
        action = SupervisorAction(
            source="supervisor", who="s01", decision=decision, reason=why, args=dict(args)
        )
        return list(game.handle(action))

    assert LimitOverridden("s01", "box1", 600, 2, 100, "vip") in decide(
        "override_limit", "vip", box=1, person=1, amount=600
    )
    assert LimitOverridden("s01", "box2", 700, 2, 100, "from args") in decide(
        "override_limit", box=2, person=1, amount=700, reason="from args"
    )
    for decision, args in (
        ("override_limit", {"box": 3, "person": 1}),
        ("override_limit", {"box": 3, "person": 1, "amount": 600, "spot": 3}),
        ("change_wager", {"box": 3, "person": 1, "amount": 60, "reason": "x"}),
        ("change_wager", {"box": 3, "person": "1", "amount": 60}),
    ):
        with pytest.raises(IllegalAction) as refused:
            decide(decision, "x", **args)
        assert (refused.value.rule, refused.value.reason) == (
            "4.1",
            f"{decision} takes a box, person, amount",
        )
    assert WagerChanged(3, 1, 0, 60, "s01") in decide(
        "change_wager", "x", box=3, person=1, amount=60
    )
