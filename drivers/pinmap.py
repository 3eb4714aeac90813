"""The pin map as the drivers take it: typed, frozen pin specs, already checked.

A table's ``[pins]`` section says which BCM pin of the Pi's header went to each sensor,
console button, lamp, the shoe gate, the poker dealer-button display and the limit sign
(rule 11.5). The config checks it (`controller.app.config.pins`, docs/wiring.md) and
builds a `PinMap` of these records; `drivers.gpio` and `drivers.lamps` open exactly what it
lists. Nothing here parses text or knows a game: a driver gets a pin map that is right, or
the table never starts (docs/architecture.md: missing hardware is an error, never a
silent fallback).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from controller.ports import ConsoleButton, Lamp

__all__ = [
    "ButtonInput",
    "GateOutput",
    "GateState",
    "LampOutput",
    "LimitSign",
    "PinMap",
    "PositionDisplay",
    "SpotInput",
]


class GateState(StrEnum):
    LOCKED = "locked"
    UNLOCKED = "unlocked"


@dataclass(frozen=True, slots=True)
class SpotInput:
    """A chip presence sensor. ``active_high`` is the level that means chips are there."""

    name: str
    pin: int
    pull: str  # "up", "down" or "none"
    active_high: bool
    debounce_s: float
    line: int | None


@dataclass(frozen=True, slots=True)
class ButtonInput:
    """A console button; ``hold_s`` set means a press that long is reported as ``held``."""

    button: ConsoleButton
    pin: int
    pull: str
    active_high: bool
    debounce_s: float
    hold_s: float | None
    line: int | None

    @property
    def name(self) -> str:
        return self.button.value


@dataclass(frozen=True, slots=True)
class LampOutput:
    lamp: Lamp
    pin: int
    pwm: bool
    active_high: bool
    line: int | None


@dataclass(frozen=True, slots=True)
class GateOutput:
    """The shoe gate's solenoid driver. ``fail_safe`` is the de-energised state: the gate
    is put there on start and on close, and the hardware holds it there with the Pi off."""

    pin: int
    active_high: bool
    fail_safe: GateState
    line: int | None


@dataclass(frozen=True, slots=True)
class PositionDisplay:
    """One lamp per poker seat; ``pins[0]`` is seat 1. Exactly one is ever lit."""

    pins: tuple[int, ...]
    active_high: bool
    line: int | None


@dataclass(frozen=True, slots=True)
class LimitSign:
    """An HD44780-style character LCD in 4-bit mode (RW tied to ground), rule 11.5."""

    rs: int
    e: int
    data: tuple[int, int, int, int]  # D4, D5, D6, D7
    columns: int
    rows: int
    currency: str
    line: int | None


@dataclass(frozen=True, slots=True)
class PinMap:
    game: str
    spots: tuple[SpotInput, ...]
    buttons: tuple[ButtonInput, ...]
    lamps: tuple[LampOutput, ...]
    gate: GateOutput | None
    position: PositionDisplay | None
    limit_sign: LimitSign | None
    source: str

    def spot(self, name: str) -> SpotInput:
        return {s.name: s for s in self.spots}[name]  # KeyError names a missing spot

    def button(self, button: ConsoleButton | str) -> ButtonInput:
        return {b.button.value: b for b in self.buttons}[str(button)]

    def lamp(self, lamp: Lamp | str) -> LampOutput:
        return {lo.lamp.value: lo for lo in self.lamps}[str(lamp)]
