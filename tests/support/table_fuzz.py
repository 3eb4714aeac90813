"""What the game machines' stateful fuzzers share (hypothesis `RuleBasedStateMachine`).

`ShoeTableFuzz` is the part of blackjack's and baccarat's that is the same: cards from a
real N-deck shoe (reshuffled when it runs out, or when the game's own rule asks), now and
then any card, every console button at any moment, cutting-card reports, the rules API
called through ``_api`` (a refusal is an `IllegalAction` naming its rule), the dealer
rules of `DealerFuzz` (poker's fuzzer has those too), and the invariant that a HOLD and
every refusal cite a rule. Each game adds its setup, what it takes from the outputs
(``_take``), its rules-API calls and its dealer (``_dealer``).

`run_counted` runs a machine once under hypothesis, counting its examples for `run_for`.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from controller.cards import DECK, Card, shoe_cards
from controller.errors import IllegalAction
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton, ShoeStatusChanged
from tests.support.fuzzing import Counter

ANY_CARD = st.sampled_from(DECK)


class DealerFuzz(RuleBasedStateMachine):
    """Three rules that each let the game's dealer (``_dealer``) take the next step, so
    that among the random events rounds still get played through to settlement."""

    def _dealer(self, choice: int) -> None:
        raise NotImplementedError  # what the game's dealer would do next

    @rule(choice=st.integers(0, 99))
    def dealer(self, choice: int) -> None:
        self._dealer(choice)

    @rule(choice=st.integers(0, 99))
    def dealer_again(self, choice: int) -> None:
        self._dealer(choice)

    @rule(choice=st.integers(0, 99))
    def dealer_once_more(self, choice: int) -> None:
        self._dealer(choice)


class ShoeTableFuzz(DealerFuzz):
    """A table dealt from a shoe; ``table`` has ``handle``, ``take_outputs``, ``state`` and
    ``violations``. A subclass's setup sets ``table``, ``decks`` and ``rng``, then
    `_reload`s."""

    table: Any

    def __init__(self) -> None:
        super().__init__()
        self.decks = 1
        self.rng = random.Random(0)
        self.shoe: list[Card] = []
        self.cited: list[str] = []

    def _reload(self) -> None:
        self.shoe = list(shoe_cards(self.decks))
        self.rng.shuffle(self.shoe)

    def _take(self, out: list[Any]) -> None:
        raise NotImplementedError  # the game's records: settlements, violations

    def _api(self, name: str, *args: Any) -> None:
        try:
            getattr(self.table, name)(*args)
        except IllegalAction as exc:
            self.cited.append(exc.rule)
        self._take(self.table.take_outputs())

    @rule()
    def card_from_the_shoe(self) -> None:
        if not self.shoe:
            self._reload()
        self._take(self.table.handle(CardDrawn(source="shoe", card=self.shoe.pop())))

    @rule(card=ANY_CARD)
    def any_card(self, card: Card) -> None:
        self._take(self.table.handle(CardDrawn(source="shoe", card=card)))

    @rule(button=st.sampled_from(ConsoleButton))
    def press(self, button: ConsoleButton) -> None:
        self._take(self.table.handle(ButtonPressed(source="console", button=button)))

    @rule(seen=st.booleans())
    def cut_card(self, seen: bool) -> None:
        status = ShoeStatusChanged(
            source="shoe", cut_card_seen=seen, shoe_empty=False, door_open=False,
            gate_locked=False,
        )  # fmt: skip
        self._take(self.table.handle(status))

    @invariant()
    def holds_and_refusals_cite_rules(self) -> None:
        if self.table.state == "hold":
            assert self.table.violations and all(v.rule for v in self.table.violations)
        assert all(isinstance(r, str) and r for r in self.cited)


def run_counted(machine: type[RuleBasedStateMachine], counter: Counter, steps: settings) -> None:
    """One hypothesis run of ``machine``, each example counted in ``counter``."""

    class Counted(machine):  # type: ignore[valid-type,misc]
        def __init__(self) -> None:
            super().__init__()
            counter.hit()

    run_state_machine_as_test(Counted, settings=steps)
