"""The layout's sensors on a blackjack table: bet spots, insurance spots, double spots and
the discard rack, each reported as `SpotOccupied`, `SpotCleared` or `ChipsSensed`.

What a sensor change means depends on the round's state: a wager while betting is open
(4.2), insurance while it is open (9.2) or collected after the dealer's second card (9.5),
a wager or insurance moved when no wager may be (4.2, 9.2, 9.5: the table holds). A chip
reader's 0 is an empty spot. A part of the table
(`controller.blackjack.table.BlackjackTable`): a wager or insurance sensed goes through
the rules API (`controller.blackjack.actions`), a breach to the round's flow
(`controller.blackjack.dealing`), which holds the table.
"""

from __future__ import annotations

import logging

from controller.blackjack.actions import RulesActions, parse_spot
from controller.blackjack.dealing import Dealing
from controller.blackjack.hand import Box
from controller.blackjack.round import refuse
from controller.errors import IllegalAction
from controller.game.records import TABLE_VARIANT, ActionRefused, cite

__all__ = ["LayoutSensors"]

log = logging.getLogger(__name__)


class LayoutSensors:
    """Sensor changes on the layout, read against the rules of the round's state."""

    def __init__(self, flow: Dealing, rules: RulesActions) -> None:
        self._flow = flow
        self._rules = rules
        self.play = flow.play
        self.variants = flow.variants

    @property
    def state(self) -> str:
        return self._flow.phases.state

    def double_from_spots(self, box: int) -> None:
        """DOUBLE on a table with double-spot readers: the extra wagers are the chips
        sensed on the box's double spots, each up to its person's original wager."""
        extras = {p: a for (b, p), a in self.play.double_sensed.items() if b == box and a}
        if 1 not in extras:
            refuse(TABLE_VARIANT, f"no chips sensed on double{box}: place the double first")
        self._rules.verify_double(box)
        for person, amount in extras.items():
            self._rules.check_double_extra(box, person, amount)
        self._rules.double_extras(box, extras)

    def spot_changed(self, spot: str, occupied: bool, total: int | None) -> None:
        """A bet, insurance, double or discard-rack sensor changed (``total`` from chip
        readers; a reader's 0 is an empty spot)."""
        parsed = parse_spot(spot)
        if spot == "discard":
            if occupied and self.play.removals and self.variants.discard_rack_reader:
                self._flow.confirm_removal()
            return
        if parsed is None:
            log.info("ignored sensor %s", spot)
            return
        kind, number, person = parsed
        if not 1 <= number <= len(self.play.boxes):
            return
        box = self.play.boxes[number - 1]
        state = self.state
        if occupied and total is None and self.variants.chip_readers:
            return  # the chip reader's ChipsSensed says how much
        if total == 0:
            occupied = False
        held_from = self._flow.hold.held_from if state == "hold" else state
        if held_from == "settlement" and kind in ("box", "insurance", "double"):
            # paying and collecting (a HOLD in settlement too): each spot against what it
            # is owed (4.1)
            self._flow.spot_after_result(spot, occupied, total)
        try:
            if kind == "box":
                amount = (total if total is not None else self.variants.units_per_spot) * occupied
                if not (occupied and total is None and person in box.stakes):
                    self.play.sensed[number, person] = amount
                if state == "betting":
                    try:
                        self._rules.place_wager(number, person, amount)
                    except IllegalAction as exc:
                        self.play.refused_wagers[spot] = f"{cite(exc.rule)}: {exc.reason}"
                        raise
                    self.play.refused_wagers.pop(spot, None)
                elif (
                    state in _WAGERS_FROZEN
                    and amount != box.stakes.get(person, 0)
                    and not (occupied and total is None and person in box.stakes)
                    and not (not occupied and _settled(box, person))
                ):
                    self._flow.violate(
                        "4.2", f"wager on {spot} changed after betting closed", None,
                        f"the sensor on {spot}",
                    )  # fmt: skip
            elif kind == "double":
                self.play.double_sensed[number, person] = total if total is not None else 0
            elif kind == "insurance":
                self._insurance_spot(spot, box, person, occupied, total)
        except IllegalAction as exc:
            self._flow.out.append(ActionRefused(f"sensor {spot}", exc.rule, exc.reason))

    def _insurance_spot(
        self, spot: str, box: Box, person: int, occupied: bool, total: int | None
    ) -> None:
        state = self._flow.hold.held_from if self.state == "hold" else self.state
        if state == "insurance":
            if occupied:
                stake = box.stakes.get(person, 0)
                self._rules.insure(box.number, person, stake // 2 if total is None else total)
            else:
                self._rules.withdraw_insurance(box, person)
        elif state == "insurance_settlement" and not occupied:
            self._flow.insurance_collected(box, person)
        elif (
            not occupied
            and state in _INSURANCE_LIVE
            and person in box.insurance
            and person not in box.insurance_collected
            and not box.void
        ):
            # taken back before the dealer's second card: the wager stands until it is
            # paid (9.4) or collected (9.5); a supervisor decides
            box.insurance_off.add(person)
            self._flow.violate(
                "9.5",
                f"insurance on {spot} taken off the layout before the dealer's second card: "
                "an insurance wager placed under 9.2 stands until it is paid (9.4) or "
                "collected (9.5); after the supervisor, the dealer collects it from the "
                "player (INSURANCE CLOSED) if it loses",
                None,
                f"the sensor on {spot}",
            )
        elif occupied and person in box.insurance_off and state in _INSURANCE_LIVE:
            box.insurance_off.discard(person)  # put back on the layout
        elif occupied and state in _WAGERS_FROZEN:
            self._flow.violate(
                "9.2", f"insurance on {spot} placed after further cards", None,
                f"the sensor on {spot}",
            )  # fmt: skip


# Insurance is on the layout, not yet paid or collected (9.4, 9.5).
_INSURANCE_LIVE = frozenset({"boxes_acting", "dealer_second"})


_WAGERS_FROZEN = frozenset(
    {
        "no_more_bets",
        "initial_deal",
        "insurance",
        "boxes_acting",
        "dealer_second",
        "insurance_settlement",
        "dealer_drawing",
    }
)


def _settled(box: Box, person: int) -> bool:
    """A wager the dealer (or player) may clear mid-round: paid at once (10.1, 10.3a: "the
    player may remove the wager and winnings"), voided (9.6) or every hand bust."""
    return box.paid_at_once(person) or box.void or all(h.hard > 21 for h in box.hands)
