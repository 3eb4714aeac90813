"""The draw-poker table: seats, button and blinds, the hand's machine, and the rules API.

A `controller.game.table.GameTable`. One entry for the event loop,
`PokerTable.handle(event)`, takes controller.ports events (a `CardDrawn` from the shoe is
routed to the seat the dealing order says; the dealer's NEXT button starts the next hand)
and returns what they produced (`take_outputs`): frozen records for the journal, then the
commands. The dealer's console inputs use the rules API in pokerkit's style: ``can_x``
(bool), ``verify_x`` (raises `IllegalAction` naming the rule), ``x`` (does it, puts its
records on the table's outputs and returns the record of the act itself, or None for an
act with none of its own). The shoe's gate and the lamps follow the hand's state
(`controller.poker.phases.FACTS`, `signals`), told once per change.

A card cannot be refused: it has left the shoe. An out-of-order card becomes a
`Violation` citing the rule, the table goes on HOLD (its machine's ``hold`` state: shoe
locked, red lamp flashing), and only `supervisor_clear` lets play continue.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.contract import Output
from controller.game.hold import HOLD_STATE
from controller.game.machine import HOLD_FACTS
from controller.game.records import HoldCleared, Violation
from controller.game.table import GameTable
from controller.poker.betting import BettingRound
from controller.poker.draw import HAND_SIZE, Draw
from controller.poker.hand import HandField, PokerHand
from controller.poker.payout import Awarded, called_seat, hand_awards, pay_hand
from controller.poker.phases import DEAL_RULE, FACTS, FOREIGN_CARD_RULE, IN_HAND, LAMPS, Phases
from controller.poker.records import (
    ActionTaken,
    CardSetAside,
    DrawTaken,
    HandSettled,
    HandsRequested,
    HandStarted,
    HoldDecision,
    Record,
)
from controller.poker.rules import PokerRules
from controller.poker.seating import (
    Positions,
    clockwise_from,
    first_positions,
    next_positions,
    post_blinds,
)
from controller.poker.showdown import SHOWDOWN_RULE, refuse_chop, verify_request_to_see
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleButton,
    Event,
    Lamp,
    LampPattern,
    ShowButtonPosition,
    ShowLimits,
    SupervisorAction,
)
from controller.shoe_audit import ShoeAudit, reader_hold

__all__ = ["HoldDecision", "Output", "PokerTable"]

log = logging.getLogger(__name__)

# On HOLD the red lamp flashes over the lamps of the state the HOLD went up in (a betting
# round held keeps BETTING_OPEN lit); one mapping per state, so `Signals` compares by identity.
_HELD_LAMPS: dict[str, Mapping[Lamp, LampPattern]] = {
    state: {**facts.lamps, **HOLD_FACTS.lamps} for state, facts in FACTS.items()
}


class PokerTable(GameTable):
    FACTS = FACTS
    LAMPS = LAMPS

    # the hand's data, read-only here (renderers and tests read them on the table)
    in_hand: HandField[list[int]] = HandField()
    hands: HandField[dict[int, list[Card]]] = HandField()
    unknown_kept: HandField[dict[int, int]] = HandField()
    seen: HandField[set[Card]] = HandField()
    contributed: HandField[dict[int, int]] = HandField()
    folded: HandField[set[int]] = HandField()
    all_in: HandField[set[int]] = HandField()
    betting: HandField[BettingRound | None] = HandField()
    draw: HandField[Draw | None] = HandField()
    showdown_seats: HandField[tuple[int, ...]] = HandField()
    requests: HandField[list[HandsRequested]] = HandField()

    def __init__(self, rules: PokerRules | None = None) -> None:
        self.rules = rules or PokerRules()
        self.stacks: dict[int, int] = {}
        self.positions: Positions | None = None
        self.hand_no = 0
        self.last_settlement: HandSettled | None = None
        self.showdown_order: Record | None = None
        self.audit = ShoeAudit(1, FOREIGN_CARD_RULE)  # one deck, shuffled for every hand
        self.hand = PokerHand()  # the hand's data (controller.poker.hand), a fresh one each hand
        super().__init__(Phases(), "waiting")  # the hand's machine; a HOLD; the outputs

    @property
    def phase(self) -> str:
        """The hand's phase (`controller.poker.phases.Phase`): the state, or on HOLD the
        state the HOLD went up in (where the hand resumes), read-only."""
        state = self._phases.state
        return self._hold.held_from if state == HOLD_STATE else state

    def signals(self) -> tuple[bool, Mapping[Lamp, LampPattern]]:
        """The state's gate and lamps (`FACTS`); on HOLD the gate locks and the red lamp
        flashes over the lamps of the state the HOLD went up in (`_HELD_LAMPS`)."""
        state = self._phases.state
        if state == HOLD_STATE:
            return False, _HELD_LAMPS[self._hold.held_from]
        facts = FACTS[state]
        return facts.gate_open, facts.lamps

    # --- seats ---------------------------------------------------------------------------

    def sit(self, seat: int, stack: int) -> None:
        """Seat a player with ``stack`` chips (table stakes), between hands."""
        self._verify_between_hands()
        if not 1 <= seat <= self.rules.seats or seat in self.stacks:
            raise IllegalAction("11.2", f"seat {seat} is not a free seat at this table")
        if stack <= 0 or stack % self.rules.chip_unit:
            raise IllegalAction("11.5", "a stack is a positive multiple of the chip unit")
        self.stacks[seat] = stack

    def add_chips(self, seat: int, chips: int) -> None:
        """A seated player buys more chips between hands (table stakes)."""
        self._verify_between_hands()
        if seat not in self.stacks or chips <= 0 or chips % self.rules.chip_unit:
            raise IllegalAction("11.5", f"cannot add {chips} chips at seat {seat}")
        self.stacks[seat] += chips

    def leave(self, seat: int) -> None:
        self._verify_between_hands()
        self.stacks.pop(seat, None)

    def _verify_between_hands(self) -> None:
        if self.phase in IN_HAND:
            raise IllegalAction("11.2", "seats change only between hands")

    # --- the event loop's entry ---------------------------------------------------------

    def handle(self, event: Event) -> list[Output]:
        """Apply one device event or supervisor decision (the console's rules-API calls go
        through `controller.poker.console`); what it produced (`take_outputs`). A card is
        never refused (it has left the shoe): a wrong one holds the table."""
        if isinstance(event, CardDrawn):
            self.card_drawn(event.card, event.tag)
        elif isinstance(event, SupervisorAction):
            self.supervisor_clear(event.who, event.decision)
        elif isinstance(event, ButtonPressed) and event.button is ConsoleButton.NEXT:
            self.start_hand()
        else:
            # an unknown tag, or a reader lost with the gate of the hand's phase open
            held = reader_hold(event, FACTS[self.phase].gate_open)
            if held is not None:
                self.violate(FOREIGN_CARD_RULE, f"{held[0]} ({held[1]})", None, by=held[1])
        return self.take_outputs()

    # --- starting a hand -------------------------------------------------------------------

    def can_start_hand(self) -> bool:
        try:
            self.verify_start_hand()
        except IllegalAction:
            return False
        return True

    def verify_start_hand(self) -> None:
        self.verify_not_held()
        if self.state not in ("waiting", "complete"):
            raise IllegalAction("11.4(e)", "each hand shall be played to a conclusion")
        players = [s for s, chips in self.stacks.items() if chips > 0]
        if len(players) < max(2, len(self.rules.blinds)):
            raise IllegalAction("11.2", f"{len(players)} player(s) with chips: not enough")

    def start_hand(self, button: int | None = None) -> HandStarted:
        """Place (or move) the button, post the live blinds, and open the deal."""
        self.verify_start_hand()
        ended = self.audit.shoe_end()  # journaled only when a card was one too many:
        report = None if ended.reconciled else ended  # the stub is no news, and private
        hand = self.hand = PokerHand()
        occupied = {s for s, chips in self.stacks.items() if chips > 0}
        seats = self.rules.seats
        if self.positions is None or button is not None:
            start = button if button is not None else min(occupied)
            self.positions = first_positions(start, occupied, seats, len(self.rules.blinds))
            self._phases.fire("place_button" if self.state == "waiting" else "move_button")
        else:
            self.positions = next_positions(self.positions, occupied, seats)
            self._phases.fire("move_button")
        self.hand_no += 1
        hand.stacks_at_start = sum(self.stacks.values())
        order = clockwise_from(self.positions.button % seats + 1, seats)
        hand.in_hand = [s for s in order if s in occupied]
        for seat in hand.in_hand:
            hand.hands[seat] = []
        posted = post_blinds(self.positions, self.rules.blinds, self.stacks, occupied)
        hand.blind_bets = dict(posted)
        hand.contributed.update(posted)
        hand.all_in.update(seat for seat, _ in posted if self.stacks[seat] == 0)
        self._phases.fire("post_blinds")  # dealing: the gate opens (FACTS)
        started = HandStarted(
            self.hand_no,
            self.positions.button,
            self.positions.button not in occupied,
            tuple(posted),
            tuple(hand.in_hand),
        )
        out = self._out
        if report is not None:
            out.append(report)
        out += (
            ShowButtonPosition(self.positions.button),
            ShowLimits(self.rules.minimum_wager, self.rules.maximum_wager),
            started,
        )
        return started

    # --- cards from the shoe -----------------------------------------------------------------

    def card_drawn(self, card: Card, tag: str | None = None) -> None:
        """A card out of the shoe (`handle`): dealt, drawn, or a violation that holds."""
        # every card comes here: the hand and the phase read once, for speed
        hand = self.hand
        draw = hand.draw
        state = self._phases.state
        hold = self._hold.violation  # set exactly while the machine is in its hold state
        phase = state if hold is None else self._hold.held_from
        reused = phase == "drawing" and draw is not None and draw.reshuffled
        foreign = None if reused else self.audit.see(card, tag)  # 11.3(b) reuses discards
        if hold is not None:  # kept with the HOLD (it stays as it is), and set aside dead
            message = f"{card} drawn while the table is on HOLD: set aside, dead"
            self.violate(hold.rule, message, card)
            self._set_aside(card)
        elif foreign is not None:
            self.violate(foreign.rule, foreign.message, card)
        elif state == "dealing":
            seen = hand.seen
            before = len(seen)
            seen.add(card)
            if len(seen) == before:
                self.violate(DEAL_RULE, f"{card} dealt twice: defective deck", card)
                return
            hand.deal(card)
            if hand.dealt:
                self._after_deal()
        elif state == "drawing" and draw is not None:
            out = draw.card(card)
            for record in out:
                if isinstance(record, Violation):  # the draw's rule, and the seat it names
                    self.violate(record.rule, record.message, card, seat=record.seat)
                    return
            self._out += out
            self._after_draw()
        else:
            breaks = FACTS[state].card_breaks
            rule = DEAL_RULE if breaks is None else breaks[0]
            self.violate(rule, f"{card} drawn when no card is due ({state})", card)

    def _after_deal(self) -> None:
        hand = self.hand
        if not hand.dealt:
            return
        self._phases.fire("cards_dealt")  # first_round: the gate locks, betting opens (FACTS)
        hand.betting = self._open_round(hand.blind_bets, "11.2(c)", None)
        self._after_betting()

    def _open_round(self, bets: dict[int, int], rule: str, opener: str | None) -> BettingRound:
        if self.positions is None:
            raise IllegalAction("11.2", "no button")
        return self.hand.open_round(self.rules, self.positions, self.stacks, bets, rule, opener)

    # --- the betting API -----------------------------------------------------------------------

    def _round(self) -> BettingRound:
        self.verify_not_held()
        betting = self.hand.betting
        state = self._phases.state
        if betting is None or state not in ("first_round", "final_round"):
            raise IllegalAction("11.2(c)", f"no betting round in progress ({state})")
        return betting

    def verify_check(self, seat: int) -> None:
        self._round().verify_check(seat)

    def verify_call(self, seat: int) -> None:
        self._round().verify_call(seat)

    def verify_fold(self, seat: int) -> None:
        self._round().verify_fold(seat)

    def verify_raise(self, seat: int, amount: int) -> None:
        self._round().verify_raise(seat, amount)

    def can_check(self, seat: int) -> bool:
        return _can(self.verify_check, seat)

    def can_call(self, seat: int) -> bool:
        return _can(self.verify_call, seat)

    def can_fold(self, seat: int) -> bool:
        return _can(self.verify_fold, seat)

    def can_raise(self, seat: int, amount: int | None = None) -> bool:
        if amount is None:
            try:
                amount = self._round().raise_bounds(seat)[0]
            except IllegalAction:
                return False
        return _can(self.verify_raise, seat, amount)

    def check(self, seat: int) -> ActionTaken:
        betting = self._round()
        betting.verify_check(seat)
        return self._acted(betting.check(seat))

    def call(self, seat: int) -> ActionTaken:
        betting = self._round()
        betting.verify_call(seat)
        return self._acted(betting.call(seat))

    def fold(self, seat: int) -> ActionTaken:
        betting = self._round()
        betting.verify_fold(seat)
        return self._acted(betting.fold(seat))

    def raise_(self, seat: int, amount: int) -> ActionTaken:
        """Raise by ``amount`` above the call (a bet when nothing is bet), rule 11.5."""
        betting = self._round()
        betting.verify_raise(seat, amount)
        return self._acted(betting.raise_(seat, amount))

    def _acted(self, record: ActionTaken) -> ActionTaken:
        self._out.append(record)
        self._after_betting()
        return record

    def _after_betting(self) -> None:
        # the round closing moves the state: BETTING_OPEN goes out with it (FACTS)
        hand = self.hand
        betting = hand.betting
        if betting is None:
            return
        live = hand.live()
        if len(live) == 1:
            hand.ended_first_round = self._phases.state == "first_round"
            self._phases.fire("one_player_left")  # 11.2(c)(i) / 11.4(b)(i)
            self._settle(uncontested=live[0])
            return
        if not betting.done:
            return
        if self._phases.state == "first_round":
            self._phases.fire("first_round_closed")  # drawing: the gate opens
            hand.draw = hand.start_draw(self.rules)
            self._after_draw()
            return
        hand.aggressor = betting.aggressor
        self._phases.fire("final_round_closed")
        called = called_seat(hand.aggressor, self.positions, self.rules.seats, live)
        order = clockwise_from(called, self.rules.seats)
        hand.showdown_seats = tuple(s for s in order if s in live)
        self._showdown()

    # --- the draw (11.3) -----------------------------------------------------------------------

    def verify_discard(self, seat: int, count: int, cards: Sequence[Card] | None = None) -> None:
        self.verify_not_held()
        if self.state != "drawing" or self.draw is None:
            raise IllegalAction("11.3(a)", f"the draw is not in progress ({self.state})")
        self.draw.verify_discard(seat, count, cards)

    def can_discard(self, seat: int, count: int, cards: Sequence[Card] | None = None) -> bool:
        return _can(self.verify_discard, seat, count, cards)

    def discard(
        self, seat: int, count: int, cards: Sequence[Card] | None = None
    ) -> DrawTaken | None:
        """11.3(a): ``seat`` announces ``count`` cards to replace; ``cards`` are the discards
        when the rack reader (or the console) identified them."""
        self.verify_discard(seat, count, cards)
        draw = self.hand.draw
        if draw is None:
            return None
        out = draw.discard(seat, count, cards)  # the DrawTaken first, then any 11.3(b)
        self._out += out
        self._after_draw()
        taken = out[0]
        return taken if isinstance(taken, DrawTaken) else None

    def _after_draw(self) -> None:
        draw = self.hand.draw
        if draw is None or not draw.done:
            return
        self._phases.fire("draw_completed")  # final_round: the gate locks, betting opens
        self.hand.betting = self._open_round({}, "11.4(b)", "11.4(a)")
        self._after_betting()

    # --- showdown and settlement -------------------------------------------------------------

    def verify_expose(self, seat: int, cards: Sequence[Card]) -> None:
        self.verify_not_held()
        if self.state != "showdown" or not self.unknown_kept.get(seat):
            raise IllegalAction(SHOWDOWN_RULE, f"seat {seat} has no hand to expose now")
        known = self.hands[seat]
        if len(cards) != HAND_SIZE or any(c not in cards for c in known):
            raise IllegalAction(SHOWDOWN_RULE, f"seat {seat} holds {known} and 5 cards")

    def expose(self, seat: int, cards: Sequence[Card]) -> None:
        """A hand the controller could not follow (discards not read) is exposed (no
        record of its own: the showdown's, once every such hand is exposed)."""
        self.verify_expose(seat, cards)
        self.hand.hands[seat] = list(cards)
        self.hand.unknown_kept[seat] = 0
        self._showdown()

    def _showdown(self) -> None:
        if self.hand.awaiting_exposure:
            return  # waiting for `expose`
        self._settle(uncontested=None)

    def _settle(self, uncontested: int | None) -> None:
        order, awarded = hand_awards(self.hand, self.rules, self.positions, uncontested)
        if order is not None:
            self.showdown_order = order
            self._out.append(order)
            self._phases.fire("pots_awarded")
        self._pay(awarded)

    def _pay(self, awarded: Awarded, void: bool = False) -> None:
        settled = pay_hand(self.stacks, self.hand, self.hand_no, awarded, void)
        self.last_settlement = settled
        self.hand.aggressor = None
        self._out.append(settled)

    # --- 11.4(c): "Any player at the table may request to see any or all hands" ------------

    def verify_request_to_see(self, by_seat: int, seat: int | None = None) -> None:
        self.verify_not_held()
        shown = self.showdown_seats if self.state in ("showdown", "complete") else ()
        verify_request_to_see(shown, self.stacks, by_seat, seat)

    def can_request_to_see(self, by_seat: int, seat: int | None = None) -> bool:
        return _can(self.verify_request_to_see, by_seat, seat)

    def request_to_see(self, by_seat: int, seat: int | None = None) -> HandsRequested:
        """11.4(c): the player at ``by_seat`` asks to see the hand of ``seat``, or all the
        hands involved in the final showdown when ``seat`` is None; the dealer exposes
        them. Plain arguments, for the console: one hand or all of them per request."""
        self.verify_request_to_see(by_seat, seat)
        wanted = self.showdown_seats if seat is None else (seat,)
        record = HandsRequested(by_seat, wanted, SHOWDOWN_RULE)
        self.hand.requests.append(record)
        self._out.append(record)
        return record

    # --- 11.4(e): no chop ------------------------------------------------------------------

    def can_chop(self) -> bool:
        return False

    def verify_chop(self) -> None:
        refuse_chop()

    def request_chop(self) -> None:
        """Always refused: rule 11.4(e)."""
        self.verify_chop()

    # --- HOLD -------------------------------------------------------------------------------

    @property
    def hold(self) -> Violation | None:
        """The violation holding the table, if any."""
        return self._hold.violation

    def supervisor_clear(self, who: str, decision: HoldDecision | str) -> HoldCleared:
        """Clear a HOLD: the card stands (``accept``) or the hand is void (``void_hand``).
        The card the HOLD came with is routed as the decision says; a card out while held
        was set aside dead already. The record names the violation that held the table
        (each one raised while held was journaled as it came)."""
        self._hold.verify_clear(who)
        decision = HoldDecision(decision)
        card, held_from = self._hold.card, self._hold.held_from
        violations = self.begin_clear(who)
        self._hold.cards.clear()  # the HOLD's own card is ``card``; any later one is dead
        cleared = HoldCleared(who, decision.value, violations[:1])
        self._out.append(cleared)
        if decision is HoldDecision.VOID_HAND and held_from in IN_HAND:
            self._phases.fire("void_hand")
            self.hand.showdown_seats = ()  # a void hand has no showdown
            returns = dict(self.hand.contributed)
            self._pay(([], returns, 0, ()), void=True)
            return cleared
        self._phases.fire(f"resume_{held_from}")  # the gate and lamps as they were (FACTS)
        if card is None:
            return cleared
        rule = violations[0].rule
        if any(card in held for held in self.hands.values()):
            # a second copy (11.2) cannot stand in a hand of five different cards (11.4(c)):
            # it is set aside, dead, and the seat is still owed its card
            self._out.append(CardSetAside(str(card), rule))
        elif held_from == "dealing":
            self.hand.deal(card)
            self._after_deal()
        elif held_from == "drawing" and self.draw is not None and self.draw.owed:
            self._out += self.draw.give(card)
            self._after_draw()
        else:  # owed to nobody (players bet, no draw announced): dead, out of the stub
            self._out.append(CardSetAside(str(card), rule))
            self._set_aside(card)
        return cleared

    def _set_aside(self, card: Card) -> None:
        """A card out of the shoe that nobody gets: counted out of the stub (11.3(b))."""
        if self.phase == "drawing" and self.draw is not None:
            self._out += self.draw.set_aside(card)
            return
        self.hand.seen.add(card)  # the draw's stub is 52 less the cards seen


def _can(verify: object, *args: object) -> bool:
    try:
        verify(*args)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True
