"""The blackjack table's round bookkeeping: who wagered what, the hands, the payouts,
settlement and its balance check (DESIGN "Money"), voids (9.6), the supervisor's clearing
of a HOLD, and the turn of the round (7.1).

`controller.blackjack.actions.RulesActions` adds the rules API on top of this class and
`controller.blackjack.machine.BlackjackTable` the card routing and the event entry.
"""

from __future__ import annotations

import abc
from typing import NoReturn

from controller.blackjack.hand import Box, Hand
from controller.blackjack.phases import Phases
from controller.blackjack.records import (
    BoxVoided,
    HoldCleared,
    HoldDecision,
    Output,
    RemovalConfirmed,
    RoundSettled,
    ShuffleDue,
    Violation,
)
from controller.blackjack.round import Round
from controller.blackjack.rules import Variants
from controller.blackjack.settlement import (
    Kind,
    Outcome,
    Payout,
    blackjack_win,
    check_balance,
    settle_against_dealer_blackjack,
    settle_hand,
    settle_insurance,
)
from controller.blackjack.shoe import ShuffleTracker
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE, TABLE_VARIANT
from controller.shoe_audit import ShoeAudit

__all__ = ["RoundBook"]

_VOID_BOX_STATES = frozenset(
    {"insurance", "boxes_acting", "dealer_second", "insurance_settlement", "dealer_drawing"}
)


class RoundBook(abc.ABC):
    """The round's state and bookkeeping; the machine and the rules API build on it."""

    shuffle: ShuffleTracker
    audit: ShoeAudit

    def __init__(self, variants: Variants) -> None:
        self.variants = variants
        self._phases = Phases()  # the round's machine, private: its triggers skip the rules
        self.play = Round(variants.boxes)  # the round's data (controller.blackjack.round)
        self._hold = Hold("round_over")  # the HOLD every game shares (controller.game.hold)
        self._out: list[Output] = []

    # hooks: the machine (controller.blackjack.machine.BlackjackTable) implements them
    @abc.abstractmethod
    def _advance(self) -> None: ...

    @abc.abstractmethod
    def _begin_play(self) -> None: ...

    @abc.abstractmethod
    def _pay_at_once(self, box: Box, outcome: Outcome, rule: str) -> None: ...

    @abc.abstractmethod
    def _violate(
        self, rule: str, message: str, card: Card | None = None, by: str = "the shoe"
    ) -> None: ...

    @abc.abstractmethod
    def _resume_with_cards(self, decision: HoldDecision) -> None: ...

    @abc.abstractmethod
    def confirm_removal(self) -> RemovalConfirmed: ...

    @abc.abstractmethod
    def insurance_collected(self, box: Box, person: int | None = None) -> None: ...

    # --- helpers --------------------------------------------------------------------------

    def _refuse(self, rule: str, message: str) -> NoReturn:
        raise IllegalAction(rule, message)

    def _bj_win(self, stake: int) -> int:
        v = self.variants
        return blackjack_win(stake, v.smallest_chip, v.odd_stakes)

    def _record_payout(self, payout: Payout) -> None:
        self.play.payouts.append(payout)
        self._out.append(payout)

    def _box(self, number: int) -> Box:
        if not 1 <= number <= len(self.play.boxes):
            self._refuse("4.1", f"no box {number} on this table")
        return self.play.boxes[number - 1]

    @property
    def current_box(self) -> Box | None:
        """The box whose turn it is while boxes act, else None."""
        if self.state != "boxes_acting" or self.play.current is None:
            return None
        return self.play.in_play[self.play.box_index]

    @property
    def state(self) -> str:
        """The round's phase (`controller.blackjack.phases.Phase`), read-only."""
        return self._phases.state

    @property
    def current_hand(self) -> Hand | None:
        return self.play.current if self.state == "boxes_acting" else None

    # read-only queries: the status display (controller.blackjack.display) reads these

    @property
    def round(self) -> int:
        """The round's number, counted from the table's start."""
        return self.play.number

    @property
    def boxes(self) -> list[Box]:
        return self.play.boxes

    @property
    def dealer(self) -> Hand:
        return self.play.dealer

    @property
    def payouts(self) -> list[Payout]:
        """The round's payouts so far (paid at once, then at settlement)."""
        return self.play.payouts

    @property
    def wagers_in(self) -> int:
        return self.play.wagers_in

    @property
    def settled(self) -> RoundSettled | None:
        """The round's settlement, once the dealer's hand is complete (or void)."""
        return self.play.settled

    @property
    def refused_wagers(self) -> dict[str, str]:
        """Spot -> why the chips on it are not a wager."""
        return self.play.refused_wagers

    @property
    def violations(self) -> list[Violation]:
        """The violations holding the table, in the order raised."""
        return self._hold.violations

    @property
    def boxes_in_play(self) -> tuple[Box, ...]:
        """The boxes wagered on this round, left to right."""
        return tuple(self.play.in_play)

    @property
    def deal_order(self) -> tuple[Box | None, ...]:
        """The initial deal's order: each box, the dealer (None), each box again."""
        return tuple(self.play.deal_order)

    @property
    def deal_position(self) -> int:
        """How far the initial deal has gone in `deal_order`."""
        return self.play.deal_pos

    @property
    def removals(self) -> tuple[tuple[Box, str], ...]:
        """Boxes whose cards must come off before any further card, with the rule."""
        return tuple(self.play.removals)

    def _current_of(self, box: int) -> Hand:
        current = self.current_box
        if current is None or self.play.current is None:
            self._refuse("4.1", f"box {box} is not acting: the round is in {self.state}")
        if current.number != box:
            self._refuse("4.1", f"box {box} is not acting: it is box {current.number}'s turn")
        if self.play.removals:
            self._refuse(self.play.removals[0][1], "remove the paid blackjack's cards first")
        if len(self.play.current.cards) < 2:
            self._refuse("4.1", f"box {box}'s hand is waiting for its second card")
        if self.play.current.doubled:
            self._refuse(TABLE_VARIANT, f"box {box} doubled: it takes exactly one more card")
        return self.play.current

    # --- settlement, void, supervisor, next round -----------------------------------------

    def _settle(self) -> None:
        """The dealer's hand is complete: settle every unsettled stake (4.1, 9.4, 10.2)."""
        dealer = self.play.dealer
        dealer_bj = dealer.blackjack
        takes = self.variants.dealer_blackjack_takes
        chip = self.variants.smallest_chip
        record = self._record_payout
        for box in self.play.in_play:
            if box.void:
                continue  # voided by a supervisor (9.6): settled then
            n = box.number
            for person, amount in box.insurance.items():
                if person not in box.insurance_collected:
                    outcome, returned, won, lost, rule = settle_insurance(amount, dealer_bj)
                    record(Payout(n, 0, person, Kind.INSURANCE, outcome, amount, returned,
                                  won, lost, rule))  # fmt: skip
            if box.settled_at_once:
                continue
            hands = box.hands
            for person, initial in box.stakes.items():
                if person in box.even_money:
                    continue  # paid 1 to 1 at once (10.3a)
                if dealer_bj:
                    views = [(h.stake(person, initial), h.hard > 21, h.blackjack) for h in hands]
                    results = settle_against_dealer_blackjack(initial, views, takes)
                    for index, (view, result) in enumerate(zip(views, results, strict=True)):
                        outcome, returned, won, lost, rule = result
                        record(Payout(n, index + 1, person, Kind.WAGER, outcome, view[0],
                                      returned, won, lost, rule))  # fmt: skip
                    continue
                for index, h in enumerate(hands):
                    stake = h.stake(person, initial)
                    outcome, returned, won, lost, rule = settle_hand(
                        stake, h.total, h.blackjack, h.hard > 21, dealer.total,
                        dealer.hard > 21, chip, self.variants.odd_stakes,
                    )  # fmt: skip
                    record(Payout(n, index + 1, person, Kind.WAGER, outcome, stake, returned,
                                  won, lost, rule))  # fmt: skip
        self._finish_settlement(void=False)
        self._phases.fire("settle")

    def _finish_settlement(self, void: bool) -> None:
        balance = check_balance(self.play.wagers_in, self.play.payouts)
        self.play.settled = RoundSettled(
            self.play.number,
            balance.wagers_in,
            balance.paid_out,
            balance.house_result,
            tuple(str(c) for c in self.play.dealer.cards),
            void,
        )
        self._out.append(self.play.settled)

    def _void(self) -> None:
        """Void the round's hand: every unsettled stake comes back; so does insurance, even
        if already collected (9.6). Blackjacks paid at once stand."""
        for box in self.play.in_play:
            if not box.void:
                self._void_stakes(box)
        self.play.removals.clear()
        self._finish_settlement(void=True)

    def _void_stakes(self, box: Box) -> None:
        """Settle ``box`` as void (9.6): its insurance back (a collected one too: its LOSE
        payout is superseded) and every stake not already paid at once."""
        n = box.number
        play = self.play
        play.payouts = [p for p in play.payouts if not (p.kind is Kind.INSURANCE and p.box == n)]
        for person, amount in box.insurance.items():
            self._record_payout(
                Payout(n, 0, person, Kind.INSURANCE, Outcome.VOID, amount, amount, 0, 0, "9.6")
            )
        if box.settled_at_once:
            return
        for person, initial in box.stakes.items():
            if person in box.even_money:
                continue
            for index, h in enumerate(box.hands):
                stake = h.stake(person, initial)
                self._record_payout(
                    Payout(n, index + 1, person, Kind.WAGER, Outcome.VOID, stake, stake,
                           0, 0, "9.6")
                )  # fmt: skip

    def verify_void_box(self, box: int) -> None:
        """One box's hand may be voided (9.6 voids "a hand") once the initial deal is done
        and until the dealer's hand is complete; a box paid in full at once has no hand."""
        state = self._hold.held_from if self.state == "hold" else self.state
        if state not in _VOID_BOX_STATES:
            self._refuse("9.6", f"one box's hand can be voided only during play, not in {state}")
        target = self._box(box)
        if target not in self.play.in_play or target.void:
            self._refuse("9.6", f"box {box} has no hand in play to void")
        if target.settled_at_once:
            self._refuse("9.6", f"box {box} was paid at once: its hand is settled")

    def _void_box(self, who: str, box: int) -> None:
        self.verify_void_box(box)
        target = self.play.boxes[box - 1]
        self._void_stakes(target)
        target.void = True
        for hand in target.hands:
            hand.done = True
        self.play.removals = [(b, r) for b, r in self.play.removals if b is not target]
        self._out.append(BoxVoided(who, box))

    def supervisor_clear(
        self, who: str, decision: HoldDecision, box: int | None = None
    ) -> HoldCleared:
        """A supervisor (named, for the journal) clears the HOLD with a decision: keep the
        card(s), void the round's hand, or void one ``box``'s hand (9.6) and play on."""
        if self.state != "hold":
            self._refuse(HOLD_PROCEDURE, "the table is not on hold")
        if not who.strip():
            self._refuse(HOLD_PROCEDURE, "a supervisor clearing a hold must be named")
        if decision is HoldDecision.VOID_BOX:
            if box is None:
                self._refuse("9.6", "say which box's hand to void")
            self.verify_void_box(box)
        open_violations = self._hold.take_violations()
        record = HoldCleared(who, decision, open_violations, box)
        self._out.append(record)
        if decision is HoldDecision.VOID_BOX and box is not None:
            self._void_box(who, box)
            self._resume_with_cards(decision)
        elif decision is HoldDecision.KEEP_CARD:
            self._resume_with_cards(decision)
        elif self._hold.held_from in ("round_over", "betting", "settlement"):
            # no hand in play to void: the card is set aside and the table goes on
            self._hold.cards.clear()
            self._phases.fire(f"resume_{self._hold.held_from}")
        else:
            self._hold.cards.clear()
            self._void()
            self._phases.fire("void_round")
        return record

    def _new_round(self) -> None:
        """NEXT on round over: betting opens (a shuffle 7.1 asked for was confirmed first:
        NEXT is never taken as "shuffled")."""
        if self.shuffle.due:
            self._refuse(
                self.shuffle.due,
                f"a shuffle is due under {self.shuffle.due}: shuffle the shoe and confirm "
                "SHUFFLED (or reload the shoe) before betting opens",
            )
        self.play.next()
        self.shuffle.round_started()
        self._phases.fire("open_betting")

    def _end_round(self) -> None:
        self._phases.fire("end_round")
        due = self.shuffle.round_ended()
        if due:
            self._out.append(ShuffleDue(due))

    def cutting_card_out(self) -> None:
        """The shoe reports the cutting card (7.1b at once, or 7.1c at the round's end)."""
        due = self.shuffle.cutting_card_out()
        if due:
            self._out.append(ShuffleDue(due))
