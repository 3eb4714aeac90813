"""One contract for the GPIO table I/O, run back to back (python-can's back2back_test idea).

`TableIOContract` holds the tests; each subclass supplies a *world* that stands on the
other side of the pins and the pin factory the driver under test uses:

- `TestOnSimulatedTable`: the simulated table (gpiozero MockFactory). Runs everywhere.
- `TestOnRaspberryPi` (marked ``hardware``, skipped unless TABLECTL_HARDWARE=1): the driver
  on the Pi's real pins (lgpio); the world is a second Pi (the jig) wired pin-for-pin to it
  through 1 kOhm resistors and driven remotely over pigpio (TABLECTL_JIG_HOST). The jig
  drives the table's inputs and reads back its outputs. See docs/wiring.md.

The world API is the simulator's: ``set_input``, ``glitch``, ``press``, ``level``,
``gate_locked``, ``lit_seats``, ``wait_for``. Every wait is on a condition or the queue.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest

from controller.app.config.pins import parse_pinmap
from controller.ports import (
    ButtonPressed,
    ConsoleButton,
    Event,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShowButtonPosition,
    SpotCleared,
    SpotOccupied,
    UnlockShoe,
)
from drivers.gpio import TableIO, real_pin_factory
from drivers.pinmap import PinMap
from sim_hardware.table import SimTable

ROOT = Path(__file__).resolve().parents[3]
T = TypeVar("T")
TIMEOUT = 3.0
# A short supervisor hold keeps the long-press test quick on both worlds.
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text().replace("3000", "300")
POKER = (
    (ROOT / "examples" / "poker-table.toml").read_text().replace("hold_ms = 2000", "hold_ms = 300")
)


class World(Protocol):
    pinmap: PinMap

    def driver_factory(self) -> Any: ...
    def set_input(self, name: str, active: bool, *, bounce: int = 1) -> None: ...
    def glitch(self, name: str, *, edges: int = 4) -> None: ...
    def level(self, output: str) -> float: ...
    def lit_seats(self) -> list[int]: ...
    def wait_for(self, predicate: Callable[[], T], timeout: float = 2.0) -> T: ...
    def close(self) -> None: ...


class SimWorld(SimTable):
    def driver_factory(self) -> Any:
        return self.pin_factory


class JigWorld:
    """The far side of the pins on real hardware: a jig Pi, pin n wired to pin n."""

    def __init__(self, pinmap: PinMap, host: str) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice
        from gpiozero.pins.pigpio import PiGPIOFactory

        self.pinmap = pinmap
        self._factory = PiGPIOFactory(host=host)
        self._cond = threading.Condition()
        self._drivers: dict[str, Any] = {}
        self._senses: dict[int, Any] = {}
        self._specs = {s.name: s for s in (*pinmap.spots, *pinmap.buttons)}
        for name, spec in self._specs.items():
            idle = not spec.active_high
            self._drivers[name] = DigitalOutputDevice(
                spec.pin, initial_value=idle, pin_factory=self._factory
            )
        outputs = [lamp.pin for lamp in pinmap.lamps]
        outputs += [pinmap.gate.pin] if pinmap.gate else []
        outputs += list(pinmap.position.pins) if pinmap.position else []
        for pin in outputs:
            sense = DigitalInputDevice(
                pin, pull_up=None, active_state=True, pin_factory=self._factory
            )
            sense.when_activated = sense.when_deactivated = self._changed
            self._senses[pin] = sense

    def _changed(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def driver_factory(self) -> Any:
        return real_pin_factory()

    def set_input(self, name: str, active: bool, *, bounce: int = 1) -> None:
        spec, device = self._specs[name], self._drivers[name]
        start = time.monotonic()
        for i in range(bounce):
            level = (active if i % 2 == 0 else not active) == spec.active_high
            delay = start + i * 0.010 / max(1, bounce - 1) - time.monotonic()
            if i and delay > 0:
                time.sleep(delay)  # generating timed edges
            device.value = level

    def glitch(self, name: str, *, edges: int = 4) -> None:
        device = self._drivers[name]
        now = bool(device.value)
        for i in range(edges):
            device.value = not now if i % 2 == 0 else now
            time.sleep(0.010 / edges)  # generating timed edges

    def _pin_of(self, output: str) -> int:
        if output.startswith("lamp:"):
            return self.pinmap.lamp(output.removeprefix("lamp:")).pin
        if output == "gate" and self.pinmap.gate is not None:
            return self.pinmap.gate.pin
        raise KeyError(output)

    def level(self, output: str) -> float:
        return float(self._senses[self._pin_of(output)].value)

    def lit_seats(self) -> list[int]:
        if self.pinmap.position is None:
            return []
        on = 1 if self.pinmap.position.active_high else 0
        return [
            i for i, p in enumerate(self.pinmap.position.pins, 1) if self._senses[p].value == on
        ]

    def wait_for(self, predicate: Callable[[], T], timeout: float = 2.0) -> T:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (result := predicate()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"jig: condition not met in {timeout} s")
                self._cond.wait(min(left, 0.05))  # a remote edge may race the check
            return result

    def close(self) -> None:
        for device in (*self._drivers.values(), *self._senses.values()):
            device.close()
        self._factory.close()


class TableIOContract:
    """The tests every world must pass. Subclasses define the ``make_world`` fixture."""

    @pytest.fixture
    def make_world(self) -> Callable[[str], World]:
        raise NotImplementedError

    @pytest.fixture
    def rig(
        self, make_world: Callable[[str], World]
    ) -> Iterator[Callable[[str], tuple[World, TableIO, queue.Queue[Event]]]]:
        opened: list[tuple[World, TableIO]] = []

        def make(text: str = BLACKJACK) -> tuple[World, TableIO, queue.Queue[Event]]:
            world = make_world(text)
            events: queue.Queue[Event] = queue.Queue()
            try:
                io = TableIO(world.pinmap, events, pin_factory=world.driver_factory())
            except Exception:
                world.close()
                raise
            opened.append((world, io))
            return world, io, events

        yield make
        for world, io in opened:
            io.close()
            world.close()

    @staticmethod
    def settled(io: TableIO, events: queue.Queue[Event]) -> list[Event]:
        assert io.wait_quiet(TIMEOUT)
        found: list[Event] = []
        while not events.empty():
            found.append(events.get_nowait())
        return found

    def test_bounce_gives_one_event_per_real_change(self, rig: Any) -> None:
        world, io, events = rig()
        world.set_input("box2", True, bounce=5)
        assert self.settled(io, events) == [SpotOccupied(source="table", spot="box2")]
        world.set_input("box2", False, bounce=5)
        assert self.settled(io, events) == [SpotCleared(source="table", spot="box2")]

    def test_a_glitch_gives_nothing(self, rig: Any) -> None:
        world, io, events = rig()
        world.glitch("box3", edges=4)
        assert self.settled(io, events) == []

    def test_a_press_and_a_long_press(self, rig: Any) -> None:
        world, io, events = rig()
        world.set_input("next", True, bounce=5)
        assert self.settled(io, events) == [
            ButtonPressed(source="table", button=ConsoleButton.NEXT, held=False)
        ]
        world.set_input("next", False, bounce=5)
        assert self.settled(io, events) == []
        world.set_input("supervisor", True, bounce=5)
        event = events.get(timeout=TIMEOUT)
        assert event == ButtonPressed(source="table", button=ConsoleButton.SUPERVISOR, held=True)
        world.set_input("supervisor", False)
        assert self.settled(io, events) == []

    def test_lamps_follow_commands(self, rig: Any) -> None:
        world, io, _ = rig()
        io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.STEADY))
        world.wait_for(lambda: world.level("lamp:dealer_action") == 1.0)
        io.execute(SetLamp(Lamp.DEALER_ACTION, LampPattern.OFF))
        world.wait_for(lambda: world.level("lamp:dealer_action") == 0.0)

    def test_the_gate_is_fail_safe_on_start_and_after_close(self, rig: Any) -> None:
        world, io, _ = rig()  # fail_safe = "locked", active high: de-energised is low
        world.wait_for(lambda: world.level("gate") == 0.0)
        io.execute(UnlockShoe())
        world.wait_for(lambda: world.level("gate") == 1.0)
        io.execute(LockShoe())
        io.execute(UnlockShoe())
        io.close()
        world.wait_for(lambda: world.level("gate") == 0.0)

    def test_the_button_display_lights_one_seat(self, rig: Any) -> None:
        world, io, _ = rig(POKER)
        for seat in (2, 7, 1):
            io.execute(ShowButtonPosition(seat))
            world.wait_for(lambda seat=seat: world.lit_seats() == [seat])


class TestOnSimulatedTable(TableIOContract):
    @pytest.fixture
    def make_world(self) -> Callable[[str], World]:
        return lambda text: SimWorld(parse_pinmap(text))


@pytest.mark.hardware
class TestOnRaspberryPi(TableIOContract):
    @pytest.fixture
    def make_world(self) -> Callable[[str], World]:
        host = os.environ.get("TABLECTL_JIG_HOST")
        if not host:
            pytest.fail("TABLECTL_HARDWARE=1 needs TABLECTL_JIG_HOST (the jig Pi's pigpiod)")
        return lambda text: JigWorld(parse_pinmap(text), host)
