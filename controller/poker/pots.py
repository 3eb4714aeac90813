"""Pots, side pots, the rake, the split with the odd chip, and the balance check.

Pure functions on integer chip units (docs/architecture.md: no floats for money). Rules:

- All-in (table stakes, surrounding rules): "a player wins only the part of the pot they
  contributed to, plus an equal amount from each other player": one pot per all-in level.
- 11.4(d): a pot held by hands of equal value is "divided equally to the lowest chip
  denomination in play at the table"; what cannot be divided "shall be given to the hand
  containing the highest card by suit" (see `evaluator.highest_card_by_suit` for how we
  read that).
- 11.4(e): "the pot shall not be divided by the agreement of two or more players": there
  is no function here that splits a pot any other way.
- Chips in = pots awarded + uncalled bets returned + rake, or `BalanceError`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from controller.cards import Card
from controller.errors import BalanceError
from controller.poker.evaluator import highest_card_by_suit


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: the chips in it and the seats that may win it (live, contributed enough)."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Split:
    """How one pot is divided among its winners (11.4(d))."""

    pot_index: int
    amount: int
    shares: tuple[tuple[int, int], ...]  # (seat, chips), the odd chip included
    odd_chip_seat: int | None  # the hand with the highest card by suit, if a remainder
    odd_chip: int  # the indivisible remainder (0 when the pot divided exactly)


def build_pots(
    contributions: Mapping[int, int], folded: Collection[int]
) -> tuple[list[Pot], dict[int, int]]:
    """Main pot and side pots from what each seat put in this hand, and uncalled bets.

    Each all-in level of a live seat closes one pot. Chips above the highest level that
    any other seat matched are an uncalled bet and go back to their owner, unraked.
    Folded seats' chips stay in the pots they reach but make them eligible to no one.
    """
    contributions = dict(contributions)
    returns: dict[int, int] = {}
    if contributions:
        top = max(contributions, key=contributions.__getitem__)
        matched = max((c for s, c in contributions.items() if s != top), default=0)
        if contributions[top] > matched:  # nobody called this much: it goes back, unraked
            returns[top] = contributions[top] - matched
            contributions[top] = matched
    live_levels = sorted({c for s, c in contributions.items() if s not in folded and c > 0})
    pots: list[Pot] = []
    previous = 0
    for level in live_levels:
        amount = 0
        payers: set[int] = set()
        for seat, put in contributions.items():
            slice_ = min(put, level) - min(put, previous)
            if slice_ > 0:
                amount += slice_
                payers.add(seat)
        eligible = tuple(
            sorted(s for s, c in contributions.items() if s not in folded and c >= level)
        )
        if len(payers) == 1 and len(eligible) == 1:
            (seat,) = eligible
            returns[seat] = returns.get(seat, 0) + amount
        elif pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    # chips of folded seats above every live level (cannot happen in a legal hand, kept
    # so that nothing is ever lost): they join the last pot
    extra = sum(max(0, c - previous) for c in contributions.values())
    if extra:
        if not pots:
            raise BalanceError(f"{extra} chips in the pot but no live hand to win them")
        pots[-1] = Pot(pots[-1].amount + extra, pots[-1].eligible)
    return pots, returns


def pots_in_play(
    contributions: Mapping[int, int], live: Collection[int], all_in: Collection[int]
) -> tuple[list[Pot], dict[int, int]]:
    """The pots as they stand while the hand is played, for the display.

    One pot, split into side pots only at the level of a live seat that is all in (the
    all-in rule, surrounding rules): a bet level of an unfinished round is not a side
    pot, since the others may still call it. A pot's ``eligible`` are the live seats that
    can still win it: every live seat not all in below its level. The chips of the top
    contributor above everyone else's are an uncalled bet, returned as `build_pots` will
    return them, once no other live seat can still call (every other one is all in).
    Once a betting round is over these are the pots `build_pots` settles.
    """
    contributions = dict(contributions)
    live_set = set(live)
    open_seats = tuple(sorted(s for s in live_set if s not in all_in))
    returns: dict[int, int] = {}
    if contributions:
        top = max(contributions, key=contributions.__getitem__)
        matched = max((c for s, c in contributions.items() if s != top), default=0)
        can_call = any(s != top for s in open_seats)
        if contributions[top] > matched and not can_call:
            returns[top] = contributions[top] - matched
            contributions[top] = matched
    levels = sorted({c for s, c in contributions.items() if s in all_in and s in live_set and c})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributions.values())
        eligible = tuple(
            sorted(s for s in live_set if s not in all_in or contributions.get(s, 0) >= level)
        )
        pots.append(Pot(amount, eligible))
        previous = level
    rest = sum(max(0, c - previous) for c in contributions.values())
    if rest:
        if open_seats:
            pots.append(Pot(rest, open_seats))
        elif pots:  # folded chips above every live level (not in a legal hand): kept
            pots[-1] = Pot(pots[-1].amount + rest, pots[-1].eligible)
        else:
            raise BalanceError(f"{rest} chips in the pot but no live hand to win them")
    return pots, returns


def take_rake(pots: Sequence[Pot], percent: int, cap: int, chip_unit: int) -> tuple[list[Pot], int]:
    """The house's rake: ``percent`` % of all pots, rounded down to the chip unit, capped.

    Taken from the main pot first, then the side pots in order. Uncalled bets are not
    in ``pots`` and are never raked.
    """
    total = sum(p.amount for p in pots)
    rake = min(cap, (total * percent // 100) // chip_unit * chip_unit)
    left = rake
    raked: list[Pot] = []
    for pot in pots:
        taken = min(left, pot.amount)
        left -= taken
        raked.append(Pot(pot.amount - taken, pot.eligible))
    return raked, rake


def split_pot(
    pot_index: int,
    amount: int,
    winners: Sequence[int],
    hands: Mapping[int, Sequence[Card]],
    chip_unit: int,
) -> Split:
    """Divide ``amount`` equally to the chip unit; the remainder to the highest card by suit.

    Rule 11.4(d). Each winner gets the same whole number of chip units; the amount that
    cannot be so divided goes, in one piece, to the winning hand containing the highest
    card by suit (rank first, then spades > hearts > diamonds > clubs).
    """
    if not winners:
        raise BalanceError(f"pot {pot_index} of {amount} has no winner")
    count = len(winners)
    share = amount // (chip_unit * count) * chip_unit
    remainder = amount - share * count
    odd_seat: int | None = None
    shares = dict.fromkeys(winners, share)
    if remainder:
        odd_seat = max(winners, key=lambda seat: highest_card_by_suit(hands[seat]))
        shares[odd_seat] += remainder
    if sum(shares.values()) != amount:
        raise BalanceError(f"pot {pot_index}: shares {shares} do not add up to {amount}")
    return Split(pot_index, amount, tuple(sorted(shares.items())), odd_seat, remainder)


def check_balance(
    contributions: Mapping[int, int],
    splits: Sequence[Split],
    returns: Mapping[int, int],
    rake: int,
) -> None:
    """Chips in = pots awarded + uncalled bets returned + rake, or raise `BalanceError`."""
    chips_in = sum(contributions.values())
    awarded = sum(s.amount for s in splits)
    paid = sum(chips for s in splits for _, chips in s.shares)
    returned = sum(returns.values())
    if paid != awarded or chips_in != awarded + returned + rake:
        raise BalanceError(
            f"chips in {chips_in} != awarded {awarded} (paid {paid}) + returned {returned} "
            f"+ rake {rake}"
        )
