"""The rules API of the blackjack table, in the pokerkit style.

For each action a dealer or player can take: ``can_x()`` (a bool, lights the console),
``verify_x()`` (raises `IllegalAction` naming the rule) and ``x()`` (does it and returns a
frozen record). A part of the table (`controller.blackjack.table.BlackjackTable`, which
offers these): it checks an action against the round's data and the rules, records it,
and hands the round on to its flow (`controller.blackjack.dealing.Dealing`: the next box
acts, the bets close, boxes play after insurance).
"""

from __future__ import annotations

from controller.blackjack.dealing import Dealing
from controller.blackjack.hand import Box, Hand
from controller.blackjack.records import (
    Doubled,
    EvenMoneyElected,
    InsuranceTaken,
    ShuffleConfirmed,
    SplitMade,
    Stood,
    WagerChanged,
    WagerPlaced,
)
from controller.blackjack.round import refuse
from controller.blackjack.rules import DoubleOn, OddStakes
from controller.blackjack.settlement import Kind, Outcome, Payout, blackjack_exact
from controller.cards import ACE
from controller.errors import IllegalAction
from controller.game.records import TABLE_LIMITS, TABLE_VARIANT, LimitOverridden

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
    """The can/verify/do rules API (pokerkit style) over the round's data."""

    def __init__(self, flow: Dealing) -> None:
        self._flow = flow
        self.play = flow.play  # the same parts the flow works on, for the table's life
        self.variants = flow.variants
        self.shuffle = flow.shuffle
        self.audit = flow.audit
        self._out = flow.out

    @property
    def state(self) -> str:
        return self._flow.phases.state

    # --- wagers (4.1, 4.2) ----------------------------------------------------------------

    def verify_place_wager(self, box: int, person: int, amount: int) -> None:
        self._verify_wager(box, person, amount, within_limits=True)

    def outside_limits(self, amount: int) -> bool:
        """A wager of ``amount`` is outside the table's limits (0, no wager, never is)."""
        v = self.variants
        high = v.maximum_wager
        return bool(amount) and (amount < v.minimum_wager or (high is not None and amount > high))

    def _limits_words(self) -> str:
        v = self.variants
        if v.maximum_wager is None:
            return f"at least {v.minimum_wager}"
        return f"{v.minimum_wager} to {v.maximum_wager}"

    def _verify_wager(self, box: int, person: int, amount: int, *, within_limits: bool) -> None:
        if self.state != "betting":
            refuse("4.2", "no wager is made, altered or withdrawn after betting closed")
        self.play.box(box)
        v = self.variants
        if not 1 <= person <= v.people_per_box:
            refuse("4.1", f"at most {v.people_per_box} people on a box")
        if amount < 0 or amount % v.smallest_chip:
            refuse("4.1", f"a wager of {amount} is not whole chips")
        if within_limits and self.outside_limits(amount):
            refuse(
                TABLE_LIMITS,
                f"a wager of {amount} is outside the table's limits, {self._limits_words()} "
                "on the limit sign: only a supervisor's override, with the reason, lets it "
                "stand",
            )
        if (
            amount
            and v.odd_stakes is OddStakes.REFUSE
            and not blackjack_exact(amount, v.smallest_chip)
        ):
            refuse(
                "10.1",
                f"a wager of {amount} is refused: a blackjack on it is paid 3 to 2, "
                f"{amount * 3 / 2:g}, which is not whole chips of {v.smallest_chip} "
                "(the Gazette has no rounding clause; this table refuses such wagers)",
            )
        if v.spot_sensors:
            sensed = self.play.sensed.get((box, person), 0)
            spot = f"box{box}" + (f".p{person}" if person > 1 else "")
            if amount and not sensed:
                refuse(
                    "4.1",
                    f"no chips sensed on {spot}: a wager is chips placed in the box (4.1); "
                    "put the chips on the spot",
                )
            if sensed and amount != sensed:
                refuse(
                    "4.1",
                    f"{spot}'s sensor reported {sensed}: changing it to {amount} needs the "
                    "supervisor (journaled with both amounts)",
                )
        stakes = self.play.boxes[box - 1].stakes
        if person > 1 and amount and 1 not in stakes:
            refuse("4.1", "people bet behind a box holder: box holder first")
        if person == 1 and not amount and len(stakes.keys() - {1}) > 0:
            refuse("4.1", "the box holder cannot leave while others bet behind")

    def can_place_wager(self, box: int, person: int, amount: int) -> bool:
        try:
            self.verify_place_wager(box, person, amount)
        except IllegalAction:
            return False
        return True

    def place_wager(self, box: int, person: int, amount: int) -> WagerPlaced:
        """Set ``person``'s wager on ``box`` (0 withdraws it) while betting is open (4.2)."""
        self.verify_place_wager(box, person, amount)
        return self._set_wager(box, person, amount)

    def _set_wager(self, box: int, person: int, amount: int) -> WagerPlaced:
        stakes = self.play.boxes[box - 1].stakes
        if amount:
            stakes[person] = amount
        else:
            stakes.pop(person, None)
        record = WagerPlaced(box, person, amount)
        self._out.append(record)
        return record

    def change_wager(self, who: str, box: int, person: int, amount: int) -> WagerChanged:
        """A supervisor sets a wager other than what the spot's sensor reported (the
        layout backs every wager; a change needs the supervisor), while betting is
        open (4.2), within the table's limits like any wager. Journaled with both amounts
        and who."""
        return self._change(who, box, person, amount, within_limits=True)

    def override_limit(
        self, who: str, box: int, person: int, amount: int, reason: str
    ) -> WagerChanged:
        """A supervisor lets a wager outside the table's limits stand, saying why: the
        change is journaled (`WagerChanged`) with `LimitOverridden`, an alarm to the pit.
        Every other check of a wager still holds; a wager within the limits needs no
        override."""
        if not reason.strip():
            refuse(TABLE_LIMITS, "an override of the table's limits says why")
        if not self.outside_limits(amount):
            refuse(
                TABLE_LIMITS,
                f"a wager of {amount} is within the table's limits, {self._limits_words()}: "
                "change it without an override",
            )
        record = self._change(who, box, person, amount, within_limits=False)
        v = self.variants
        spot = f"box{box}" + (f".p{person}" if person > 1 else "")
        self._out.append(
            LimitOverridden(who, spot, amount, v.minimum_wager, v.maximum_wager, reason.strip())
        )
        return record

    def _change(
        self, who: str, box: int, person: int, amount: int, *, within_limits: bool
    ) -> WagerChanged:
        if not who.strip():
            refuse("4.1", "a supervisor changing a wager must be named")
        sensed = self.play.sensed.get((box, person), 0)
        saved = self.play.sensed
        self.play.sensed = {**saved, (box, person): amount}
        try:
            self._verify_wager(box, person, amount, within_limits=within_limits)
        finally:
            self.play.sensed = saved
        self._set_wager(box, person, amount)
        record = WagerChanged(box, person, sensed, amount, who)
        self._out.append(record)
        return record

    def verify_no_more_bets(self) -> None:
        if self.state != "betting":
            refuse("4.2", f"betting is not open (state {self.state})")
        if not any(b.stakes for b in self.play.boxes):
            refuse("4.1", "no wager on any box")

    def no_more_bets(self) -> None:
        self.verify_no_more_bets()
        self._flow.close_bets()

    # --- insurance and even money (9.2-9.6, 10.3) -----------------------------------------

    def verify_insurance(self, box: int, person: int, amount: int) -> None:
        if self.state != "insurance":
            refuse("9.2", "insurance is offered only on a dealer ace, before more cards")
        stake = self.play.box(box).stakes.get(person)
        if stake is None:
            refuse("9.2", f"person {person} has no initial wager on box {box}")
        if not 0 < amount <= stake // 2:
            refuse("9.3(a)", f"insurance {amount}: from one chip to half the wager {stake}")
        if amount % self.variants.smallest_chip:
            refuse("9.3(b)", f"insurance {amount} could not be paid 2 to 1 in chips")
        if person in self.play.boxes[box - 1].even_money:
            refuse("10.3", "this person elected even money")

    def can_insure(self, box: int, person: int, amount: int) -> bool:
        try:
            self.verify_insurance(box, person, amount)
        except IllegalAction:
            return False
        return True

    def insure(self, box: int, person: int, amount: int) -> InsuranceTaken:
        self.verify_insurance(box, person, amount)
        target = self.play.boxes[box - 1]
        self.play.wagers_in += amount - target.insurance.get(person, 0)
        target.insurance[person] = amount
        record = InsuranceTaken(box, person, amount)
        self._out.append(record)
        return record

    def withdraw_insurance(self, box: Box, person: int) -> None:
        """Insurance taken back while insurance is still open (before any further card)."""
        if person in box.insurance:
            self.play.wagers_in -= box.insurance.pop(person)
            self._out.append(InsuranceTaken(box.number, person, 0))

    def verify_even_money(self, box: int, person: int) -> None:
        if self.state != "insurance":
            refuse("10.3", "even money is offered only on a dealer ace, before more cards")
        target = self.play.box(box)
        if person not in target.stakes:
            refuse("10.3", f"person {person} has no wager on box {box}")
        if not target.hands[0].blackjack or target.settled_at_once:
            refuse("10.3", f"box {box} has no unpaid blackjack")
        if person in target.even_money:
            refuse("10.3(a)", f"person {person} on box {box} was already paid even money")
        if person in target.insurance:
            refuse("10.3", "this person took insurance")

    def can_even_money(self, box: int, person: int) -> bool:
        try:
            self.verify_even_money(box, person)
        except IllegalAction:
            return False
        return True

    def even_money(self, box: int, person: int) -> EvenMoneyElected:
        """Pay ``person`` 1 to 1 at once on their request (10.3a). The box's cards go to the
        discard rack once everyone on it has been paid so; while someone on a shared box
        has not elected, the cards stay (10.3b) and the others' wagers wait for the
        dealer's hand (10.2)."""
        self.verify_even_money(box, person)
        target = self.play.boxes[box - 1]
        target.even_money.add(person)
        stake = target.stakes[person]
        self._flow.record_payout(
            Payout(box, 1, person, Kind.WAGER, Outcome.EVEN_MONEY, stake, stake, stake, 0,
                   "10.3(a)", True)
        )  # fmt: skip
        removed = target.even_money >= target.stakes.keys()
        if removed:
            target.hands[0].done = True
            target.settled_at_once = True
            self.play.removals.append((target, "10.3(b)"))
        record = EvenMoneyElected(box, person, True, removed)
        self._out.append(record)
        return record

    def next_even_money(self) -> tuple[int, int] | None:
        for box in self.play.in_play:
            for person in box.stakes:
                if person not in box.even_money and self.can_even_money(box.number, person):
                    return box.number, person
        return None

    def close_insurance(self) -> None:
        """Insurance (and even money) closes; boxes act."""
        self._flow.begin_play()

    # --- the shuffle (7.1) and the burn ---------------------------------------------------

    def verify_shuffled(self) -> None:
        """The shoe is shuffled between rounds, or at once when the cutting card came out
        as a round's first card (7.1b: before that round's first card is dealt)."""
        state = self.state
        if state == "round_over":
            return
        if state == "no_more_bets" and self.shuffle.due and not self.shuffle.cards_this_round:
            return
        refuse("7.1", f"the shoe is shuffled between rounds, not in {state}")

    def can_shuffled(self) -> bool:
        try:
            self.verify_shuffled()
        except IllegalAction:
            return False
        return True

    def shuffled(self) -> ShuffleConfirmed:
        """The dealer confirms the shuffle (the console's SHUFFLED). NEXT never does."""
        self.verify_shuffled()
        return self.confirm_shuffle("console")

    def confirm_shuffle(self, by: str) -> ShuffleConfirmed:
        """Report the shoe's end (3.3), start counting afresh; the burn is due."""
        due = self.shuffle.due
        self._out.append(self.audit.shoe_end())
        burns = self.variants.burn_cards
        self.shuffle.shuffled(burns)
        record = ShuffleConfirmed(due, by, burns)
        self._out.append(record)
        return record

    # --- playing a hand -------------------------------------------------------------------

    def verify_double(self, box: int, amount: int = 0) -> None:
        hand = self._flow.current_of(box)
        v = self.variants
        if len(hand.cards) != 2:
            refuse(TABLE_VARIANT, "only a two-card hand may be doubled")
        if hand.from_split and not v.double_after_split:
            refuse(TABLE_VARIANT, "no double after a split on this table")
        if v.double_on is DoubleOn.ANY_TWO_NO_ACE and hand.aces:
            refuse(TABLE_VARIANT, "a hand with an ace may not be doubled on this table")
        if v.double_on is DoubleOn.NINE_TO_ELEVEN and (hand.soft or not 9 <= hand.hard <= 11):
            refuse(TABLE_VARIANT, "only hard 9, 10 or 11 may be doubled on this table")
        if amount:
            self.check_double_extra(box, 1, amount)

    def check_double_extra(self, box: int, person: int, amount: int) -> None:
        stake = self.play.boxes[box - 1].stakes.get(person, 0)
        if not 0 < amount <= stake:
            refuse(
                TABLE_VARIANT,
                f"a double of {amount} on box {box}: the extra wager is up to the original "
                f"wager, {stake} (surrounding rules)",
            )
        if amount % self.variants.smallest_chip:
            refuse(TABLE_VARIANT, f"a double of {amount} is not whole chips")

    def can_double(self, box: int, amount: int = 0) -> bool:
        try:
            self.verify_double(box, amount)
        except IllegalAction:
            return False
        return True

    def double(self, box: int, amount: int = 0) -> Doubled:
        """Double the acting hand, one more card only. ``amount`` is the box holder's extra
        wager, up to the original (0: the full original); people betting behind double
        their full stake (they follow the holder's play)."""
        self.verify_double(box, amount)
        stakes = self.play.boxes[box - 1].stakes
        extras = {p: amount if p == 1 and amount else s for p, s in stakes.items()}
        return self.double_extras(box, extras)

    def double_extras(self, box: int, extras: dict[int, int]) -> Doubled:
        hand = self._flow.current_of(box)
        hand.doubled = True
        hand.extra = dict(extras)
        extra = sum(extras.values())
        self.play.wagers_in += extra
        record = Doubled(box, self.play.hand_index + 1, extra)
        self._out.append(record)
        return record

    def verify_split(self, box: int) -> None:
        hand = self._flow.current_of(box)
        cards = hand.cards
        if len(cards) != 2 or hand.hard // 2 * 2 != hand.hard or cards[0].rank != cards[1].rank:
            refuse(TABLE_VARIANT, "only a pair of equal rank may be split")
        if hand.split_aces:
            refuse(TABLE_VARIANT, "aces are split once only")
        if len(self.play.boxes[box - 1].hands) >= self.variants.max_split_hands:
            refuse(TABLE_VARIANT, f"at most {self.variants.max_split_hands} hands per box")

    def can_split(self, box: int) -> bool:
        try:
            self.verify_split(box)
        except IllegalAction:
            return False
        return True

    def split(self, box: int) -> SplitMade:
        """Split the acting pair into two hands; each gets its second card in turn."""
        self.verify_split(box)
        hand = self._flow.current_of(box)
        target = self.play.boxes[box - 1]
        aces = hand.cards[0].rank == ACE
        first, second = Hand(True, aces), Hand(True, aces)
        first.add(hand.cards[0])
        second.add(hand.cards[1])
        target.hands[self.play.hand_index : self.play.hand_index + 1] = [first, second]
        extra = sum(target.stakes.values())
        self.play.wagers_in += extra
        self.play.current = first
        record = SplitMade(box, self.play.hand_index + 1, len(target.hands), extra)
        self._out.append(record)
        return record

    def verify_stand(self, box: int) -> None:
        hand = self._flow.current_of(box)
        if hand.total <= self.variants.must_draw_to:
            refuse(TABLE_VARIANT, f"a player must draw to {self.variants.must_draw_to}")

    def can_stand(self, box: int) -> bool:
        try:
            self.verify_stand(box)
        except IllegalAction:
            return False
        return True

    def stand(self, box: int) -> Stood:
        self.verify_stand(box)
        hand = self._flow.current_of(box)
        hand.done = True
        record = Stood(box, self.play.hand_index + 1, hand.total)
        self._out.append(record)
        self._flow.advance()
        return record
