"""The round's book: what each stake is paid when the round settles or is voided, as
`Payout` rows, and the round's balance (docs/architecture.md).

Pure functions over the round's data (`controller.blackjack.round.Round`), built on the
pure settlement of one stake (`controller.blackjack.settlement`); the table records what
they return, in order, and journals it.
"""

from __future__ import annotations

from controller.blackjack.hand import Box
from controller.blackjack.records import RoundSettled
from controller.blackjack.round import Round
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import (
    Kind,
    Outcome,
    Payout,
    check_balance,
    settle_against_dealer_blackjack,
    settle_hand,
    settle_insurance,
)

__all__ = ["round_settled", "settle_payouts", "void_payouts"]


def settle_payouts(play: Round, variants: Variants) -> list[Payout]:
    """The dealer's hand is complete: every unsettled stake's payout (4.1, 9.4, 10.2)."""
    dealer = play.dealer
    dealer_bj = dealer.blackjack
    takes = variants.dealer_blackjack_takes
    chip = variants.smallest_chip
    out: list[Payout] = []
    record = out.append
    for box in play.in_play:
        if box.void:
            continue  # voided by a supervisor (9.6): settled then
        n = box.number
        for person, amount in box.insurance.items():
            if person not in box.insurance_collected:
                outcome, returned, won, lost, rule = settle_insurance(amount, dealer_bj)
                record(Payout(n, 0, person, Kind.INSURANCE, outcome, amount, returned,
                              won, lost, rule))  # fmt: skip
        if box.settled_at_once:
            continue
        hands = box.hands
        for person, initial in box.stakes.items():
            if person in box.even_money:
                continue  # paid 1 to 1 at once (10.3a)
            if dealer_bj:
                views = [(h.stake(person, initial), h.hard > 21, h.blackjack) for h in hands]
                results = settle_against_dealer_blackjack(initial, views, takes)
                for index, (view, result) in enumerate(zip(views, results, strict=True)):
                    outcome, returned, won, lost, rule = result
                    record(Payout(n, index + 1, person, Kind.WAGER, outcome, view[0],
                                  returned, won, lost, rule))  # fmt: skip
                continue
            for index, h in enumerate(hands):
                stake = h.stake(person, initial)
                outcome, returned, won, lost, rule = settle_hand(
                    stake, h.total, h.blackjack, h.hard > 21, dealer.total,
                    dealer.hard > 21, chip, variants.odd_stakes,
                )  # fmt: skip
                record(Payout(n, index + 1, person, Kind.WAGER, outcome, stake, returned,
                              won, lost, rule))  # fmt: skip
    return out


def void_payouts(box: Box) -> list[Payout]:
    """``box`` settled as void (9.6): its insurance back (a collected one too: the caller
    drops its LOSE payout) and every stake not already paid at once."""
    n = box.number
    out = [
        Payout(n, 0, person, Kind.INSURANCE, Outcome.VOID, amount, amount, 0, 0, "9.6")
        for person, amount in box.insurance.items()
    ]
    if box.settled_at_once:
        return out
    for person, initial in box.stakes.items():
        if person in box.even_money:
            continue
        for index, h in enumerate(box.hands):
            stake = h.stake(person, initial)
            out.append(
                Payout(n, index + 1, person, Kind.WAGER, Outcome.VOID, stake, stake, 0, 0, "9.6")
            )
    return out


def round_settled(play: Round, void: bool) -> RoundSettled:
    """The round's settlement record, its chips checked to balance (`BalanceError`)."""
    balance = check_balance(play.wagers_in, play.payouts)
    return RoundSettled(
        play.number,
        balance.wagers_in,
        balance.paid_out,
        balance.house_result,
        tuple(str(c) for c in play.dealer.cards),
        void,
    )
