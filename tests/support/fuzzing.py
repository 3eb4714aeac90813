"""Run a hypothesis test for a time budget instead of a fixed number of examples.

``FUZZ_SECONDS`` (default 2.5) is each target's budget: the normal test run keeps the whole
folder near 30 s; ``make fuzz SECONDS=600`` runs each target for ten minutes. The test is
run again and again (each run a fresh random seed, ``max_examples`` per run) until the
budget is spent; the first failure stops it with hypothesis' shrunk falsifying example.
``FUZZ_REPORT`` names a file to which each target appends one JSON line: the target, the
examples run and the seconds spent (the figures for the hardening note).

What the game machines' stateful fuzzers share (hypothesis `RuleBasedStateMachine`):
`ShoeTableFuzz` is the part of blackjack's and baccarat's that is the same: cards from a
real N-deck shoe (reshuffled when it runs out, or when the game's own rule asks), now and
then any card, every console button at any moment, cutting-card reports, the rules API
called through ``_api`` (a refusal is an `IllegalAction` naming its rule), the dealer
rules of `DealerFuzz` (poker's fuzzer has those too), and the invariant that a HOLD and
every refusal cite a rule. Each game adds its setup, what it takes from the outputs
(``_take``), its rules-API calls and its dealer (``_dealer``). `run_counted` runs a machine
once under hypothesis, counting its examples for `run_for`.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from controller.cards import DECK, Card, shoe_cards
from controller.errors import IllegalAction
from controller.ports import ButtonPressed, CardDrawn, ConsoleButton, ShoeStatusChanged

BUDGET = float(os.environ.get("FUZZ_SECONDS", "2.5"))
LONG = BUDGET > 30

FUZZ = settings(
    max_examples=2000 if LONG else 100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


class Counter:
    """Examples run by one target (the test body increments it)."""

    def __init__(self) -> None:
        self.examples = 0

    def hit(self) -> None:
        self.examples += 1


def run_for(name: str, test: Callable[[], None], counter: Counter, budget: float = BUDGET) -> int:
    """Call the hypothesis ``test`` until ``budget`` seconds have passed (at least once)."""
    started = time.monotonic()
    runs = 0
    while True:
        test()
        runs += 1
        if time.monotonic() - started >= budget:
            break
    spent = time.monotonic() - started
    report = os.environ.get("FUZZ_REPORT")
    if report:
        line = {"target": name, "examples": counter.examples, "runs": runs, "seconds": spent}
        with Path(report).open("a") as out:
            out.write(json.dumps(line) + "\n")
    return counter.examples


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
