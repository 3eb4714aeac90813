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
winnings away at once: that spot has no end state to check. Splits and doubles stand on
the same spot as the wager they came from, so each person's spot sums their hands.
"""

from __future__ import annotations

from controller.blackjack.round import Round
from controller.blackjack.settlement import Kind
from controller.game.chips import SpotExpected, WinningsPaid

__all__ = ["expected_spots", "spot_name", "spot_readings"]


def spot_name(kind: Kind, box: int, person: int) -> str:
    """The layout's name of a person's spot (``box3``, ``box3.p2``, ``insurance3``)."""
    base = f"{'insurance' if kind is Kind.INSURANCE else 'box'}{box}"
    return base if person == 1 else f"{base}.p{person}"


def _label(kind: Kind, box: int, person: int, people: int) -> str:
    who = f" (p{person})" if people > 1 else ""
    return f"Box {box}{who}{' insurance' if kind is Kind.INSURANCE else ''}"


def expected_spots(
    play: Round, winnings: WinningsPaid, double_spots: bool = False
) -> list[SpotExpected]:
    """Every spot the round's settlement leaves something to check on. ``double_spots``:
    a double's chips stand on the box's double spot, not on the box spot the reader under
    it weighs, so a box that doubled is not checked (rather than called short)."""
    sums: dict[tuple[Kind, int, int], list[int]] = {}
    at_once: set[tuple[int, int]] = set()
    for p in play.payouts:
        if p.at_once:
            if p.kind is Kind.WAGER:
                at_once.add((p.box, p.person))
            continue  # paid at once, or a losing insurance collected under 9.5
        base_owed = sums.setdefault((p.kind, p.box, p.person), [0, 0])
        base_owed[0] += p.returned
        base_owed[1] += p.won
    out = []
    for (kind, box, person), (base, owed) in sums.items():
        if kind is Kind.WAGER and (box, person) in at_once:
            continue
        if (
            kind is Kind.WAGER
            and double_spots
            and any(h.doubled for h in play.boxes[box - 1].hands)
        ):
            continue
        if winnings is WinningsPaid.HANDED_OVER:
            owed = 0
        people = len(play.boxes[box - 1].stakes)
        out.append(
            SpotExpected(
                spot_name(kind, box, person), box, base, owed, _label(kind, box, person, people)
            )
        )
    return out


def spot_readings(play: Round, insurance_sensors: bool) -> dict[str, int]:
    """What each spot held when the result came: the box spots as their sensors last
    reported (`Round.sensed`); an insurance spot still in play holds its wager (where the
    insurance spots have sensors). A spot with no sensor has no reading: it is not checked."""
    readings = {
        spot_name(Kind.WAGER, box, person): amount for (box, person), amount in play.sensed.items()
    }
    if insurance_sensors:
        for b in play.in_play:
            for person, amount in b.insurance.items():
                if person not in b.insurance_collected:
                    readings[spot_name(Kind.INSURANCE, b.number, person)] = amount
    return readings
