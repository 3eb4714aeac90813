"""The table base: the mechanics every game's table shares, so that a game writes only its
rules (docs/architecture.md, "The kernel").

- `GameTable`, the base of every game's table: one list of outputs (records and
  commands, in the order they happened) that ``take_outputs`` drains; the gate and lamps
  worked out in one place, from the `PhaseFacts` of the state the table is in (`signals`,
  which a game overrides only where its facts are not the whole story); the HOLD
  (`violate`, and `begin_clear`, the preamble of every supervisor's clear).
- `Signals`: what the shoe's gate and the lamps were last told, and the commands for what
  changed since.
- `TableGame`, the adapter every game's ``game.py`` is (`controller.game.contract.Game`):
  a console action reaches only the rules-API calls its spec lists, a supervisor's
  decision reaches the table's ``decide``, every other event its ``handle``; whatever they
  produced is taken from the table, the same way for every game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from controller.cards import Card
from controller.game import registry
from controller.game.contract import GameSpec, Output, call_console
from controller.game.hold import Hold, HoldingPhases
from controller.game.jsonable import to_jsonable
from controller.game.machine import PhaseFacts
from controller.game.records import Violation
from controller.ports import (
    Command,
    ConsoleAction,
    Event,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    SupervisorAction,
    UnlockShoe,
)

__all__ = ["GameTable", "Signals", "TableGame"]

_OFF = LampPattern.OFF


class Signals:
    """What the shoe's gate and ``lamps`` were last told. `tell` returns the commands for
    what differs from that (everything, the first time): the devices hear each change once."""

    __slots__ = ("_lamps", "_last", "_told", "gate_locked")

    def __init__(self, lamps: Iterable[Lamp] = tuple(Lamp)) -> None:
        self._lamps = tuple(lamps)
        self._told: dict[Lamp, LampPattern] = {}
        self._last: tuple[bool, Mapping[Lamp, LampPattern]] | None = None
        self.gate_locked: bool | None = None  # None: the gate has not been told yet

    def tell(self, gate_open: bool, lamps: Mapping[Lamp, LampPattern]) -> list[Command]:
        """The commands that bring the gate to ``gate_open`` and the lamps to ``lamps``
        (a lamp not in it: off). The same facts as last time (the same mapping) cost one
        comparison: a table's state changes a few times a round, its events many times."""
        last = self._last
        if last is not None and last[0] is gate_open and last[1] is lamps:
            return []
        self._last = (gate_open, lamps)
        out: list[Command] = []
        locked = not gate_open
        if locked is not self.gate_locked:
            self.gate_locked = locked
            out.append(LockShoe() if locked else UnlockShoe())
        told = self._told
        for lamp in self._lamps:
            pattern = lamps.get(lamp, _OFF)
            if told.get(lamp) is not pattern:
                told[lamp] = pattern
                out.append(SetLamp(lamp, pattern))
        return out


class GameTable:
    """The base of a game's table. A subclass sets ``FACTS`` (its states' `PhaseFacts`;
    its machine has a ``hold`` state whose facts are `HOLD_FACTS`) and ``LAMPS`` (the
    lamps it drives), and calls ``super().__init__`` with its machine and the state a
    HOLD before anything else resumes to. Its rules-API calls and parts put what they
    produce on ``_out`` (in order); nothing else returns outputs."""

    FACTS: ClassVar[Mapping[str, PhaseFacts]]
    LAMPS: ClassVar[tuple[Lamp, ...]] = tuple(Lamp)

    def __init__(self, phases: HoldingPhases, held_from: str) -> None:
        self._phases = phases  # private: its triggers skip the rules (controller.game.machine)
        self._hold = Hold(held_from)  # the HOLD every game shares (controller.game.hold)
        self._out: list[Output] = []  # emptied by take_outputs, never replaced: parts share it
        self._signals = Signals(self.LAMPS)

    @property
    def state(self) -> str:
        """The table's state (a state of its machine), read-only."""
        return self._phases.state

    @property
    def gate_locked(self) -> bool | None:
        """Whether the shoe's gate was last told to lock (None: not told yet)."""
        return self._signals.gate_locked

    def signals(self) -> tuple[bool, Mapping[Lamp, LampPattern]]:
        """Whether the gate is open, and the lamps lit, now: the state's facts. A game
        whose gate or lamps also follow something else (a burn due, a chip to remove)
        overrides this, and still says it here only."""
        facts = self.FACTS[self._phases.state]
        return facts.gate_open, facts.lamps

    def take_outputs(self) -> list[Output]:
        """The records and commands produced since the last call, in order, then the gate
        and lamp commands for what changed (a new table's first call: all of them)."""
        out = self._out
        out += self._signals.tell(*self.signals())
        taken = out.copy()
        out.clear()
        return taken

    def violate(
        self,
        rule: str,
        message: str,
        card: Card | None = None,
        by: str = "the shoe",
        seat: int | None = None,
    ) -> Violation:
        """Hold the table on a broken ``rule`` (`Hold.violate`; ``seat``: the seat it
        concerns, if any): the violation is journaled, the machine moves to its ``hold``
        state, whose facts lock the gate and flash the red lamp."""
        violation = self._hold.violate(self._phases, rule, message, card, by, seat)
        self._out.append(violation)
        return violation

    def verify_not_held(self) -> None:
        """Nothing is dealt or bet on HOLD (`Hold.verify_not_held`)."""
        self._hold.verify_not_held()

    def begin_clear(self, who: str) -> tuple[Violation, ...]:
        """The preamble of every supervisor's clear, once the game has checked the decision
        itself: ``who`` names somebody and the table is held (`Hold.verify_clear`); the
        violations cleared, for the `HoldCleared` the game journals. The cards out under
        the HOLD stay on it (``_hold.cards``), for the decision to route."""
        self._hold.verify_clear(who)
        return self._hold.take_violations()


class TableGame:
    """A game behind the contract, the same for every game. A subclass passes its spec
    and its table, and gives ``snapshot`` (its display model, plain dataclasses) and
    ``offered`` (the supervisor decisions on offer now, `controller.game.records.offers`);
    it overrides ``decide`` only if a decision takes more than the clear."""

    table: Any  # the game's `GameTable`

    def __init__(self, spec: GameSpec, table: GameTable) -> None:
        self.spec = spec
        self.name = spec.name
        self.table = table
        self._console = frozenset(spec.console)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled for a snapshot without its spec (functions, closures: the code's, not
        the game's state); `__setstate__` finds it again by name in the registry."""
        state = self.__dict__.copy()
        del state["spec"], state["_console"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = registry.spec(self.name)
        self._console = frozenset(self.spec.console)

    @property
    def round_no(self) -> int:
        """The round the next journal rows belong to: the table's."""
        raise NotImplementedError

    def handle(self, event: Event) -> list[Output]:
        """Apply one event; return what it produced, in order."""
        if isinstance(event, ConsoleAction):
            call_console(self.name, self._console, self.table, event)
        elif isinstance(event, SupervisorAction):
            self.decide(event)
        else:
            handled: list[Output] = self.table.handle(event)
            return handled
        return self.pending()

    def decide(self, event: SupervisorAction) -> None:
        """A supervisor's decision: the table's ``supervisor_clear`` (who, decision)."""
        self.table.supervisor_clear(event.who, event.decision)

    def pending(self) -> list[Output]:
        """Outputs not yet taken (a new table's first gate and lamp states)."""
        taken: list[Output] = self.table.take_outputs()
        return taken

    def snapshot(self) -> object:
        raise NotImplementedError

    def offered(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def view(self) -> dict[str, Any]:
        """The game's state as plain JSON for the page and the pit, with the decisions on
        offer and what the page needs to draw it (`GameSpec.view_facts`)."""
        view: dict[str, Any] = to_jsonable(self.snapshot())
        view["decisions"] = self.offered()
        return self.spec.view_facts(view)
