"""The round's book (controller/blackjack/book.py), built on a `Round` directly: what every
stake is paid at the dealer's hand (4.1, 9.4, 10.2), what a void gives back (9.6), and the
round's balance. Each payout is checked whole."""

from __future__ import annotations

from controller.blackjack.book import round_settled, settle_payouts, void_payouts
from controller.blackjack.hand import Box, Hand
from controller.blackjack.records import RoundSettled
from controller.blackjack.round import Round
from controller.blackjack.rules import DealerBlackjackTakes, OddStakes, Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.cards import Card

WAGER, INSURANCE = Kind.WAGER, Kind.INSURANCE


def hand(text: str, from_split: bool = False) -> Hand:
    h = Hand(from_split)
    for card in text.split():
        h.add(Card.parse(card))
    return h


def round_with(dealer: str, *boxes: Box) -> Round:
    play = Round(7)
    play.dealer = hand(dealer)
    play.in_play = list(boxes)
    return play


def box(number: int, stakes: dict[int, int], *hands: Hand) -> Box:
    b = Box(number)
    b.stakes.update(stakes)
    b.hands.extend(hands)
    return b


def test_rule_4_1_each_person_s_stake_on_each_hand_against_the_dealer() -> None:
    split = box(2, {1: 10, 2: 4}, hand("8s Ts", True), hand("8h 9d 5c", True))
    split.hands[0].extra = {1: 10}  # person 1 doubled the first hand
    play = round_with("Ks 8d", box(1, {1: 6}, hand("9s Td")), split)  # dealer 18
    assert settle_payouts(play, Variants()) == [
        Payout(1, 1, 1, WAGER, Outcome.WIN, 6, 6, 6, 0, "4.1"),
        Payout(2, 1, 1, WAGER, Outcome.PUSH, 20, 20, 0, 0, "4.1"),  # 18 against 18
        Payout(2, 2, 1, WAGER, Outcome.LOSE, 10, 0, 0, 10, "4.1"),  # 22: bust
        Payout(2, 1, 2, WAGER, Outcome.PUSH, 4, 4, 0, 0, "4.1"),
        Payout(2, 2, 2, WAGER, Outcome.LOSE, 4, 0, 0, 4, "4.1"),
    ]


def test_rule_4_1_a_bust_hand_loses_and_a_bust_dealer_pays_the_rest() -> None:
    play = round_with(
        "Ks 6d 9c", box(1, {1: 4}, hand("Ts 6h 8d")), box(2, {1: 4}, hand("Ts 2h"))
    )  # dealer 25
    assert [(p.box, p.outcome, p.won, p.lost) for p in settle_payouts(play, Variants())] == [
        (1, Outcome.LOSE, 0, 4),
        (2, Outcome.WIN, 4, 0),
    ]


def test_rule_10_2_a_blackjack_against_a_dealer_ten_is_paid_at_the_end() -> None:
    play = round_with("Ks 9d", box(1, {1: 4}, hand("As Kd")))
    assert settle_payouts(play, Variants()) == [
        Payout(1, 1, 1, WAGER, Outcome.BLACKJACK, 4, 4, 6, 0, "10.2")  # 3 to 2, at the end
    ]


def test_rule_9_4_insurance_paid_on_a_dealer_blackjack_and_the_takes_rule() -> None:
    b = box(1, {1: 10}, hand("8s Ts", True), hand("8h 9d", True))
    b.insurance[1] = 5
    b.hands[0].extra = {1: 10}
    collected = box(2, {1: 4}, hand("9s 9d"))
    collected.insurance[1] = 2
    collected.insurance_collected.add(1)  # already collected: not settled again
    play = round_with("As Kd", b, collected)
    out = settle_payouts(play, Variants(dealer_blackjack_takes=DealerBlackjackTakes.EVERYTHING))
    assert out[0] == Payout(1, 0, 1, INSURANCE, Outcome.WIN, 5, 5, 10, 0, "9.4")
    assert [(p.box, p.hand, p.stake, p.outcome, p.lost) for p in out[1:]] == [
        (1, 1, 20, Outcome.LOSE, 20),
        (1, 2, 10, Outcome.LOSE, 10),
        (2, 1, 4, Outcome.LOSE, 4),
    ]
    original = settle_payouts(play, Variants())  # the NZ default: the original wager only
    assert [(p.hand, p.stake, p.returned, p.lost) for p in original[1:3]] == [
        (1, 20, 10, 10),
        (2, 10, 10, 0),
    ]


def test_rule_10_3_those_paid_at_once_and_voided_boxes_are_not_settled_again() -> None:
    paid = box(1, {1: 4}, hand("As Kd"))
    paid.settled_at_once = True
    paid.insurance[1] = 2  # insurance is still settled on a box paid at once
    shared = box(2, {1: 4, 2: 6}, hand("As Qd"))
    shared.even_money.add(2)  # person 2 took even money; person 1 waits for the dealer
    void = box(3, {1: 8}, hand("Ts 9d"))
    void.void = True
    play = round_with("As 7d", paid, shared, void)  # dealer soft 18
    assert settle_payouts(play, Variants()) == [
        Payout(1, 0, 1, INSURANCE, Outcome.LOSE, 2, 0, 0, 2, "9.5"),
        Payout(2, 1, 1, WAGER, Outcome.BLACKJACK, 4, 4, 6, 0, "10.2"),
    ]


def test_rule_9_6_a_void_gives_back_every_stake_and_the_insurance() -> None:
    b = box(4, {1: 10, 2: 4}, hand("8s Ts", True), hand("8h", True))
    b.hands[0].extra = {1: 10}
    b.insurance.update({1: 5, 2: 2})
    b.even_money.add(2)  # paid at once: nothing to give back but the insurance
    assert void_payouts(b) == [
        Payout(4, 0, 1, INSURANCE, Outcome.VOID, 5, 5, 0, 0, "9.6"),
        Payout(4, 0, 2, INSURANCE, Outcome.VOID, 2, 2, 0, 0, "9.6"),
        Payout(4, 1, 1, WAGER, Outcome.VOID, 20, 20, 0, 0, "9.6"),
        Payout(4, 2, 1, WAGER, Outcome.VOID, 10, 10, 0, 0, "9.6"),
    ]
    b.settled_at_once = True
    assert [p.kind for p in void_payouts(b)] == [INSURANCE, INSURANCE]


def test_rule_4_1_the_round_settled_balances_and_names_the_dealer_s_cards() -> None:
    play = round_with("Ks 8d", box(1, {1: 6}, hand("9s Td")))
    play.number = 7
    play.wagers_in = 6
    play.payouts = settle_payouts(play, Variants())
    assert round_settled(play, False) == RoundSettled(7, 6, 12, -6, ("Ks", "8d"), False)
    assert round_settled(play, True).void is True


def test_rule_10_1_the_table_s_rounding_of_an_odd_stake_s_3_to_2_at_the_end() -> None:
    play = round_with("Ks 9d", box(1, {1: 5}, hand("As Kd")))
    (paid,) = settle_payouts(play, Variants(odd_stakes=OddStakes.ROUND_DOWN))
    assert (paid.stake, paid.won) == (5, 7)  # 7.5 rounded down by the table's rule
    (paid,) = settle_payouts(play, Variants(odd_stakes=OddStakes.ROUND_UP))
    assert paid.won == 8


def test_rule_4_1_a_dealer_s_hard_21_is_not_bust_and_22_is() -> None:
    play = round_with("7s 7d 7c", box(1, {1: 4}, hand("Ts 8d")))
    assert [p.outcome for p in settle_payouts(play, Variants())] == [Outcome.LOSE]
    play = round_with("Ks 6d 6c", box(1, {1: 4}, hand("Ts Qd")))
    assert [p.outcome for p in settle_payouts(play, Variants())] == [Outcome.WIN]


def test_rule_10_2_a_dealer_blackjack_takes_bust_hands_and_one_standing_wager() -> None:
    doubled = hand("9s 2d Tc", True)  # doubled to 21: standing, not bust
    doubled.extra = {1: 10}
    b = box(1, {1: 10}, doubled, hand("8h Td 4c", True))  # the second hand: 22, bust
    play = round_with("As Kd", b)
    out = settle_payouts(
        play, Variants(dealer_blackjack_takes=DealerBlackjackTakes.BUSTED_PLUS_ONE)
    )
    assert [(p.hand, p.stake, p.returned, p.lost) for p in out] == [
        (1, 20, 10, 10),  # standing: one original wager taken, the double returned
        (2, 10, 0, 10),  # bust: taken
    ]
    assert out[1] == Payout(1, 2, 1, WAGER, Outcome.LOSE, 10, 0, 0, 10, "4.1")


def test_rule_10_3_a_person_after_one_paid_even_money_is_still_settled() -> None:
    b = box(2, {1: 4, 2: 6}, hand("As Qd"))
    b.even_money.add(1)  # the holder took even money; person 2 waits for the dealer
    play = round_with("As 7d", b)
    assert [(p.person, p.outcome) for p in settle_payouts(play, Variants())] == [
        (2, Outcome.BLACKJACK)
    ]
    assert [(p.person, p.stake) for p in void_payouts(b)] == [(2, 6)]


def test_rule_10_2_a_dealer_blackjack_settles_everyone_on_the_box() -> None:
    play = round_with("As Kd", box(1, {1: 4, 2: 6}, hand("9s 9d")), box(2, {1: 2}, hand("Ts 8d")))
    assert [(p.box, p.person, p.outcome, p.lost) for p in settle_payouts(play, Variants())] == [
        (1, 1, Outcome.LOSE, 4),
        (1, 2, Outcome.LOSE, 6),
        (2, 1, Outcome.LOSE, 2),
    ]
