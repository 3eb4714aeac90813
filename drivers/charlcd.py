"""An HD44780-style character LCD on six GPIO pins: the table's limit sign (rule 11.5).

Rule 11.5(a) wants the minimum and maximum wagers shown on a notice at the table. A 16x2
LCD is cheap, readable and driven in 4-bit mode by six gpiozero output devices: RS (0 =
instruction, 1 = character), E (the controller latches D4-D7 on E's falling edge) and
D4-D7; RW is tied to ground, so the driver never reads the busy flag and waits the
datasheet's worst-case times instead. Each byte goes as two nibbles, high nibble first.

Power-on initialisation by instruction (HD44780U datasheet, figure 24): three times the
8-bit function set 0x3 with waits, then 0x2 for 4-bit mode, then the real function set,
display off, clear, entry mode, display on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalOutputDevice

from drivers.errors import DeviceError

__all__ = ["CharLcd", "LcdTextTooLong"]

log = logging.getLogger(__name__)

ROW_OFFSETS = (0x00, 0x40, 0x14, 0x54)  # DDRAM address of each row's first column

CLEAR = 0x01
ENTRY_INCREMENT = 0x06
DISPLAY_ON = 0x0C
DISPLAY_OFF = 0x08
FUNCTION_4BIT_2LINE = 0x28
SET_DDRAM = 0x80


class LcdTextTooLong(DeviceError, ValueError):
    """A line does not fit the display: refused rather than cut, so a limit is never
    shown truncated (rule 11.5 wants the real numbers on the notice)."""


class CharLcd:
    """Write lines of ASCII text to an HD44780 in 4-bit mode."""

    def __init__(
        self,
        *,
        rs: int,
        e: int,
        data: tuple[int, int, int, int],
        columns: int,
        rows: int,
        pin_factory: Any,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.columns = columns
        self.rows = rows
        self._sleep = sleep
        self._devices: list[DigitalOutputDevice] = []
        try:
            self._rs = self._output(rs, pin_factory)
            self._e = self._output(e, pin_factory)
            self._data = [self._output(p, pin_factory) for p in data]
            self._initialise()
        except Exception:
            self.close()
            raise

    def _output(self, pin: int, pin_factory: Any) -> DigitalOutputDevice:
        device = DigitalOutputDevice(f"GPIO{pin}", initial_value=False, pin_factory=pin_factory)
        self._devices.append(device)
        return device

    def _initialise(self) -> None:
        self._sleep(0.05)  # more than 40 ms after Vcc rises
        for wait in (0.0045, 0.0002, 0.0002):
            self._nibble(0x3, rs=False)
            self._sleep(wait)
        self._nibble(0x2, rs=False)
        self._sleep(0.0001)
        for instruction in (FUNCTION_4BIT_2LINE, DISPLAY_OFF, CLEAR, ENTRY_INCREMENT, DISPLAY_ON):
            self._command(instruction)

    def _nibble(self, value: int, *, rs: bool) -> None:
        self._rs.value = rs
        for bit, device in enumerate(self._data):
            device.value = bool(value >> bit & 1)
        self._e.on()
        self._e.off()  # latched on the falling edge; gpiozero's call takes far over 450 ns

    def _write(self, byte: int, *, rs: bool) -> None:
        self._nibble(byte >> 4, rs=rs)
        self._nibble(byte & 0x0F, rs=rs)
        self._sleep(0.0001)  # 37 us per instruction or character, with margin

    def _command(self, instruction: int) -> None:
        self._write(instruction, rs=False)
        if instruction == CLEAR:
            self._sleep(0.002)  # clear takes 1.52 ms

    def show(self, lines: list[str]) -> None:
        """Clear the display and write ``lines`` (one per row), each padded to the width."""
        if len(lines) > self.rows:
            raise LcdTextTooLong(f"{len(lines)} lines for a {self.rows}-row display")
        for text in lines:
            if len(text) > self.columns or not text.isascii():
                raise LcdTextTooLong(f"{text!r} does not fit a {self.columns}-column ASCII display")
        for row in range(self.rows):
            text = lines[row] if row < len(lines) else ""
            self._command(SET_DDRAM | ROW_OFFSETS[row])
            for char in text.ljust(self.columns):
                self._write(ord(char), rs=True)
        log.debug("LCD shows %r", lines)

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()
