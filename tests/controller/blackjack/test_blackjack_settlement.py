"""Settlement tables, case by case (rule 4.1, 9.4, 9.5, 10.1, and the dealer-blackjack
variants), and the balance check."""

from __future__ import annotations

import pytest

from controller.blackjack.rules import DealerBlackjackTakes as Takes
from controller.blackjack.rules import OddStakes
from controller.blackjack.settlement import (
    Kind,
    Outcome,
    Payout,
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
