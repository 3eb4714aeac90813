"""Stateful fuzzing of the baccarat machine (hypothesis `RuleBasedStateMachine`), like the
other games' in test_fuzz_games.py (the part it shares with
blackjack's: tests/support/fuzzing.py).

Random sequences of legal and illegal events: cards from a real 6- or 8-deck shoe
(reloaded when the table asks for a new shoe, or when it runs out), now and then any card
(out of turn, or one copy too many), every console button at any moment, cutting-card
reports, the rules API with random arguments (wagers, NO MORE BETS, SHUFFLED, commission),
supervisor decisions, and a dealer that keeps coups going. Invariants:

- `handle` never raises; an API call raises nothing but `IllegalAction` naming its rule;
- every coup balances: wagers in = paid out + the house's result, every stake settled once;
- a settled coup's result follows the Table of Play: the hands hold 2 or 3 cards, a
  Natural has two each, and a third card only where the tableau allows it;
- the commission accounts are never negative; a HOLD always cites a rule.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import initialize, invariant, rule

from controller.baccarat.records import CoupSettled, HoldDecision, Violation
from controller.baccarat.rules import BaccaratRules, Variant
from controller.baccarat.table import BaccaratTable
from controller.cards import Card
from controller.game import ActionRefused
from controller.ports import ConsoleButton
from tests.support.fuzzing import BUDGET, FUZZ, Counter, ShoeTableFuzz, run_counted, run_for

STEPS = settings(FUZZ, max_examples=FUZZ.max_examples // 4, stateful_step_count=150)
BETS = st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair", "dragon"])
POINT = {rank: (1 if rank == 14 else rank if rank < 10 else 0) for rank in range(2, 15)}


def points(cards: tuple[str, ...]) -> int:
    return sum(POINT[Card.parse(c).rank] for c in cards) % 10


class BaccaratFuzz(ShoeTableFuzz):
    def __init__(self) -> None:
        super().__init__()
        self.table = BaccaratTable()
        self.settled: list[CoupSettled] = []

    @initialize(
        seed=st.integers(0, 2**32 - 1),
        decks=st.sampled_from([6, 8]),
        variant=st.sampled_from(Variant),
        burn=st.booleans(),
        differential=st.one_of(st.none(), st.integers(0, 60)),
    )
    def setup(
        self, seed: int, decks: int, variant: Variant, burn: bool, differential: int | None
    ) -> None:
        rules = BaccaratRules(
            decks=decks, boxes=4, variant=variant, burn_by_first_card=burn,
            table_differential=differential, maximum_wager=50,
        )  # fmt: skip
        self.table = BaccaratTable(rules)
        self.decks = decks
        self.rng = random.Random(seed)
        self._reload()

    def _take(self, out: list[Any]) -> None:
        for item in out:
            if isinstance(item, CoupSettled):
                self.settled.append(item)
                self._check_coup(item)
            if isinstance(item, Violation | ActionRefused):
                self.cited.append(item.rule)

    def _check_coup(self, settled: CoupSettled) -> None:
        table = self.table
        assert settled.wagers_in == settled.paid_out + settled.house_result
        assert settled.wagers_in == sum(amount for _, _, amount in table.stakes)
        assert len(table.payouts) == len(table.stakes)
        result = table.result
        if settled.void or result is None:
            return
        p_cards, b_cards = result.player_cards, result.banker_cards
        p2, b2 = points(p_cards[:2]), points(b_cards[:2])
        assert (points(p_cards), points(b_cards)) == (result.player_total, result.banker_total)
        if p2 >= 8 or b2 >= 8:
            assert len(p_cards) == len(b_cards) == 2 and result.natural
            return
        assert len(p_cards) == (3 if p2 <= 5 else 2)
        if len(p_cards) == 2:
            assert len(b_cards) == (3 if b2 <= 5 else 2)
        else:
            third = POINT[Card.parse(p_cards[2]).rank]
            draws = {0: range(10), 1: range(10), 2: range(10), 3: [0, 1, 2, 3, 4, 5, 6, 7, 9],
                     4: range(2, 8), 5: range(4, 8), 6: [6, 7], 7: []}  # fmt: skip
            assert len(b_cards) == (3 if third in draws[b2] else 2)

    @rule(box=st.integers(0, 5), bet=BETS, amount=st.integers(-2, 60))
    def wager(self, box: int, bet: str, amount: int) -> None:
        self._api("place_wager", box, bet, amount)

    @rule()
    def no_more_bets(self) -> None:
        self._api("no_more_bets")

    @rule()
    def shuffled(self) -> None:
        if self.table.state == "shuffle":
            self._reload()
        self._api("shuffled")

    @rule(box=st.integers(0, 5))
    def collect_commission(self, box: int) -> None:
        self._api("collect_commission", box)

    @rule(who=st.sampled_from(["pit boss", "", " "]), decision=st.sampled_from(
        [*HoldDecision, "nonsense"]))  # fmt: skip
    def supervisor(self, who: str, decision: str) -> None:
        self._api("supervisor_clear", who, decision)

    def _dealer(self, choice: int) -> None:
        """What a dealer would do next: keeps coups going to settlement."""
        table, state = self.table, self.table.state
        if state == "hold":
            decision = HoldDecision.VOID_HAND if choice % 5 == 0 else HoldDecision.BURN_CARD
            self._api("supervisor_clear", "pit boss", decision)
            if table.state == "hold":
                self._api("supervisor_clear", "pit boss", HoldDecision.BURN_CARD)
        elif state == "shuffle":
            self.shuffled()
        elif state == "betting":
            if choice % 3:
                bet = ("banker", "player", "tie", "player_pair")[choice % 4]
                self._api("place_wager", 1 + choice % 4, bet, 5 + choice % 40)
            else:
                self.press(ConsoleButton.NO_MORE_BETS)
                if table.state == "betting":  # over the differential: start afresh
                    for box in range(1, 5):
                        for bet in ("banker", "player"):
                            self._api("place_wager", box, bet, 0)
        elif state == "settlement":
            self.press(ConsoleButton.NEXT)
        else:
            self.card_from_the_shoe()

    @invariant()
    def commission_accounts(self) -> None:
        assert all(owed >= 0 for owed in self.table.commission_owed)


count = Counter()


def check_baccarat() -> None:
    run_counted(BaccaratFuzz, count, STEPS)


def test_fuzz_baccarat_machine() -> None:
    assert run_for("baccarat machine", check_baccarat, count, BUDGET * 2) > 0
