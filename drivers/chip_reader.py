"""A chip reader under the betting spots, on a serial line: what the settlement check
reads.

It speaks the table device protocol (docs/protocol.md, HELLO kind 2): CHIPS_SENSED, the
value of the chips on a spot, and CHIP_IDS, each chip's tag and the value it carries. The
line, the session, the resends and the acknowledgement after journaling are the serial
device's (`drivers.serial_device.SerialDevice`), whose translation already turns both
messages into `controller.ports` events; a reader has no gate, so unlike a shoe it carries
out no command the loop hands around.
"""

from __future__ import annotations

from controller.ports import Command
from drivers.serial_device import SerialDevice

__all__ = ["ChipReader"]


class ChipReader(SerialDevice):
    """`SerialDevice` for a chip reader: its events come under the name ``chips``."""

    def handles(self, command: Command) -> bool:
        """No gate, no lamps: the table's gate and lamp commands are not for a reader."""
        return False
