"""The blackjack round's flow, a part of the table: where each card goes, whose turn it
is, what is paid at once, when the dealer's hand settles the round, and the HOLD.

It works on the round's data (`controller.blackjack.round.Round`), and on the table's
shared HOLD (`controller.game.hold.Hold`) and private machine (`Phases`), both kept by the
table (`controller.game.table.GameTable`), which also raises a HOLD for it (``violate``,
handed in); it pays through the round's book (`controller.blackjack.book`). The rules API
(`controller.blackjack.actions`) and the layout's sensors (`controller.blackjack.layout`)
call it; it calls neither. A card always goes somewhere: a card the rules allow none for
is a `Violation` and the table holds until a supervisor clears it (docs/architecture.md:
the controller cannot undo physics).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from controller.blackjack.book import round_settled, settle_payouts, void_payouts
from controller.blackjack.hand import Box, Hand
from controller.blackjack.phases import FACTS, Phases
from controller.blackjack.records import (
    BoxVoided,
    CardBurned,
    HoldCleared,
    HoldDecision,
    RemovalConfirmed,
    ShuffleDue,
    Violation,
)
from controller.blackjack.round import Round, refuse
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import Kind, Outcome, Payout, blackjack_win
from controller.blackjack.shoe import ShuffleTracker
from controller.blackjack.spots import expected_spots, spot_readings
from controller.cards import ACE, Card
from controller.errors import IllegalAction
from controller.game.chips import Sensing, SettlementCheck
from controller.game.contract import Output
from controller.game.hold import Hold
from controller.game.records import TABLE_VARIANT
from controller.shoe_audit import ShoeAudit

__all__ = ["Dealing"]

log = logging.getLogger(__name__)

_VOID_BOX_STATES = frozenset(
    {"insurance", "boxes_acting", "dealer_second", "insurance_settlement", "dealer_drawing"}
)


class Dealing:
    """The round's flow over its parts; ``out`` (the table's) collects the records and
    commands; ``violate`` is the table's (`controller.game.table.GameTable.violate`)."""

    def __init__(
        self,
        variants: Variants,
        play: Round,
        phases: Phases,
        hold: Hold,
        violate: Callable[[str, str, Card | None, str], Violation],
        shuffle: ShuffleTracker,
        audit: ShoeAudit,
        out: list[Output],
    ) -> None:
        self.variants = variants
        self.play = play
        self.phases = phases  # the round's machine, private: its triggers skip the rules
        self.hold = hold
        self._violate = violate
        self.shuffle = shuffle
        self.audit = audit  # foreign cards (3.3)
        self.out = out
        self._kept = False  # re-routing cards a supervisor kept: counted once already
        sensing = None
        if variants.settlement_check:
            sensing = Sensing.CHIP_READERS if variants.chip_readers else Sensing.PRESENCE
            if not (variants.chip_readers or variants.spot_sensors):
                sensing = None  # nothing on the layout to check with
        self.check = SettlementCheck(sensing, "4.1")  # the chips against the payouts (4.1)

    @property
    def state(self) -> str:
        return self.phases.state

    def record_payout(self, payout: Payout) -> None:
        self.play.payouts.append(payout)
        self.out.append(payout)

    # --- whose turn -----------------------------------------------------------------------

    @property
    def current_box(self) -> Box | None:
        """The box whose turn it is while boxes act, else None."""
        if self.phases.state != "boxes_acting" or self.play.current is None:
            return None
        return self.play.in_play[self.play.box_index]

    @property
    def current_hand(self) -> Hand | None:
        return self.play.current if self.phases.state == "boxes_acting" else None

    def current_of(self, box: int) -> Hand:
        """The acting hand of ``box``, which may be played now; else `IllegalAction`."""
        current = self.current_box
        hand = self.play.current
        if current is None or hand is None:
            refuse("4.1", f"box {box} is not acting: the round is in {self.state}")
        if current.number != box:
            refuse("4.1", f"box {box} is not acting: it is box {current.number}'s turn")
        if self.play.removals:
            refuse(self.play.removals[0][1], "remove the paid blackjack's cards first")
        if len(hand.cards) < 2:
            refuse("4.1", f"box {box}'s hand is waiting for its second card")
        if hand.doubled:
            refuse(TABLE_VARIANT, f"box {box} doubled: it takes exactly one more card")
        return hand

    # --- cards ----------------------------------------------------------------------------

    def card_drawn(self, card: Card, tag: str | None = None) -> None:
        """Route a card that left the shoe to the hand the dealing order says (or HOLD)."""
        state = self.phases.state
        play = self.play
        if self.shuffle.burns_due and FACTS[state].burn and not self._kept:
            self._burn(card, tag)
            return
        self.shuffle.cards_this_round += 1
        foreign = None if self._kept else self.audit.see(card, tag)
        if foreign is not None:
            self.violate(foreign.rule, foreign.message, card)
        elif play.removals:
            message = "a card before the paid blackjack's cards were removed"
            self.violate(play.removals[0][1], message, card)
        elif state == "boxes_acting":
            hand = play.current
            if hand is None:  # pragma: no cover - boxes_acting always has a current hand
                self.violate("4.1", "a card with no hand to receive it", card)
                return
            hand.add(card)
            if hand.hard > 21 or hand.doubled:
                hand.done = True
            self.advance()
        elif state == "initial_deal":
            self._deal_initial(card)
        elif state == "dealer_second" or state == "dealer_drawing":
            play.dealer.add(card)
            self._after_dealer_card()
        elif state == "no_more_bets":
            self.phases.fire("start_deal")
            self._deal_initial(card)
        else:
            breaks = FACTS[state].card_breaks
            if breaks is None:  # pragma: no cover - every state without a card rule is routed
                raise IllegalAction("4.1", f"no route for a card in {state}")
            rule, message = breaks
            if state == "round_over" and self.shuffle.due:
                rule, message = "7.1", f"a card before the shuffle due under {self.shuffle.due}"
            self.violate(rule, message, card)

    def _burn(self, card: Card, tag: str | None = None) -> None:
        """The burn after the shuffle (surrounding rules): counted by the shoe audit (a
        foreign card is one all the same), journaled, in no hand."""
        self.shuffle.burns_due -= 1
        self.out.append(CardBurned(str(card), self.shuffle.burns_due))
        foreign = self.audit.see(card, tag)
        if foreign is not None:
            self.violate(foreign.rule, f"{foreign.message} (the burn card)", None, "the shoe")

    def close_bets(self) -> None:
        """NO MORE BETS: the wagered boxes play, each gets a hand, the deal's order is set."""
        self.phases.fire("close_bets")
        play = self.play
        boxes = [b for b in play.boxes if b.stakes]
        play.in_play = boxes
        play.wagers_in = sum(sum(b.stakes.values()) for b in boxes)
        for box in boxes:
            box.hands.append(Hand())
        play.deal_order = [*boxes, None, *boxes]
        play.deal_pos = 0

    def _deal_initial(self, card: Card) -> None:
        """Rule: one card to each box left to right, the dealer's first, then the seconds."""
        play = self.play
        target = play.deal_order[play.deal_pos]
        play.deal_pos += 1
        if target is None:
            play.dealer.add(card)
        else:
            target.hands[0].add(card)
        if play.deal_pos == len(play.deal_order):
            if play.dealer.cards[0].rank == ACE:
                self.phases.fire("open_insurance")
            else:
                self.begin_play()

    def begin_play(self) -> None:
        """Insurance (if open) closes and boxes act. Against a 2-9 every blackjack is paid
        3 to 2 and its cards removed before any further card is dealt (10.1), so before
        the first box acts."""
        self.phases.fire("start_play")
        play = self.play
        if play.dealer.cards[0].rank < 10:
            for box in play.in_play:
                hand = box.hands[0]
                if hand.blackjack and not box.settled_at_once:
                    hand.done = True
                    self._pay_at_once(box, Outcome.BLACKJACK, "10.1")
        play.box_index = 0
        play.hand_index = 0
        self.advance()

    def advance(self) -> None:
        """Find the next hand that needs the dealer or a card, paying 10.1 blackjacks on
        the way; when none is left, wait for the dealer's second card."""
        play = self.play
        boxes = play.in_play
        while play.box_index < len(boxes):
            box = boxes[play.box_index]
            hands = box.hands
            while play.hand_index < len(hands):
                hand = hands[play.hand_index]
                if not hand.done:
                    if len(hand.cards) < 2:
                        play.current = hand
                        return
                    if hand.blackjack:  # paid under 10.1, or held until the dealer
                        hand.done = True  # hand is complete (10.2)
                        continue
                    if hand.hard >= 21 or hand.total == 21 or hand.split_aces:
                        hand.done = True
                    else:
                        play.current = hand
                        return
                play.hand_index += 1
            play.box_index += 1
            play.hand_index = 0
        play.current = None
        self.phases.fire("await_dealer_card")

    def _pay_at_once(self, box: Box, outcome: Outcome, rule: str) -> None:
        """Pay a blackjack now (3:2 under 10.1, 1:1 under 10.3a); cards must be removed."""
        v = self.variants
        for person, stake in box.stakes.items():
            won = (
                stake
                if outcome is Outcome.EVEN_MONEY
                else blackjack_win(stake, v.smallest_chip, v.odd_stakes)
            )
            self.record_payout(
                Payout(box.number, 1, person, Kind.WAGER, outcome, stake, stake, won, 0, rule, True)
            )
        box.settled_at_once = True
        self.play.removals.append((box, rule))

    def confirm_removal(self) -> RemovalConfirmed:
        """The paid blackjack's cards are in the discard rack (10.1 / 10.3b)."""
        if not self.play.removals:
            refuse("10.1", "no blackjack is waiting to be removed")
        box, rule = self.play.removals.pop(0)
        record = RemovalConfirmed(box.number, rule)
        self.out.append(record)
        return record

    def _after_dealer_card(self) -> None:
        """After the dealer's second card: collect losing insurance first (9.5)."""
        dealer = self.play.dealer
        if (
            self.phases.state == "dealer_second"
            and not dealer.blackjack
            and self.play.losing_insurance()
        ):
            self.phases.fire("collect_insurance")
            return
        self._dealer_next()

    def _dealer_next(self) -> None:
        dealer = self.play.dealer
        total = dealer.total
        if total > 17 or (total == 17 and not (self.variants.dealer_hits_soft_17 and dealer.soft)):
            self._settle()
        elif self.phases.state != "dealer_drawing":
            self.phases.fire("dealer_draws")

    def insurance_collected(self, box: Box, person: int | None = None) -> None:
        """A losing insurance wager on ``box`` (``person``'s, or all) is off the layout
        (9.5); the round goes on once every losing insurance is."""
        for insurer, amount in box.insurance.items():
            if insurer not in box.insurance_collected and person in (None, insurer):
                box.insurance_collected.add(insurer)
                self.record_payout(
                    Payout(box.number, 0, insurer, Kind.INSURANCE, Outcome.LOSE,
                           amount, 0, 0, amount, "9.5", True)
                )  # fmt: skip
        if self.phases.state == "insurance_settlement" and not self.play.losing_insurance():
            self._dealer_next()

    # --- settlement and voids -------------------------------------------------------------

    def _settle(self) -> None:
        """The dealer's hand is complete: settle every unsettled stake (4.1, 9.4, 10.2)."""
        for payout in settle_payouts(self.play, self.variants):
            self.record_payout(payout)
        self._finish_settlement(void=False)
        self.phases.fire("settle")

    def _finish_settlement(self, void: bool) -> None:
        settled = self.play.settled = round_settled(self.play, void)
        self.out.append(settled)
        v = self.variants
        readings = spot_readings(self.play, v.insurance_sensors, v.double_spots)
        self.check.start(expected_spots(self.play, v.winnings_paid, v.double_spots), readings)

    def spot_after_result(self, spot: str, occupied: bool, total: int | None) -> None:
        """A spot changed while the dealer pays and collects: checked against what it is
        owed (4.1), at once with chip readers."""
        self.out.extend(self.check.sensed(spot, occupied, total))

    def verify_settled_by_chips(self) -> None:
        """NEXT ends the round only when every checked spot reads what it is owed, or a
        supervisor accepted the difference (4.1): the mismatches found now are journaled,
        then `IllegalAction` names each."""
        self.out.extend(self.check.check_all())
        self.check.verify_next()

    def _void(self) -> None:
        """Void the round's hand: every unsettled stake comes back; so does insurance, even
        if already collected (9.6). Blackjacks paid at once stand."""
        for box in self.play.in_play:
            if not box.void:
                self._void_stakes(box)
        self.play.removals.clear()
        self._finish_settlement(void=True)

    def _void_stakes(self, box: Box) -> None:
        """Settle ``box`` as void (9.6); a collected insurance's LOSE payout is superseded."""
        n = box.number
        play = self.play
        play.payouts = [p for p in play.payouts if not (p.kind is Kind.INSURANCE and p.box == n)]
        for payout in void_payouts(box):
            self.record_payout(payout)

    def verify_void_box(self, box: int) -> None:
        """One box's hand may be voided (9.6 voids "a hand") once the initial deal is done
        and until the dealer's hand is complete; a box paid in full at once has no hand."""
        state = self.hold.held_from if self.phases.state == "hold" else self.phases.state
        if state not in _VOID_BOX_STATES:
            refuse("9.6", f"one box's hand can be voided only during play, not in {state}")
        target = self.play.box(box)
        if target not in self.play.in_play or target.void:
            refuse("9.6", f"box {box} has no hand in play to void")
        if target.settled_at_once:
            refuse("9.6", f"box {box} was paid at once: its hand is settled")

    def _void_box(self, who: str, box: int) -> None:
        self.verify_void_box(box)
        target = self.play.boxes[box - 1]
        self._void_stakes(target)
        target.void = True
        for hand in target.hands:
            hand.done = True
        self.play.removals = [(b, r) for b, r in self.play.removals if b is not target]
        self.out.append(BoxVoided(who, box))

    # --- the HOLD -------------------------------------------------------------------------

    def violate(
        self, rule: str, message: str, card: Card | None = None, by: str = "the shoe"
    ) -> None:
        """Hold the table on ``rule`` (the table's, `GameTable.violate`). ``by``: who raised
        it (the shoe's card, a button, a sensor), for the HOLD banner."""
        self._violate(rule, message, card, by)

    def verify_decision(self, decision: HoldDecision, box: int | None) -> None:
        """A supervisor's decision the round can take: voiding one box names a box whose
        hand may be voided (9.6)."""
        if decision is HoldDecision.VOID_BOX:
            if box is None:
                refuse("9.6", "say which box's hand to void")
            self.verify_void_box(box)

    def decide(
        self,
        who: str,
        decision: HoldDecision,
        box: int | None,
        cleared: tuple[Violation, ...],
    ) -> HoldCleared:
        """The supervisor's decision once the HOLD is cleared (``cleared``: the violations,
        `GameTable.begin_clear`): keep the card(s), void the round's hand, or void one
        ``box``'s hand (9.6) and play on."""
        hold = self.hold
        record = HoldCleared(who, decision, cleared, box)
        self.out.append(record)
        if decision is HoldDecision.VOID_BOX and box is not None:
            self._void_box(who, box)
            self._resume_with_cards(decision)
        elif decision is HoldDecision.KEEP_CARD:
            self._resume_with_cards(decision)
        elif hold.held_from in ("round_over", "betting", "settlement"):
            # no hand in play to void: the card is set aside and the table goes on
            hold.cards.clear()
            self.phases.fire(f"resume_{hold.held_from}")
        else:
            hold.cards.clear()
            self._void()
            self.phases.fire("void_round")
        return record

    def _resume_with_cards(self, decision: HoldDecision) -> None:
        """Go back where the table was and let the held cards stand (KEEP_CARD)."""
        cards, self.hold.cards = self.hold.cards, []
        self.phases.fire(f"resume_{self.hold.held_from}")
        current = self.play.current
        if self.phases.state == "boxes_acting" and current is not None and current.done:
            self.advance()  # the acting box's hand was voided (9.6): the next box acts
        elif self.phases.state == "insurance_settlement" and not self.play.losing_insurance():
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
            state = self.phases.state
            if state == "hold":  # an earlier kept card broke a rule: this one waits
                self.hold.cards.append((card, judged_in))
                continue
            self.shuffle.cards_this_round -= 1  # counted when it first arrived
            if judged_in == state:
                if state == "betting":
                    self.close_bets()
                elif state == "insurance":
                    self.begin_play()
                elif state == "insurance_settlement":
                    for box in self.play.in_play:
                        self.insurance_collected(box)
                while self.play.removals:
                    self.confirm_removal()
            if FACTS[self.phases.state].gate_open or judged_in != state:
                self.card_drawn(card)
            else:
                log.info("kept card %s belongs to no hand (decision %s)", card, decision)
                self.shuffle.cards_this_round += 1

    # --- the turn of the round (7.1) ------------------------------------------------------

    def new_round(self) -> None:
        """NEXT on round over: betting opens (a shuffle 7.1 asked for was confirmed first:
        NEXT is never taken as "shuffled")."""
        if self.shuffle.due:
            refuse(
                self.shuffle.due,
                f"a shuffle is due under {self.shuffle.due}: shuffle the shoe and confirm "
                "SHUFFLED (or reload the shoe) before betting opens",
            )
        self.play.next()
        self.shuffle.round_started()
        self.phases.fire("open_betting")

    def end_round(self) -> None:
        self.verify_settled_by_chips()
        self.phases.fire("end_round")
        self.check.clear()
        due = self.shuffle.round_ended()
        if due:
            self.out.append(ShuffleDue(due))

    def cutting_card_out(self) -> None:
        """The shoe reports the cutting card (7.1b at once, or 7.1c at the round's end)."""
        due = self.shuffle.cutting_card_out()
        if due:
            self.out.append(ShuffleDue(due))
