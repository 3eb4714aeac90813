"""The showdown, rule 11.4(c), and the awards of 11.4(d).

11.4(c): "the player being called shall then expose his/her cards. All remaining players
shall, if holding a hand of equal or higher value, expose their cards. ... The dealer
shall then announce the winning hand or hands."

Reading: "the player being called" is the last player who bet or raised in the final
round. When nobody bet in it (all checked, or everybody was all-in before the draw) there
is no one being called, and the first live player left of the last blind (the opener of
11.4(a)) exposes first. "All remaining players shall, if holding a hand of equal or higher
value, expose their cards": equal to or higher than the called hand, the one exposed
first, not than the best hand exposed so far (called kings; trips expose; aces expose
too, though below the trips). The others may muck. With side pots, this is done for each
pot among the players who can win it, against the hand of the first of them to expose
(the called player when they can win that pot), so a hand that can win a side pot is
never mucked.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from controller.cards import Card
from controller.errors import IllegalAction
from controller.poker.evaluator import HandValue, hand_value
from controller.poker.pots import Pot, Split, split_pot
from controller.poker.records import PotAward, ShowdownOrder
from controller.poker.seating import clockwise_from

SHOWDOWN_RULE = "11.4(c)"
SPLIT_RULE = "11.4(d)"


def exposure(
    contenders: Sequence[int], values: Mapping[int, HandValue], first: int, seats: int
) -> list[int]:
    """Who must expose, in order, among ``contenders``: ``first`` (or the next one
    clockwise), then each later hand equal to or higher than that called hand (11.4(c))."""
    ordered = [s for s in clockwise_from(first, seats) if s in contenders]
    called = values[ordered[0]]
    return [ordered[0], *(seat for seat in ordered[1:] if values[seat] >= called)]


def settle_showdown(
    pots: Sequence[Pot],
    hands: Mapping[int, Sequence[Card]],
    called: int,
    seats: int,
    chip_unit: int,
) -> tuple[ShowdownOrder, list[Split], list[PotAward]]:
    """The exposure order, and each pot split among its best hands (11.4(c)-(d))."""
    values = {seat: hand_value(cards) for seat, cards in hands.items()}
    must: list[int] = []
    splits: list[Split] = []
    awards: list[PotAward] = []
    for index, pot in enumerate(pots):
        for seat in exposure(pot.eligible, values, called, seats):
            if seat not in must:
                must.append(seat)
        top = max(values[s] for s in pot.eligible)
        winners = [s for s in pot.eligible if values[s] == top]
        split = split_pot(index, pot.amount, winners, hands, chip_unit)
        splits.append(split)
        awards.append(
            PotAward(
                index,
                pot.amount,
                tuple(winners),
                split.shares,
                split.odd_chip_seat,
                split.odd_chip,
                top.category.value if len(pot.eligible) > 1 else "uncontested",
            )
        )
    live = [s for s in clockwise_from(called, seats) if s in values]
    main_winners = awards[0].winners if awards else ()
    order = ShowdownOrder(
        called=called,
        must_expose=tuple(must),
        may_muck=tuple(s for s in live if s not in must),
        winners=main_winners,
        winning_hand=awards[0].hand if awards else "",
    )
    return order, splits, awards


def verify_request_to_see(
    showdown_seats: Sequence[int], seated: Collection[int], by_seat: int, seat: int | None
) -> None:
    """11.4(c): "Any player at the table may request to see any or all hands" involved in
    the final showdown: refused when there was none, the asker is not at the table, or
    the seat asked for had no hand in it."""
    if not showdown_seats:
        raise IllegalAction(
            SHOWDOWN_RULE, "no final showdown in this hand: there are no hands to see"
        )
    if by_seat not in seated:
        raise IllegalAction(
            SHOWDOWN_RULE, f"seat {by_seat} has no player: any player at the table may ask"
        )
    if seat is not None and seat not in showdown_seats:
        raise IllegalAction(
            SHOWDOWN_RULE,
            f"seat {seat} has no hand in the final showdown "
            f"(seats {', '.join(map(str, showdown_seats))})",
        )


CHOP_RULE = "11.4(e)"


def refuse_chop() -> None:
    """11.4(e): never a division of the pot by agreement."""
    raise IllegalAction(
        CHOP_RULE,
        "the pot shall not be divided by the agreement of two or more players; "
        "each hand shall be played to a conclusion",
    )
