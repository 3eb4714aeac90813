"""The rules API of the blackjack table, in the pokerkit style, and the round's bookkeeping.

For each action a dealer or player can take: ``can_x()`` (a bool, lights the console),
``verify_x()`` (raises `IllegalAction` naming the rule) and ``x()`` (does it and returns a
frozen record). `controller.blackjack.machine.BlackjackTable` adds the card routing and
the event entry on top of this class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from controller.blackjack.hand import Box, Hand
from controller.blackjack.records import (
    Doubled,
    EvenMoneyElected,
    HoldCleared,
    HoldDecision,
    InsuranceTaken,
    Output,
    RemovalConfirmed,
    RoundSettled,
    ShuffleDue,
    SplitMade,
    Stood,
    Violation,
    WagerPlaced,
)
from controller.blackjack.rules import DoubleOn, Variants
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
from controller.cards import ACE, Card
from controller.errors import IllegalAction

__all__ = ["RulesActions", "parse_spot"]

_SPOTS: dict[str, tuple[str, int, int] | None] = {}


def parse_spot(spot: str) -> tuple[str, int, int] | None:
    """``box3.p2`` -> ("box", 3, 2); ``insurance5`` -> ("insurance", 5, 1); else None."""
    if spot in _SPOTS:
        return _SPOTS[spot]
    name, _, person_text = spot.partition(".p")
    kind = name.rstrip("0123456789")
    number_text = name[len(kind) :]
    parsed: tuple[str, int, int] | None = None
    if number_text.isdigit() and (person_text == "" or person_text.isdigit()):
        parsed = (kind, int(number_text), int(person_text or "1"))
    _SPOTS[spot] = parsed
    return parsed


class RulesActions:
    """Round bookkeeping and the can/verify/do rules API."""

    state: str
    shuffle: ShuffleTracker
    # transitions triggers, added to the model by the Machine:
    open_betting: Callable[[], bool]
    close_bets: Callable[[], bool]
    start_deal: Callable[[], bool]
    open_insurance: Callable[[], bool]
    start_play: Callable[[], bool]
    await_dealer_card: Callable[[], bool]
    collect_insurance: Callable[[], bool]
    dealer_draws: Callable[[], bool]
    settle: Callable[[], bool]
    end_round: Callable[[], bool]
    raise_hold: Callable[[], bool]
    void_round: Callable[[], bool]

    def __init__(self, variants: Variants) -> None:
        self.variants = variants
        self.boxes = [Box(n) for n in range(1, variants.boxes + 1)]
        self.dealer = Hand()
        self.round = 0
        self.violations: list[Violation] = []
        self.payouts: list[Payout] = []
        self.wagers_in = 0
        self.settled: RoundSettled | None = None
        self._out: list[Output] = []
        self._boxes_in_play: list[Box] = []
        self._deal_order: list[Box | None] = []
        self._deal_pos = 0
        self._box_index = 0
        self._hand_index = 0
        self._current: Hand | None = None
        self._removal: tuple[Box, str] | None = None
        self._held_cards: list[Card] = []
        self._held_from = "round_over"

    # hooks implemented by the machine
    def _advance(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _begin_play(self) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _pay_at_once(self, box: Box, outcome: Outcome, rule: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def _violate(self, rule: str, message: str, card: Card | None = None) -> None:
        raise NotImplementedError  # pragma: no cover

    def _resume_with_cards(self, decision: HoldDecision) -> None:  # pragma: no cover
        raise NotImplementedError

    def confirm_removal(self) -> RemovalConfirmed:  # pragma: no cover - overridden
        raise NotImplementedError

    def insurance_collected(self, box: Box) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    # --- helpers --------------------------------------------------------------------------

    def _refuse(self, rule: str, message: str) -> NoReturn:
        raise IllegalAction(rule, message)

    def _bj_win(self, stake: int) -> int:
        return blackjack_win(stake, self.variants.smallest_chip)

    def _record_payout(self, payout: Payout) -> None:
        self.payouts.append(payout)
        self._out.append(payout)

    def _losing_insurance(self) -> bool:
        return any(len(b.insurance) > len(b.insurance_collected) for b in self._boxes_in_play)

    def _box(self, number: int) -> Box:
        if not 1 <= number <= len(self.boxes):
            self._refuse("4.1", f"no box {number} on this table")
        return self.boxes[number - 1]

    @property
    def current_box(self) -> Box | None:
        """The box whose turn it is while boxes act, else None."""
        if self.state != "boxes_acting" or self._current is None:
            return None
        return self._boxes_in_play[self._box_index]

    @property
    def current_hand(self) -> Hand | None:
        return self._current if self.state == "boxes_acting" else None

    def _current_of(self, box: int) -> Hand:
        current = self.current_box
        if current is None or self._current is None:
            self._refuse("4.1", f"box {box} is not acting: the round is in {self.state}")
        if current.number != box:
            self._refuse("4.1", f"box {box} is not acting: it is box {current.number}'s turn")
        if self._removal is not None:
            self._refuse("10.1", "remove the paid blackjack's cards first")
        if len(self._current.cards) < 2:
            self._refuse("4.1", f"box {box}'s hand is waiting for its second card")
        if self._current.doubled:
            self._refuse("double", f"box {box} doubled: it takes exactly one more card")
        return self._current

    # --- wagers (4.1, 4.2) ----------------------------------------------------------------

    def verify_place_wager(self, box: int, person: int, amount: int) -> None:
        if self.state != "betting":
            self._refuse("4.2", "no wager is made, altered or withdrawn after betting closed")
        self._box(box)
        if not 1 <= person <= self.variants.people_per_box:
            self._refuse("4.1", f"at most {self.variants.people_per_box} people on a box")
        if amount < 0 or amount % self.variants.smallest_chip:
            self._refuse("4.1", f"a wager of {amount} is not whole chips")
        if person > 1 and amount and 1 not in self.boxes[box - 1].stakes:
            self._refuse("4.1", "people bet behind a box holder: box holder first")

    def can_place_wager(self, box: int, person: int, amount: int) -> bool:
        try:
            self.verify_place_wager(box, person, amount)
        except IllegalAction:
            return False
        return True

    def place_wager(self, box: int, person: int, amount: int) -> WagerPlaced:
        """Set ``person``'s wager on ``box`` (0 withdraws it) while betting is open (4.2)."""
        self.verify_place_wager(box, person, amount)
        stakes = self.boxes[box - 1].stakes
        if amount:
            stakes[person] = amount
        else:
            stakes.pop(person, None)
        record = WagerPlaced(box, person, amount)
        self._out.append(record)
        return record

    def verify_no_more_bets(self) -> None:
        if self.state != "betting":
            self._refuse("4.2", f"betting is not open (state {self.state})")
        if not any(b.stakes for b in self.boxes):
            self._refuse("4.1", "no wager on any box")

    def no_more_bets(self) -> None:
        self.verify_no_more_bets()
        self._close_bets_now()

    def _close_bets_now(self) -> None:
        self.close_bets()
        boxes = [b for b in self.boxes if b.stakes]
        self._boxes_in_play = boxes
        self.wagers_in = sum(sum(b.stakes.values()) for b in boxes)
        for box in boxes:
            box.hands.append(Hand())
        self._deal_order = [*boxes, None, *boxes]
        self._deal_pos = 0

    # --- insurance and even money (9.2-9.6, 10.3) -----------------------------------------

    def verify_insurance(self, box: int, person: int, amount: int) -> None:
        if self.state != "insurance":
            self._refuse("9.2", "insurance is offered only on a dealer ace, before more cards")
        stake = self._box(box).stakes.get(person)
        if stake is None:
            self._refuse("9.2", f"person {person} has no initial wager on box {box}")
        if not 0 < amount <= stake // 2:
            self._refuse("9.3(a)", f"insurance {amount} is over half the wager {stake}")
        if amount % self.variants.smallest_chip:
            self._refuse("9.3(b)", f"insurance {amount} could not be paid 2 to 1 in chips")
        if person in self.boxes[box - 1].even_money:
            self._refuse("10.3", "this person elected even money")

    def can_insure(self, box: int, person: int, amount: int) -> bool:
        try:
            self.verify_insurance(box, person, amount)
        except IllegalAction:
            return False
        return True

    def insure(self, box: int, person: int, amount: int) -> InsuranceTaken:
        self.verify_insurance(box, person, amount)
        target = self.boxes[box - 1]
        self.wagers_in += amount - target.insurance.get(person, 0)
        target.insurance[person] = amount
        record = InsuranceTaken(box, person, amount)
        self._out.append(record)
        return record

    def _withdraw_insurance(self, box: Box, person: int) -> None:
        self.wagers_in -= box.insurance.pop(person, 0)

    def verify_even_money(self, box: int, person: int) -> None:
        if self.state != "insurance":
            self._refuse("10.3", "even money is offered only on a dealer ace, before more cards")
        target = self._box(box)
        if person not in target.stakes:
            self._refuse("10.3", f"person {person} has no wager on box {box}")
        if not target.hands[0].blackjack or target.settled_at_once:
            self._refuse("10.3", f"box {box} has no unpaid blackjack")
        if person in target.insurance:
            self._refuse("10.3", "this person took insurance")

    def can_even_money(self, box: int, person: int) -> bool:
        try:
            self.verify_even_money(box, person)
        except IllegalAction:
            return False
        return True

    def even_money(self, box: int, person: int) -> EvenMoneyElected:
        """Elect 1 to 1 now (10.3a); paid only once every person on the box elects (10.3b)."""
        self.verify_even_money(box, person)
        target = self.boxes[box - 1]
        target.even_money.add(person)
        paid = target.even_money >= target.stakes.keys()
        if paid:
            target.hands[0].done = True
            self._pay_at_once(target, Outcome.EVEN_MONEY, "10.3(b)")
        record = EvenMoneyElected(box, person, paid)
        self._out.append(record)
        return record

    def _next_even_money(self) -> tuple[int, int] | None:
        for box in self._boxes_in_play:
            for person in box.stakes:
                if person not in box.even_money and self.can_even_money(box.number, person):
                    return box.number, person
        return None

    def _close_insurance(self) -> None:
        """Insurance closes; elections short of a whole box lapse (10.3b, then 10.2)."""
        for box in self._boxes_in_play:
            box.even_money.clear()
        self._begin_play()

    # --- playing a hand -------------------------------------------------------------------

    def verify_double(self, box: int) -> None:
        hand = self._current_of(box)
        v = self.variants
        if len(hand.cards) != 2:
            self._refuse("double", "only a two-card hand may be doubled")
        if hand.from_split and not v.double_after_split:
            self._refuse("double", "no double after a split on this table")
        if v.double_on is DoubleOn.ANY_TWO_NO_ACE and hand.aces:
            self._refuse("double", "a hand with an ace may not be doubled on this table")
        if v.double_on is DoubleOn.NINE_TO_ELEVEN and (hand.soft or not 9 <= hand.hard <= 11):
            self._refuse("double", "only hard 9, 10 or 11 may be doubled on this table")

    def can_double(self, box: int) -> bool:
        try:
            self.verify_double(box)
        except IllegalAction:
            return False
        return True

    def double(self, box: int) -> Doubled:
        """Double the acting hand: every person's stake again, one more card only."""
        self.verify_double(box)
        hand = self._current
        target = self.boxes[box - 1]
        extra = sum(target.stakes.values())
        hand.doubled = True  # type: ignore[union-attr]
        self.wagers_in += extra
        record = Doubled(box, self._hand_index + 1, extra)
        self._out.append(record)
        return record

    def verify_split(self, box: int) -> None:
        hand = self._current_of(box)
        cards = hand.cards
        if len(cards) != 2 or hand.hard // 2 * 2 != hand.hard or cards[0].rank != cards[1].rank:
            self._refuse("split", "only a pair of equal rank may be split")
        if hand.split_aces:
            self._refuse("split", "aces are split once only")
        if len(self.boxes[box - 1].hands) >= self.variants.max_split_hands:
            self._refuse("split", f"at most {self.variants.max_split_hands} hands per box")

    def can_split(self, box: int) -> bool:
        try:
            self.verify_split(box)
        except IllegalAction:
            return False
        return True

    def split(self, box: int) -> SplitMade:
        """Split the acting pair into two hands; each gets its second card in turn."""
        self.verify_split(box)
        hand = self._current
        target = self.boxes[box - 1]
        aces = hand.cards[0].rank == ACE  # type: ignore[union-attr]
        first, second = Hand(True, aces), Hand(True, aces)
        first.add(hand.cards[0])  # type: ignore[union-attr]
        second.add(hand.cards[1])  # type: ignore[union-attr]
        target.hands[self._hand_index : self._hand_index + 1] = [first, second]
        extra = sum(target.stakes.values())
        self.wagers_in += extra
        self._current = first
        record = SplitMade(box, self._hand_index + 1, len(target.hands), extra)
        self._out.append(record)
        return record

    def verify_stand(self, box: int) -> None:
        hand = self._current_of(box)
        if hand.total <= self.variants.must_draw_to:
            self._refuse("must-draw", f"a player must draw to {self.variants.must_draw_to}")

    def can_stand(self, box: int) -> bool:
        try:
            self.verify_stand(box)
        except IllegalAction:
            return False
        return True

    def stand(self, box: int) -> Stood:
        self.verify_stand(box)
        hand = self._current
        hand.done = True  # type: ignore[union-attr]
        record = Stood(box, self._hand_index + 1, hand.total)  # type: ignore[union-attr]
        self._out.append(record)
        self._advance()
        return record

    # --- settlement, void, supervisor, next round -----------------------------------------

    def _settle(self) -> None:
        """The dealer's hand is complete: settle every unsettled stake (4.1, 9.4, 10.2)."""
        dealer = self.dealer
        dealer_bj = dealer.blackjack
        takes = self.variants.dealer_blackjack_takes
        chip = self.variants.smallest_chip
        record = self._record_payout
        for box in self._boxes_in_play:
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
                if dealer_bj:
                    views = [
                        (initial * 2 if h.doubled else initial, h.hard > 21, h.blackjack)
                        for h in hands
                    ]
                    results = settle_against_dealer_blackjack(initial, views, takes)
                    for index, (view, result) in enumerate(zip(views, results, strict=True)):
                        outcome, returned, won, lost, rule = result
                        record(Payout(n, index + 1, person, Kind.WAGER, outcome, view[0],
                                      returned, won, lost, rule))  # fmt: skip
                    continue
                for index, h in enumerate(hands):
                    stake = initial * 2 if h.doubled else initial
                    outcome, returned, won, lost, rule = settle_hand(
                        stake, h.total, h.blackjack, h.hard > 21, dealer.total,
                        dealer.hard > 21, chip,
                    )  # fmt: skip
                    record(Payout(n, index + 1, person, Kind.WAGER, outcome, stake, returned,
                                  won, lost, rule))  # fmt: skip
        self._finish_settlement(void=False)
        self.settle()

    def _finish_settlement(self, void: bool) -> None:
        balance = check_balance(self.wagers_in, self.payouts)
        self.settled = RoundSettled(
            self.round,
            balance.wagers_in,
            balance.paid_out,
            balance.house_result,
            tuple(str(c) for c in self.dealer.cards),
            void,
        )
        self._out.append(self.settled)

    def _void(self) -> None:
        """Void the round's hand: every unsettled stake comes back; so does insurance, even
        if already collected (9.6). Blackjacks paid at once stand."""
        kept = []
        for payout in self.payouts:
            if payout.kind is Kind.INSURANCE:
                continue  # re-settled below as void (9.6)
            kept.append(payout)
        self.payouts = kept
        for box in self._boxes_in_play:
            n = box.number
            for person, amount in box.insurance.items():
                self._record_payout(
                    Payout(n, 0, person, Kind.INSURANCE, Outcome.VOID, amount, amount, 0, 0,
                           "9.6")
                )  # fmt: skip
            if box.settled_at_once:
                continue
            for person, initial in box.stakes.items():
                for index, h in enumerate(box.hands):
                    stake = initial * 2 if h.doubled else initial
                    self._record_payout(
                        Payout(n, index + 1, person, Kind.WAGER, Outcome.VOID, stake, stake,
                               0, 0, "9.6")
                    )  # fmt: skip
        self._removal = None
        self._finish_settlement(void=True)

    def supervisor_clear(self, who: str, decision: HoldDecision) -> HoldCleared:
        """A supervisor (named, for the journal) clears the HOLD with a decision."""
        if self.state != "hold":
            self._refuse("HOLD", "the table is not on hold")
        if not who.strip():
            self._refuse("HOLD", "a supervisor clearing a hold must be named")
        open_violations = tuple(v for v in self.violations)
        self.violations.clear()
        record = HoldCleared(who, decision, open_violations)
        self._out.append(record)
        if decision is HoldDecision.VOID_HAND and self._held_from in (
            "round_over",
            "betting",
            "settlement",
        ):
            decision = HoldDecision.KEEP_CARD  # nothing dealt to void: the card is set aside
        if decision is HoldDecision.VOID_HAND:
            self._held_cards.clear()
            if self._held_from == "no_more_bets":
                self._held_from = "initial_deal"
            self._void()
            self.void_round()
        else:
            self._resume_with_cards(decision)
        return record

    def _new_round(self) -> None:
        """NEXT on round over: the shoe is shuffled if 7.1 asked; betting opens."""
        if self.shuffle.due:
            self.shuffle.shuffled()
        for box in self._boxes_in_play:
            box.reset()
        for box in self.boxes:
            box.hands.clear()
        self.dealer = Hand()
        self.payouts = []
        self.wagers_in = 0
        self.settled = None
        self._boxes_in_play = []
        self._current = None
        self.round += 1
        self.shuffle.round_started()
        self.open_betting()

    def _end_round(self) -> None:
        self.end_round()
        due = self.shuffle.round_ended()
        if due:
            self._out.append(ShuffleDue(due))

    def cutting_card_out(self) -> None:
        """The shoe reports the cutting card (7.1b at once, or 7.1c at the round's end)."""
        due = self.shuffle.cutting_card_out()
        if due:
            self._out.append(ShuffleDue(due))
