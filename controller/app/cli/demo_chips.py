"""`tablectl demo --chip-readers`: the demo table with chip readers under its spots and
its settlement checked by them.

A simulated chip reader (`sim_hardware.device.SimulatedChipReader`) on a pseudo-terminal,
opened by the table's devices for ``[chips] reader = "sim://"`` and read by the real driver
(`drivers.chip_reader.ChipReader`) as the device ``chips``, so every wager and every payout
reaches the controller as the wire's CHIPS_SENSED; the scripted dealer
(`sim_hardware.dealer.BlackjackDealer`) pays by the readers and, at ``--dealer-mistakes
RATE``, overpays, underpays or leaves a losing wager on the spot on purpose; ``--json``
prints one line with the mistakes made and caught, by kind.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
from typing import TYPE_CHECKING, Any, Protocol

from controller.app.config import TableConfig
from controller.errors import ConfigError, TableError
from drivers.chip_reader import ChipReader
from sim_hardware.device import SimulatedChipReader

if TYPE_CHECKING:
    from controller.app.runtime.table import RunningTable

log = logging.getLogger(__name__)


class Counted(Protocol):
    rounds_finished: int


def rate(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a rate from 0 to 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not a rate from 0 to 1")
    return value


def open_chip_reader(table: RunningTable) -> tuple[SimulatedChipReader, ChipReader]:
    """The simulated chip reader of a table started with `with_chip_readers` (the table's
    devices opened it on a pseudo-terminal, read by the real driver as ``chips``)."""
    devices = table.devices
    if devices is None or devices.sim_chips is None or devices.chips is None:
        raise TableError("the table has no simulated chip reader: start it with_chip_readers")
    return devices.sim_chips, devices.chips


def with_chip_readers(config: TableConfig) -> TableConfig:
    """The table's rules with chip readers under the spots and the settlement checked by
    them; a game whose rules have no chip readers is refused by name."""
    rules = config.rules
    names = {f.name for f in dataclasses.fields(rules)}
    if not {"chip_readers", "settlement_check"} <= names:
        raise ConfigError(f"--chip-readers: the game {config.game!r} has no chip readers")
    rules = dataclasses.replace(rules, chip_readers=True, settlement_check=True)
    return dataclasses.replace(config, rules=rules, chip_reader=config.chip_reader or "sim://")


def mistakes_line(dealer: Counted, rounds: int) -> dict[str, Any]:
    """The one JSON line of ``--json``: rounds, and the dealer's mistakes made and caught
    (by kind) and the table's alarms on spots the dealer got right."""
    made: dict[str, int] = getattr(dealer, "mistakes_made", {})
    caught: dict[str, int] = getattr(dealer, "mistakes_caught", {})
    return {
        "rounds": rounds,
        "mistakes_made": sum(made.values()),
        "mistakes_caught": sum(caught.values()),
        "false_alarms": getattr(dealer, "false_alarms", 0),
        "by_kind": {k: {"made": made[k], "caught": caught.get(k, 0)} for k in made},
    }
