"""Settling a coup: pure functions from the stakes and the coup's result to payouts.

Money is whole chip units. The one amount a chip cannot always pay is kept exact rather
than rounded: the Banker commission (5 % of 10 units is half a unit) is owed in
hundredths of a chip unit (``stake x percent``) and accrues on the box's commission
account, collected later rounded up (`collect`). In the no-commission variant a winning
Banker 6 pays 1 to 2: half an odd stake is rounded up to the chip unit and the rounding
is on the payout (``rounding``, hundredths), per the NSW rule that an amount not payable
in chips is rounded up. `balance` checks every coup: chips in = chips out + the house's
result, raising `BalanceError` otherwise (never an assert).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from enum import StrEnum

from controller.baccarat.rules import (
    COMMISSION_RULE,
    PAIR_RULE,
    ROUNDING_RULE,
    TIE_RULE,
    VOID_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
    Variant,
)
from controller.errors import BalanceError
from controller.game.records import CARD_MARK

__all__ = [
    "CARD",
    "Balance",
    "CoupResult",
    "Outcome",
    "Payout",
    "balance",
    "collect",
    "settle",
    "settle_bet",
    "void",
]

CARD = CARD_MARK  # field metadata: the pit's privacy rule finds card fields by it
Stake = tuple[int, Bet, int]  # (box, bet, amount)


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"  # a stand off: the stake comes back (Division 1 "Push")
    VOID = "void"  # the coup was voided: the stake comes back


@dataclasses.dataclass(frozen=True, slots=True)
class CoupResult:
    """The coup's outcome: the hands as dealt and what they mean for the wagers."""

    coup: int
    winner: str  # "player", "banker" or "tie"
    player_total: int
    banker_total: int
    player_cards: tuple[str, ...] = dataclasses.field(metadata=CARD)
    banker_cards: tuple[str, ...] = dataclasses.field(metadata=CARD)
    natural: bool
    player_pair: bool
    banker_pair: bool

    @property
    def banker_three_cards(self) -> bool:
        return len(self.banker_cards) == 3

    def as_result(self) -> dict[str, object]:
        """The shoe history's entry (the roads are drawn from these)."""
        return {
            "winner": self.winner,
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "natural": self.natural,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
        }


@dataclasses.dataclass(frozen=True, slots=True)
class Payout:
    """One wager settled. ``returned`` + ``lost`` is the stake; ``won`` is paid on top;
    ``commission`` is owed to the house in hundredths of a chip unit (the box's account);
    ``rounding`` the hundredths paid above exact odds (rounded up); ``rule`` decides it."""

    box: int
    bet: str
    stake: int
    outcome: Outcome
    returned: int
    won: int
    lost: int
    commission: int
    rounding: int
    rule: str


def _win(
    box: int, bet: Bet, stake: int, won: int, rule: str, commission: int = 0, rounding: int = 0
) -> Payout:
    return Payout(box, bet, stake, Outcome.WIN, stake, won, 0, commission, rounding, rule)


def _lose(box: int, bet: Bet, stake: int, rule: str) -> Payout:
    return Payout(box, bet, stake, Outcome.LOSE, 0, 0, stake, 0, 0, rule)


def _push(box: int, bet: Bet, stake: int, rule: str, outcome: Outcome = Outcome.PUSH) -> Payout:
    return Payout(box, bet, stake, outcome, stake, 0, 0, 0, 0, rule)


def _banker_win(box: int, stake: int, result: CoupResult, rules: BaccaratRules) -> Payout:
    variant = rules.variant
    if variant is Variant.COMMISSION:
        return _win(
            box,
            Bet.BANKER,
            stake,
            stake,
            COMMISSION_RULE,
            commission=stake * rules.commission_percent,
        )
    if variant is Variant.NO_COMMISSION and result.banker_total == 6:
        unit = rules.chip_unit
        won = -(-stake // (2 * unit)) * unit  # half the stake, rounded up to a chip
        rule = "no-commission Banker 6 pays 1 to 2"
        rounding = won * 100 - stake * 50
        return _win(
            box, Bet.BANKER, stake, won, ROUNDING_RULE if rounding else rule, rounding=rounding
        )
    three_card_7 = result.banker_total == 7 and result.banker_three_cards
    if variant is Variant.THREE_CARD_7_PUSH and three_card_7:
        return _push(box, Bet.BANKER, stake, "three-card Banker 7 pushes")
    return _win(box, Bet.BANKER, stake, stake, f"Banker wins ({variant.value})")


def settle_bet(box: int, bet: Bet, stake: int, result: CoupResult, rules: BaccaratRules) -> Payout:
    """One wager against the coup's result."""
    winner = result.winner
    if bet is Bet.BANKER or bet is Bet.PLAYER:
        if winner == "tie":
            return _push(box, bet, stake, TIE_RULE)
        if winner != bet.value:
            return _lose(box, bet, stake, WAGERS_RULE)
        if bet is Bet.PLAYER:
            return _win(box, bet, stake, stake, WAGERS_RULE)
        return _banker_win(box, stake, result, rules)
    if bet is Bet.TIE:
        if winner == "tie":
            return _win(box, bet, stake, stake * rules.tie_odds, TIE_RULE)
        return _lose(box, bet, stake, TIE_RULE)
    pair = result.player_pair if bet is Bet.PLAYER_PAIR else result.banker_pair
    if pair:
        return _win(box, bet, stake, stake * rules.pair_odds, PAIR_RULE)
    return _lose(box, bet, stake, PAIR_RULE)


def settle(stakes: Iterable[Stake], result: CoupResult, rules: BaccaratRules) -> list[Payout]:
    """Every wager of the coup against its result."""
    return [settle_bet(box, bet, amount, result, rules) for box, bet, amount in stakes]


def void(stakes: Iterable[Stake]) -> list[Payout]:
    """A voided coup: every stake comes back ("Void", Division 1, G98-191)."""
    return [_push(box, bet, amount, VOID_RULE, Outcome.VOID) for box, bet, amount in stakes]


@dataclasses.dataclass(frozen=True, slots=True)
class Balance:
    wagers_in: int
    paid_out: int  # stakes returned plus winnings
    house_result: int  # whole units; negative when the players won
    commission: int  # hundredths owed to the house on top, on the boxes' accounts


_SHAPES = {
    Outcome.WIN: lambda p: p.returned == p.stake and p.lost == 0 and p.won > 0,
    Outcome.LOSE: lambda p: p.returned == 0 and p.lost == p.stake and p.won == 0,
    Outcome.PUSH: lambda p: p.returned == p.stake and p.lost == 0 and p.won == 0,
    Outcome.VOID: lambda p: p.returned == p.stake and p.lost == 0 and p.won == 0,
}


def balance(stakes: Sequence[Stake], payouts: Sequence[Payout]) -> Balance:
    """Check the coup's books: each stake settled exactly once, in the order placed, each
    payout whole (stake = returned + lost, in the shape its outcome has), and chips in =
    chips out + the house's result. `BalanceError` names what does not add up."""
    if len(stakes) != len(payouts):
        raise BalanceError(f"{len(stakes)} stakes placed but {len(payouts)} settled")
    wagers_in = paid_out = lost = won = commission = 0
    shapes = _SHAPES
    for (box, bet, amount), p in zip(stakes, payouts, strict=True):
        if p.box != box or p.bet != bet or p.stake != amount:
            raise BalanceError(
                f"box {box} {bet} {amount} was settled as box {p.box} {p.bet} {p.stake}"
            )
        if p.won < 0 or p.commission < 0 or not shapes[p.outcome](p):
            raise BalanceError(
                f"box {p.box} {p.bet}: a {p.outcome} payout of stake {p.stake} "
                f"returns {p.returned}, wins {p.won}, loses {p.lost}"
            )
        wagers_in += amount
        paid_out += p.returned + p.won
        lost += p.lost
        won += p.won
        commission += p.commission
    house = lost - won
    if wagers_in != paid_out + house:
        raise BalanceError(f"chips in {wagers_in} != chips out {paid_out} + house {house}")
    return Balance(wagers_in, paid_out, house, commission)


def collect(owed: int, chip_unit: int) -> tuple[int, int]:
    """Collecting a box's commission account: ``owed`` hundredths of a unit, collected in
    whole chips rounded up (NSW Mini Baccarat: rounded up to the next payable amount).
    Returns (units collected, hundredths of rounding the box paid above what it owed)."""
    if owed < 0:
        raise BalanceError(f"a commission account cannot owe {owed}")
    per_chip = 100 * chip_unit
    collected = -(-owed // per_chip) * chip_unit
    return collected, collected * 100 - owed
