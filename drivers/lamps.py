"""The table's GPIO outputs: signal lamps, the shoe gate, the dealer-button display and the
limit sign. The controller thread calls `TableOutputs.execute` with a command; nothing here
reads an input or makes a decision.

- Lamps are gpiozero ``LED`` (or ``PWMLED`` when the pin map says ``pwm = true``): steady,
  blink, pulse (plain lamps blink instead) and a fast flash for the red HOLD lamp
  (docs/architecture.md: a violation flashes the red lamp).
- The shoe gate is an ``OutputDevice`` driving a solenoid through a transistor. Its
  de-energised state is the configured fail-safe state: the gate is put there on start and
  again on close, and an external resistor keeps the driver off while the Pi is off or
  booting (docs/wiring.md), so the gate does not depend on this process being alive.
- The dealer-button display (draw poker, rule 11 and the button rules in
  docs/rules/surrounding.md) is one lamp per seat. Moving the button turns the
  old seat off before the new one on, so no instant ever shows two seats.
- The limit sign shows the table minimum and maximum (rule 11.5(a)) on an HD44780 LCD.
"""

from __future__ import annotations

import logging
from typing import Any

from gpiozero import LED, PWMLED, LEDBoard, OutputDevice

from controller.ports import (
    Command,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    ShowButtonPosition,
    ShowLimits,
    UnlockShoe,
)
from drivers.charlcd import CharLcd, LcdTextTooLong
from drivers.errors import DeviceError
from drivers.pinmap import GateState, LimitSign, PinMap

__all__ = ["BadCommand", "GpioError", "OutputNotFitted", "TableOutputs", "limit_lines"]

log = logging.getLogger(__name__)

BLINK_S = 0.5  # about 1 Hz (LampPattern.BLINK)
FLASH_S = 0.125  # 4 Hz, for alarms
PULSE_S = 1.0  # fade in, fade out


class GpioError(DeviceError):
    """Base of the GPIO driver's errors."""


class OutputNotFitted(GpioError, LookupError):
    """A command for an output this table's pin map does not have (no silent no-op: the
    app routes commands only to a device whose `handles()` says yes)."""


class BadCommand(GpioError, ValueError):
    """A command whose values the hardware cannot show (no such seat, limits reversed)."""


def limit_lines(minimum: int, maximum: int, *, columns: int, rows: int, currency: str) -> list[str]:
    """The text of the limit notice (rule 11.5(a)), in whole chip units.

    The longest form that fits is used; a limit is never cut short.
    """
    if minimum <= 0 or maximum < minimum:
        raise BadCommand(
            f"rule 11.5: limits must be 0 < minimum <= maximum, got {minimum}-{maximum}"
        )
    low, high = f"{currency}{minimum}", f"{currency}{maximum}"
    for line in (f"MIN {low} MAX {high}", f"MIN {low}-{high}", f"{low}-{high}"):
        if len(line) <= columns:
            return ["TABLE LIMITS", line] if rows >= 2 and columns >= 12 else [line]
    raise BadCommand(f"rule 11.5: limits {low}-{high} do not fit {columns} columns")


class TableOutputs:
    """Every output of the pin map, built on ``pin_factory`` and put in its safe state."""

    def __init__(self, pinmap: PinMap, *, pin_factory: Any) -> None:
        self._pinmap = pinmap
        self._lamps: dict[Lamp, LED | PWMLED] = {}
        self._patterns: dict[Lamp, LampPattern] = {}
        self._gate: OutputDevice | None = None
        self._seats: LEDBoard | None = None
        self._seat: int | None = None
        self._sign: CharLcd | None = None
        self._sign_config: LimitSign | None = pinmap.limit_sign
        try:
            for lamp in pinmap.lamps:
                kind = PWMLED if lamp.pwm else LED
                self._lamps[lamp.lamp] = kind(
                    f"GPIO{lamp.pin}",
                    active_high=lamp.active_high,
                    initial_value=False,
                    pin_factory=pin_factory,
                )
                self._patterns[lamp.lamp] = LampPattern.OFF
            if pinmap.gate is not None:
                # initial_value=False: de-energised, which is the fail-safe state by definition
                self._gate = OutputDevice(
                    f"GPIO{pinmap.gate.pin}",
                    active_high=pinmap.gate.active_high,
                    initial_value=False,
                    pin_factory=pin_factory,
                )
            if pinmap.position is not None:
                self._seats = LEDBoard(
                    *(f"GPIO{p}" for p in pinmap.position.pins),
                    active_high=pinmap.position.active_high,
                    initial_value=False,
                    pin_factory=pin_factory,
                )
            if pinmap.limit_sign is not None:
                sign = pinmap.limit_sign
                self._sign = CharLcd(
                    rs=sign.rs,
                    e=sign.e,
                    data=sign.data,
                    columns=sign.columns,
                    rows=sign.rows,
                    pin_factory=pin_factory,
                )
        except Exception:
            self.close()
            raise

    # -- state, for io-test and the status display --

    @property
    def gate_locked(self) -> bool | None:
        """None when no gate is fitted."""
        if self._gate is None or self._pinmap.gate is None:
            return None
        return bool(self._gate.is_active) != (self._pinmap.gate.fail_safe is GateState.LOCKED)

    @property
    def seat(self) -> int | None:
        return self._seat

    def pattern(self, lamp: Lamp) -> LampPattern:
        return self._patterns[lamp]

    # -- commands --

    def handles(self, command: Command) -> bool:
        """Whether this table has the output ``command`` drives."""
        if isinstance(command, SetLamp):
            return command.lamp in self._lamps
        if isinstance(command, LockShoe | UnlockShoe):
            return self._gate is not None
        if isinstance(command, ShowButtonPosition):
            return self._seats is not None
        if isinstance(command, ShowLimits):
            return self._sign is not None
        return False

    def execute(self, command: Command) -> None:
        if isinstance(command, SetLamp):
            self.set_lamp(command.lamp, command.pattern)
        elif isinstance(command, LockShoe):
            self.set_gate(locked=True)
        elif isinstance(command, UnlockShoe):
            self.set_gate(locked=False)
        elif isinstance(command, ShowButtonPosition):
            self.show_position(command.seat)
        elif isinstance(command, ShowLimits):
            self.show_limits(command.minimum, command.maximum)
        else:
            raise OutputNotFitted(f"the GPIO table I/O does not execute {command!r}")

    def set_lamp(self, lamp: Lamp, pattern: LampPattern) -> None:
        device = self._lamps.get(lamp)
        if device is None:
            raise OutputNotFitted(f"no pin for the {lamp.value} lamp in [pins.lamps]")
        if pattern is LampPattern.OFF:
            device.off()
        elif pattern is LampPattern.STEADY:
            device.on()
        elif pattern is LampPattern.BLINK or (
            pattern is LampPattern.PULSE and not isinstance(device, PWMLED)
        ):
            device.blink(on_time=BLINK_S, off_time=BLINK_S)
        elif pattern is LampPattern.PULSE and isinstance(device, PWMLED):
            device.pulse(fade_in_time=PULSE_S, fade_out_time=PULSE_S)
        elif pattern is LampPattern.FLASH:
            device.blink(on_time=FLASH_S, off_time=FLASH_S)
        self._patterns[lamp] = pattern

    def set_gate(self, *, locked: bool) -> None:
        if self._gate is None or self._pinmap.gate is None:
            raise OutputNotFitted("no shoe gate in [pins.gate]")
        fail_safe_locked = self._pinmap.gate.fail_safe is GateState.LOCKED
        # energise the coil only to leave the fail-safe state
        self._gate.value = locked != fail_safe_locked
        log.info("shoe gate %s", "locked" if locked else "unlocked")

    def show_position(self, seat: int | None) -> None:
        if self._seats is None:
            raise OutputNotFitted("no dealer-button display in [pins.position]")
        leds = self._seats.leds
        if seat is not None and not 1 <= seat <= len(leds):
            raise BadCommand(f"seat {seat} is not on this table (seats 1-{len(leds)})")
        for index, led in enumerate(leds, start=1):  # every other seat off first ...
            if index != seat:
                led.off()
        if seat is not None:  # ... then the new one on: never two seats lit at once
            leds[seat - 1].on()
        self._seat = seat

    def show_limits(self, minimum: int, maximum: int) -> None:
        if self._sign is None or self._sign_config is None:
            raise OutputNotFitted("no limit sign in [pins.limit_sign]")
        cfg = self._sign_config
        lines = limit_lines(
            minimum, maximum, columns=cfg.columns, rows=cfg.rows, currency=cfg.currency
        )
        try:
            self._sign.show(lines)
        except LcdTextTooLong as exc:  # limit_lines checked the width; belt and braces
            raise BadCommand(str(exc)) from exc

    def show_text(self, lines: list[str]) -> None:
        """Arbitrary text on the limit sign (io-test uses it to check the wiring)."""
        if self._sign is None:
            raise OutputNotFitted("no limit sign in [pins.limit_sign]")
        self._sign.show(lines)

    def close(self) -> None:
        """Put the gate in its fail-safe state, turn the lamps off and release the pins."""
        if self._gate is not None:
            self._gate.off()  # de-energised: the fail-safe state, driven before release
            self._gate.close()
            self._gate = None
        for device in self._lamps.values():
            device.off()  # stops a blink or pulse thread and drives the lamp dark
            device.close()
        self._lamps.clear()
        if self._seats is not None:
            self._seats.off()
            self._seats.close()
            self._seats = None
        if self._sign is not None:
            self._sign.close()
            self._sign = None
