"""A scripted dealer and players, for the demo, the soak and the recovery tests.

The dealer looks at what the status display shows (the published state, a JSON dict) and
does what a dealer at the table would do next: opens betting, lets players wager, says no
more bets, draws cards from the shoe, closes insurance, collects losing insurance, pays and
clears the layout, shuffles when the display asks for it (and confirms SHUFFLED on the
console, then burns the card the display asks for). It only ever acts through the
table's devices (`TableHands`): the simulated shoe, the simulated chip sensors and console
buttons, or the console API of a table running in another process. It never touches the
game itself, and it knows nothing of the controller's code: only what the screen says.

Randomness comes from an injected `random.Random`, so a seeded run deals the same rounds.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from sim_hardware.soak_profile import SoakProfile, example_table

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


class ChipHands(Protocol):
    """A table with chip readers under the spots: the dealer stacks a spot to a
    value, and a supervisor accepts a payout difference on a box, with a reason."""

    def chips_to(self, spot: str, total: int) -> None: ...
    def accept_payout(self, box: int, reason: str) -> None: ...


MISTAKES = ("over", "under", "uncollected")
_TOTAL = re.compile(r"(soft |bust )?(\d+)")


def hard_total(text: str) -> tuple[int, bool]:
    """``"soft 17"`` -> (17, True); ``"blackjack"`` -> (21, False)."""
    if text == "blackjack":
        return 21, False
    match = _TOTAL.search(text)
    if match is None:
        return 0, False
    return int(match.group(2)), (match.group(1) or "").strip() == "soft"


class PaysByChips:
    """A scripted dealer's settlement by the chip readers, shared by the games' dealers:
    each spot stacked to what the display says it is owed (the view's ``payout_check``),
    except that at the rate ``mistake_rate`` the dealer overpays, underpays or leaves a
    losing wager on the spot; it counts what it did wrong (``mistakes_made``) and what
    the display then showed as a mismatch of that kind on that spot (``mistakes_caught``);
    a mismatch it did not make is a ``false_alarms``. Each mismatch is then put right by
    the dealer, or accepted by the supervisor, at random."""

    rng: random.Random
    hands: TableHands

    def _start_paying_by_chips(self, chips: ChipHands | None, mistakes: float) -> None:
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"a dealer's mistake rate is 0 to 1, not {mistakes}")
        self.chips = chips
        self.mistake_rate = mistakes
        self.mistakes_made = dict.fromkeys(MISTAKES, 0)
        self.mistakes_caught = dict.fromkeys(MISTAKES, 0)
        self.false_alarms = 0
        self._errs: dict[str, str] = {}  # spot -> the mistake made on it this round
        self._seen: set[str] = set()  # spots whose mismatch was counted this round
        self._paid = False

    def _settle_by_chips(self, chips: ChipHands, spots: list[dict[str, Any]]) -> str:
        """Pay and collect by the chip readers (the display's expected stacks), with the
        mistakes the rate asks for; then put right what the table shows, and NEXT."""
        if not self._paid:
            self._paid = True
            for entry in spots:
                if entry["state"] != "waiting":
                    continue
                target = self._stack(entry)
                if target is not None and target != entry["reads"]:
                    chips.chips_to(entry["spot"], target)
            made = len(self._errs)
            return f"pay and collect ({made} mistake{'' if made == 1 else 's'})"
        wrong = [e for e in spots if e["state"] == "mismatch"]
        for entry in wrong:
            spot = entry["spot"]
            if spot in self._seen:
                continue
            self._seen.add(spot)
            if self._errs.get(spot) == entry["kind"]:
                self.mistakes_caught[entry["kind"]] += 1
            else:
                self.false_alarms += 1
        if not wrong:
            self.hands.press("next")
            return "next round"
        entry = wrong[0]
        if self.rng.random() < 0.5:
            chips.chips_to(entry["spot"], entry["end"])
            return f"put {entry['spot']} right"
        chips.accept_payout(entry["box"], "scripted: the difference settled by hand")
        return f"supervisor accepts box {entry['box']}"

    def _stack(self, entry: dict[str, Any]) -> int | None:
        """What the dealer stacks the spot to (None: leaves it as it is)."""
        end = int(entry["end"])
        if self.rng.random() >= self.mistake_rate or (end == 0 and not entry["reads"]):
            return end
        kind = "uncollected" if end == 0 else self.rng.choice(("over", "under"))
        self._errs[entry["spot"]] = kind
        self.mistakes_made[kind] += 1
        if kind == "uncollected":
            return None  # the losing wager stays on the spot
        delta = self.rng.choice((1, 5, 10))
        return end + delta if kind == "over" else end - min(delta, end)


class BlackjackDealer(PaysByChips):
    """Plays New Zealand blackjack rounds through the table's devices, one action a step.

    ``boxes``: which boxes the players sit at; each round a random non-empty subset wagers.
    Players stand on 17 or more (soft 18), double on 10 or 11 against a weak dealer card
    now and then, and take insurance a third of the time: enough variety to walk every
    state of the machine, not a strategy.

    ``chips``: the table's chip readers; the dealer then pays and collects by
    the readers, stacking each spot to what the display says it is owed, except that at
    the rate ``mistakes`` it overpays, underpays or leaves a losing wager on the spot. It
    counts what it did wrong (``mistakes_made``) and what the display then showed as a
    mismatch of that kind on that spot (``mistakes_caught``); a mismatch it did not make
    is a ``false_alarms``. Each mismatch is then put right by the dealer, or accepted by
    the supervisor, at random.
    """

    def __init__(
        self,
        hands: TableHands,
        state: Callable[[], dict[str, Any]],
        rng: random.Random,
        *,
        boxes: tuple[int, ...] = (1, 2, 3),
        insurance_sensors: bool = True,
        chips: ChipHands | None = None,
        mistakes: float = 0.0,
    ) -> None:
        self._start_paying_by_chips(chips, mistakes)
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
            self._paid = False
            self._errs.clear()
            self._seen.clear()
            if self._played:
                self._played = False
                self.rounds_finished += 1
            if view.get("shuffle_due"):  # shuffle, and say so: NEXT is never "shuffled"
                self.hands.shuffle()
                self.hands.console("shuffled")
                return "shuffle the shoe, confirm SHUFFLED"
            if view.get("burns_due"):
                return f"burn {self.hands.draw()}"
            self.hands.press("next")
            return "open betting"
        if state == "betting":
            return self._betting(view)
        if state == "insurance":
            return self._insurance(view)
        if state == "boxes_acting":
            return self._play(view)
        if state == "insurance_settlement":
            return self._collect_insurance(view)
        if state == "settlement":
            if self.chips is not None and view.get("payout_check"):
                return self._settle_by_chips(self.chips, view["payout_check"])
            return self._settle()
        if state in ("no_more_bets", "initial_deal", "dealer_second", "dealer_drawing"):
            return f"deal {self.hands.draw()}"
        return f"wait ({state or 'no state yet'})"

    def seat(self, boxes: tuple[int, ...]) -> None:
        """Between rounds: the players sit at ``boxes`` from the next round on (the demo's
        rated players come and go). The chips of the last round come off the layout, and
        the next wagers are chosen afresh among ``boxes``."""
        for box in sorted(self._wagered):
            self.hands.wager(box, False)
        self._wagered = set()
        self.boxes = boxes

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
        if hand.get("doubled"):  # doubled (by this dealer or a stray DOUBLE): one card
            return f"deal {self.hands.draw()} to the doubled hand"
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

    def _collect_insurance(self, view: dict[str, Any]) -> str:
        if self.insurance_sensors:
            # the screen's insured boxes too: a table restarted mid-round remembers them,
            # a dealer script started with it does not
            shown = {
                b["number"] for b in view.get("boxes", ()) if any(b.get("insurance", {}).values())
            }
            for box in sorted(self._insured | shown):
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


class PokerDealer:
    """Deals New Zealand draw poker through the table's devices, one action a step: seats
    ``players`` players (keyed on the console), shuffles one deck into the shoe before every
    hand, starts the hand with NEXT, deals, and keys in the players' decisions (random and
    legal, from what the display offers) and their draws.

    Like a dealer who watches the cards go out, it remembers which card went to which seat
    (one at a time clockwise from the left of the button, 11.2; replacements to the seat
    drawing), so each draw names the cards thrown in, as a discard-rack reader would, and
    the controller follows every hand to the showdown. Players draw 0 to 3 cards, so one
    deck of 52 never runs out at six seats.
    """

    def __init__(
        self,
        hands: TableHands,
        state: Callable[[], dict[str, Any]],
        rng: random.Random,
        *,
        players: int = 6,
        stack: int = 200,
    ) -> None:
        self.hands = hands
        self.state = state
        self.rng = rng
        self.players = players
        self.stack = stack
        self.rounds_finished = 0
        self._played = False
        self._held: dict[int, list[str]] = {}
        self._dealt = 0
        self._coming: dict[int, int] = {}  # replacements still owed to each drawing seat

    @staticmethod
    def soak_profile() -> SoakProfile:
        """How tools/soak.py plays draw poker (sim_hardware/soak_profile.py): the example
        table, one deck; a card breaks a rule except in the deal and the draw (the
        machine's FACTS); a hand ends waiting or complete; a foreign card cites 11.2
        (controller.poker.phases.FOREIGN_CARD_RULE); what a hand paid back is its pots and the
        uncalled bets returned (HandSettled)."""
        bets = ("first_round", "final_round")
        return SoakProfile(
            write_config=example_table("poker-table.toml"),
            decks=1,
            no_card_states=("waiting", "button_placed", *bets, "showdown", "complete"),
            gate_open_states=("dealing", "drawing"),
            rest_states=("waiting", "complete"),
            foreign_card_rule="11.2",
            paid_out=_pots_and_returns,
        )

    def step(self) -> str:
        view = self.state().get("view") or {}
        state = view.get("state", "")
        if view.get("hold"):
            self.hands.supervisor("accept", "scripted dealer: the card stands")
            return "supervisor clears the hold"
        if state in ("waiting", "complete"):
            return self._between_hands(view)
        if state == "dealing":
            order = self._deal_order(view)
            seat = order[self._dealt % len(order)]
            card = self.hands.draw()
            self._held.setdefault(seat, []).append(card)
            self._dealt += 1
            return f"deal {card} to seat {seat}"
        if state in ("first_round", "final_round") and view.get("action"):
            return self._bet(view["action"])
        if state == "drawing" and view.get("draw"):
            return self._draw(view["draw"])
        return f"wait ({state or 'no state yet'})"

    @staticmethod
    def _deal_order(view: dict[str, Any]) -> list[int]:
        """Seats in the hand, clockwise from the left of the button."""
        seats = sorted(s["seat"] for s in view.get("seats", ()) if s["in_hand"])
        button = view.get("button") or 0
        return [s for s in seats if s > button] + [s for s in seats if s <= button]

    def _draw(self, draw: dict[str, Any]) -> str:
        seat = draw["drawer"]
        owed = draw.get("owed") or 0
        if owed:
            card = self.hands.draw()
            if owed > self._coming.get(seat, 0):  # more owed than the seat threw: a burn
                return f"burn {card}"
            self._coming[seat] -= 1
            self._held.setdefault(seat, []).append(card)
            return f"deal {card} to seat {seat}"
        held = self._held.get(seat, [])
        # a stray card (a misdeal the supervisor let stand) can leave this seat with fewer
        # cards than the script dealt it: never throw more than it holds
        thrown = self.rng.sample(held, min(len(held), self.rng.choice((0, 1, 2, 3))))
        for card in thrown:
            held.remove(card)
        self._coming[seat] = len(thrown)
        self.hands.console("discard", seat=seat, count=len(thrown), cards=thrown)
        return f"seat {seat} draws {len(thrown)}"

    def _between_hands(self, view: dict[str, Any]) -> str:
        if self._played:
            self._played = False
            self.rounds_finished += 1
        seated = {seat["seat"]: seat["stack"] for seat in view.get("seats", ())}
        for seat in range(1, self.players + 1):
            if seat not in seated:
                self.hands.console("sit", seat=seat, stack=self.stack)
                return f"seat {seat} sits down with {self.stack}"
            if seated[seat] < 10:
                self.hands.console("add_chips", seat=seat, chips=self.stack)
                return f"seat {seat} buys in again"
        self.hands.shuffle()
        self._held.clear()
        self._coming.clear()
        self._dealt = 0
        self.hands.press("next")
        self._played = True
        return "shuffle, next hand"

    def _bet(self, action: dict[str, Any]) -> str:
        seat = action["seat"]
        roll = self.rng.random()
        if roll < 0.2 and action.get("can_raise"):
            self.hands.console("raise_", seat=seat, amount=action["raise_min"])
            return f"seat {seat} raises {action['raise_min']}"
        if action.get("can_check"):
            self.hands.console("check", seat=seat)
            return f"seat {seat} checks"
        if roll < 0.85:
            self.hands.console("call", seat=seat)
            return f"seat {seat} calls {action['call']}"
        self.hands.console("fold", seat=seat)
        return f"seat {seat} folds"


def _pots_and_returns(payload: Mapping[str, Any]) -> int:
    """A poker hand's chips paid back (HandSettled): every pot awarded and every uncalled
    bet returned; with the rake they must make the chips in (11.4(d))."""
    awards = sum(int(award["amount"]) for award in payload["awards"])
    return awards + sum(int(amount) for _, amount in payload["returned"])
