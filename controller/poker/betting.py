"""One betting round: whose turn, what they may do, and the wager limits of rule 11.5.

The first round (11.2(c)) starts left of the last blind; the final round (11.4(a)) is
opened by "the first active player left of the last blind", who "shall open the
betting, check or fold"; then "players in a clockwise direction ... shall call, raise or
fold" (11.2(c), 11.4(b)). A check is a call of nothing.

Wagers (11.5(a)): every bet and every raise (the chips added above the call) lies between
the minimum and maximum on the table notice, in whole chip units, except an all-in for
less (table stakes). At most ``raise_cap`` bets and raises per round (cardroom practice,
configurable; an all-in below the minimum does not count). Simplification: any raise,
even an all-in for less than the minimum, gives the players who already acted the
chance to act again.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.errors import IllegalAction
from controller.poker.records import ActionTaken
from controller.poker.rules import PokerRules

WAGER_RULE = "11.5"
STAKES_RULE = "11.5"  # table stakes (surrounding rules): you wager only what is in front of you


class BettingRound:
    """Mutable state of one round; shares the hand's stacks, contributions and sets."""

    def __init__(
        self,
        rules: PokerRules,
        order: Sequence[int],
        stacks: dict[int, int],
        contributed: dict[int, int],
        folded: set[int],
        all_in: set[int],
        bets: dict[int, int],
        rule: str,
        opener_rule: str | None = None,
    ) -> None:
        self.rules = rules
        self.order = list(order)
        self.stacks = stacks
        self.contributed = contributed
        self.folded = folded
        self.all_in = all_in
        self.bets = bets
        self.rule = rule
        self.opener_rule = opener_rule
        self.current_bet = max(bets.values(), default=0)
        self.raises = 0
        self.aggressor: int | None = None
        self.acted = False
        self.pending = {s for s in self.order if s not in all_in and s not in folded}
        if len(self.pending) == 1:
            (only,) = self.pending
            if self.to_call(only) == 0:
                self.pending.clear()
        self.to_act: int | None = None
        self._advance(-1)

    # --- queries -------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.to_act is None

    def live(self) -> list[int]:
        return [s for s in self.order if s not in self.folded]

    def to_call(self, seat: int) -> int:
        return min(self.current_bet - self.bets.get(seat, 0), self.stacks[seat])

    def raise_bounds(self, seat: int) -> tuple[int, int]:
        """(min, max) chips a raise by ``seat`` may add above the call (11.5(a))."""
        room = self.stacks[seat] - self.to_call(seat)
        return min(self.rules.minimum_wager, room), min(self.rules.maximum_wager, room)

    def turn_rule(self) -> str:
        if self.opener_rule is not None and not self.acted:
            return self.opener_rule
        return self.rule

    # --- verify ----------------------------------------------------------------------------

    def verify_turn(self, seat: int) -> None:
        if self.to_act is None:
            raise IllegalAction(self.rule, "the betting round is over")
        if seat != self.to_act:
            raise IllegalAction(
                self.turn_rule(), f"seat {seat} acts out of turn: seat {self.to_act} to act"
            )

    def verify_check(self, seat: int) -> None:
        self.verify_turn(seat)
        if self.to_call(seat):
            raise IllegalAction(
                self.turn_rule(), f"seat {seat} cannot check: {self.to_call(seat)} to call"
            )

    def verify_call(self, seat: int) -> None:
        self.verify_turn(seat)
        if not self.to_call(seat):
            raise IllegalAction(self.turn_rule(), f"seat {seat} has nothing to call: check")

    def verify_fold(self, seat: int) -> None:
        self.verify_turn(seat)

    def verify_raise(self, seat: int, amount: int) -> None:
        self.verify_turn(seat)
        cap = self.rules.raise_cap
        if cap is not None and self.raises >= cap:
            raise IllegalAction(WAGER_RULE, f"the raise cap of {cap} is reached this round")
        if not any(s not in self.all_in and s != seat for s in self.live()):
            raise IllegalAction(self.rule, "no opponent is left who could call a raise")
        unit = self.rules.chip_unit
        if amount <= 0 or amount % unit:
            raise IllegalAction(WAGER_RULE, f"a raise is a positive multiple of {unit}")
        total = self.to_call(seat) + amount
        if total > self.stacks[seat]:
            raise IllegalAction(
                STAKES_RULE, f"seat {seat} has {self.stacks[seat]} in front: table stakes"
            )
        all_in = total == self.stacks[seat]
        low, high = self.rules.minimum_wager, self.rules.maximum_wager
        if amount > high or (amount < low and not all_in):
            raise IllegalAction(
                WAGER_RULE,
                f"a wager of {amount} is outside the table notice's {low} to {high}",
            )

    # --- actions (the caller verified) ------------------------------------------------------

    def _put(self, seat: int, chips: int) -> bool:
        self.stacks[seat] -= chips
        self.bets[seat] = self.bets.get(seat, 0) + chips
        self.contributed[seat] = self.contributed.get(seat, 0) + chips
        if self.stacks[seat] == 0:
            self.all_in.add(seat)
            return True
        return False

    def check(self, seat: int) -> ActionTaken:
        rule = self.turn_rule()
        self.pending.discard(seat)
        self.acted = True
        self._advance(self.order.index(seat))
        return ActionTaken(seat, "check", 0, self.current_bet, False, rule)

    def call(self, seat: int) -> ActionTaken:
        rule = self.turn_rule()
        chips = self.to_call(seat)
        all_in = self._put(seat, chips)
        self.pending.discard(seat)
        self.acted = True
        self._advance(self.order.index(seat))
        return ActionTaken(seat, "call", chips, self.current_bet, all_in, rule)

    def fold(self, seat: int) -> ActionTaken:
        rule = self.turn_rule()
        self.folded.add(seat)
        self.pending.discard(seat)
        self.acted = True
        if len(self.live()) <= 1:
            self.pending.clear()
        self._advance(self.order.index(seat))
        return ActionTaken(seat, "fold", 0, self.current_bet, False, rule)

    def raise_(self, seat: int, amount: int) -> ActionTaken:
        rule = self.turn_rule()
        name = "raise" if self.current_bet else "bet"
        chips = self.to_call(seat) + amount
        all_in = self._put(seat, chips)
        self.current_bet = self.bets[seat]
        if amount >= self.rules.minimum_wager:
            self.raises += 1
        self.aggressor = seat
        self.pending = {
            s for s in self.order if s != seat and s not in self.folded and s not in self.all_in
        }
        self.acted = True
        self._advance(self.order.index(seat))
        return ActionTaken(seat, name, chips, self.current_bet, all_in, rule)

    def _advance(self, index: int) -> None:
        """The next seat clockwise after ``order[index]`` that still has to act."""
        if not self.pending:
            self.to_act = None
            return
        n = len(self.order)
        for step in range(1, n + 1):
            seat = self.order[(index + step) % n]
            if seat in self.pending:
                self.to_act = seat
                return
        self.to_act = None
