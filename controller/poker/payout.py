"""The end of a poker hand in money: the pots (side pots for all-ins, 11.4(d)), the rake,
who is called (11.4(c)), and paying the stacks with the chips checked to balance.

Pure functions over the hand's figures; `controller.poker.table` calls them and keeps the
results. Chips in equal chips out plus the rake, or `BalanceError`
(docs/architecture.md: money balances).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from controller.errors import BalanceError, IllegalAction
from controller.poker.hand import PokerHand
from controller.poker.pots import Pot, Split, build_pots, check_balance, split_pot, take_rake
from controller.poker.records import HandSettled, PotAward, ShowdownOrder
from controller.poker.rules import PokerRules
from controller.poker.seating import Positions, clockwise_from
from controller.poker.showdown import settle_showdown

__all__ = ["Awarded", "called_seat", "hand_awards", "pay", "pay_hand", "pots_and_rake"]

# A hand's pots as paid: each pot's split, the chips returned uncalled, the rake, the awards.
Awarded = tuple[Sequence[Split], Mapping[int, int], int, tuple[PotAward, ...]]


def pots_and_rake(
    contributed: Mapping[int, int],
    folded: Collection[int],
    rules: PokerRules,
    ended_first_round: bool,
) -> tuple[list[Pot], dict[int, int], int]:
    """The pots (main and side), the chips returned uncalled, and the rake taken (none
    when the hand ended in the first round and the table says so)."""
    pots, returns = build_pots(contributed, folded)
    rake = 0
    if not (rules.no_rake_first_round and ended_first_round):
        pots, rake = take_rake(pots, rules.rake_percent, rules.rake_cap, rules.chip_unit)
    return pots, returns, rake


def called_seat(
    aggressor: int | None, positions: Positions | None, seats: int, live: Sequence[int]
) -> int:
    """11.4(c) "the player being called": the last bettor of the final round, or the
    opener (first live seat left of the last blind) when nobody bet."""
    if aggressor is not None:
        return aggressor
    if positions is None:
        raise IllegalAction("11.4(c)", "no button")
    start = positions.blinds[-1] % seats + 1
    return next(s for s in clockwise_from(start, seats) if s in live)


def pay(
    stacks: dict[int, int],
    *,
    hand_no: int,
    contributed: Mapping[int, int],
    stacks_at_start: int,
    splits: Sequence[Split],
    returns: Mapping[int, int],
    rake: int,
    awards: tuple[PotAward, ...],
    void: bool = False,
) -> HandSettled:
    """Pay ``stacks`` the pots' shares and the returned chips; the record of the hand."""
    check_balance(contributed, splits, returns, rake)
    for split in splits:
        for seat, chips in split.shares:
            stacks[seat] += chips
    for seat, chips in returns.items():
        stacks[seat] += chips
    if sum(stacks.values()) + rake != stacks_at_start:
        raise BalanceError(
            f"hand {hand_no}: stacks {sum(stacks.values())} + rake {rake} != "
            f"{stacks_at_start} at the start"
        )
    return HandSettled(
        hand_no, sum(contributed.values()), awards, tuple(sorted(returns.items())), rake, void
    )


def hand_awards(
    hand: PokerHand, rules: PokerRules, positions: Positions | None, uncontested: int | None
) -> tuple[ShowdownOrder | None, Awarded]:
    """The end of ``hand``: the showdown's order (None when one player is left,
    ``uncontested``), each pot's split, the chips returned uncalled, and the rake."""
    ended_first = hand.ended_first_round
    pots, returns, rake = pots_and_rake(hand.contributed, hand.folded, rules, ended_first)
    if uncontested is not None:
        splits = [split_pot(i, p.amount, [uncontested], {}, 1) for i, p in enumerate(pots)]
        awards = [
            PotAward(i, s.amount, (uncontested,), s.shares, None, 0, "uncontested")
            for i, s in enumerate(splits)
        ]
        return None, (splits, returns, rake, tuple(awards))
    live = hand.live()
    called = called_seat(hand.aggressor, positions, rules.seats, live)
    hands = {s: hand.hands[s] for s in live}
    order, splits, awards = settle_showdown(pots, hands, called, rules.seats, rules.chip_unit)
    return order, (splits, returns, rake, tuple(awards))


def pay_hand(
    stacks: dict[int, int],
    hand: PokerHand,
    hand_no: int,
    awarded: Awarded,
    void: bool = False,
) -> HandSettled:
    """`pay` ``hand``'s pots (``awarded``: splits, returns, rake, awards)."""
    splits, returns, rake, awards = awarded
    return pay(
        stacks, hand_no=hand_no, contributed=hand.contributed,
        stacks_at_start=hand.stacks_at_start, splits=splits, returns=returns, rake=rake,
        awards=awards, void=void,
    )  # fmt: skip
