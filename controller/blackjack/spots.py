"""What each blackjack spot should hold once the dealer has paid and collected,
for the kernel's settlement check (`controller.game.chips`).

Read from the round's payouts (`controller.blackjack.settlement.Payout`), one spot per
person's wager (``box3``, ``box3.p2``) and per person's insurance (``insurance3``):

- a win (4.1) or blackjack paid at settlement (10.2): the stake stays and the winnings are
  added beside it (or handed over: `WinningsPaid.HANDED_OVER`, the stake alone is checked);
- a stand-off (4.1), a voided hand (9.6), an extra wager a dealer blackjack returns: the
  stake (or the part returned) stays, nothing added;
- a loss: the spot is emptied (collected);
- insurance at settlement: won 2 to 1 against a dealer blackjack (9.4), or void (9.6); a
  losing insurance was collected before the dealer drew on (9.5) and is not checked again.

A person paid at once (3 to 2 under 10.1, even money under 10.3(a)) may take the wager and
winnings away at once: that spot has no end state to check. Splits stand on the same spot
as the wager they came from, so each person's spot sums their hands; so do doubles, unless
the layout has double spots (``double3``, ``double3.p2``, each under a chip reader): then a
doubled hand's extra wager and its share of the result stand there, the original wager's
on the box spot. A dealer blackjack takes the original wager first (the variant's
`DealerBlackjackTakes`), so what it returns of a doubled hand is the extra, on the double
spot.
"""

from __future__ import annotations

from controller.blackjack.round import Round
from controller.blackjack.settlement import Kind, Payout
from controller.errors import BalanceError
from controller.game.chips import SpotExpected, WinningsPaid

__all__ = ["double_spot_name", "expected_spots", "spot_name", "spot_readings"]

_DOUBLE = "double"  # the key of a double spot's sums, beside the payouts' kinds


def spot_name(kind: Kind, box: int, person: int) -> str:
    """The layout's name of a person's spot (``box3``, ``box3.p2``, ``insurance3``)."""
    base = f"{'insurance' if kind is Kind.INSURANCE else 'box'}{box}"
    return base if person == 1 else f"{base}.p{person}"


def double_spot_name(box: int, person: int) -> str:
    """The layout's name of a person's double spot (``double3``, ``double3.p2``)."""
    return f"double{box}" if person == 1 else f"double{box}.p{person}"


def _label(kind: Kind | str, box: int, person: int, people: int) -> str:
    who = f" (p{person})" if people > 1 else ""
    what = {Kind.INSURANCE: " insurance", _DOUBLE: " double"}.get(kind, "")
    return f"Box {box}{who}{what}"


def _on_double_spot(play: Round, p: Payout) -> tuple[int, int]:
    """What of a doubled hand's ``p`` stands on the double spot: (returned, won). The
    original wager is taken first; the winnings are even money on each part (a doubled
    hand is never a blackjack), so they split exactly, or `BalanceError`."""
    extra = play.boxes[p.box - 1].hands[p.hand - 1].extra.get(p.person, 0)
    if not extra:
        return 0, 0
    won, rest = divmod(p.won * extra, p.stake)
    if rest:
        raise BalanceError(f"box {p.box} hand {p.hand}: {p.won} won on {p.stake} does not "
                           f"split between the wager and the double of {extra}")  # fmt: skip
    return min(p.returned, extra), won


def expected_spots(
    play: Round, winnings: WinningsPaid, double_spots: bool = False
) -> list[SpotExpected]:
    """Every spot the round's settlement leaves something to check on. ``double_spots``:
    a double's chips stand on the box's double spot, not on the box spot the reader under
    it weighs, so a box that doubled is not checked (rather than called short)."""
    sums: dict[tuple[Kind | str, int, int], list[int]] = {}
    at_once: set[tuple[int, int]] = set()
    for p in play.payouts:
        if p.at_once:
            if p.kind is Kind.WAGER:
                at_once.add((p.box, p.person))
            continue  # paid at once, or a losing insurance collected under 9.5
        returned, won = p.returned, p.won
        if double_spots and p.kind is Kind.WAGER and p.hand:
            on_double = _on_double_spot(play, p)
            if any(on_double) or play.boxes[p.box - 1].hands[p.hand - 1].doubled:
                double = sums.setdefault((_DOUBLE, p.box, p.person), [0, 0])
                double[0] += on_double[0]
                double[1] += on_double[1]
                returned, won = returned - on_double[0], won - on_double[1]
        base_owed = sums.setdefault((p.kind, p.box, p.person), [0, 0])
        base_owed[0] += returned
        base_owed[1] += won
    out = []
    for (kind, box, person), (base, owed) in sums.items():
        if kind is not Kind.INSURANCE and (box, person) in at_once:
            continue
        if winnings is WinningsPaid.HANDED_OVER:
            owed = 0
        people = len(play.boxes[box - 1].stakes)
        name = (
            double_spot_name(box, person) if kind == _DOUBLE else spot_name(Kind(kind), box, person)
        )
        out.append(SpotExpected(name, box, base, owed, _label(kind, box, person, people)))
    return out


def spot_readings(
    play: Round, insurance_sensors: bool, double_spots: bool = False
) -> dict[str, int]:
    """What each spot held when the result came: the box spots as their sensors last
    reported (`Round.sensed`); an insurance spot still in play holds its wager (where the
    insurance spots have sensors). A spot with no sensor has no reading: it is not checked."""
    readings = {
        spot_name(Kind.WAGER, box, person): amount for (box, person), amount in play.sensed.items()
    }
    if double_spots:  # each under a chip reader: its last total
        for (box, person), amount in play.double_sensed.items():
            readings[double_spot_name(box, person)] = amount
    if insurance_sensors:
        for b in play.in_play:
            for person, amount in b.insurance.items():
                if person not in b.insurance_collected:
                    readings[spot_name(Kind.INSURANCE, b.number, person)] = amount
    return readings
