"""A scripted dealer and players, for the demo, the soak and the recovery tests.

The dealer looks at what the status display shows (the published state, a JSON dict) and
does what a dealer at the table would do next: opens betting, lets players wager, says no
more bets, draws cards from the shoe, closes insurance, collects losing insurance, pays and
clears the layout, shuffles when the display asks for it. It only ever acts through the
table's devices (`TableHands`): the simulated shoe, the simulated chip sensors and console
buttons, or the console API of a table running in another process. It never touches the
game itself, and it knows nothing of the controller's code: only what the screen says.

Randomness comes from an injected `random.Random`, so a seeded run deals the same rounds.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)


class TableHands(Protocol):
    """What the scripted dealer can do at the table. ``senses_layout``: chips put on or
    taken off the layout are seen by sensors (else wagers are keyed on the console)."""

    senses_layout: bool

    def draw(self) -> str: ...
    def shuffle(self) -> None: ...
    def press(self, button: str) -> None: ...
    def wager(self, box: int, on: bool) -> None: ...
    def insurance(self, box: int, on: bool) -> None: ...
    def console(self, action: str, **args: Any) -> None: ...
    def supervisor(self, decision: str, reason: str) -> None: ...


_TOTAL = re.compile(r"(soft |bust )?(\d+)")


def hard_total(text: str) -> tuple[int, bool]:
    """``"soft 17"`` -> (17, True); ``"blackjack"`` -> (21, False)."""
    if text == "blackjack":
        return 21, False
    match = _TOTAL.search(text)
    if match is None:
        return 0, False
    return int(match.group(2)), (match.group(1) or "").strip() == "soft"


class BlackjackDealer:
    """Plays New Zealand blackjack rounds through the table's devices, one action a step.

    ``boxes``: which boxes the players sit at; each round a random non-empty subset wagers.
    Players stand on 17 or more (soft 18), double on 10 or 11 against a weak dealer card
    now and then, and take insurance a third of the time: enough variety to walk every
    state of the machine, not a strategy.
    """

    def __init__(
        self,
        hands: TableHands,
        state: Callable[[], dict[str, Any]],
        rng: random.Random,
        *,
        boxes: tuple[int, ...] = (1, 2, 3),
        insurance_sensors: bool = True,
    ) -> None:
        self.hands = hands
        self.state = state
        self.rng = rng
        self.boxes = boxes
        self.insurance_sensors = insurance_sensors
        self.rounds_finished = 0
        self._wagered: set[int] = set()
        self._insured: set[int] = set()
        self._insurance_offered = False
        self._played = False

    def step(self) -> str:
        """Do the next thing the table needs; returns what was done, in words."""
        view = self.state().get("view") or {}
        state = view.get("state", "")
        action = view.get("next_action", "")
        if state == "hold":
            self.hands.supervisor("keep_card", "scripted dealer: the card stands")
            return "supervisor clears the hold"
        if action.startswith("Pay box"):
            self.hands.press("next")  # paid, and the cards are in the discard rack
            return "blackjack paid at once, cards removed"
        if state == "round_over":
            if self._played:
                self._played = False
                self.rounds_finished += 1
            if view.get("shuffle_due"):
                self.hands.shuffle()
            self.hands.press("next")
            return "open betting"
        if state == "betting":
            return self._betting(view)
        if state == "insurance":
            return self._insurance(view)
        if state == "boxes_acting":
            return self._play(view)
        if state == "insurance_settlement":
            return self._collect_insurance()
        if state == "settlement":
            return self._settle()
        if state in ("no_more_bets", "initial_deal", "dealer_second", "dealer_drawing"):
            return f"deal {self.hands.draw()}"
        return f"wait ({state or 'no state yet'})"

    def _betting(self, view: dict[str, Any]) -> str:
        wagered = {box["number"] for box in view.get("boxes", ())}
        if not self._wagered:
            chosen = [b for b in self.boxes if self.rng.random() < 0.7] or [self.boxes[0]]
            for box in chosen:
                self.hands.wager(box, True)
            self._wagered = set(chosen)
            self._insured.clear()
            self._insurance_offered = False
            return f"wagers on boxes {sorted(chosen)}"
        missing = self._wagered - wagered
        if missing:  # not taken in (a restart lost them, or the sensor is slow): again
            for box in sorted(missing):
                self.hands.wager(box, True)
            return f"wagers again on boxes {sorted(missing)}"
        self.hands.press("no_more_bets")
        self._played = True
        return "no more bets"

    def _insurance(self, view: dict[str, Any]) -> str:
        if not self._insurance_offered:
            self._insurance_offered = True
            takers = [b for b in sorted(self._wagered) if self.rng.random() < 0.33]
            for box in takers:
                self.hands.insurance(box, True)
            self._insured = set(takers)
            if takers:
                return f"insurance on boxes {takers}"
        self.hands.press("next")
        return "close insurance"

    def _play(self, view: dict[str, Any]) -> str:
        hand = next(
            (h for box in view.get("boxes", ()) for h in box["hands"] if h.get("acting")), None
        )
        buttons = view.get("buttons", {})
        if hand is None:
            self.hands.press("next")
            return "stand"
        if len(hand["cards"]) < 2:
            return f"deal {self.hands.draw()} to the split hand"
        total, soft = hard_total(hand["total"])
        if buttons.get("split") and self.rng.random() < 0.3:
            self.hands.press("split")
            return "split"
        if buttons.get("double") and total in (10, 11) and self.rng.random() < 0.5:
            self.hands.press("double")
            return "double"
        if total < 17 or (soft and total < 18):
            return f"hit: {self.hands.draw()}"
        self.hands.press("next")
        return f"stand on {hand['total']}"

    def _collect_insurance(self) -> str:
        if self.insurance_sensors:
            for box in sorted(self._insured):
                self.hands.insurance(box, False)
            self._insured.clear()
            return "collect losing insurance"
        self.hands.press("insurance_closed")
        return "collect losing insurance (console)"

    def _settle(self) -> str:
        if (self._wagered or self._insured) and self.hands.senses_layout:
            for box in sorted(self._insured):
                self.hands.insurance(box, False)
            for box in sorted(self._wagered):
                self.hands.wager(box, False)
            self._wagered.clear()
            self._insured.clear()
            return "pay and collect"
        self._wagered.clear()
        self._insured.clear()
        self.hands.press("next")
        return "end of round"
