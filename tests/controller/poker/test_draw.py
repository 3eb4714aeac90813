"""The draw of draw poker (controller/poker/draw.py), built
directly, at its edges: the order and the announcement (11.3(a)), the burn, the cards read,
and the reshuffle of only the earlier players' discards when the stub runs out (11.3(b)).
Refusals and violations are checked word for word: the reason is what the dealer reads.
"""

from __future__ import annotations

from controller.cards import Card
from controller.game.records import Violation
from controller.poker.draw import Draw
from controller.poker.records import DrawTaken, ReshuffleAllowed
from tests.support.poker import cards
from tests.support.refusals import refusal

HANDS = {3: "As Ks Qs Js 9h", 4: "2c 3c 4c 5c 7d", 1: "8h 8d 8c 6s 6h"}


def draw(stub: int = 30, burn: bool = False, hands: dict[int, str] | None = None) -> Draw:
    """Seats 3, 4 and 1 draw in that order (clockwise from left of the button)."""
    held = {seat: cards(text) for seat, text in (hands or HANDS).items()}
    seen = {c for hand in held.values() for c in hand}
    return Draw([3, 4, 1], held, {}, seen, stub, burn)


def card(text: str) -> Card:
    return Card.parse(text)


# --- 11.3(a): the order and the announcement ---------------------------------------------------


def test_rule_11_3_a_the_draw_goes_in_order_word_for_word() -> None:
    d = draw()
    assert d.drawer == 3 and not d.done
    assert refusal(lambda: d.verify_discard(4, 1, None)) == (
        "11.3(a)",
        "seat 4 draws out of turn: the draw goes clockwise from left of the button and seat 3 "
        "is drawing",
    )
    d.discard(3, 1, [card("9h")])
    # seat 3 announced: it is owed its card before anybody else announces, itself included
    assert refusal(lambda: d.verify_discard(3, 1, None))[1].startswith("seat 3 draws out of turn")
    d.card(card("2d"))
    assert d.drawer == 4 and d.owed is None
    d.discard(4, 0, None)  # stands pat: the next player draws at once
    assert d.drawer == 1
    d.discard(1, 0, None)
    assert d.done and d.drawer is None
    assert refusal(lambda: d.verify_discard(3, 0, None)) == ("11.3(a)", "the draw is over")


def test_rule_11_3_a_zero_to_five_cards_word_for_word() -> None:
    d = draw()
    for count in (-1, 6):
        assert refusal(lambda n=count: d.verify_discard(3, n, None)) == (
            "11.3(a)",
            f"a player replaces 0 to 5 cards, not {count}",
        )
    d.verify_discard(3, 0, None)
    d.verify_discard(3, 5, None)


def test_rule_11_3_a_the_discards_read_must_be_the_count_announced_of_the_cards_held() -> None:
    d = draw()
    for count, read in ((2, "9h"), (2, "9h 9h"), (1, "2c"), (1, "9h Js")):
        assert refusal(lambda n=count, r=read: d.verify_discard(3, n, cards(r))) == (
            "11.3(a)",
            f"seat 3 announced {count} but the discards read are "
            f"{[str(c) for c in cards(read)]}, not {count} of the cards held",
        )
    d.verify_discard(3, 2, cards("9h Js"))


def test_rule_11_3_a_discards_read_are_kept_by_owner() -> None:
    d = draw()
    assert d.discard(3, 2, cards("9h Js")) == [DrawTaken(3, 2, ("9h", "Js"))]
    assert d.rack.known == {3: cards("9h Js")}
    assert d.hands[3] == cards("As Ks Qs")
    assert d.owed == 2
    d.card(card("2d"))
    assert d.owed == 1 and d.drawer == 3
    d.card(card("3d"))
    assert d.hands[3] == cards("As Ks Qs 2d 3d")
    assert d.drawer == 4


def test_rule_11_3_a_all_five_discarded_need_no_reading() -> None:
    d = draw()
    assert d.discard(3, 5, None) == [DrawTaken(3, 5, ("As", "Ks", "Qs", "Js", "9h"))]
    assert d.rack.known == {3: cards(HANDS[3])} and d.hands[3] == []


def test_rule_11_3_a_discards_not_read_are_counted() -> None:
    d = draw()
    assert d.discard(3, 2, None) == [DrawTaken(3, 2, None)]
    assert d.rack.unknown == {3: 2}
    assert d.possible == {3: set(cards(HANDS[3]))}
    assert d.unknown_left == {3: 2}
    assert d.hands[3] == [] and d.unknown_kept == {3: 3}


# --- the cards read during the draw -------------------------------------------------------------


def test_rule_11_3_a_the_burn_comes_first_and_is_counted() -> None:
    d = draw(stub=30, burn=True)
    assert d.card(card("2d")) == []
    assert d.rack.burned == [card("2d")] and d.stub == 29 and card("2d") in d.seen
    assert not d.burn_due
    d = draw(burn=True)
    assert d.card(card("As")) == [Violation("11.3(a)", "burn card As was already dealt", "As")]
    assert d.stub == 30


def test_rule_11_3_a_a_card_nobody_is_owed_word_for_word() -> None:
    d = draw()
    assert d.card(card("2d")) == [
        Violation(
            "11.3(a)",
            "2d drawn but no replacement card is due (seat 3 has not announced its discards)",
            "2d",
            3,
        )
    ]
    d.discard(3, 0, None)
    d.discard(4, 0, None)
    d.discard(1, 0, None)
    assert d.card(card("2d"))[0].message == (
        "2d drawn but no replacement card is due (seat None has not announced its discards)"
    )


def test_rule_11_3_a_a_card_already_out_is_not_from_the_top() -> None:
    d = draw()
    d.discard(3, 1, cards("9h"))
    assert d.card(card("2c")) == [Violation("11.3(a)", "2c is already out: not from the top", "2c")]
    assert d.owed == 1 and d.stub == 30


def test_rule_11_3_a_a_card_set_aside_is_counted_out_of_the_stub() -> None:
    d = draw(stub=5)
    assert d.give(card("2d")) == []  # owed to nobody: dead
    assert d.rack.dead == [card("2d")] and d.stub == 4
    d.set_aside(card("2d"))  # the same card again: counted once
    assert d.stub == 4


# --- 11.3(b): the stub runs out -------------------------------------------------------------


def run_out() -> Draw:
    """Seat 3 discards two (read), seat 4 three (not read); the stub holds 5, so seat 1's
    draw of two finds it empty."""
    d = draw(stub=5)
    d.discard(3, 2, cards("9h Js"))
    d.card(card("2d"))
    d.card(card("3d"))
    d.discard(4, 3, None)
    d.card(card("4d"))
    d.card(card("5d"))
    d.card(card("6d"))
    assert d.stub == 0
    return d


def test_rule_11_3_b_only_the_earlier_players_discards_are_shuffled() -> None:
    d = run_out()
    assert d.pool is None  # nothing reshuffled yet
    out = d.discard(1, 2, cards("6s 6h"))
    assert out == [
        DrawTaken(1, 2, ("6s", "6h")),
        ReshuffleAllowed(1, ((3, 2), (4, 3)), ("9h", "Js"), (1,)),
    ]
    assert d.reshuffled and d.pile_left == 5
    assert d.pool == set(cards("9h Js"))
    # seat 1's own discards are not among them
    assert d.card(card("6s")) == [
        Violation(
            "11.3(b)",
            "6s is not among the earlier players' discards that 11.3(b) allows to be shuffled "
            "to complete seat 1's draw",
            "6s",
            1,
        )
    ]
    assert d.card(card("Js")) == []  # a known discard of seat 3
    assert d.pool == {card("9h")} and d.pile_left == 4
    assert d.card(card("7d")) == []  # one of seat 4's unread discards
    assert d.unknown_left == {4: 2} and card("7d") not in d.possible[4]
    assert d.done and d.pool is None
    assert d.hands[1] == cards("8h 8d 8c Js 7d")


def test_rule_11_3_b_a_discard_dealt_again_cannot_come_out_again() -> None:
    d = run_out()
    d.discard(1, 2, cards("6s 6h"))
    d.card(card("Js"))
    assert [v.rule for v in d.card(card("Js"))] == ["11.3(b)"]
    assert d.owed == 1


def test_rule_11_3_b_a_dead_card_during_the_reshuffle_is_counted_out_of_it() -> None:
    d = run_out()
    d.discard(1, 2, cards("6s 6h"))
    d.card(card("Js"))
    d.card(card("7d"))  # seat 1's draw complete: nobody is owed a card
    assert d.pile_left == 3
    # a supervisor accepted a card out of the reshuffled discards: dead, counted out of them
    assert d.give(card("9h")) == []
    assert d.pile_left == 2 and d.rack.dead == [card("9h")]
    assert card("9h") in d.redealt


def short_stub() -> Draw:
    """Seat 3 discards 9h (and gets 2d), seat 4 stands pat, seat 1 discards all five with
    two cards left in the stub: 11.3(b) offers seat 3's one discard."""
    d = draw(stub=3)
    d.discard(3, 1, cards("9h"))
    d.card(card("2d"))
    d.discard(4, 0, None)
    d.discard(1, 5, None)
    d.card(card("4d"))
    assert d.card(card("5d")) == [ReshuffleAllowed(1, ((3, 1),), ("9h",), (1,))]
    assert d.owed == 3 and d.pile_left == 1
    return d


def test_rule_11_3_b_the_dealer_is_told_once_when_nothing_is_left_to_shuffle() -> None:
    d = short_stub()
    assert d.card(card("9h")) == [ReshuffleAllowed(1, (), (), (1,))]  # the pile is out too
    assert d.give(card("Kd")) == []  # a card accepted: still nothing new to shuffle, no repeat
    assert d.owed == 1


def test_rule_11_3_b_a_dead_card_may_take_the_last_of_the_reshuffled_discards() -> None:
    d = short_stub()
    assert d.set_aside(card("9h")) == [ReshuffleAllowed(1, (), (), (1,))]  # out while owed
    assert d.pile_left == 0 and d.rack.dead == [card("9h")]


def test_rule_11_3_b_a_dead_card_that_empties_the_stub_while_a_seat_is_owed() -> None:
    d = draw(stub=1)
    d.discard(3, 2, cards("9h Js"))
    assert d.set_aside(card("2d")) == [ReshuffleAllowed(3, (), (), (3, 4, 1))]
    assert d.stub == 0


def test_rule_11_3_b_no_reshuffle_before_the_next_player_announces() -> None:
    d = draw(stub=1)
    assert d.give(card("2d")) == []  # owed to nobody: dead; the stub is out, but nobody asks
    assert d.stub == 0 and not d.reshuffled


# --- 11.3(b) at a full table: the reshuffle is made once, of the discards then previous ------

SIX = {
    1: "As Ks Qs Js Ts",
    2: "Ah Kh Qh Jh Th",
    3: "Ad Kd Qd Jd Td",
    4: "Ac Kc Qc Jc Tc",
    5: "9s 9h 9d 9c 8s",
    6: "8h 8d 8c 7s 7h",
}
STUB = cards("2s 3s 4s 5s 6s 2h 3h 4h 5h 6h 2d 3d 4d 5d 6d 2c 3c 4c 5c 6c")


def six_seats(each: int) -> Draw:
    """Six players draw in seat order; seats 1 to 4 each replace their first ``each``
    cards from a stub that holds just those; seat 5 then replaces 9s 9h 9d from an empty
    stub, so 11.3(b) offers seats 1 to 4's discards."""
    held = {seat: cards(text) for seat, text in SIX.items()}
    seen = {c for hand in held.values() for c in hand}
    d = Draw([1, 2, 3, 4, 5, 6], held, {}, seen, 4 * each, False)
    stub = iter(STUB)
    for seat in (1, 2, 3, 4):
        d.discard(seat, each, held[seat][:each])
        for _ in range(each):
            assert d.card(next(stub)) == []
    assert d.stub == 0
    out = d.discard(5, 3, cards("9s 9h 9d"))
    assert [type(r) for r in out] == [DrawTaken, ReshuffleAllowed]
    assert d.pile_left == 4 * each and d.pile_seats == (1, 2, 3, 4)
    return d


def test_rule_11_3_b_a_later_player_draws_only_from_the_reshuffle_made_for_the_earlier() -> None:
    d = six_seats(5)
    for text in ("As", "Ks", "Qs"):  # seat 5's draw completed from the reshuffle
        assert d.card(card(text)) == []
    assert d.pile_left == 17
    assert d.discard(6, 2, cards("8h 8d")) == [DrawTaken(6, 2, ("8h", "8d"))]  # pile not out
    # seat 5's discard was never in the pile: 17 cards of it are still to come
    assert d.card(card("9s")) == [
        Violation(
            "11.3(b)",
            "9s is not among the earlier players' discards that 11.3(b) allows to be shuffled "
            "to complete seat 6's draw",
            "9s",
            6,
        )
    ]
    assert d.pool is not None and card("9s") not in d.pool
    assert d.card(card("Ah")) == [] and d.owed == 1  # a card of the pile is fine


def test_rule_11_3_b_when_the_reshuffle_runs_out_the_discards_then_previous_are_shuffled() -> None:
    d = six_seats(1)  # a pile of four: As, Ah, Ad, Ac
    for text in ("As", "Ah", "Ad"):
        assert d.card(card(text)) == []
    assert d.pile_left == 1
    assert d.discard(6, 2, cards("8h 8d")) == [DrawTaken(6, 2, ("8h", "8d"))]
    # the last of the pile completes one card of seat 6's draw, and the pile is out: the
    # discards previous to seat 6 not yet dealt again are seat 5's three
    assert d.card(card("Ac")) == [ReshuffleAllowed(6, ((5, 3),), ("9d", "9h", "9s"), (6,))]
    assert d.pile_seats == (1, 2, 3, 4, 5) and d.pile_left == 3
    assert [v.rule for v in d.card(card("8h"))] == ["11.3(b)"]  # seat 6's own: never
    assert d.card(card("9h")) == [] and d.done
