"""The table base (controller/game/table.py): the gate and lamps told once per change from
the state's facts, one list of outputs drained in order, the HOLD through the kernel."""

from __future__ import annotations

import pickle
from typing import Any, ClassVar

import pytest

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import registry as games
from controller.game.contract import GameSpec
from controller.game.machine import HOLD_FACTS, PhaseFacts, PhaseModel, fire
from controller.game.records import HOLD_PROCEDURE, Violation
from controller.game.table import GameTable, Signals, TableGame
from controller.ports import DeviceNeeds, Lamp, LampPattern, LockShoe, SetLamp, UnlockShoe

STEADY, FLASH, OFF = LampPattern.STEADY, LampPattern.FLASH, LampPattern.OFF
BETTING = {Lamp.BETTING_OPEN: STEADY}


def test_signals_tell_everything_the_first_time_then_only_what_changed() -> None:
    signals = Signals((Lamp.BETTING_OPEN, Lamp.HOLD))
    assert signals.gate_locked is None
    assert signals.tell(False, BETTING) == [
        LockShoe(),
        SetLamp(Lamp.BETTING_OPEN, STEADY),
        SetLamp(Lamp.HOLD, OFF),
    ]
    assert signals.gate_locked is True
    assert signals.tell(False, BETTING) == []  # the same facts: nothing to say
    assert signals.tell(False, dict(BETTING)) == []  # equal facts, another mapping: nothing
    assert signals.tell(True, {}) == [UnlockShoe(), SetLamp(Lamp.BETTING_OPEN, OFF)]
    assert signals.tell(True, {Lamp.HOLD: FLASH, Lamp.DEALER_ACTION: STEADY}) == [
        SetLamp(Lamp.HOLD, FLASH)  # a lamp the table does not drive is never told
    ]


def test_signals_remember_each_change_of_facts_and_tell_it_the_same_again() -> None:
    signals = Signals((Lamp.BETTING_OPEN, Lamp.HOLD))
    hold = {Lamp.HOLD: FLASH}
    first = signals.tell(False, BETTING)
    to_hold = [SetLamp(Lamp.BETTING_OPEN, OFF), SetLamp(Lamp.HOLD, FLASH)]
    back = [SetLamp(Lamp.BETTING_OPEN, STEADY), SetLamp(Lamp.HOLD, OFF)]
    for _ in range(2):  # computed, then remembered: the same commands, the same gate
        assert signals.tell(False, hold) == to_hold and signals.gate_locked is True
        assert signals.tell(False, BETTING) == back
        assert signals.tell(True, BETTING) == [UnlockShoe()] and signals.gate_locked is False
        assert signals.tell(False, BETTING) == [LockShoe()] and signals.gate_locked is True
    again = Signals((Lamp.BETTING_OPEN, Lamp.HOLD))
    assert again.tell(False, BETTING) == first  # a new one is told everything
    assert signals.tell(False, {Lamp.HOLD: FLASH}) == to_hold  # equal facts, a new mapping


STATES = ["idle", "dealing", "hold"]
MOVES: list[dict[str, Any]] = [
    {"trigger": "start", "source": "idle", "dest": "dealing"},
    {"trigger": "raise_hold", "source": ["idle", "dealing"], "dest": "hold"},
    {"trigger": "resume_dealing", "source": "hold", "dest": "dealing"},
]


class Phases(PhaseModel):
    def __init__(self) -> None:
        super().__init__(STATES, MOVES, "idle")

    def fire(self, trigger: str) -> None:
        fire(self, trigger, {"start": "t1", "raise_hold": HOLD_PROCEDURE})


class Table(GameTable):
    FACTS: ClassVar[dict[str, PhaseFacts]] = {
        "idle": PhaseFacts(lamps=BETTING),
        "dealing": PhaseFacts(gate_open=True),
        "hold": HOLD_FACTS,
    }
    LAMPS = (Lamp.BETTING_OPEN, Lamp.HOLD)

    def __init__(self) -> None:
        super().__init__(Phases(), "idle")

    def start(self) -> None:
        self._out.append(Violation("t0", "a record before the state moves"))
        self._phases.fire("start")


def test_a_new_table_s_first_outputs_are_its_gate_and_lamps() -> None:
    table = Table()
    assert table.take_outputs() == [
        LockShoe(),
        SetLamp(Lamp.BETTING_OPEN, STEADY),
        SetLamp(Lamp.HOLD, OFF),
    ]
    assert table.take_outputs() == []
    assert table.gate_locked is True


def test_records_come_first_then_the_signals_of_the_state_reached() -> None:
    table = Table()
    table.take_outputs()
    table.start()
    record = Violation("t0", "a record before the state moves")
    assert table.take_outputs() == [record, UnlockShoe(), SetLamp(Lamp.BETTING_OPEN, OFF)]
    assert table.state == "dealing" and table.gate_locked is False


def test_hold_procedure_violate_holds_and_the_hold_facts_lock_the_gate_and_flash() -> None:
    table = Table()
    table.start()
    table.take_outputs()
    violation = table.violate("t2", "a card out of turn", Card.parse("As"))
    assert (violation.rule, violation.state, violation.card) == ("t2", "dealing", "As")
    assert table.state == "hold"
    assert table.take_outputs() == [violation, LockShoe(), SetLamp(Lamp.HOLD, FLASH)]
    with pytest.raises(IllegalAction, match="on HOLD"):
        table.verify_not_held()


def test_hold_procedure_begin_clear_needs_a_name_and_a_hold() -> None:
    table = Table()
    with pytest.raises(IllegalAction, match="not on hold"):
        table.begin_clear("Sam")
    first = table.violate("t2", "one")
    second = table.violate("t3", "two")
    with pytest.raises(IllegalAction, match="must be named"):
        table.begin_clear("  ")
    assert table.begin_clear("Sam") == (first, second)
    table.verify_not_held()  # cleared: the game's decision moves its machine on


class Game(TableGame):
    def __init__(self, rules: object) -> None:
        super().__init__(SPEC, Table())

    @property
    def round_no(self) -> int:
        return 0

    def snapshot(self) -> object:
        return {"state": self.table.state}

    def offered(self) -> list[dict[str, Any]]:
        return []


def test_a_game_that_says_nothing_of_itself_cannot_be_made() -> None:
    """`TableGame` leaves a game its round, its snapshot and its offers: one without them
    is refused when it is made, not when the page first asks."""

    class Silent(TableGame):
        pass

    with pytest.raises(TypeError, match="abstract"):
        Silent(SPEC, Table())  # type: ignore[abstract]


SPEC = GameSpec(
    name="kernel-test",
    rules=object,
    make=Game,
    devices=DeviceNeeds(),
    console={},
    decisions={},
    decks=lambda rules: 1,  # a function a pickle cannot name
)


def test_a_game_pickles_without_its_spec_and_finds_it_again_by_name() -> None:
    """The app's snapshots pickle the game; its spec (lambdas, closures) stays out."""
    games.register(SPEC)
    try:
        game = Game(None)
        game.table.start()
        again = pickle.loads(pickle.dumps(game))
        assert again.spec is SPEC and again.table.state == "dealing"
        assert again.pending() == game.pending()
    finally:
        games.unregister(SPEC.name)
