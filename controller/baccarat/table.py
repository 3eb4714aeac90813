"""The baccarat table: one shoe of coups, driven by device events, card by card.

The coup's order is visible in its states (`controller.baccarat.phases`; the diagram in
docs/baccarat.md is generated from them)::

    shuffle -> burn -> betting -(NO MORE BETS)-> initial_deal -> [player_third]
      -> [banker_third] -> settlement -> betting ... -> (after the cut card) shuffle
                                and from any of them -> hold -> back, or void

A card always goes somewhere (docs/architecture.md): to the hand the Initial Deal or
the Table of Play says, to the burn at a new shoe, or, when no card is due, to a
`Violation` citing the rule it breaks: the gate locks and the table holds until a
supervisor, named, decides (burn the card and go on, or void the coup). NEXT pressed while
a card is due is a violation too: the dealer skipped a card the Table of Play requires.

`BaccaratTable` is a `controller.game.table.GameTable`: its machine, the shared HOLD
(`violate`, `begin_clear`) and the one list of outputs are the base's, and the gate and
lamps are its states' facts (`FACTS`), told by the base only when they change.

Lean on purpose: the simulator plays millions of coups through `handle`, so the card path
does a few dict lookups and at most two triggers per card.
"""

from __future__ import annotations

from controller.baccarat import tableau
from controller.baccarat.calls import Due, card_due, stray_card
from controller.baccarat.layout import Layout
from controller.baccarat.phases import BETWEEN_COUPS, DEALING, FACTS, LAMPS, Phases
from controller.baccarat.records import (
    ActionRefused,
    BetsClosed,
    CommissionCollected,
    CommissionOwedAccepted,
    CoupResult,
    CoupSettled,
    HoldCleared,
    HoldDecision,
    Payout,
    ShoeEnded,
    ShuffleConfirmed,
    ShuffleOrdered,
    Violation,
    WagerPlaced,
)
from controller.baccarat.rules import (
    CARDS_RULE,
    COMMISSION_ACCOUNT_RULE,
    COMMISSION_RULE,
    SHUFFLE_RULE,
    SUPERVISOR_SHUFFLE_RULE,
    VOID_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
)
from controller.baccarat.settlement import Stake, balance, collect, settle, void
from controller.baccarat.shoe import ShoeState
from controller.baccarat.spots import parse_spot
from controller.baccarat.wagers import (
    check_commission,
    check_differential,
    check_pairs,
    check_wager,
    refuse,
)
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.chips import MismatchAccepted, SettlementCheck, check_chips, money
from controller.game.contract import Output
from controller.game.records import HOLD_PROCEDURE, NOT_ON_CONSOLE, cite
from controller.game.table import GameTable
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipIdsSensed,
    ChipsSensed,
    ConsoleButton,
    Event,
    ShoeStatusChanged,
    SpotCleared,
    SpotOccupied,
)
from controller.shoe_audit import ShoeAudit, reader_hold

__all__ = ["BaccaratTable"]


POINTS = tableau.POINTS


class BaccaratTable(GameTable):
    """One baccarat table. Only the controller thread touches it (docs/architecture.md)."""

    FACTS = FACTS
    LAMPS = LAMPS

    def __init__(self, rules: BaccaratRules | None = None) -> None:
        super().__init__(Phases(), "shuffle")  # the machine, the HOLD, the outputs, signals
        self.rules = rules = rules or BaccaratRules()
        self.audit = ShoeAudit(rules.decks, CARDS_RULE)  # foreign cards, the shoe's end
        self.coup = 0  # coups counted from the table's start (the journal's round)
        self.shoe = ShoeState(rules)  # its number, results, burn and cutting card
        self.bets: list[dict[Bet, int]] = [{} for _ in range(rules.boxes)]
        self.commission_owed = [0] * rules.boxes  # hundredths of a chip unit, per box
        # what a supervisor let this shoe end owing, per box (hundredths; reset at its end)
        self.commission_accepted = [0] * rules.boxes
        self.player: list[Card] = []
        self.banker: list[Card] = []
        self.player_total = self.banker_total = 0
        self.player_third: int | None = None  # the point value of the Player's third card
        self._dealt = 0  # cards of the Initial Deal so far
        self.stakes: list[Stake] = []  # the coup's wagers, fixed at NO MORE BETS
        self.result: CoupResult | None = None
        self.payouts: list[Payout] = []
        self.settled: CoupSettled | None = None
        self._cut_level = False
        self.layout = Layout(rules)  # the spots' sensors and the settlement check by them

    # --- the event loop's entry ---------------------------------------------------------

    def handle(self, event: Event) -> list[Output]:
        """Apply one device event; return the records and commands it produced."""
        kind = type(event)
        if kind is CardDrawn:
            self.card_drawn(event.card, event.tag)  # type: ignore[attr-defined]
        elif kind is ButtonPressed:
            self.press(event.button)  # type: ignore[attr-defined]
        elif kind is ShoeStatusChanged:
            seen = event.cut_card_seen  # type: ignore[attr-defined]
            if seen and not self._cut_level:  # the cutting card comes out on a rising edge
                self.cutting_card_out()
            self._cut_level = seen
        elif kind is ChipsSensed:
            self.spot_changed(event.spot, True, event.total)  # type: ignore[attr-defined]
        elif kind is SpotOccupied or kind is SpotCleared:
            self.spot_changed(event.spot, kind is SpotOccupied, None)  # type: ignore[attr-defined]
        elif kind is ChipIdsSensed:  # each chip against the casino's inventory
            ids = event.chip_ids, event.values  # type: ignore[attr-defined]
            chips = tuple(zip(*ids, strict=True))
            self._out.extend(check_chips(self.layout.inventory, event.spot, chips))  # type: ignore[attr-defined]
        elif (held := reader_hold(event, self.gate_locked is False)) is not None:
            message, by = held  # an unknown tag, or a reader lost with the gate open
            self.violate(CARDS_RULE, message, None, by)
        return self.take_outputs()

    # --- read-only queries ------------------------------------------------------------------

    @property
    def held_from(self) -> str:
        return self._hold.held_from

    @property
    def violations(self) -> list[Violation]:
        return self._hold.violations

    def due(self) -> Due | None:
        """The card due now (for whom, the rule, the dealer's line), or None."""
        return card_due(
            self._phases.state,
            self._dealt,
            self.player_total,
            self.banker_total,
            self.player_third,
            self.shoe,
        )

    # --- cards ------------------------------------------------------------------------------

    def card_drawn(self, card: Card, tag: str | None = None) -> None:
        """A card left the shoe: to the hand due, to the burn, or HOLD."""
        state = self._phases.state
        foreign = self.audit.see(card, tag)
        if state == "burn":
            self._burn(card)
            if foreign is not None:
                self.violate(foreign.rule, f"{foreign.message} (a burn card)", card)
            return
        if foreign is not None:
            self.violate(foreign.rule, foreign.message, card)
            return
        value = POINTS[card.rank]
        if state == "initial_deal":
            n = self._dealt
            self._dealt = n + 1
            if n & 1:
                self.banker.append(card)
                self.banker_total = (self.banker_total + value) % 10
            else:
                self.player.append(card)
                self.player_total = (self.player_total + value) % 10
            if n == 3:
                self._after_initial_deal()
        elif state == "player_third":
            self.player.append(card)
            self.player_total = (self.player_total + value) % 10
            self.player_third = value
            if tableau.banker_draws(self.banker_total, value):
                self._phases.fire("banker_draws")
            else:
                self._settle()
        elif state == "banker_third":
            self.banker.append(card)
            self.banker_total = (self.banker_total + value) % 10
            self._settle()
        else:
            self.violate(*stray_card(state, self.result), card)

    def _after_initial_deal(self) -> None:
        """Naturals stop the coup; else the Player's rule, then the Banker's."""
        p, b = self.player_total, self.banker_total
        if p >= 8 or b >= 8:
            self._settle()
        elif p <= 5:
            self._phases.fire("player_draws")
        elif b <= 5:
            self._phases.fire("banker_draws")
        else:
            self._settle()

    def _burn(self, card: Card) -> None:
        """The new shoe's burn (`controller.baccarat.shoe`), then betting opens."""
        self._out.append(self.shoe.burn(card))
        if self.shoe.burn_done:
            self._open_betting("open_betting")

    # --- the coup's end ---------------------------------------------------------------------

    def _settle(self) -> None:
        """Both hands are complete: the result, every wager against it, the books."""
        player, banker = self.player, self.banker
        p, b = self.player_total, self.banker_total
        result = self.result = CoupResult(
            self.coup,
            "banker" if b > p else "player" if p > b else "tie",
            p,
            b,
            tuple(map(str, player)),
            tuple(map(str, banker)),
            len(player) == 2 and len(banker) == 2 and (p >= 8 or b >= 8),
            player[0].rank == player[1].rank,
            banker[0].rank == banker[1].rank,
        )
        payouts = self.payouts = settle(self.stakes, result, self.rules)
        self._phases.fire("settle")
        self._close_books(payouts, result.winner)
        self.shoe.results.append(result.as_result())

    def _close_books(self, payouts: list[Payout], winner: str | None) -> None:
        books = balance(self.stakes, payouts)  # raises BalanceError: never paid unbalanced
        owed = self.commission_owed
        for payout in payouts:
            if payout.commission:
                owed[payout.box - 1] += payout.commission
        self.shoe.coups += 1
        settled = self.settled = CoupSettled(
            self.coup,
            winner,
            books.wagers_in,
            books.paid_out,
            books.house_result,
            books.commission,
            winner is None,
        )
        out = self._out
        if self.result is not None and winner is not None:
            out.append(self.result)
        out += payouts
        out.append(settled)
        self.layout.start_check(self.stakes, payouts)

    def end_coup(self) -> None:
        """NEXT after settlement: the next coup's betting, or the shoe's end once its last
        coup (after the cutting card) is over."""
        self.verify_settled_by_chips()
        last = self.shoe.is_last(self.coup)
        if last:
            self.verify_shoe_may_end()  # refused before anything changes
        if self.layout.check.active:
            self.layout.check.clear()
        if last:
            self._end_shoe("end_shoe")
        else:
            self._open_betting("next_coup")

    def _end_shoe(self, trigger: str) -> None:
        """The shoe ends: to the shuffle, with its audit; what a supervisor accepted owed
        is accepted for this shoe only."""
        shoe = self.shoe
        self._phases.fire(trigger)
        self._out.append(ShoeEnded(shoe.number, shoe.coups, self.audit.shoe_end()))
        self.commission_accepted = [0] * self.rules.boxes

    def commission_unsettled(self) -> list[tuple[int, int]]:
        """``(box, hundredths)`` of every commission account the shoe may not end with:
        owed beyond what a supervisor accepted (commission account, house procedure)."""
        accepted = self.commission_accepted
        return [
            (n, owed) for n, owed in enumerate(self.commission_owed, 1) if owed > accepted[n - 1]
        ]

    def verify_shoe_may_end(self) -> None:
        """No shoe ends while a box owes commission, unless a supervisor accepted it owed
        (`accept_commission_owed`): the commission account, a house procedure."""
        unsettled = self.commission_unsettled()
        if unsettled:
            unit = self.rules.chip_unit
            owing = ", ".join(
                f"box {n} owes {owed // 100}.{owed % 100:02d} (collect {collect(owed, unit)[0]})"
                for n, owed in unsettled
            )
            refuse(
                COMMISSION_ACCOUNT_RULE,
                f"the shoe cannot end with commission owed: {owing}; collect it, or a "
                "supervisor accepts it owed",
            )

    def _open_betting(self, trigger: str) -> None:
        self._phases.fire(trigger)
        self.coup += 1
        for box in self.bets:
            if box:
                box.clear()
        self.player, self.banker = [], []
        self.player_total = self.banker_total = 0
        self.player_third = None
        self._dealt = 0
        self.stakes = []
        self.result = self.settled = None
        self.payouts = []

    def cutting_card_out(self) -> None:
        """The cutting card came out: which coup is the shoe's last (`ShoeState`)."""
        state = self._hold.held_from if self._phases.state == "hold" else self._phases.state
        if state == "betting" or (state == "initial_deal" and not self._dealt):
            when = "before"  # where this coup's first card would be
        elif state in DEALING:
            when = "during"
        else:
            when = "after"
        record = self.shoe.cutting_card(when, self.coup)
        if record is not None:
            self._out.append(record)

    # --- the console ------------------------------------------------------------------------

    def press(self, button: ConsoleButton) -> None:
        """A console button; a refused press changes nothing: an `ActionRefused`."""
        try:
            self._press(button)
        except IllegalAction as exc:
            self._out.append(ActionRefused(f"{button.value} button", exc.rule, exc.reason))

    def _press(self, button: ConsoleButton) -> None:
        state = self._phases.state
        if button is ConsoleButton.NEXT:
            if state == "settlement":
                self.end_coup()
                return
            due = self.due()
            if state in DEALING and due is not None:
                self.violate(
                    due[1], f"NEXT pressed with a card due: {due[2]}", None, "the NEXT button"
                )
            elif state == "betting":
                refuse(WAGERS_RULE, "betting is open: NO MORE BETS closes it first")
            elif state == "shuffle":
                refuse(SHUFFLE_RULE, "a new shoe is due: shuffle it and confirm SHUFFLED")
            elif due is not None:
                refuse(due[1], f"a card is due: {due[2]}")
            else:
                self._hold.verify_not_held()
        elif button is ConsoleButton.NO_MORE_BETS:
            self.no_more_bets()
        elif button is ConsoleButton.VOID_HAND:
            if state not in DEALING:
                refuse(VOID_RULE, f"no coup being dealt to void in {state}")
            self.violate(
                VOID_RULE,
                "the dealer asked to void the coup: a supervisor decides",
                None,
                "the VOID HAND button",
            )
        elif button is ConsoleButton.SUPERVISOR:
            refuse(HOLD_PROCEDURE, "a supervisor clears a hold by name and decision (PIN)")
        else:
            refuse(NOT_ON_CONSOLE, f"baccarat has no {button.value} button")

    # --- the rules API (verify_x raises why not, can_x says whether, x does it) -------------

    def verify_place_wager(self, box: int, bet: str, amount: int) -> Bet:
        self._hold.verify_not_held()
        if self._phases.state != "betting":
            refuse(WAGERS_RULE, "wagers are placed only while betting is open")
        chosen = check_wager(self.rules, self.bets, box, bet, amount)
        self.layout.verify_backed(box, chosen, amount)  # the layout's chips back it
        return chosen

    def can_place_wager(self, box: int, bet: str, amount: int) -> bool:
        try:
            self.verify_place_wager(box, bet, amount)
        except IllegalAction:
            return False
        return True

    def place_wager(self, box: int, bet: str, amount: int) -> WagerPlaced:
        """Set ``box``'s wager on ``bet`` (0 withdraws it) while betting is open."""
        chosen = self.verify_place_wager(box, bet, amount)
        if amount:
            self.bets[box - 1][chosen] = amount
        else:
            self.bets[box - 1].pop(chosen, None)
        record = WagerPlaced(box, chosen.value, amount)
        self._out.append(record)
        return record

    def verify_no_more_bets(self) -> int:
        self._hold.verify_not_held()
        if self._phases.state != "betting":
            refuse(WAGERS_RULE, f"betting is not open (the table is in {self._phases.state})")
        self.layout.verify_all_backed(self.bets)
        check_pairs(self.rules, self.bets)
        return check_differential(self.rules, self.bets)

    def no_more_bets(self) -> BetsClosed:
        """Betting closes; the gate opens for the Initial Deal."""
        diff = self.verify_no_more_bets()
        self._phases.fire("close_bets")
        self.stakes = stakes = [
            (n, bet, amount) for n, box in enumerate(self.bets, 1) for bet, amount in box.items()
        ]
        record = BetsClosed(self.coup, sum(s[2] for s in stakes), diff)
        self._out.append(record)
        return record

    def verify_shuffled(self) -> None:
        self._hold.verify_not_held()
        if self._phases.state != "shuffle":
            refuse(SHUFFLE_RULE, "no new shoe is due: the shoe ends after the cutting card")

    def shuffled(self) -> ShuffleConfirmed:
        """The dealer confirms the new shoe is shuffled (never NEXT): the burn follows."""
        self.verify_shuffled()
        self._phases.fire("shuffled")
        self.shoe.new_shoe()
        self.audit.shuffled()
        record = ShuffleConfirmed(
            self.shoe.number, self.shoe.burn_first, self.rules.dealing_style.value
        )
        self._out.append(record)
        if self.shoe.burn_done:
            self._open_betting("open_betting")
        return record

    def verify_collect_commission(self, box: int) -> int:
        state = self._phases.state
        if state in DEALING or state == "hold":
            refuse(COMMISSION_RULE, "commission is collected between coups, not during one")
        return check_commission(self.rules, self.commission_owed, box)

    def collect_commission(self, box: int) -> CommissionCollected:
        """The dealer collects ``box``'s commission account, rounded up to a chip."""
        owed = self.verify_collect_commission(box)
        collected, rounding = collect(owed, self.rules.chip_unit)
        self.commission_owed[box - 1] = 0
        record = CommissionCollected(box, owed, collected, rounding)
        self._out.append(record)
        return record

    # --- the layout's sensors and the settlement check by them -------------------------------

    @property
    def payout_check(self) -> SettlementCheck:
        """The spots checked against the settlement by the chips, read-only for renderers."""
        return self.layout.check

    def spot_changed(self, spot: str, occupied: bool, total: int | None) -> None:
        """A betting area's sensor changed (``total`` from a chip reader; its 0 is an empty
        spot). While betting is open the chips on a spot are its wager, placed through
        `place_wager` like a keyed one (a refusal is journaled); after NO MORE BETS a
        changed wager holds the table (NSW Mini Baccarat 5: none is placed, increased or
        withdrawn until settlement); after the result each spot is checked against what it
        is owed (`SETTLEMENT_RULE`)."""
        layout = self.layout
        parsed = parse_spot(spot)
        if not layout.sensing or parsed is None or not 1 <= parsed[1] <= self.rules.boxes:
            return  # no sensors configured, or not one of this layout's spots
        if occupied and total is None and layout.chip_readers:
            return  # a bare presence edge: the reader's own report says how much
        occupied = occupied and total != 0
        layout.sense(spot, occupied, total)
        bet, box = parsed
        state = self._phases.state
        held_from = self._hold.held_from if state == "hold" else state
        if held_from == "settlement":
            self._out.extend(layout.check.sensed(spot, occupied, total))
            return
        staked = self.bets[box - 1].get(bet, 0)
        amount = (total if total is not None else staked) if occupied else 0
        if held_from == "betting":
            if amount == staked and spot not in layout.refused:
                return  # the wager is what the layout shows (presence: keyed, or none)
            try:
                self.place_wager(box, bet.value, amount)
            except IllegalAction as exc:
                layout.refused[spot] = f"{cite(exc.rule)}: {exc.reason}"
                self._out.append(ActionRefused(f"sensor {spot}", exc.rule, exc.reason))
            else:
                layout.refused.pop(spot, None)
        elif held_from in DEALING and (amount != staked or (occupied and not staked)):
            shows = money(amount) if layout.chip_readers or not occupied else "chips"
            self.violate(
                WAGERS_RULE,
                f"the wager on {spot} changed after NO MORE BETS: {money(staked)} staked, "
                f"{shows} on the spot now",
                None,
                f"the sensor on {spot}",
            )

    def verify_settled_by_chips(self) -> None:
        """NEXT ends the coup only when every checked spot reads what it is owed, or a
        supervisor accepted the difference (`SETTLEMENT_RULE`): the mismatches found now
        are journaled, then `IllegalAction` names each box and amount."""
        check = self.layout.check
        if check.active:
            self._out.extend(check.check_all())
            check.verify_next()

    def accept_payout(self, who: str, box: int, reason: str = "") -> list[MismatchAccepted]:
        """A supervisor (named) accepts the payout difference on ``box``'s spots, saying
        why; NEXT may then end the coup. Refused if the box has none open."""
        records = self.layout.check.accept(who, box, reason)
        self._out.extend(records)
        return records

    # --- the supervisor's decisions between coups -------------------------------------------

    def verify_accept_commission_owed(self, who: str, reason: str) -> list[tuple[int, int]]:
        if not who.strip():
            refuse(COMMISSION_ACCOUNT_RULE, "a supervisor accepting commission owed is named")
        if not reason.strip():
            refuse(COMMISSION_ACCOUNT_RULE, "a supervisor accepting commission owed says why")
        self._hold.verify_not_held()
        if self._phases.state in DEALING:
            refuse(COMMISSION_ACCOUNT_RULE, "commission owed is accepted between coups")
        owed = [(n, o) for n, o in enumerate(self.commission_owed, 1) if o]
        if not owed:
            refuse(COMMISSION_ACCOUNT_RULE, "no box owes commission")
        return owed

    def accept_commission_owed(self, who: str, reason: str = "") -> CommissionOwedAccepted:
        """A supervisor (named, saying why) lets the shoe end with the commission accounts
        owed as they stand now: they stay on the boxes. More owed after this is collected
        or accepted again before the shoe ends."""
        owed = self.verify_accept_commission_owed(who, reason)
        self.commission_accepted = list(self.commission_owed)
        record = CommissionOwedAccepted(who, reason.strip(), self.shoe.number, tuple(owed))
        self._out.append(record)
        return record

    def verify_order_shuffle(self, who: str, reason: str) -> None:
        if not who.strip():
            refuse(SUPERVISOR_SHUFFLE_RULE, "a supervisor ordering a shuffle is named")
        if not reason.strip():
            refuse(SUPERVISOR_SHUFFLE_RULE, "a supervisor ordering a shuffle says why")
        self._hold.verify_not_held()
        state = self._phases.state
        if state in DEALING:
            refuse(
                WAGERS_RULE,
                "a coup is being dealt: its wagers stand until it is settled or void, so "
                "the shoe is shuffled between coups",
            )
        if state not in BETWEEN_COUPS:  # the shuffle: a new shoe is already due
            refuse(SHUFFLE_RULE, "a new shoe is already due: shuffle it and confirm SHUFFLED")
        if state == "betting" and any(self.bets):
            refuse(
                SUPERVISOR_SHUFFLE_RULE,
                "wagers are on the layout: they come down (or the coup is dealt) before "
                "the shoe is shuffled",
            )
        if state == "settlement":
            self.verify_settled_by_chips()  # the coup is paid right before the shoe ends
        self.verify_shoe_may_end()

    def order_shuffle(self, who: str, reason: str = "") -> ShuffleOrdered:
        """A supervisor (named, saying why) ends the shoe between coups, as the cutting
        card would: its audit is reported and a new shoe is due (shuffled, confirmed,
        burned; its roads start afresh). Refused during a coup, on HOLD, with wagers on
        the layout, and while a box owes commission nobody accepted."""
        self.verify_order_shuffle(who, reason)
        if self.layout.check.active:
            self.layout.check.clear()
        shoe = self.shoe
        record = ShuffleOrdered(who, reason.strip(), shoe.number, shoe.coups)
        self._out.append(record)
        self._end_shoe("order_shuffle")
        return record

    # --- the HOLD ---------------------------------------------------------------------------

    def supervisor_clear(self, who: str, decision: str) -> HoldCleared:
        """A supervisor (named) clears the HOLD: the card(s) out of turn are burned and the
        coup goes on as the Table of Play says, or the coup is void (every wager back)."""
        self._hold.verify_clear(who)  # not held, or nobody named: refused whatever the decision
        try:
            chosen = HoldDecision(decision)
        except ValueError:
            refuse(HOLD_PROCEDURE, f"no decision {decision!r}: one of {', '.join(HoldDecision)}")
        held_from = self._hold.held_from
        if chosen is HoldDecision.VOID_HAND and held_from not in DEALING:
            refuse(VOID_RULE, f"no coup in play to void (held in {held_from}): burn the card")
        record = HoldCleared(who, chosen.value, self.begin_clear(who))
        self._hold.cards.clear()  # set aside: burned, or void with the coup
        self._out.append(record)
        if chosen is HoldDecision.VOID_HAND:
            self._phases.fire("void_coup")
            self.payouts = void(self.stakes)
            self._close_books(self.payouts, None)
        else:
            self._phases.fire(f"resume_{held_from}")
            if held_from == "burn" and self.shoe.burn_done:
                self._open_betting("open_betting")
        return record
