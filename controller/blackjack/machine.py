"""The New Zealand no-hole-card blackjack round, on a strict `transitions` machine.

The states make the round's order visible (`controller.blackjack.phases`, with what each
state means at the table; the diagram in docs/blackjack-machine.md is generated from its
`STATES` and `TRANSITIONS`)::

    round_over -> betting -> no_more_bets -> initial_deal -> [insurance] -> boxes_acting
      -> dealer_second -> [insurance_settlement] -> [dealer_drawing] -> settlement
      -> round_over                      and from any of them -> hold -> back, or void

`BlackjackTable.handle` is the single entry for the controller's event loop: it takes a
`controller.ports.Event` and returns commands (gate, lamps) and frozen records (payouts
due, violations...). The rules API (`can_double`, `verify_double`, `double`, ...) lives in
`controller.blackjack.actions`, the layout's sensors in `controller.blackjack.layout`. A
card always goes somewhere: a card that arrives when the rules allow none is recorded as
a `Violation`, the shoe gate locks and the table holds until `supervisor_clear` (DESIGN
"Runtime model": the controller cannot undo physics).

Few triggers per round (about eight) and no copies on the card path: the simulator plays
a million rounds through this class.
"""

from __future__ import annotations

import logging

from controller.blackjack.hand import Box
from controller.blackjack.layout import LayoutSensors
from controller.blackjack.phases import FACTS, STATES, TRANSITIONS
from controller.blackjack.records import (
    ActionRefused,
    CardBurned,
    HoldDecision,
    Output,
    RemovalConfirmed,
    Violation,
)
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.blackjack.shoe import ShuffleTracker
from controller.cards import ACE, Card
from controller.errors import IllegalAction
from controller.game.records import HOLD_PROCEDURE
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleButton,
    Event,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShoeStatusChanged,
    SpotCleared,
    SpotOccupied,
    UnlockShoe,
)
from controller.shoe_audit import BLACKJACK_RULE, ShoeAudit, reader_hold

__all__ = ["STATES", "TRANSITIONS", "BlackjackTable"]

log = logging.getLogger(__name__)


class BlackjackTable(LayoutSensors):
    """One blackjack table's round, driven by device events. Not thread-safe by design:
    only the controller thread touches it (DESIGN "Runtime model")."""

    def __init__(self, variants: Variants | None = None) -> None:
        super().__init__(variants or Variants())
        self.shuffle = ShuffleTracker()
        self.audit = ShoeAudit(self.variants.decks, BLACKJACK_RULE)  # foreign cards (3.3)
        self._kept = False  # re-routing cards a supervisor kept: counted once already
        self._lamps: dict[Lamp, LampPattern] = {}
        self._cut_level = False
        self._door_level = False
        self._gate_locked: bool | None = None
        self._sync()

    # --- the event loop's entry ---------------------------------------------------------

    def handle(self, event: Event) -> list[Output]:
        """Apply one device event; return the commands and records it produced."""
        if type(event) is CardDrawn:
            self.card_drawn(event.card, event.tag)
        elif type(event) is ButtonPressed:
            self.press(event.button)
        elif type(event) is SpotOccupied:
            self.spot_changed(event.spot, True, None)
        elif type(event) is SpotCleared:
            self.spot_changed(event.spot, False, None)
        elif type(event) is ChipsSensed:
            self.spot_changed(event.spot, True, event.total)
        elif type(event) is ShoeStatusChanged:
            # the shoe reports a level; the cutting card comes out on its rising edge
            seen = event.cut_card_seen
            if seen and not self._cut_level:
                self.cutting_card_out()
            self._cut_level = seen
            # a reload: the shoe's door opened and closed, with a shuffle due (7.1)
            reloaded = self._door_level and not event.door_open
            if reloaded and self.shuffle.due and self.can_shuffled():
                self._confirm_shuffle("shoe")
            self._door_level = event.door_open
        elif (held := reader_hold(event, self._gate_locked is False)) is not None:
            message, by = held  # an unknown tag, or a reader lost with the gate open
            self._violate(BLACKJACK_RULE, message, None, by)
        return self.take_outputs()

    def take_outputs(self) -> list[Output]:
        """The commands and records produced since the last call (direct API users)."""
        self._sync()
        out, self._out = self._out, []
        return out

    def _sync(self) -> None:
        """Emit the gate and lamp commands that differ from what the devices were told."""
        facts = FACTS[self.state]
        burn = self.shuffle.burns_due > 0 and facts.burn
        locked = (not facts.gate_open and not burn) or bool(self.play.removals)
        if locked is not self._gate_locked:
            self._gate_locked = locked
            self._out.append(LockShoe() if locked else UnlockShoe())
        want = facts.lamps
        if self.play.removals:
            want = {Lamp.DEALER_ACTION: LampPattern.STEADY}
        lamps = self._lamps
        for lamp in Lamp:
            pattern = want.get(lamp, LampPattern.OFF)
            if lamps.get(lamp) is not pattern:
                lamps[lamp] = pattern
                self._out.append(SetLamp(lamp, pattern))

    @property
    def gate_locked(self) -> bool | None:
        """The shoe's gate as last commanded (None: not yet)."""
        return self._gate_locked

    @property
    def awaiting_removal(self) -> bool:
        """A blackjack paid at once still has its cards on the layout (10.1, 10.3b)."""
        return bool(self.play.removals)

    # --- cards ----------------------------------------------------------------------------

    def card_drawn(self, card: Card, tag: str | None = None) -> None:
        """Route a card that left the shoe to the hand the dealing order says (or HOLD)."""
        state = self.state
        if self.shuffle.burns_due and FACTS[state].burn and not self._kept:
            self._burn(card, tag)
            return
        self.shuffle.cards_this_round += 1
        foreign = None if self._kept else self.audit.see(card, tag)
        if foreign is not None:
            self._violate(foreign.rule, foreign.message, card)
        elif self.play.removals:
            message = "a card before the paid blackjack's cards were removed"
            self._violate(self.play.removals[0][1], message, card)
        elif state == "boxes_acting":
            hand = self.play.current
            if hand is None:  # pragma: no cover - boxes_acting always has a current hand
                self._violate("4.1", "a card with no hand to receive it", card)
                return
            hand.add(card)
            if hand.hard > 21 or hand.doubled:
                hand.done = True
            self._advance()
        elif state == "initial_deal":
            self._deal_initial(card)
        elif state == "dealer_second" or state == "dealer_drawing":
            self.play.dealer.add(card)
            self._after_dealer_card()
        elif state == "no_more_bets":
            self._phases.fire("start_deal")
            self._deal_initial(card)
        else:
            breaks = FACTS[state].card_breaks
            if breaks is None:  # pragma: no cover - every state without a card rule is routed
                raise IllegalAction("4.1", f"no route for a card in {state}")
            rule, message = breaks
            if state == "round_over" and self.shuffle.due:
                rule, message = "7.1", f"a card before the shuffle due under {self.shuffle.due}"
            self._violate(rule, message, card)

    def _burn(self, card: Card, tag: str | None = None) -> None:
        """The burn after the shuffle (surrounding rules): counted by the shoe audit (a
        foreign card is one all the same), journaled, in no hand."""
        self.shuffle.burns_due -= 1
        self._out.append(CardBurned(str(card), self.shuffle.burns_due))
        foreign = self.audit.see(card, tag)
        if foreign is not None:
            self._violate(foreign.rule, f"{foreign.message} (the burn card)", None, "the shoe")

    def _deal_initial(self, card: Card) -> None:
        """Rule: one card to each box left to right, the dealer's first, then the seconds."""
        target = self.play.deal_order[self.play.deal_pos]
        self.play.deal_pos += 1
        if target is None:
            self.play.dealer.add(card)
        else:
            target.hands[0].add(card)
        if self.play.deal_pos == len(self.play.deal_order):
            if self.play.dealer.cards[0].rank == ACE:
                self._phases.fire("open_insurance")
            else:
                self._begin_play()

    def _begin_play(self) -> None:
        """Boxes act. Against a 2-9 every blackjack is paid 3 to 2 and its cards removed
        before any further card is dealt (10.1), so before the first box acts."""
        self._phases.fire("start_play")
        if self.play.dealer.cards[0].rank < 10:
            for box in self.play.in_play:
                hand = box.hands[0]
                if hand.blackjack and not box.settled_at_once:
                    hand.done = True
                    self._pay_at_once(box, Outcome.BLACKJACK, "10.1")
        self.play.box_index = 0
        self.play.hand_index = 0
        self._advance()

    def _advance(self) -> None:
        """Find the next hand that needs the dealer or a card, paying 10.1 blackjacks on
        the way; when none is left, wait for the dealer's second card."""
        boxes = self.play.in_play
        while self.play.box_index < len(boxes):
            box = boxes[self.play.box_index]
            hands = box.hands
            while self.play.hand_index < len(hands):
                hand = hands[self.play.hand_index]
                if not hand.done:
                    if len(hand.cards) < 2:
                        self.play.current = hand
                        return
                    if hand.blackjack:  # paid under 10.1, or held until the dealer
                        hand.done = True  # hand is complete (10.2)
                        continue
                    if hand.hard >= 21 or hand.total == 21 or hand.split_aces:
                        hand.done = True
                    else:
                        self.play.current = hand
                        return
                self.play.hand_index += 1
            self.play.box_index += 1
            self.play.hand_index = 0
        self.play.current = None
        self._phases.fire("await_dealer_card")

    def _pay_at_once(self, box: Box, outcome: Outcome, rule: str) -> None:
        """Pay a blackjack now (3:2 under 10.1, 1:1 under 10.3a); cards must be removed."""
        for person, stake in box.stakes.items():
            won = stake if outcome is Outcome.EVEN_MONEY else self._bj_win(stake)
            self._record_payout(
                Payout(box.number, 1, person, Kind.WAGER, outcome, stake, stake, won, 0, rule, True)
            )
        box.settled_at_once = True
        self.play.removals.append((box, rule))

    def confirm_removal(self) -> RemovalConfirmed:
        """The paid blackjack's cards are in the discard rack (10.1 / 10.3b)."""
        if not self.play.removals:
            self._refuse("10.1", "no blackjack is waiting to be removed")
        box, rule = self.play.removals.pop(0)
        record = RemovalConfirmed(box.number, rule)
        self._out.append(record)
        return record

    def _after_dealer_card(self) -> None:
        """After the dealer's second card: collect losing insurance first (9.5)."""
        dealer = self.play.dealer
        if self.state == "dealer_second" and not dealer.blackjack and self.play.losing_insurance():
            self._phases.fire("collect_insurance")
            return
        self._dealer_next()

    def _dealer_next(self) -> None:
        dealer = self.play.dealer
        total = dealer.total
        if total > 17 or (total == 17 and not (self.variants.dealer_hits_soft_17 and dealer.soft)):
            self._settle()
        elif self.state != "dealer_drawing":
            self._phases.fire("dealer_draws")

    def insurance_collected(self, box: Box, person: int | None = None) -> None:
        """A losing insurance wager on ``box`` (``person``'s, or all) is off the layout
        (9.5); the round goes on once every losing insurance is."""
        for insurer, amount in box.insurance.items():
            if insurer not in box.insurance_collected and person in (None, insurer):
                box.insurance_collected.add(insurer)
                self._record_payout(
                    Payout(box.number, 0, insurer, Kind.INSURANCE, Outcome.LOSE,
                           amount, 0, 0, amount, "9.5", True)
                )  # fmt: skip
        if self.state == "insurance_settlement" and not self.play.losing_insurance():
            self._dealer_next()

    # --- holds ----------------------------------------------------------------------------

    def _violate(
        self, rule: str, message: str, card: Card | None = None, by: str = "the shoe"
    ) -> None:
        """Record the violation, lock the gate and hold the table (DESIGN Runtime model).
        ``by``: who raised it (the shoe's card, a button, a sensor), for the HOLD banner."""
        state = self.state
        violation = Violation(
            rule, message, None if card is None else str(card), state=state, by=by
        )
        log.warning("HOLD: rule %s: %s (card %s)", rule, message, violation.card)
        self._hold.note(violation, card, state)
        self._out.append(violation)
        if state != "hold":
            self._hold.held_from = state
            self._phases.fire("raise_hold")

    def _resume_with_cards(self, decision: HoldDecision) -> None:
        """Go back where the table was and let the held cards stand (KEEP_CARD)."""
        cards, self._hold.cards = self._hold.cards, []
        self._phases.fire(f"resume_{self._hold.held_from}")
        current = self.play.current
        if self.state == "boxes_acting" and current is not None and current.done:
            self._advance()  # the acting box's hand was voided (9.6): the next box acts
        elif self.state == "insurance_settlement" and not self.play.losing_insurance():
            self._dealer_next()  # the insurance left was a voided box's (9.6)
        self._kept = True
        try:
            self._route_kept(cards, decision)
        finally:
            self._kept = False

    def _route_kept(self, cards: list[tuple[Card, str]], decision: HoldDecision) -> None:
        """Route each kept card as the dealing order says. A card judged in the state it
        is kept into broke that state's rule and the supervisor let it stand, so the step
        it skipped (closing bets or insurance, collecting insurance, removing paid cards)
        is taken as done. Any other card is checked against the rules of the state it is
        kept into, whatever path it came by (a card past the dealer's second while
        insurance is uncollected is a 9.5 violation even after an earlier hold)."""
        for card, judged_in in cards:
            if self.state == "hold":  # an earlier kept card broke a rule: this one waits
                self._hold.cards.append((card, judged_in))
                continue
            state = self.state
            self.shuffle.cards_this_round -= 1  # counted when it first arrived
            if judged_in == state:
                if state == "betting":
                    self._close_bets_now()
                elif state == "insurance":
                    self._close_insurance()
                elif state == "insurance_settlement":
                    for box in self.play.in_play:
                        self.insurance_collected(box)
                while self.play.removals:
                    self.confirm_removal()
            if FACTS[self.state].gate_open or judged_in != state:
                self.card_drawn(card)
            else:
                log.info("kept card %s belongs to no hand (decision %s)", card, decision)
                self.shuffle.cards_this_round += 1

    # --- console and layout ---------------------------------------------------------------

    def press(self, button: ConsoleButton) -> None:
        """A console button. A refused press changes nothing and returns an `ActionRefused`."""
        try:
            self._press(button)
        except IllegalAction as exc:
            self._out.append(ActionRefused(f"{button.value} button", exc.rule, exc.reason))

    def _acting_box(self, button: str) -> int:
        box = self.current_box
        if box is None:
            if self.play.removals:
                self._refuse(self.play.removals[0][1], "remove the paid blackjack's cards first")
            self._refuse("4.1", f"{button}: no box is acting (the round is in {self.state})")
        return box.number

    def _press(self, button: ConsoleButton) -> None:
        state = self.state
        if button is ConsoleButton.NEXT:
            if self.play.removals and not self.variants.discard_rack_reader:
                self.confirm_removal()
            elif state == "boxes_acting":
                self.stand(self._acting_box("NEXT"))
            elif state == "insurance":
                self._close_insurance()
            elif state == "settlement":
                self._end_round()
            elif state == "round_over":
                self._new_round()
            else:
                self._refuse("4.1", f"NEXT has nothing to do in {state}")
        elif button is ConsoleButton.DOUBLE:
            number = self._acting_box("DOUBLE")
            if self.variants.double_spots:
                self._double_from_spots(number)
            else:
                self.double(number)
        elif button is ConsoleButton.SPLIT:
            self.split(self._acting_box("SPLIT"))
        elif button is ConsoleButton.NO_MORE_BETS:
            self.no_more_bets()
        elif button is ConsoleButton.INSURANCE_CLOSED:
            if state == "insurance":
                self._close_insurance()
            elif state != "insurance_settlement":
                self._refuse("9.5", "no insurance is open or waiting to be collected")
            elif self.variants.insurance_sensors:
                off = [b for b in self.play.in_play if b.insurance_off - b.insurance_collected]
                if not off:
                    self._refuse("9.5", "the insurance sensors say when insurance is collected")
                for box in off:  # taken off the layout early: the dealer collected it
                    for person in sorted(box.insurance_off):
                        self.insurance_collected(box, person)
            else:
                for box in self.play.in_play:
                    self.insurance_collected(box)
        elif button is ConsoleButton.EVEN_MONEY:
            chosen = self._next_even_money()
            if chosen is None:
                self._refuse("10.3", "no blackjack against a dealer ace awaits even money")
            self.even_money(*chosen)
        elif button is ConsoleButton.VOID_HAND:
            if state in ("round_over", "betting", "settlement", "hold"):
                self._refuse("9.6", f"no hand to void in {state}")
            self._violate(
                "9.6",
                "the dealer asked to void a hand: a supervisor decides (the round, or one box)",
                None,
                "the VOID HAND button",
            )
        elif button is ConsoleButton.SUPERVISOR:
            self._refuse(HOLD_PROCEDURE, "a supervisor clears a hold by name and decision (PIN)")
