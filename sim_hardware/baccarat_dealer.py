"""A scripted baccarat dealer and players, for the demo, the soak and the recovery tests.

Like `sim_hardware.dealer.BlackjackDealer`, it looks only at what the status display shows
(the published state's ``view``) and does what a dealer at the table would do next:
shuffles a new shoe and confirms SHUFFLED on the console, burns the cards the display asks
for, keys the players' wagers on the console, calls NO MORE BETS, draws each card the
display says is due (the Table of Play is the controller's business: the dealer just deals
what the screen asks for), collects a box's commission now and then (and every box's before
the shoe ends), and presses NEXT. It acts only through the table's devices (`TableHands`)
and knows nothing of the controller's code. Randomness comes from the injected `random.Random`.

With chip readers (``chips``, `ChipHands`) the players' wagers are chips stacked on the
betting areas' spots (``banker3``, ``player_pair3``: docs/baccarat.md), read by the
readers, and the dealer pays and collects by them (`PaysByChips`: at the rate
``mistakes`` an overpay, an underpay or a losing wager left on the spot, counted as made
and as caught). Before the next coup's wagers the players take their chips off the spots.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from sim_hardware.dealer import ChipHands, PaysByChips, TableHands
from sim_hardware.soak_profile import SoakProfile, example_table

__all__ = ["BaccaratDealer"]

_DEALING = ("burn", "initial_deal", "player_third", "banker_third")
_MAIN = ("banker", "player", "tie")
_SIDE = ("player_pair", "banker_pair")


class BaccaratDealer(PaysByChips):
    """Deals baccarat coups through the table's devices, one action a step. ``boxes``:
    where players sit; each coup some of them wager on the Banker, the Player or a Tie,
    and now and then on a pair."""

    def __init__(
        self,
        hands: TableHands,
        state: Callable[[], dict[str, Any]],
        rng: random.Random,
        *,
        boxes: tuple[int, ...] = (1, 2, 3, 4, 5),
        chips: ChipHands | None = None,
        mistakes: float = 0.0,
    ) -> None:
        self._start_paying_by_chips(chips, mistakes)
        self._left: set[str] = set()  # spots the last coup left chips on (by the readers)
        self._leaving: object = None  # the coup NEXT was pressed for, by the readers
        self.hands = hands
        self.state = state
        self.rng = rng
        self.boxes = boxes
        self.rounds_finished = 0
        self._counted: object = None  # the coup last counted as finished
        self._to_place: list[tuple[int, str, int]] | None = None
        self._placed: list[tuple[int, str, int]] = []

    @staticmethod
    def soak_profile() -> SoakProfile:
        """How tools/soak.py plays baccarat (sim_hardware/soak_profile.py): the example
        table of 8 decks; a card in the shuffle, betting or settlement breaks a rule (the
        phases' FACTS), one is due in the burn and the deal; a coup ends in betting or, at
        the shoe's end, the shuffle; a foreign card cites the shoe's composition
        (controller.baccarat.rules.CARDS_RULE)."""
        return SoakProfile(
            write_config=example_table("baccarat-table.toml"),  # wagers keyed on the console
            decks=8,
            no_card_states=("shuffle", "betting", "settlement"),
            gate_open_states=_DEALING,
            rest_states=("betting", "shuffle"),
            foreign_card_rule="NSW Baccarat 3.1",
        )

    def step(self) -> str:
        """Do the next thing the table needs; returns what was done, in words."""
        published = self.state()
        view = published.get("view") or {}
        state = view.get("state", "")
        if self._leaving is not None and state not in ("settlement", ""):
            self._count(self._leaving)  # NEXT was taken: the chips matched (or were accepted)
            self._leaving = None
        if state == "hold":
            self.hands.supervisor("burn_card", "scripted dealer: burn the card, play on")
            return "supervisor: burn the card out of turn"
        if state == "shuffle":
            self.hands.shuffle()
            self.hands.console("shuffled")
            return "shuffle the new shoe, confirm SHUFFLED"
        if state in _DEALING:
            due = (view.get("due") or {}).get("hand", "card")
            return f"{due}: {self.hands.draw()}"
        if state == "betting":
            return self._betting(view)
        if state == "settlement":
            return self._settle(view, published.get("round"))
        return f"wait ({state or 'no state yet'})"

    def _wagers(self, view: dict[str, Any]) -> list[tuple[int, str, int]]:
        rules = view.get("rules", {})
        unit = rules.get("chip_unit", 1)
        low, high = rules.get("minimum", unit), rules.get("maximum", unit)
        wagers = []
        for box in self.boxes:
            if self.rng.random() < 0.3:
                continue
            amount = max(low, min(high, unit * self.rng.choice((1, 2, 5, 10)) * low))
            amount -= amount % unit
            wagers.append((box, self.rng.choice(_MAIN), amount))
            if self.rng.random() < 0.2:
                wagers.append((box, self.rng.choice(_SIDE), low))
        return wagers or [(self.boxes[0], "banker", low)]

    def _betting(self, view: dict[str, Any]) -> str:
        chips = self.chips
        if self._to_place is None:
            self._to_place = self._wagers(view)
            self._placed = []
            self._paid = False
            self._errs.clear()
            self._seen.clear()
            if chips is not None and self._left:
                wagered = {f"{bet}{box}" for box, bet, _ in self._to_place}
                for spot in sorted(self._left - wagered):
                    chips.chips_to(spot, 0)
                self._left.clear()
                return "the players take their chips off the layout"
        if self._to_place:
            box, bet, amount = self._to_place.pop(0)
            if chips is not None:  # the spot's chip reader reads the wager
                chips.chips_to(f"{bet}{box}", amount)
            else:
                self.hands.console("place_wager", box=box, bet=bet, amount=amount)
            self._placed.append((box, bet, amount))
            return f"box {box} wagers {amount} on the {bet}"
        shown = {(b["number"], bet) for b in view.get("boxes", ()) for bet in b.get("bets", {})}
        missing = [w for w in self._placed if (w[0], w[1]) not in shown]
        if missing:  # not taken in (a restart lost them): again
            self._to_place = missing
            return "wagers again"
        self._to_place = None
        self.hands.press("no_more_bets")
        return "no more bets"

    def _settle(self, view: dict[str, Any], coup: object) -> str:
        shoe = view.get("shoe") or {}
        last = shoe.get("last_coup")
        now = view.get("coup")
        ending = isinstance(last, int) and isinstance(now, int) and now >= last
        before_end = shoe.get("commission_before_end") or () if ending else ()
        if before_end:  # the shoe cannot end with commission owed: collect it first
            box = before_end[0]["box"]
            self.hands.console("collect_commission", box=box)
            return f"collect box {box}'s commission before the shoe ends"
        owing = [b["number"] for b in view.get("boxes", ()) if b.get("commission_to_collect")]
        if owing and self.rng.random() < 0.25:
            box = self.rng.choice(owing)
            self.hands.console("collect_commission", box=box)
            return f"collect box {box}'s commission"
        spots = view.get("payout_check")
        if self.chips is not None and spots:
            self._left.update(entry["spot"] for entry in spots)
            done = self._settle_by_chips(self.chips, spots)
            if done == "next round":  # counted once the table takes it (a mismatch refuses it)
                self._leaving = coup
            return done
        self._count(coup)
        self.hands.press("next")
        return "pay and collect, next coup"

    def _count(self, coup: object) -> None:
        if coup != self._counted:  # a NEXT pressed again (a power cut, a refusal): one coup
            self._counted = coup
            self.rounds_finished += 1
