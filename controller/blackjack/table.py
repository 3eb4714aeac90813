"""The New Zealand no-hole-card blackjack table, composed of parts.

The states make the round's order visible (`controller.blackjack.phases`, with what each
state means at the table; the diagram in docs/blackjack-machine.md is generated from its
`STATES` and `TRANSITIONS`)::

    round_over -> betting -> no_more_bets -> initial_deal -> [insurance] -> boxes_acting
      -> dealer_second -> [insurance_settlement] -> [dealer_drawing] -> settlement
      -> round_over                      and from any of them -> hold -> back, or void

`BlackjackTable` is a `controller.game.table.GameTable`: the base keeps the round's private
machine, the shared HOLD (`controller.game.hold.Hold`: the violations, the cards out under
it; `violate`, `begin_clear`) and the one list of outputs the parts append to, and works
out the gate and lamps from the state's facts (`signals`, overridden here for the burn and
the paid blackjacks' removals). It holds its parts and calls them; none calls back up
(the flow raises a HOLD through the table's `violate`, handed to it):

- the round's data, `controller.blackjack.round.Round` (boxes, stakes, the dealer's hand,
  insurance, payouts, the dealing order, the paid blackjacks' removals);
- the round's flow, `controller.blackjack.dealing.Dealing` (each card to its hand, whose
  turn, paying at once, the dealer's hand, settlement through `controller.blackjack.book`
  and the pure `controller.blackjack.settlement`, voids, the HOLD), on its private machine;
- the rules API, `controller.blackjack.actions.RulesActions` (``can_double``,
  ``verify_double``, ``double``... in pokerkit's style), offered on the table as is;
- the layout's sensors, `controller.blackjack.layout.LayoutSensors`.

`BlackjackTable.handle` is the single entry for the controller's event loop: it takes a
`controller.ports.Event` and returns frozen records (payouts due, violations...) then the
commands (gate, lamps) of the state reached. A card always goes somewhere: a card that
arrives when the rules allow none is recorded as a `Violation`, the shoe gate locks and the
table holds until `supervisor_clear` (docs/architecture.md: the controller cannot undo
physics). The status display (`controller.blackjack.display`) reads the table's read-only
queries.

Few triggers per round (about eight) and no copies on the card path: the simulator plays
a million rounds through this class.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from controller.blackjack.actions import RulesActions
from controller.blackjack.dealing import Dealing
from controller.blackjack.hand import Box, Hand
from controller.blackjack.layout import LayoutSensors
from controller.blackjack.phases import FACTS, STATES, TRANSITIONS, Phases
from controller.blackjack.records import (
    ActionRefused,
    Doubled,
    EvenMoneyElected,
    HoldCleared,
    HoldDecision,
    InsuranceTaken,
    RemovalConfirmed,
    RoundSettled,
    ShuffleConfirmed,
    SplitMade,
    Stood,
    Violation,
    WagerChanged,
    WagerPlaced,
)
from controller.blackjack.round import Round, refuse
from controller.blackjack.rules import FOREIGN_CARD_RULE, Variants
from controller.blackjack.settlement import Payout
from controller.blackjack.shoe import ShuffleTracker
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.chips import ChipInventory, MismatchAccepted, SettlementCheck, check_chips
from controller.game.contract import Output
from controller.game.records import HOLD_PROCEDURE
from controller.game.table import GameTable
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipIdsSensed,
    ChipsSensed,
    ConsoleButton,
    Event,
    Lamp,
    LampPattern,
    ShoeStatusChanged,
    SpotCleared,
    SpotOccupied,
)
from controller.shoe_audit import ShoeAudit, reader_hold

__all__ = ["STATES", "TRANSITIONS", "BlackjackTable"]

log = logging.getLogger(__name__)

# A paid blackjack's cards to remove (10.1, 10.3b): the gate locks and only the dealer's
# lamp is lit, whatever the state says. One mapping, so the devices are told it once.
_REMOVAL_LAMPS: Mapping[Lamp, LampPattern] = {Lamp.DEALER_ACTION: LampPattern.STEADY}


class BlackjackTable(GameTable):
    """One blackjack table's round, driven by device events. Not thread-safe by design:
    only the controller thread touches it (docs/architecture.md)."""

    FACTS = FACTS

    def __init__(self, variants: Variants | None = None) -> None:
        self.variants = variants = variants or Variants()
        self.shuffle = ShuffleTracker()
        self.audit = ShoeAudit(variants.decks, FOREIGN_CARD_RULE)  # foreign cards (3.3)
        self._play = Round(variants.boxes)
        phases = Phases()  # the round's machine, private: its triggers skip the rules
        super().__init__(phases, "round_over")  # the HOLD, the outputs, the gate and lamps
        flow = self._flow = Dealing(
            variants, self._play, phases, self._hold, self.violate, self.shuffle, self.audit,
            self._out,
        )  # fmt: skip
        self._rules = RulesActions(flow)
        self._layout = LayoutSensors(flow, self._rules)
        self._cut_level = False
        self._door_level = False
        text = variants.chip_inventory
        self._inventory = ChipInventory.parse(text) if text.strip() else None

    # --- the event loop's entry ---------------------------------------------------------

    def handle(self, event: Event) -> list[Output]:
        """Apply one device event; return the commands and records it produced."""
        if type(event) is CardDrawn:
            self._flow.card_drawn(event.card, event.tag)
        elif type(event) is ButtonPressed:
            self.press(event.button)
        elif type(event) is SpotOccupied:
            self._layout.spot_changed(event.spot, True, None)
        elif type(event) is SpotCleared:
            self._layout.spot_changed(event.spot, False, None)
        elif type(event) is ChipsSensed:
            self._layout.spot_changed(event.spot, True, event.total)
        elif type(event) is ChipIdsSensed:  # each chip against the inventory
            chips = tuple(zip(event.chip_ids, event.values, strict=True))
            self._out.extend(check_chips(self._inventory, event.spot, chips))
        elif type(event) is ShoeStatusChanged:
            # the shoe reports a level; the cutting card comes out on its rising edge
            seen = event.cut_card_seen
            if seen and not self._cut_level:
                self._flow.cutting_card_out()
            self._cut_level = seen
            # a reload: the shoe's door opened and closed, with a shuffle due (7.1)
            reloaded = self._door_level and not event.door_open
            if reloaded and self.shuffle.due and self._rules.can_shuffled():
                self._rules.confirm_shuffle("shoe")
            self._door_level = event.door_open
        elif (held := reader_hold(event, self.gate_locked is False)) is not None:
            message, by = held  # an unknown tag, or a reader lost with the gate open
            self.violate(FOREIGN_CARD_RULE, message, None, by)
        return self.take_outputs()

    def signals(self) -> tuple[bool, Mapping[Lamp, LampPattern]]:
        """The state's gate and lamps, but the gate also opens for the burn due after a
        shuffle, and a paid blackjack's cards to remove lock it and light only the
        dealer's lamp (10.1, 10.3b)."""
        facts = FACTS[self._phases.state]
        if self._play.removals:
            return False, _REMOVAL_LAMPS
        burn = self.shuffle.burns_due > 0 and facts.burn
        return facts.gate_open or burn, facts.lamps

    # --- read-only queries: the status display (controller.blackjack.display) reads these

    @property
    def round(self) -> int:
        """The round's number, counted from the table's start."""
        return self._play.number

    @property
    def boxes(self) -> list[Box]:
        return self._play.boxes

    @property
    def dealer(self) -> Hand:
        return self._play.dealer

    @property
    def payouts(self) -> list[Payout]:
        """The round's payouts so far (paid at once, then at settlement)."""
        return self._play.payouts

    @property
    def wagers_in(self) -> int:
        return self._play.wagers_in

    @property
    def settled(self) -> RoundSettled | None:
        """The round's settlement, once the dealer's hand is complete (or void)."""
        return self._play.settled

    @property
    def refused_wagers(self) -> dict[str, str]:
        """Spot -> why the chips on it are not a wager."""
        return self._play.refused_wagers

    @property
    def violations(self) -> list[Violation]:
        """The violations holding the table, in the order raised."""
        return self._hold.violations

    @property
    def boxes_in_play(self) -> tuple[Box, ...]:
        """The boxes wagered on this round, left to right."""
        return tuple(self._play.in_play)

    @property
    def deal_order(self) -> tuple[Box | None, ...]:
        """The initial deal's order: each box, the dealer (None), each box again."""
        return tuple(self._play.deal_order)

    @property
    def deal_position(self) -> int:
        """How far the initial deal has gone in `deal_order`."""
        return self._play.deal_pos

    @property
    def removals(self) -> tuple[tuple[Box, str], ...]:
        """Boxes whose cards must come off before any further card, with the rule."""
        return tuple(self._play.removals)

    @property
    def awaiting_removal(self) -> bool:
        """A blackjack paid at once still has its cards on the layout (10.1, 10.3b)."""
        return bool(self._play.removals)

    @property
    def current_box(self) -> Box | None:
        """The box whose turn it is while boxes act, else None."""
        return self._flow.current_box

    @property
    def current_hand(self) -> Hand | None:
        return self._flow.current_hand

    @property
    def payout_check(self) -> SettlementCheck:
        """The spots checked against the settlement by the chips, read-only for renderers."""
        return self._flow.check

    # --- devices: the shoe, the layout, the console ---------------------------------------

    def card_drawn(self, card: Card, tag: str | None = None) -> None:
        """A card left the shoe: to the hand the dealing order says (or HOLD)."""
        self._flow.card_drawn(card, tag)

    def cutting_card_out(self) -> None:
        """The shoe reports the cutting card (7.1b at once, or 7.1c at the round's end)."""
        self._flow.cutting_card_out()

    def spot_changed(self, spot: str, occupied: bool, total: int | None) -> None:
        """A bet, insurance, double or discard-rack sensor changed."""
        self._layout.spot_changed(spot, occupied, total)

    def press(self, button: ConsoleButton) -> None:
        """A console button. A refused press changes nothing and returns an `ActionRefused`."""
        try:
            self._press(button)
        except IllegalAction as exc:
            self._out.append(ActionRefused(f"{button.value} button", exc.rule, exc.reason))

    def _acting_box(self, button: str) -> int:
        box = self.current_box
        if box is None:
            if self._play.removals:
                refuse(self._play.removals[0][1], "remove the paid blackjack's cards first")
            refuse("4.1", f"{button}: no box is acting (the round is in {self.state})")
        return box.number

    def _press(self, button: ConsoleButton) -> None:
        flow, rules = self._flow, self._rules
        state = flow.phases.state
        if button is ConsoleButton.NEXT:
            if self._play.removals and not self.variants.discard_rack_reader:
                flow.confirm_removal()
            elif state == "boxes_acting":
                rules.stand(self._acting_box("NEXT"))
            elif state == "insurance":
                rules.close_insurance()
            elif state == "settlement":
                flow.end_round()
            elif state == "round_over":
                flow.new_round()
            else:
                refuse("4.1", f"NEXT has nothing to do in {state}")
        elif button is ConsoleButton.DOUBLE:
            number = self._acting_box("DOUBLE")
            if self.variants.double_spots:
                self._layout.double_from_spots(number)
            else:
                rules.double(number)
        elif button is ConsoleButton.SPLIT:
            rules.split(self._acting_box("SPLIT"))
        elif button is ConsoleButton.NO_MORE_BETS:
            rules.no_more_bets()
        elif button is ConsoleButton.INSURANCE_CLOSED:
            if state == "insurance":
                rules.close_insurance()
            elif state != "insurance_settlement":
                refuse("9.5", "no insurance is open or waiting to be collected")
            elif self.variants.insurance_sensors:
                off = [b for b in self._play.in_play if b.insurance_off - b.insurance_collected]
                if not off:
                    refuse("9.5", "the insurance sensors say when insurance is collected")
                for box in off:  # taken off the layout early: the dealer collected it
                    for person in sorted(box.insurance_off):
                        flow.insurance_collected(box, person)
            else:
                for box in self._play.in_play:
                    flow.insurance_collected(box)
        elif button is ConsoleButton.EVEN_MONEY:
            chosen = rules.next_even_money()
            if chosen is None:
                refuse("10.3", "no blackjack against a dealer ace awaits even money")
            rules.even_money(*chosen)
        elif button is ConsoleButton.VOID_HAND:
            if state in ("round_over", "betting", "settlement", "hold"):
                refuse("9.6", f"no hand to void in {state}")
            self.violate(
                "9.6",
                "the dealer asked to void a hand: a supervisor decides (the round, or one box)",
                None,
                "the VOID HAND button",
            )
        elif button is ConsoleButton.SUPERVISOR:
            refuse(HOLD_PROCEDURE, "a supervisor clears a hold by name and decision (PIN)")

    # --- the rules API (controller.blackjack.actions), offered as it is ------------------

    def verify_place_wager(self, box: int, person: int, amount: int) -> None:
        self._rules.verify_place_wager(box, person, amount)

    def can_place_wager(self, box: int, person: int, amount: int) -> bool:
        return self._rules.can_place_wager(box, person, amount)

    def place_wager(self, box: int, person: int, amount: int) -> WagerPlaced:
        """Set ``person``'s wager on ``box`` (0 withdraws it) while betting is open (4.2)."""
        return self._rules.place_wager(box, person, amount)

    def change_wager(self, who: str, box: int, person: int, amount: int) -> WagerChanged:
        """A supervisor sets a wager other than what the spot's sensor reported (4.2)."""
        return self._rules.change_wager(who, box, person, amount)

    def override_limit(
        self, who: str, box: int, person: int, amount: int, reason: str = ""
    ) -> WagerChanged:
        """A supervisor lets a wager outside the table's limits stand, saying why
        (journaled with `LimitOverridden`, an alarm to the pit)."""
        return self._rules.override_limit(who, box, person, amount, reason)

    def verify_no_more_bets(self) -> None:
        self._rules.verify_no_more_bets()

    def no_more_bets(self) -> None:
        self._rules.no_more_bets()

    def verify_insurance(self, box: int, person: int, amount: int) -> None:
        self._rules.verify_insurance(box, person, amount)

    def can_insure(self, box: int, person: int, amount: int) -> bool:
        return self._rules.can_insure(box, person, amount)

    def insure(self, box: int, person: int, amount: int) -> InsuranceTaken:
        return self._rules.insure(box, person, amount)

    def verify_even_money(self, box: int, person: int) -> None:
        self._rules.verify_even_money(box, person)

    def can_even_money(self, box: int, person: int) -> bool:
        return self._rules.can_even_money(box, person)

    def even_money(self, box: int, person: int) -> EvenMoneyElected:
        """Pay ``person`` 1 to 1 at once on their request (10.3a)."""
        return self._rules.even_money(box, person)

    def verify_shuffled(self) -> None:
        self._rules.verify_shuffled()

    def can_shuffled(self) -> bool:
        return self._rules.can_shuffled()

    def shuffled(self) -> ShuffleConfirmed:
        """The dealer confirms the shuffle (the console's SHUFFLED). NEXT never does."""
        return self._rules.shuffled()

    def verify_double(self, box: int, amount: int = 0) -> None:
        self._rules.verify_double(box, amount)

    def can_double(self, box: int, amount: int = 0) -> bool:
        return self._rules.can_double(box, amount)

    def double(self, box: int, amount: int = 0) -> Doubled:
        """Double the acting hand, one more card only (``amount``: the holder's extra)."""
        return self._rules.double(box, amount)

    def verify_split(self, box: int) -> None:
        self._rules.verify_split(box)

    def can_split(self, box: int) -> bool:
        return self._rules.can_split(box)

    def split(self, box: int) -> SplitMade:
        """Split the acting pair into two hands; each gets its second card in turn."""
        return self._rules.split(box)

    def verify_stand(self, box: int) -> None:
        self._rules.verify_stand(box)

    def can_stand(self, box: int) -> bool:
        return self._rules.can_stand(box)

    def stand(self, box: int) -> Stood:
        return self._rules.stand(box)

    def confirm_removal(self) -> RemovalConfirmed:
        """The paid blackjack's cards are in the discard rack (10.1 / 10.3b)."""
        return self._flow.confirm_removal()

    def insurance_collected(self, box: Box, person: int | None = None) -> None:
        """A losing insurance wager on ``box`` (``person``'s, or all) is off the layout."""
        self._flow.insurance_collected(box, person)

    def accept_payout(self, who: str, box: int, reason: str = "") -> list[MismatchAccepted]:
        """A supervisor (named) accepts the payout difference on ``box``'s spots, saying
        why; NEXT may then end the round (4.1). Refused if the box has none open."""
        records = self._flow.check.accept(who, box, reason)
        self._out.extend(records)
        return records

    # --- the HOLD -------------------------------------------------------------------------

    def verify_void_box(self, box: int) -> None:
        """One box's hand may be voided (9.6) during play, unless it was paid at once."""
        self._flow.verify_void_box(box)

    def supervisor_clear(
        self, who: str, decision: HoldDecision, box: int | None = None
    ) -> HoldCleared:
        """A supervisor (named, for the journal) clears the HOLD with a decision: keep the
        card(s), void the round's hand, or void one ``box``'s hand (9.6) and play on."""
        self._hold.verify_clear(who)  # not held, or nobody named: refused whatever the decision
        self._flow.verify_decision(decision, box)
        return self._flow.decide(who, decision, box, self.begin_clear(who))
