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
- Player rating, the same for every game (`controller.rating`, docs/ratings.md): the
  console's rating actions (`RATING_CONSOLE`) and the supervisor's `RATING_DECISIONS`
  reach the table's `RatingBook` here, as a player's card and the table's close do; at
  each round's end the game says what each box wagered and won (`rating_round`).
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Iterable, Mapping
from fractions import Fraction
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
    PlayerCardPresented,
    SetLamp,
    SupervisorAction,
    TableClosed,
    UnlockShoe,
    reads_player_cards,
)
from controller.rating import DecisionCost, RatingBook, RatingSettings, RoundFigures

__all__ = ["RATING_CONSOLE", "RATING_DECISIONS", "GameTable", "Signals", "TableGame"]

_OFF = LampPattern.OFF

# one remembered change of facts: the facts told before (None: nothing), the facts now,
# and the commands between them
_Move = tuple[Mapping[Lamp, LampPattern] | None, Mapping[Lamp, LampPattern], tuple[Command, ...]]


class Signals:
    """What the shoe's gate and ``lamps`` were last told. `tell` returns the commands for
    what differs from that (everything, the first time): the devices hear each change once.

    The facts told are constants (a state's `PhaseFacts`, a game's module-level mapping),
    never changed once told, so what was told is the last facts, and the commands from one
    pair of facts to the next are worked out once per table (a coup changes state five
    times, and the simulators play millions)."""

    __slots__ = ("_lamps", "_last", "_moves", "gate_locked")

    _MOVES_KEPT = 256  # pairs of facts remembered: a game's states make a few dozen

    def __init__(self, lamps: Iterable[Lamp] = tuple(Lamp)) -> None:
        self._lamps = tuple(lamps)
        self._last: tuple[bool, Mapping[Lamp, LampPattern]] | None = None
        # (told, now) by identity -> (the mappings, kept alive so no id is reused; commands)
        self._moves: dict[tuple[int, bool, int, bool], _Move] = {}
        self.gate_locked: bool | None = None  # None: the gate has not been told yet

    def tell(self, gate_open: bool, lamps: Mapping[Lamp, LampPattern]) -> list[Command]:
        """The commands that bring the gate to ``gate_open`` and the lamps to ``lamps``
        (a lamp not in it: off). The same facts as last time (the same mapping) cost one
        comparison: a table's state changes a few times a round, its events many times."""
        return list(self.changes(gate_open, lamps))

    def changes(self, gate_open: bool, lamps: Mapping[Lamp, LampPattern]) -> tuple[Command, ...]:
        """`tell`'s commands as a tuple the caller must not keep changing (it is shared)."""
        last = self._last
        if last is None:
            key = (0, False, id(lamps), gate_open)
        elif last[0] is gate_open and last[1] is lamps:
            return ()
        else:
            key = (id(last[1]), last[0], id(lamps), gate_open)
        self._last = (gate_open, lamps)
        self.gate_locked = not gate_open
        move = self._moves.get(key)
        if move is not None and move[1] is lamps and (last is None or move[0] is last[1]):
            return move[2]
        commands = self._commands(last, gate_open, lamps)
        if len(self._moves) < self._MOVES_KEPT:
            self._moves[key] = (None if last is None else last[1], lamps, commands)
        return commands

    def _commands(
        self,
        last: tuple[bool, Mapping[Lamp, LampPattern]] | None,
        gate_open: bool,
        lamps: Mapping[Lamp, LampPattern],
    ) -> tuple[Command, ...]:
        """What differs between the ``last`` facts told (None: nothing told) and these."""
        out: list[Command] = []
        if last is None or bool(last[0]) is not bool(gate_open):
            out.append(UnlockShoe() if gate_open else LockShoe())
        told = {} if last is None else last[1]
        for lamp in self._lamps:
            pattern = lamps.get(lamp, _OFF)
            if last is None or told.get(lamp, _OFF) is not pattern:
                out.append(SetLamp(lamp, pattern))
        return tuple(out)


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
        out += self._signals.changes(*self.signals())
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


class TableGame(abc.ABC):
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
        self.ratings = RatingBook(self.name, {}, "console")  # off until `rate`
        self._round_records: list[Any] = []  # this round's records so far, while rating

    def __getstate__(self) -> dict[str, Any]:
        """The app's snapshots pickle the game (`controller.app.runtime.snapshots`), never
        its spec: a spec holds functions a pickle cannot name (lambdas, closures made at
        import). A loaded game finds its spec again by its name (`__setstate__`)."""
        state = self.__dict__.copy()
        del state["spec"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.spec = registry.spec(self.name)

    @property
    @abc.abstractmethod
    def round_no(self) -> int:
        """The round the next journal rows belong to: the table's."""

    def handle(self, event: Event) -> list[Output]:
        """Apply one event; return what it produced, in order (the game's records, then
        the ratings' it caused)."""
        if isinstance(event, ConsoleAction) and event.action in RATING_CONSOLE:
            getattr(self, event.action)(**event.args)
            return self.pending()
        if isinstance(event, SupervisorAction) and event.decision in RATING_DECISIONS:
            reason = event.reason or str(event.args.get("reason") or "")
            args = {k: v for k, v in event.args.items() if k != "reason"}
            getattr(self, event.decision)(event.who, **args, reason=reason)
            return self.pending()
        if isinstance(event, PlayerCardPresented):
            self.ratings.card_presented(
                event.box, event.number, event.source, self.rating_boxes(), self.round_no
            )
            return self.pending()
        if reads_player_cards(event.source):
            return []  # a box's player-card reader's fault or loss: never the shoe's
        if isinstance(event, TableClosed):
            self.ratings.close()
            return self.pending()
        rating = self.ratings.settings.enabled
        before = self.rating_before(event) if rating else None
        if isinstance(event, ConsoleAction):
            call_console(self.name, self._console, self.table, event)
            outputs = self.table.take_outputs()
        elif isinstance(event, SupervisorAction):
            self.decide(event)
            outputs = self.table.take_outputs()
        else:
            outputs = self.table.handle(event)
        return self._rated(before, outputs) if rating else outputs

    def decide(self, event: SupervisorAction) -> None:
        """A supervisor's decision: the table's ``supervisor_clear`` (who, decision)."""
        self.table.supervisor_clear(event.who, event.decision)

    def pending(self) -> list[Output]:
        """Outputs not yet taken (a new table's first gate and lamp states)."""
        taken: list[Output] = self.table.take_outputs()
        return taken + self.ratings.take_outputs()

    # --- player rating (docs/ratings.md) ---------------------------------------------------

    def rate(self, settings: RatingSettings, decision_cost: DecisionCost | None = None) -> None:
        """Rate players at this table under ``settings`` (``[rating]``), a blackjack
        box's decisions judged by ``decision_cost`` (None: not judged). Called once,
        on a fresh game, before the replay."""
        self.ratings = RatingBook(
            self.name, self.rating_edges(settings), self.wager_source(), settings, decision_cost
        )

    def at(self, wall: str, who: str | None = None) -> None:
        """The wall time (ISO) of the event about to be applied, the time its journal row
        gets, and who acts in it: the ratings read no clock, so a replay times them alike."""
        self.ratings.at(wall, who)

    def rating_boxes(self) -> Collection[int]:
        """The boxes (seats) a rating may open at: the table's. A game says its own."""
        return ()

    def rating_edges(self, settings: RatingSettings) -> Mapping[str, Fraction]:
        """Each bet type's house edge at this table (a fraction of the stake)."""
        return {}

    def wager_source(self) -> str:
        """ "chips" when chip readers measure every wager, else "console"."""
        return "console"

    def rating_before(self, event: Event) -> object:
        """What a game notes before a rated event (blackjack: the hands, to see a play)."""
        return None

    def rating_after(self, before: object, outputs: list[Output]) -> None:
        """What a game notes after a rated event, given what it noted before."""
        return None

    def rating_round(self, records: list[Any]) -> RoundFigures | None:
        """Each box's wagers and result in the round whose ``records`` (every record of
        the round, its end last) just ended; None: the game counts no wagers."""
        return None

    def _rated(self, before: object, outputs: list[Output]) -> list[Output]:
        self.rating_after(before, outputs)
        for output in outputs:
            if isinstance(output, Command):
                continue
            self._round_records.append(output)
            if type(output).__name__ == self.spec.round_end:
                records, self._round_records = self._round_records, []
                figures = self.rating_round(records)
                if figures is not None:
                    self.ratings.round_ended(figures)
        return outputs + self.ratings.take_outputs()

    def start_rating(self, box: int, player: str = "") -> None:
        """Open a rating at ``box`` from the console; ``player`` empty: anonymous."""
        self.ratings.start_rating(box, player, self.rating_boxes(), self.round_no)

    def name_rating(self, box: int, player: str) -> None:
        """Name box ``box``'s rating's player (an anonymous rating named later)."""
        self.ratings.name_rating(box, player)

    def end_rating(self, box: int) -> None:
        """End box ``box``'s rating (the dealer's end)."""
        self.ratings.end_rating(box)

    def move_rating(self, box: int, to_box: int) -> None:
        """The player at ``box`` moved to ``to_box``: that rating ends, a new one opens."""
        self.ratings.move_rating(box, to_box, self.rating_boxes(), self.round_no)

    def adjust_average_bet(self, who: str, box: int, average_bet: int, reason: str = "") -> None:
        """A supervisor's average bet for box ``box``'s rating, with the reason."""
        self.ratings.adjust_average_bet(who, box, average_bet, reason)

    @abc.abstractmethod
    def snapshot(self) -> object:
        """The game's display model (plain dataclasses), for `view`."""

    @abc.abstractmethod
    def offered(self) -> list[dict[str, Any]]:
        """The supervisor decisions on offer now (`controller.game.records.offers`)."""

    def view(self) -> dict[str, Any]:
        """The game's state as plain JSON for the page and the pit, with the decisions on
        offer and what the page needs to draw it (`GameSpec.view_facts`)."""
        view: dict[str, Any] = to_jsonable(self.snapshot())
        view["decisions"] = self.offered()
        if self.ratings.settings.enabled:
            view["rated"] = self.ratings.marks()  # a mark per box, never a card's number
        return self.spec.view_facts(view)


# The console's rating actions and the supervisor's rating decision, the same at every
# table: name -> the method (its signature is the console's schema).
RATING_CONSOLE: Mapping[str, Any] = {
    name: getattr(TableGame, name)
    for name in ("start_rating", "name_rating", "end_rating", "move_rating")
}
RATING_DECISIONS: Mapping[str, Any] = {"adjust_average_bet": TableGame.adjust_average_bet}
