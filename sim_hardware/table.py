"""A simulated table: gpiozero MockFactory pins with a world to act on them.

The simulator stands where the felt, the chips and the dealer's fingers would be. It
builds its own `SimPinFactory` (a fresh MockFactory with PWM-capable, recording pins; the
global ``Device.pin_factory`` is never touched) and hands it to the driver::

    sim = SimTable(pinmap)
    io = TableIO(pinmap, events, pin_factory=sim.pin_factory)
    sim.place_chips("box3", bounce=5)          # five edges within 10 ms, ending "occupied"
    sim.press("supervisor", hold=2.5)          # a long press
    sim.history("lamp:hold")                    # [(t, level), ...] every change with its time
    sim.lcd.lines                               # what the limit sign shows

Outputs are read back from the pins the driver drives: every change of every pin is kept
in one ordered log with its time (`PinChange`), which is how a test proves, for example,
that the dealer-button display never lit two seats at the same instant. `wait_for` waits
on a condition with a timeout: tests never sleep to wait for a result.

Input pins are driven to their idle level before the driver opens them, as the real pull
resistors or sensors would.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from drivers.pinmap import ButtonInput, PinMap, SpotInput

__all__ = ["LcdModel", "PinChange", "SimPinFactory", "SimTable"]

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PinChange:
    """One change of one pin: ``seq`` orders all pins, ``t`` is ``time.monotonic()``."""

    seq: int
    t: float
    gpio: int
    level: float  # 0.0 / 1.0, or the duty cycle of a PWM pin


class RecordingPin(MockPWMPin):  # type: ignore[misc]
    """A MockPWMPin that logs every change in its factory's shared, ordered log."""

    def __init__(self, factory: SimPinFactory, info: Any) -> None:
        self._sim = factory
        self.held_at: bool | None = None  # the level the wiring holds an input at
        super().__init__(factory, info)

    def close(self) -> None:
        """Release the pin. A pin that was not running PWM keeps the level it was last
        driven to (MockPWMPin would zero every pin, hiding what the driver left behind)."""
        if self._frequency is not None:
            super().close()
        else:
            MockPin.close(self)

    def _change_state(self, value: Any) -> bool:
        if self.held_at is not None and self.function == "input" and bool(value) != self.held_at:
            return False  # a sensor or switch holds the line: a pull resistor cannot move it
        changed = bool(super()._change_state(value))
        if changed:
            self._sim.record(int(self.info.name.removeprefix("GPIO")), float(value))
        return changed


class SimPinFactory(MockFactory):  # type: ignore[misc]
    """A MockFactory whose pins log every change, in order, with listeners per pin."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.log: list[PinChange] = []
        self.listeners: dict[int, list[Callable[[PinChange], None]]] = {}
        super().__init__(pin_class=RecordingPin)
        log.info("SIMULATOR: gpiozero MockFactory pins, no hardware is touched")

    def record(self, gpio: int, level: float) -> None:
        with self.cond:
            change = PinChange(len(self.log), time.monotonic(), gpio, level)
            self.log.append(change)
            for listener in self.listeners.get(gpio, ()):
                listener(change)
            self.cond.notify_all()

    def level(self, gpio: int) -> float:
        return float(self.pin(f"GPIO{gpio}").state)


class LcdModel:
    """An HD44780 that watches the pins: latches D4-D7 and RS on each falling edge of E.

    It starts in 8-bit mode (power-on), where a nibble is a whole instruction, until the
    driver's function set 0x2 selects 4-bit mode; then bytes come as two nibbles. It keeps
    the DDRAM and the text history, so tests read what a person at the table would read.
    """

    def __init__(self, factory: SimPinFactory, rs: int, e: int, data: tuple[int, ...]) -> None:
        self._factory = factory
        self._rs, self._data = rs, data
        self.columns, self.rows = 16, 2
        self.ddram = [" "] * 0x80
        self.address = 0
        self.four_bit = False
        self.display_on = False
        self._high: int | None = None
        self._last_e = 0.0
        self.history: list[tuple[float, tuple[str, ...]]] = []
        factory.listeners.setdefault(e, []).append(self._on_e)

    def _on_e(self, change: PinChange) -> None:
        falling = self._last_e > 0.5 and change.level < 0.5
        self._last_e = change.level
        if not falling:
            return
        nibble = sum(int(self._factory.level(p) > 0.5) << i for i, p in enumerate(self._data))
        rs = self._factory.level(self._rs) > 0.5
        if not self.four_bit:
            if not rs and nibble == 0x2:
                self.four_bit = True
            return
        if self._high is None:
            self._high = nibble
            return
        byte, self._high = self._high << 4 | nibble, None
        self._byte(byte, rs, change.t)

    def _byte(self, byte: int, rs: bool, t: float) -> None:
        if rs:
            self.ddram[self.address & 0x7F] = chr(byte)
            self.address = (self.address + 1) & 0x7F
        elif byte == 0x01:
            self.ddram = [" "] * 0x80
            self.address = 0
        elif byte & 0x80:
            self.address = byte & 0x7F
        elif byte & 0xF8 == 0x08:
            self.display_on = bool(byte & 0x04)
        else:
            return
        lines = self.lines
        if not self.history or self.history[-1][1] != lines:
            self.history.append((t, lines))

    @property
    def lines(self) -> tuple[str, ...]:
        offsets = (0x00, 0x40, 0x14, 0x54)[: self.rows]
        if not self.display_on:
            return tuple("" for _ in offsets)
        return tuple("".join(self.ddram[o : o + self.columns]).rstrip() for o in offsets)


class SimTable:
    """The simulated table for a pin map: chips, fingers, and eyes on every output."""

    def __init__(self, pinmap: PinMap) -> None:
        self.pinmap = pinmap
        self.pin_factory = SimPinFactory()
        self._inputs: dict[str, SpotInput | ButtonInput] = {s.name: s for s in pinmap.spots}
        self._inputs.update({b.name: b for b in pinmap.buttons})
        for spec in self._inputs.values():
            pin = self.pin_factory.pin(f"GPIO{spec.pin}")
            self._drive(pin, active=False, active_high=spec.active_high)
        with self.pin_factory.cond:
            self.pin_factory.log.clear()  # the idle levels are the start, not changes
        self.lcd: LcdModel | None = None
        if pinmap.limit_sign is not None:
            sign = pinmap.limit_sign
            self.lcd = LcdModel(self.pin_factory, sign.rs, sign.e, sign.data)
            self.lcd.columns, self.lcd.rows = sign.columns, sign.rows

    # -- the world: chips and fingers --

    @staticmethod
    def _drive(pin: Any, *, active: bool, active_high: bool) -> None:
        level = active == active_high
        pin.held_at = level
        if level:
            pin.drive_high()
        else:
            pin.drive_low()

    def _input(self, name: str) -> SpotInput | ButtonInput:
        try:
            return self._inputs[name]
        except KeyError:
            raise KeyError(f"no spot or button {name!r} in the pin map") from None

    def set_input(
        self, name: str, active: bool, *, bounce: int = 1, within: float = 0.010
    ) -> float:
        """Drive an input to ``active`` through ``bounce`` edges spread over ``within`` s.

        ``bounce=1`` is a clean change; ``bounce=5`` is a contact that chatters: five
        edges, the last one at the new level. The gaps are slept (generating timed edges,
        not waiting for a result) against a schedule, so they do not add up under load.
        Returns the time the edges really spanned: a busy machine can stretch it, and a
        test that needs "within 10 ms" checks it.
        """
        if bounce < 1 or bounce % 2 == 0:
            raise ValueError("bounce counts the edges of one change: an odd number >= 1")
        spec = self._input(name)
        pin = self.pin_factory.pin(f"GPIO{spec.pin}")
        return self._edges(
            pin,
            spec.active_high,
            [active if i % 2 == 0 else not active for i in range(bounce)],
            within,
        )

    def glitch(self, name: str, *, edges: int = 4, within: float = 0.010) -> float:
        """An even number of edges that ends where it began (a spike): no real change."""
        if edges < 2 or edges % 2:
            raise ValueError("a glitch is an even number of edges >= 2")
        spec = self._input(name)
        pin = self.pin_factory.pin(f"GPIO{spec.pin}")
        now = bool(pin.state) == spec.active_high
        return self._edges(
            pin, spec.active_high, [not now if i % 2 == 0 else now for i in range(edges)], within
        )

    def _edges(self, pin: Any, active_high: bool, levels: list[bool], within: float) -> float:
        gap = within / max(1, len(levels) - 1)
        start = time.monotonic()
        for i, active in enumerate(levels):
            delay = start + i * gap - time.monotonic()
            if i and delay > 0:
                time.sleep(delay)
            self._drive(pin, active=active, active_high=active_high)
        return time.monotonic() - start

    def place_chips(self, spot: str, *, bounce: int = 1) -> float:
        return self.set_input(spot, True, bounce=bounce)

    def remove_chips(self, spot: str, *, bounce: int = 1) -> float:
        return self.set_input(spot, False, bounce=bounce)

    def press(self, button: str, hold: float = 0.0, *, bounce: int = 1) -> None:
        """Press ``button``, keep it down ``hold`` seconds (at least 50 ms), let go."""
        self.set_input(button, True, bounce=bounce)
        time.sleep(max(hold, 0.05))  # generating the press length, not waiting for a result
        self.set_input(button, False, bounce=bounce)

    # -- eyes: outputs and their history --

    def _gpio_of(self, output: str) -> int:
        """``lamp:hold``, ``gate``, ``seat3``, or a spot/button name."""
        if output.startswith("lamp:"):
            return self.pinmap.lamp(output.removeprefix("lamp:")).pin
        if output == "gate" and self.pinmap.gate is not None:
            return self.pinmap.gate.pin
        if output.startswith("seat") and self.pinmap.position is not None:
            return self.pinmap.position.pins[int(output.removeprefix("seat")) - 1]
        if output in self._inputs:
            return self._inputs[output].pin
        raise KeyError(f"no output {output!r} in the pin map")

    def level(self, output: str) -> float:
        return self.pin_factory.level(self._gpio_of(output))

    def history(self, output: str) -> list[tuple[float, float]]:
        """Every change of one output as ``(t, level)``, oldest first."""
        gpio = self._gpio_of(output)
        with self.pin_factory.cond:
            return [(c.t, c.level) for c in self.pin_factory.log if c.gpio == gpio]

    def changes(self) -> list[PinChange]:
        with self.pin_factory.cond:
            return list(self.pin_factory.log)

    def lit_seats(self) -> list[int]:
        """Seats lit now, by the level on the pin (honours active-low boards)."""
        if self.pinmap.position is None:
            return []
        on = 1.0 if self.pinmap.position.active_high else 0.0
        return [
            i for i, p in enumerate(self.pinmap.position.pins, 1) if self.pin_factory.level(p) == on
        ]

    @property
    def gate_locked(self) -> bool | None:
        """Read from the pin: energised means away from the fail-safe state."""
        gate = self.pinmap.gate
        if gate is None:
            return None
        energised = (self.pin_factory.level(gate.pin) > 0.5) == gate.active_high
        return energised != (gate.fail_safe.value == "locked")

    def wait_for(self, predicate: Callable[[], T], timeout: float = 2.0) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every pin change)."""
        deadline = time.monotonic() + timeout
        with self.pin_factory.cond:
            while not (result := predicate()):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"simulated table: condition not met in {timeout} s")
                self.pin_factory.cond.wait(left)
            return result

    def close(self) -> None:
        """Forget every pin (the driver must have closed its devices first)."""
        self.pin_factory.reset()
