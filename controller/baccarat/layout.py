"""The baccarat layout's sensors: what each betting area's spot holds, and whether the
wagers are what the layout shows. A part of the table (`controller.baccarat.table`),
which reads each sensor change against the coup's state and calls this part.

On a table with ``spot_sensors`` or ``chip_readers`` (`BaccaratRules`) the layout backs
every wager (NSW Mini Baccarat 5: a wager is chips placed on the layout):

- a wager keyed on the console needs chips on its spot (presence), or exactly the chips
  read there (chip readers);
- NO MORE BETS is refused while a spot holds chips that are not its wager (a sensed
  wager the rules refused, chips nobody keyed);
- after the result the spots go to the kernel's settlement check
  (`controller.game.chips.SettlementCheck`, citing `SETTLEMENT_RULE`), with what each
  spot should hold (`controller.baccarat.spots.expected_spots`).

A table with neither setting keeps its wagers on the console alone: nothing here checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from controller.baccarat.rules import SETTLEMENT_RULE, WAGERS_RULE, BaccaratRules, Bet
from controller.baccarat.settlement import Payout, Stake
from controller.baccarat.spots import expected_spots, parse_spot, spot_name
from controller.baccarat.wagers import refuse
from controller.game.chips import ChipInventory, Sensing, SettlementCheck, money

__all__ = ["Layout"]


class Layout:
    """The spots' last readings, and the settlement check over them."""

    def __init__(self, rules: BaccaratRules) -> None:
        self.sensing = rules.spot_sensors or rules.chip_readers  # the layout backs wagers
        self.chip_readers = rules.chip_readers
        self.winnings = rules.winnings_paid
        self.amounts: dict[str, int] = {}  # spot -> chips read (0: empty); presence: 1 or 0
        self.refused: dict[str, str] = {}  # spot -> why the wager sensed there was refused
        sensing = None
        if rules.settlement_check and self.sensing:
            sensing = Sensing.CHIP_READERS if rules.chip_readers else Sensing.PRESENCE
        self.check = SettlementCheck(sensing, SETTLEMENT_RULE)
        text = rules.chip_inventory
        self.inventory = ChipInventory.parse(text) if text.strip() else None

    def sense(self, spot: str, occupied: bool, total: int | None) -> None:
        """A spot's sensor changed: the chips read (presence: 1 for chips, 0 for none)."""
        self.amounts[spot] = (total if total is not None else 1) if occupied else 0

    def reads(self, spot: str) -> int:
        return self.amounts.get(spot, 0)

    def verify_backed(self, box: int, bet: Bet, amount: int) -> None:
        """A wager of ``amount`` keyed on ``box``'s ``bet``: the layout must show it."""
        if not self.sensing:
            return
        spot = spot_name(bet, box)
        reads = self.reads(spot)
        if self.chip_readers and amount != reads:
            need = f"{money(amount)} needs those chips there" if amount else "take them off"
            refuse(
                WAGERS_RULE,
                f"{spot}'s chip reader reads {money(reads)}: a wager is the chips placed on "
                f"its spot, so {need}",
            )
        if not self.chip_readers and amount and not reads:
            refuse(
                WAGERS_RULE,
                f"no chips sensed on {spot}: a wager is chips placed on its spot; put the "
                "chips on the spot",
            )

    def verify_all_backed(self, bets: Sequence[Mapping[Bet, int]]) -> None:
        """NO MORE BETS: every spot holding chips holds its box's wager on that bet."""
        if not self.sensing:
            return
        for spot, reads in self.amounts.items():
            parsed = parse_spot(spot)
            if not reads or parsed is None or parsed[1] > len(bets):
                continue
            bet, box = parsed
            wager = bets[box - 1].get(bet, 0)
            if wager and (not self.chip_readers or wager == reads):
                continue
            why = self.refused.get(spot, "no wager was placed on it")
            refuse(
                WAGERS_RULE,
                f"chips on {spot} ({money(reads) if self.chip_readers else 'sensed'}) are not "
                f"a wager: {why}; take them off, or place the wager, before NO MORE BETS",
            )

    def start_check(self, stakes: Iterable[Stake], payouts: Sequence[Payout]) -> None:
        """The result is in (or the coup void): each staked spot that has a sensor, what
        it holds now, against what it should hold once paid and collected (presence: a
        covered spot counts as its stake, which is all presence can say)."""
        if self.check.sensing is None:
            return  # nothing checks the chips (the simulator's millions of coups: no work)
        readings = {}
        for box, bet, amount in stakes:
            spot = spot_name(bet, box)
            if spot in self.amounts:
                reads = self.amounts[spot]
                readings[spot] = reads if self.chip_readers else amount * bool(reads)
        self.check.start(expected_spots(payouts, self.winnings), readings)
