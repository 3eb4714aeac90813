"""Settlement as pure functions on integer chip units, and the round's balance check.

For every person on every hand: what is won, lost, pushed, returned or voided, and
whether it is paid at once (10.1, 10.3a) or when the dealer's hand is complete (10.2).
The invariant checked on every round: chips wagered = chips paid out + house result
(docs/architecture.md); a mismatch raises `BalanceError`, it is never asserted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from controller.blackjack.rules import DealerBlackjackTakes, OddStakes
from controller.errors import BalanceError

__all__ = [
    "Kind",
    "Outcome",
    "Payout",
    "RoundBalance",
    "blackjack_exact",
    "blackjack_win",
    "check_balance",
    "settle_against_dealer_blackjack",
    "settle_hand",
    "settle_insurance",
]


class Outcome(StrEnum):
    WIN = "win"
    BLACKJACK = "blackjack"  # 3 to 2 (10.1)
    EVEN_MONEY = "even_money"  # 1 to 1 at once on a blackjack against an ace (10.3a)
    LOSE = "lose"
    PUSH = "push"  # stand-off: neither wins nor loses (4.1)
    RETURNED = "returned"  # an extra wager a dealer blackjack does not take (variant)
    VOID = "void"  # the hand was voided: no result, the stake goes back (9.6)


class Kind(StrEnum):
    WAGER = "wager"
    INSURANCE = "insurance"


@dataclass(frozen=True, slots=True)
class Payout:
    """What one person's stake on one hand (or insurance line) comes to. A journal record.

    ``returned`` goes back to the player, ``won`` is paid by the house on top, ``lost`` is
    taken by the house. ``returned + lost == stake`` always; a record that breaks it
    raises `BalanceError` at construction.
    """

    box: int
    hand: int
    person: int
    kind: Kind
    outcome: Outcome
    stake: int
    returned: int
    won: int
    lost: int
    rule: str
    at_once: bool = False

    def __post_init__(self) -> None:
        if min(self.stake, self.returned, self.won, self.lost) < 0 or (
            self.returned + self.lost != self.stake
        ):
            raise BalanceError(
                f"box {self.box} hand {self.hand} person {self.person}: stake {self.stake} "
                f"!= returned {self.returned} + lost {self.lost} (money must balance)"
            )

    @property
    def net(self) -> int:
        """The player's result: positive when the house pays."""
        return self.won - self.lost


def blackjack_exact(stake: int, smallest_chip: int = 1) -> bool:
    """Whether 3 to 2 on ``stake`` (10.1) is a whole number of the smallest chip."""
    return stake * 3 % (2 * smallest_chip) == 0


def blackjack_win(
    stake: int, smallest_chip: int = 1, rounding: OddStakes = OddStakes.REFUSE
) -> int:
    """3 to 2 on ``stake`` (10.1) in whole chips. The Gazette has no rounding clause, so an
    amount that is not whole chips is rounded only as the casino named (`OddStakes`); with
    REFUSE such a wager was refused at betting, and meeting one here raises `BalanceError`
    rather than paying a rounded amount silently."""
    if blackjack_exact(stake, smallest_chip):
        return stake * 3 // 2
    if rounding is OddStakes.ROUND_DOWN:
        return stake * 3 // (2 * smallest_chip) * smallest_chip
    if rounding is OddStakes.ROUND_UP:
        return -(-stake * 3 // (2 * smallest_chip)) * smallest_chip
    raise BalanceError(
        f"3 to 2 on {stake} is {stake * 3 / 2:g}, not whole chips of {smallest_chip}, and the "
        "table names no rounding (odd_stakes = refuse: such a wager is refused at betting)"
    )


def settle_insurance(amount: int, dealer_blackjack: bool) -> tuple[Outcome, int, int, int, str]:
    """Insurance pays 2 to 1 when the dealer has blackjack (9.4), else it is lost (9.5).

    Returns (outcome, returned, won, lost, rule).
    """
    if dealer_blackjack:
        return Outcome.WIN, amount, 2 * amount, 0, "9.4"
    return Outcome.LOSE, 0, 0, amount, "9.5"


def settle_hand(
    stake: int,
    total: int,
    blackjack: bool,
    bust: bool,
    dealer_total: int,
    dealer_bust: bool,
    smallest_chip: int = 1,
    rounding: OddStakes = OddStakes.REFUSE,
) -> tuple[Outcome, int, int, int, str]:
    """One hand against a dealer hand that is NOT blackjack (rule 4.1).

    A player who busts loses, even if the dealer busts too; a blackjack wins 3 to 2; a
    dealer bust pays every standing hand; otherwise the higher total wins and equal totals
    push. Returns (outcome, returned, won, lost, rule). A blackjack paid here is paid when
    the dealer's hand is complete, under 10.2 (one against a dealer's 2-9 is paid at once,
    10.1, and never reaches settlement).
    """
    if bust:
        return Outcome.LOSE, 0, 0, stake, "4.1"
    if blackjack:
        return Outcome.BLACKJACK, stake, blackjack_win(stake, smallest_chip, rounding), 0, "10.2"
    if dealer_bust or total > dealer_total:
        return Outcome.WIN, stake, stake, 0, "4.1"
    if total == dealer_total:
        return Outcome.PUSH, stake, 0, 0, "4.1"
    return Outcome.LOSE, 0, 0, stake, "4.1"


def settle_against_dealer_blackjack(
    initial: int,
    hands: Sequence[tuple[int, bool, bool]],
    takes: DealerBlackjackTakes,
) -> list[tuple[Outcome, int, int, int, str]]:
    """One person's hands on a box against a dealer blackjack.

    ``hands`` is (stake, bust, blackjack) per hand, in order; ``initial`` the person's
    original wager. Blackjack against blackjack pushes (4.1); an unsplit, undoubled hand
    loses its wager; what a dealer blackjack takes from doubles and splits is the
    casino's variant (`DealerBlackjackTakes`).
    """
    if len(hands) == 1 and hands[0][0] == initial:
        stake, bust, blackjack = hands[0]
        if blackjack and not bust:
            return [(Outcome.PUSH, stake, 0, 0, "4.1")]
        return [(Outcome.LOSE, 0, 0, stake, "4.1")]
    results: list[tuple[Outcome, int, int, int, str]] = []
    if takes is DealerBlackjackTakes.EVERYTHING:
        return [(Outcome.LOSE, 0, 0, stake, "4.1") for stake, _, _ in hands]
    to_take = initial
    for stake, bust, _ in hands:
        if takes is DealerBlackjackTakes.BUSTED_PLUS_ONE and bust:
            results.append((Outcome.LOSE, 0, 0, stake, "4.1"))
            continue
        lost = min(stake, to_take)
        to_take -= lost
        if lost == stake:
            results.append((Outcome.LOSE, 0, 0, stake, "4.1"))
        else:
            results.append((Outcome.RETURNED, stake - lost, 0, lost, "4.1"))
    return results


@dataclass(frozen=True, slots=True)
class RoundBalance:
    """The round's chip count: wagered in = paid out + house result."""

    wagers_in: int
    paid_out: int
    house_result: int


def check_balance(wagers_in: int, payouts: Iterable[Payout]) -> RoundBalance:
    """Check that every chip wagered was settled exactly once; raise `BalanceError` if not.

    ``wagers_in`` is counted independently of the payouts (by the machine as the chips
    were placed: wagers, doubles, splits, insurance), so a wager left unsettled or
    settled twice breaks the equation.
    """
    stakes = paid_out = house = 0
    for payout in payouts:
        stakes += payout.stake
        paid_out += payout.returned + payout.won
        house += payout.lost - payout.won
    if stakes != wagers_in or paid_out + house != wagers_in:
        raise BalanceError(
            f"round does not balance: wagered {wagers_in}, settled stakes {stakes}, "
            f"paid out {paid_out} + house result {house} = {paid_out + house} (money must balance)"
        )
    return RoundBalance(wagers_in, paid_out, house)
