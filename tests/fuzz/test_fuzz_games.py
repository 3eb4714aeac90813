"""Stateful fuzzing of the two game machines (hypothesis `RuleBasedStateMachine`; the
shoe, buttons, cut card and dealer rules blackjack shares
with baccarat: tests/support/fuzzing.py).

Random sequences of legal and illegal events: cards from a real N-deck shoe (reshuffled
when the table says 7.1 is due, or when it runs out), now and then any card (which may be
out of order or one copy too many), every console button at any moment, sensors, cut-card
reports, the rules API called with random arguments, supervisor decisions. Invariants:

- the event entry `handle` never raises; an API call raises nothing but `IllegalAction`
  (a refused action names its rule);
- chips balance: every blackjack `RoundSettled` has wagers_in = paid_out + house_result;
  at the poker table the chips in stacks, in the pot and raked always add up to what the
  players brought;
- a HOLD always cites a rule, and so does every violation and every refusal.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    initialize,
    invariant,
    precondition,
    rule,
)

from controller.blackjack.records import HoldDecision, RoundSettled
from controller.blackjack.records import Violation as BjViolation
from controller.blackjack.rules import DealerBlackjackTakes, DoubleOn, Variants
from controller.blackjack.table import BlackjackTable
from controller.cards import DECK, Card
from controller.errors import IllegalAction
from controller.game import ActionRefused
from controller.game.records import Violation as PkViolation
from controller.poker.records import HandSettled
from controller.poker.rules import PokerRules
from controller.poker.table import HoldDecision as PokerDecision
from controller.poker.table import PokerTable
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleButton,
    SpotCleared,
    SpotOccupied,
)
from tests.support.fuzzing import (
    ANY_CARD,
    BUDGET,
    FUZZ,
    Counter,
    DealerFuzz,
    ShoeTableFuzz,
    run_counted,
    run_for,
)

STEPS = settings(FUZZ, max_examples=FUZZ.max_examples // 4, stateful_step_count=120)
spots = st.sampled_from(
    ["box1", "box2", "box3", "box1.p2", "box7", "insurance1", "insurance2", "insurance1.p2",
     "discard", "box9", "nonsense"]
)  # fmt: skip


class BlackjackFuzz(ShoeTableFuzz):
    def __init__(self) -> None:
        super().__init__()
        self.table = BlackjackTable()
        self.settled: list[RoundSettled] = []

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        soft17=st.booleans(),
        double_on=st.sampled_from(DoubleOn),
        takes=st.sampled_from(DealerBlackjackTakes),
        sensors=st.booleans(),
        rack=st.booleans(),
        decks=st.integers(4, 8),
    )
    def setup(
        self, seed: int, soft17: bool, double_on: DoubleOn, takes: DealerBlackjackTakes,
        sensors: bool, rack: bool, decks: int,
    ) -> None:  # fmt: skip
        variants = Variants(
            decks=decks, dealer_hits_soft_17=soft17, double_on=double_on,
            dealer_blackjack_takes=takes, insurance_sensors=sensors, discard_rack_reader=rack,
        )  # fmt: skip
        self.table = BlackjackTable(variants)
        self.decks = decks
        self.rng = random.Random(seed)
        self._reload()

    def _take(self, out: list[Any]) -> None:
        for item in out:
            if isinstance(item, RoundSettled):
                self.settled.append(item)
            if isinstance(item, BjViolation | ActionRefused):
                self.cited.append(item.rule)

    @rule()
    def shuffled(self) -> None:
        """The dealer shuffles and confirms SHUFFLED (NEXT never confirms a shuffle, 7.1)."""
        if self.table.can_shuffled():
            self._reload()
        self._api("shuffled")

    @rule(spot=spots, on=st.booleans(), total=st.one_of(st.none(), st.integers(0, 30)))
    def sensor(self, spot: str, on: bool, total: int | None) -> None:
        if total is not None and on:
            event: Any = ChipsSensed(source="chips", spot=spot, total=total)
        elif on:
            event = SpotOccupied(source="layout", spot=spot)
        else:
            event = SpotCleared(source="layout", spot=spot)
        self._take(self.table.handle(event))

    @rule(box=st.integers(0, 8), person=st.integers(0, 4), amount=st.integers(-2, 40))
    def wager_or_insure(self, box: int, person: int, amount: int) -> None:
        self._api("place_wager" if amount % 2 else "insure", box, person, amount)

    @rule(name=st.sampled_from(["double", "split", "stand"]), box=st.integers(0, 8))
    def play(self, name: str, box: int) -> None:
        self._api(name, box)

    @rule(box=st.integers(0, 8), person=st.integers(0, 4))
    def even_money(self, box: int, person: int) -> None:
        self._api("even_money", box, person)

    @rule()
    def confirm_removal(self) -> None:
        self._api("confirm_removal")

    @rule(
        who=st.sampled_from(["pit boss", "", " "]),
        decision=st.sampled_from(HoldDecision),
        box=st.one_of(st.none(), st.integers(0, 8)),
    )
    def supervisor(self, who: str, decision: HoldDecision, box: int | None) -> None:
        self._api("supervisor_clear", who, decision, box)

    def _dealer(self, choice: int) -> None:
        """What a dealer would do next: keeps rounds going to settlement."""
        table, state = self.table, self.table.state
        press = self.press
        if state == "hold":
            self._api("supervisor_clear", "pit boss", HoldDecision.KEEP_CARD)
        elif table.awaiting_removal:
            if table.variants.discard_rack_reader:
                self.sensor("discard", True, None)
            else:
                press(ConsoleButton.NEXT)
        elif state == "round_over" and table.shuffle.due:
            self.shuffled()
        elif state == "round_over" and table.shuffle.burns_due:
            self.card_from_the_shoe()  # the burn
        elif state in ("round_over", "settlement", "insurance"):
            press(ConsoleButton.NEXT)
        elif state == "betting":
            if not table.wagers_in and choice % 3:
                self._api("place_wager", 1 + choice % 3, 1, 2 + choice % 10)
            else:
                press(ConsoleButton.NO_MORE_BETS)
        elif state == "insurance_settlement":
            press(ConsoleButton.INSURANCE_CLOSED)
            for box in (1, 2, 3):
                self.sensor(f"insurance{box}", False, None)
        elif state == "boxes_acting" and choice % 2 and table.current_hand is not None:
            if len(table.current_hand.cards) >= 2:
                press(ConsoleButton.NEXT)
            else:
                self.card_from_the_shoe()
        else:
            self.card_from_the_shoe()

    @invariant()
    def rounds_balance(self) -> None:
        for settled in self.settled:
            assert settled.wagers_in == settled.paid_out + settled.house_result, settled


bj_count = Counter()


def check_blackjack() -> None:
    run_counted(BlackjackFuzz, bj_count, STEPS)


def test_fuzz_blackjack_machine() -> None:
    assert run_for("blackjack machine", check_blackjack, bj_count, BUDGET * 2) > 0


class PokerFuzz(DealerFuzz):
    def __init__(self) -> None:
        super().__init__()
        self.table = PokerTable(PokerRules(seats=6))
        self.rng = random.Random(0)
        self.deck: list[Card] = []
        self.brought = 0
        self.raked = 0
        self.cited: list[str] = []

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        stacks=st.lists(st.integers(1, 60), min_size=2, max_size=6),
        rake=st.integers(0, 10),
        burn=st.booleans(),
    )
    def setup(self, seed: int, stacks: list[int], rake: int, burn: bool) -> None:
        self.table = PokerTable(
            PokerRules(seats=6, rake_percent=rake, rake_cap=5, burn_before_draw=burn)
        )
        for seat, chips in enumerate(stacks, start=1):
            self.table.sit(seat, chips)
        self.brought = sum(stacks)
        self.rng = random.Random(seed)

    def _take(self, out: list[Any]) -> None:
        for item in out:
            if isinstance(item, HandSettled):
                self.raked += item.rake
            if isinstance(item, PkViolation):
                self.cited.append(item.rule)

    def _api(self, name: str, *args: Any) -> None:
        try:
            getattr(self.table, name)(*args)
        except IllegalAction as exc:
            self.cited.append(exc.rule)
        self._take(self.table.take_outputs())

    @rule()
    def start_hand(self) -> None:
        before = self.table.hand_no
        self._api("start_hand")
        if self.table.hand_no != before:
            self.deck = list(DECK)
            self.rng.shuffle(self.deck)

    @rule()
    def card_from_the_deck(self) -> None:
        if self.deck:
            self._take(self.table.handle(CardDrawn(source="shoe", card=self.deck.pop())))

    @rule(card=ANY_CARD)
    def any_card(self, card: Card) -> None:
        self._take(self.table.handle(CardDrawn(source="shoe", card=card)))

    @rule(name=st.sampled_from(["check", "call", "fold"]), seat=st.integers(0, 7))
    def bet(self, name: str, seat: int) -> None:
        self._api(name, seat)

    @rule(seat=st.integers(0, 7), amount=st.integers(-3, 80))
    def raise_(self, seat: int, amount: int) -> None:
        self._api("raise_", seat, amount)

    @precondition(lambda self: self.table.draw is not None)
    @rule(data=st.data())
    def discard(self, data: st.DataObject) -> None:
        seat = self.table.draw.drawer if self.table.draw else None
        seat = data.draw(st.one_of(st.just(seat or 1), st.integers(0, 7)))
        count = data.draw(st.integers(-1, 6))
        held = self.table.hands.get(seat, [])
        cards = data.draw(st.one_of(st.none(), st.lists(st.sampled_from(held or list(DECK)))))
        self._api("discard", seat, count, cards)

    @rule(seat=st.integers(1, 6), cards=st.lists(ANY_CARD, min_size=5, max_size=5, unique=True))
    def expose(self, seat: int, cards: list[Card]) -> None:
        self._api("expose", seat, cards)

    @rule(decision=st.sampled_from(PokerDecision), who=st.sampled_from(["pit boss", ""]))
    def supervisor(self, decision: PokerDecision, who: str) -> None:
        self._api("supervisor_clear", who, decision)

    @rule(by=st.integers(0, 7), seat=st.one_of(st.none(), st.integers(0, 7)))
    def request_to_see(self, by: int, seat: int | None) -> None:  # 11.4(c)
        self._api("request_to_see", by, seat)

    @rule(seat=st.integers(0, 7), chips=st.integers(-1, 30))
    def seats_change(self, seat: int, chips: int) -> None:
        table = self.table
        try:
            if chips == 0:
                left = table.stacks.get(seat, 0)
                table.leave(seat)
                self.brought -= left
            elif seat in table.stacks:
                table.add_chips(seat, chips)
                self.brought += chips
            else:
                table.sit(seat, chips)
                self.brought += chips
        except IllegalAction as exc:
            self.cited.append(exc.rule)

    @rule()
    def next_button(self) -> None:
        try:
            self._take(
                self.table.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
            )
        except IllegalAction as exc:  # NEXT starts a hand through the rules API
            self.cited.append(exc.rule)

    def _dealer(self, choice: int) -> None:
        """What a dealer would do next: keeps hands going to the showdown."""
        table, state = self.table, self.table.state
        if table.hold is not None:
            self._api("supervisor_clear", "pit boss", PokerDecision.ACCEPT)
        elif state in ("waiting", "complete"):
            self.start_hand()
        elif state in ("first_round", "final_round") and table.betting is not None:
            seat = table.betting.to_act
            if seat is not None:
                name = "fold" if choice % 7 == 0 else "call" if choice % 3 else "check"
                self._api(name, seat)
                if choice % 5 == 0:
                    self._api("raise_", seat, table.rules.minimum_wager)
        elif state == "drawing" and table.draw is not None and table.draw.owed is None:
            seat = table.draw.drawer
            if seat is not None:
                held = table.hands.get(seat, [])
                count = min(choice % 4, len(held))
                self._api("discard", seat, count, held[:count] if choice % 2 else None)
        elif state == "showdown":
            for seat in table.in_hand:
                if table.unknown_kept.get(seat):
                    known = table.hands[seat]
                    rest = [c for c in DECK if c not in table.seen and c not in known]
                    self._api("expose", seat, [*known, *rest[: 5 - len(known)]])
        else:
            self.card_from_the_deck()

    @invariant()
    def chips_balance(self) -> None:
        table = self.table
        settled = table.last_settlement is not None and table.last_settlement.hand == table.hand_no
        in_pot = 0 if settled or table.hand_no == 0 else sum(table.contributed.values())
        assert sum(table.stacks.values()) + in_pot + self.raked == self.brought

    @invariant()
    def holds_cite_rules(self) -> None:
        if self.table.hold is not None:
            assert self.table.hold.rule
        assert all(isinstance(r, str) and r for r in self.cited)


pk_count = Counter()


def check_poker() -> None:
    run_counted(PokerFuzz, pk_count, STEPS)


def test_fuzz_poker_machine() -> None:
    assert run_for("poker machine", check_poker, pk_count, BUDGET * 2) > 0
