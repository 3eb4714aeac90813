"""Opening the table's devices, real or (explicitly) simulated.

The one place that decides between hardware and simulators. `run --sim` and the demo put
the shoe on a simulated shoe behind a real pseudo-terminal, and the GPIO on the simulated
table (gpiozero MockFactory); `run --sim gpio` simulates the GPIO only. Otherwise the shoe
is opened at its configured URL (a ``sim://`` URL asks for the simulated shoe alone) and
the GPIO on the Pi's own pins. Either
way the same drivers read them: only the back-ends differ. Every simulator says so in the
log. A device that is configured but missing stops the start with an error naming it.
"""

from __future__ import annotations

import logging
import queue
import random
from dataclasses import dataclass, field
from typing import Any

from controller.app.config import TableConfig
from controller.app.games import game_spec
from controller.journal import Journal
from controller.ports import Event
from drivers.card_source import CardSource
from drivers.gpio import TableIO, real_pin_factory
from drivers.registry import create_card_source
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.table import SimTable

log = logging.getLogger(__name__)


@dataclass
class TableDevices:
    shoe: CardSource
    io: TableIO
    sim_shoe: SimulatedShoe | None = None
    sim_table: SimTable | None = None
    by_source: dict[str, Any] = field(default_factory=dict)

    def close(self) -> None:
        """Close the drivers first (the gate falls to its fail-safe state), then the
        simulators behind them."""
        self.shoe.close()
        self.io.close()
        if self.sim_shoe is not None:
            self.sim_shoe.close()
        if self.sim_table is not None:
            self.sim_table.close()


def shoe_resume(journal: Journal, source: str = "shoe") -> tuple[int, int] | None:
    """Where the shoe's sequence stood when the controller stopped: the boot id of its last
    HELLO and the last sequence number journaled after it, so that the shoe's resends of
    events already recorded are recognised as duplicates (docs/protocol.md)."""
    boot: int | None = None
    last: int | None = None
    for entry in journal.entries():
        if entry.source != source:
            continue
        if entry.kind == "DeviceHello":
            if entry.payload["boot_id"] != boot:
                boot, last = entry.payload["boot_id"], None
        elif entry.payload.get("seq") is not None:
            last = entry.payload["seq"]
    return (boot, last) if boot is not None and last is not None else None


def open_devices(
    config: TableConfig,
    events: queue.Queue[Event],
    *,
    simulate: str | None,
    resume: tuple[int, int] | None = None,
    seed: int | None = None,
) -> TableDevices:
    sim_shoe: SimulatedShoe | None = None
    url = config.shoe.url
    if simulate == "all" or config.shoe.simulated:
        decks = game_spec(config).decks(config.rules)
        rng = random.Random(seed)
        sim_shoe = SimulatedShoe(PtyLink(), decks=decks, rng=rng).start()
        url = sim_shoe.link.url
        log.warning("SIMULATED shoe (%d decks) on %s", decks, url)
    sim_table: SimTable | None = None
    try:
        shoe = create_card_source(
            config.shoe.protocol, url, events, name="shoe", baudrate=config.shoe.baud, resume=resume
        )
        shoe.start()
        if simulate:
            sim_table = SimTable(config.pins)
            factory: Any = sim_table.pin_factory
            log.warning("SIMULATED table GPIO (gpiozero MockFactory)")
        else:
            factory = real_pin_factory()
        try:
            io = TableIO(config.pins, events, pin_factory=factory, source="table")
        except Exception:
            shoe.close()
            raise
    except Exception:
        if sim_shoe is not None:
            sim_shoe.close()
        if sim_table is not None:
            sim_table.close()
        raise
    devices = TableDevices(shoe, io, sim_shoe, sim_table)
    devices.by_source = {"shoe": shoe, "table": io}
    return devices
