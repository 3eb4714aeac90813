"""Settlement tables, case by case (rule 4.1, 9.4, 9.5, 10.1, and the dealer-blackjack
variants), and the balance check. The pure payout functions of
controller/blackjack/settlement.py are each pinned at their edges too, named after the rule
they pay by."""

from __future__ import annotations

import pytest

from controller.blackjack.rules import DealerBlackjackTakes, OddStakes
from controller.blackjack.rules import DealerBlackjackTakes as Takes
from controller.blackjack.settlement import (
    Kind,
    Outcome,
    Payout,
    RoundBalance,
    blackjack_exact,
    blackjack_win,
    check_balance,
    settle_against_dealer_blackjack,
    settle_hand,
    settle_insurance,
)
from controller.errors import BalanceError

L, W, P, R, B = Outcome.LOSE, Outcome.WIN, Outcome.PUSH, Outcome.RETURNED, Outcome.BLACKJACK


@pytest.mark.parametrize(
    ("total", "blackjack", "bust", "dealer", "dealer_bust", "expected"),
    [
        (20, False, False, 19, False, (W, 10, 10, 0)),  # higher total wins
        (18, False, False, 19, False, (L, 0, 0, 10)),  # higher dealer total wins
        (19, False, False, 19, False, (P, 10, 0, 0)),  # equal totals push
        (24, False, True, 26, True, (L, 0, 0, 10)),  # bust loses even if the dealer busts
        (12, False, False, 22, True, (W, 10, 10, 0)),  # dealer bust pays standing hands
        (21, True, False, 21, False, (B, 10, 15, 0)),  # blackjack beats a 3-card 21
        (21, False, False, 20, False, (W, 10, 10, 0)),  # split-ace 21 is not blackjack
    ],
)
def test_4_1_hand_against_dealer_without_blackjack(
    total: int,
    blackjack: bool,
    bust: bool,
    dealer: int,
    dealer_bust: bool,
    expected: tuple[Outcome, int, int, int],
) -> None:
    outcome, returned, won, lost, _ = settle_hand(10, total, blackjack, bust, dealer, dealer_bust)
    assert (outcome, returned, won, lost) == expected


def test_4_1_player_21_loses_to_dealer_blackjack() -> None:
    assert settle_against_dealer_blackjack(10, [(10, False, False)], Takes.ORIGINAL_ONLY) == [
        (L, 0, 0, 10, "4.1")
    ]


def test_4_1_blackjack_against_blackjack_pushes() -> None:
    assert settle_against_dealer_blackjack(10, [(10, False, True)], Takes.EVERYTHING) == [
        (P, 10, 0, 0, "4.1")
    ]


@pytest.mark.parametrize(
    ("takes", "hands", "expected"),
    [
        # a doubled hand (stake 20) against a dealer blackjack
        (Takes.ORIGINAL_ONLY, [(20, False, False)], [(R, 10, 0, 10)]),
        (Takes.EVERYTHING, [(20, False, False)], [(L, 0, 0, 20)]),
        (Takes.BUSTED_PLUS_ONE, [(20, False, False)], [(R, 10, 0, 10)]),
        # three split hands, the second busted
        (
            Takes.ORIGINAL_ONLY,
            [(10, False, False), (10, True, False), (10, False, False)],
            [(L, 0, 0, 10), (R, 10, 0, 0), (R, 10, 0, 0)],
        ),
        (
            Takes.EVERYTHING,
            [(10, False, False), (10, True, False), (10, False, False)],
            [(L, 0, 0, 10), (L, 0, 0, 10), (L, 0, 0, 10)],
        ),
        (
            Takes.BUSTED_PLUS_ONE,
            [(10, False, False), (10, True, False), (10, False, False)],
            [(L, 0, 0, 10), (L, 0, 0, 10), (R, 10, 0, 0)],
        ),
        # split, then the first hand doubled and busted
        (
            Takes.BUSTED_PLUS_ONE,
            [(20, True, False), (10, False, False)],
            [(L, 0, 0, 20), (L, 0, 0, 10)],
        ),
    ],
)
def test_dealer_blackjack_takes_after_doubles_and_splits(
    takes: Takes,
    hands: list[tuple[int, bool, bool]],
    expected: list[tuple[Outcome, int, int, int]],
) -> None:
    got = settle_against_dealer_blackjack(10, hands, takes)
    assert [r[:4] for r in got] == expected
    assert sum(r[1] + r[3] for r in got) == sum(h[0] for h in hands)


def test_9_4_winning_insurance_pays_2_to_1() -> None:
    assert settle_insurance(5, dealer_blackjack=True)[:4] == (W, 5, 10, 0)


def test_9_5_losing_insurance_is_collected() -> None:
    assert settle_insurance(5, dealer_blackjack=False)[:4] == (L, 0, 0, 5)


def test_10_1_blackjack_pays_3_to_2_in_whole_chips() -> None:
    assert blackjack_win(10) == 15
    assert blackjack_win(10, smallest_chip=5) == 15
    with pytest.raises(BalanceError):
        blackjack_win(5)  # 7.5: never rounded silently (odd_stakes = refuse)
    with pytest.raises(BalanceError):
        blackjack_win(6, smallest_chip=5)


def test_10_1_odd_stakes_rounded_only_as_the_casino_names() -> None:
    assert blackjack_win(5, 1, OddStakes.ROUND_DOWN) == 7
    assert blackjack_win(5, 1, OddStakes.ROUND_UP) == 8
    assert blackjack_win(15, 5, OddStakes.ROUND_DOWN) == 20  # 22.5
    assert blackjack_win(15, 5, OddStakes.ROUND_UP) == 25
    assert blackjack_win(10, 5, OddStakes.ROUND_UP) == 15  # exact: nothing to round


def test_payout_that_does_not_balance_raises() -> None:
    with pytest.raises(BalanceError):
        Payout(1, 1, 1, Kind.WAGER, W, 10, 10, 10, 5, "4.1")


def test_round_balance_checked() -> None:
    payouts = [
        Payout(1, 1, 1, Kind.WAGER, W, 10, 10, 10, 0, "4.1"),
        Payout(2, 1, 1, Kind.WAGER, L, 4, 0, 0, 4, "4.1"),
    ]
    balance = check_balance(14, payouts)
    assert (balance.paid_out, balance.house_result) == (20, -6)
    with pytest.raises(BalanceError):
        check_balance(16, payouts)  # a wager left unsettled
    with pytest.raises(BalanceError):
        check_balance(14, [*payouts, payouts[1]])  # settled twice


def payout(stake: int, returned: int, won: int, lost: int) -> Payout:
    return Payout(1, 0, 1, Kind.WAGER, Outcome.WIN, stake, returned, won, lost, "4.1")


def test_money_a_payout_with_any_negative_part_is_refused() -> None:
    payout(10, 10, 0, 0)
    for args in ((10, 10, -1, 0), (-10, -10, 0, 0), (10, 11, 0, -1), (10, -1, 0, 11)):
        with pytest.raises(BalanceError, match="money must balance"):
            payout(*args)
    with pytest.raises(BalanceError, match="stake 10 != returned 4 \\+ lost 5"):
        payout(10, 4, 0, 5)


def test_money_payout_net_and_defaults() -> None:
    p = payout(10, 10, 15, 0)
    assert p.net == 15 and p.at_once is False
    assert payout(10, 0, 0, 10).net == -10


def test_4_1_labels_and_amounts_of_each_outcome() -> None:
    assert settle_hand(10, 22, False, True, 22, True) == (Outcome.LOSE, 0, 0, 10, "4.1")
    assert settle_hand(10, 21, True, False, 20, False) == (Outcome.BLACKJACK, 10, 15, 0, "10.2")
    assert settle_hand(10, 12, False, False, 23, True) == (Outcome.WIN, 10, 10, 0, "4.1")
    assert settle_hand(10, 18, False, False, 17, False) == (Outcome.WIN, 10, 10, 0, "4.1")
    assert settle_hand(10, 17, False, False, 17, False) == (Outcome.PUSH, 10, 0, 0, "4.1")
    assert settle_hand(10, 16, False, False, 17, False) == (Outcome.LOSE, 0, 0, 10, "4.1")


def test_9_4_and_9_5_insurance_labels() -> None:
    assert settle_insurance(5, True) == (Outcome.WIN, 5, 10, 0, "9.4")
    assert settle_insurance(5, False) == (Outcome.LOSE, 0, 0, 5, "9.5")


def test_10_1_three_to_two_exact_only_in_whole_smallest_chips() -> None:
    assert blackjack_exact(10) and not blackjack_exact(5)
    assert blackjack_exact(10, smallest_chip=5) and not blackjack_exact(10, smallest_chip=10)
    assert blackjack_win(10, 5) == 15
    assert blackjack_win(20, 10, OddStakes.ROUND_DOWN) == 30
    assert blackjack_win(10, 10, OddStakes.ROUND_DOWN) == 10
    assert blackjack_win(10, 10, OddStakes.ROUND_UP) == 20
    assert blackjack_win(5, 1, OddStakes.ROUND_DOWN) == 7
    assert blackjack_win(5, 1, OddStakes.ROUND_UP) == 8
    with pytest.raises(BalanceError, match=r"3 to 2 on 5 is 7\.5, not whole chips of 1"):
        blackjack_win(5)


def test_4_1_dealer_blackjack_against_a_single_hand() -> None:
    take = DealerBlackjackTakes.ORIGINAL_ONLY
    assert settle_against_dealer_blackjack(10, [(10, False, True)], take) == [
        (Outcome.PUSH, 10, 0, 0, "4.1")
    ]
    assert settle_against_dealer_blackjack(10, [(10, False, False)], take) == [
        (Outcome.LOSE, 0, 0, 10, "4.1")
    ]
    # a doubled single hand (stake above the initial) is a variant case, not the simple one
    assert settle_against_dealer_blackjack(10, [(20, False, False)], take) == [
        (Outcome.RETURNED, 10, 0, 10, "4.1")
    ]


def test_4_1_dealer_blackjack_variants_after_a_split() -> None:
    hands = [(10, True, False), (10, False, False), (10, False, False)]
    assert (
        settle_against_dealer_blackjack(10, hands, DealerBlackjackTakes.EVERYTHING)
        == [(Outcome.LOSE, 0, 0, 10, "4.1")] * 3
    )
    assert settle_against_dealer_blackjack(10, hands, DealerBlackjackTakes.ORIGINAL_ONLY) == [
        (Outcome.LOSE, 0, 0, 10, "4.1"),
        (Outcome.RETURNED, 10, 0, 0, "4.1"),
        (Outcome.RETURNED, 10, 0, 0, "4.1"),
    ]
    assert settle_against_dealer_blackjack(10, hands, DealerBlackjackTakes.BUSTED_PLUS_ONE) == [
        (Outcome.LOSE, 0, 0, 10, "4.1"),
        (Outcome.LOSE, 0, 0, 10, "4.1"),
        (Outcome.RETURNED, 10, 0, 0, "4.1"),
    ]


def test_money_round_balance_exactly() -> None:
    pays = [payout(10, 10, 10, 0), payout(10, 0, 0, 10), payout(4, 4, 0, 0)]
    assert check_balance(24, pays) == RoundBalance(24, 24, 0)
    assert check_balance(10, [payout(10, 0, 0, 10)]) == RoundBalance(10, 0, 10)
    with pytest.raises(BalanceError, match="wagered 25, settled stakes 24"):
        check_balance(25, pays)
    assert check_balance(0, []) == RoundBalance(0, 0, 0)


def test_10_1_refused_odd_stake_says_why_word_for_word() -> None:
    with pytest.raises(BalanceError) as refused:
        blackjack_win(5, 2)
    assert str(refused.value) == (
        "3 to 2 on 5 is 7.5, not whole chips of 2, and the table names no rounding "
        "(odd_stakes = refuse: such a wager is refused at betting)"
    )


def test_10_1_settle_hand_pays_a_blackjack_with_the_tables_rounding() -> None:
    assert settle_hand(5, 21, True, False, 20, False, 1, OddStakes.ROUND_DOWN)[2] == 7
    assert settle_hand(5, 21, True, False, 20, False, 1, OddStakes.ROUND_UP)[2] == 8
    with pytest.raises(BalanceError):
        settle_hand(5, 21, True, False, 20, False, 1, OddStakes.REFUSE)


def test_money_an_unbalanced_round_names_every_figure() -> None:
    with pytest.raises(BalanceError) as unbalanced:
        check_balance(11, [payout(10, 0, 0, 10)])
    assert str(unbalanced.value) == (
        "round does not balance: wagered 11, settled stakes 10, paid out 0 + house result 10"
        " = 10 (money must balance)"
    )


def test_money_outcome_and_kind_names_as_journaled() -> None:
    """Payout records are journaled by these values: renaming one breaks every replay."""
    assert [o.value for o in Outcome] == [
        "win",
        "blackjack",
        "even_money",
        "lose",
        "push",
        "returned",
        "void",
    ]
    assert [k.value for k in Kind] == ["wager", "insurance"]
