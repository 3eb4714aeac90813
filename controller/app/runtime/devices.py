"""Opening the table's devices, real or (explicitly) simulated.

The one place that decides between hardware and simulators. `run --sim` and the demo put
the shoe on a simulated shoe behind a real pseudo-terminal (our serial protocol, or with an
RFID ``[shoe] protocol`` an RDM6300 reader at the mouth of a shoe of tagged decks, whose
enrolment files it writes to a scratch folder for the driver to load), and the GPIO on the simulated
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
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.app.config import TableConfig
from controller.app.config.player_cards import PlayerCardReader as PlayerCardReaderConfig
from controller.app.runtime.games import game_spec
from controller.errors import ConfigError
from controller.journal.store import Journal
from controller.ports import Event
from drivers.card_source import CardSource
from drivers.chip_reader import ChipReader
from drivers.deck import DeckEnrolment, load_deck
from drivers.gpio import TableIO, real_pin_factory
from drivers.player_cards import PlayerCards, player_card_reader
from drivers.registry import create_card_source
from sim_hardware.device import SimulatedChipReader
from sim_hardware.link import PtyLink
from sim_hardware.rdm6300 import SimulatedRdm6300, SimulatedRfidShoe
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.table import SimTable

log = logging.getLogger(__name__)


SimShoe = SimulatedShoe | SimulatedRfidShoe


@dataclass
class TableDevices:
    shoe: CardSource
    io: TableIO
    sim_shoe: SimShoe | None = None
    sim_table: SimTable | None = None
    by_source: dict[str, Any] = field(default_factory=dict)
    scratch: tempfile.TemporaryDirectory[str] | None = None  # a simulated shoe's deck files
    chips: ChipReader | None = None  # [chips] reader: each chip on a spot
    sim_chips: SimulatedChipReader | None = None
    player_cards: list[PlayerCards] = field(default_factory=list)  # [[player_cards]]
    sim_player_cards: dict[int, SimulatedRdm6300] = field(default_factory=dict)  # by box

    def close(self) -> None:
        """Close the drivers first (the gate falls to its fail-safe state), then the
        simulators behind them."""
        self.shoe.close()
        self.io.close()
        if self.chips is not None:
            self.chips.close()
        for reader in self.player_cards:
            reader.close()
        for sim in self.sim_player_cards.values():
            sim.close()
        if self.sim_chips is not None:
            self.sim_chips.close()
        if self.sim_shoe is not None:
            self.sim_shoe.close()
        if self.sim_table is not None:
            self.sim_table.close()
        if self.scratch is not None:
            self.scratch.cleanup()


def load_shoe_decks(files: tuple[Path, ...], decks: int) -> DeckEnrolment:
    """An RFID shoe's enrolment: one complete deck file per deck of the shoe, no tag in
    two (each deck is known by its own tags). Raises `ConfigError` naming the file."""
    if len(files) != decks:
        raise ConfigError(
            f"[shoe] decks lists {len(files)} deck file(s) for a {decks}-deck shoe: "
            "enrol every deck (tablectl deck enrol) and list each file"
        )
    loaded = [load_deck(path, require_complete=True) for path in files]
    return DeckEnrolment.combine(*loaded, name="shoe")


def open_card_source(
    config: TableConfig,
    url: str,
    events: queue.Queue[Event],
    *,
    decks: int,
    deck_files: tuple[Path, ...],
    resume: tuple[int, int] | None = None,
) -> CardSource:
    """The shoe's card source, the back-end ``[shoe] protocol`` names (not started)."""
    shoe = config.shoe
    if shoe.rfid:
        enrolment = load_shoe_decks(deck_files, decks)
        options: dict[str, Any] = {"hold": shoe.repeat_window_ms / 1000}
        if shoe.power_line:
            options["power_line"] = shoe.power_line
        return create_card_source(shoe.protocol, url, events, deck=enrolment, **options)
    return create_card_source(shoe.protocol, url, events, baudrate=shoe.baud, resume=resume)


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
    chips_resume: tuple[int, int] | None = None,
) -> TableDevices:
    sim_shoe: SimShoe | None = None
    scratch: tempfile.TemporaryDirectory[str] | None = None
    url = config.shoe.url
    deck_files = config.shoe.decks
    decks = game_spec(config).decks(config.rules)
    if simulate == "all" or config.shoe.simulated:
        rng = random.Random(seed)
        if config.shoe.rfid:
            scratch = tempfile.TemporaryDirectory(prefix="tablectl-sim-decks-")
            sim_shoe = SimulatedRfidShoe(decks, rng=rng)
            deck_files = tuple(sim_shoe.write_decks(scratch.name))
            url = sim_shoe.path
            log.warning("SIMULATED RFID shoe (RDM6300, %d tagged decks) on %s", decks, url)
        else:
            sim_shoe = SimulatedShoe(PtyLink(), decks=decks, rng=rng).start()
            url = sim_shoe.link.url
            log.warning("SIMULATED shoe (%d decks) on %s", decks, url)
    sim_table: SimTable | None = None
    try:
        shoe = open_card_source(
            config, url, events, decks=decks, deck_files=deck_files, resume=resume
        )
        shoe.start()
        if simulate:
            sim_table = SimTable(config.pins)
            factory: Any = sim_table.pin_factory
            log.warning("SIMULATED table GPIO (gpiozero MockFactory)")
            if isinstance(sim_shoe, SimulatedRfidShoe):
                sim_shoe.wait_open = _gate_of(sim_table)
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
        if scratch is not None:
            scratch.cleanup()
        raise
    devices = TableDevices(shoe, io, sim_shoe, sim_table, scratch=scratch)
    devices.by_source = {"shoe": shoe, "table": io}
    try:
        if config.chip_reader:
            open_chip_reader(devices, config.chip_reader, events, simulate, chips_resume)
        for entry in config.player_cards:
            open_player_card_reader(devices, entry, events, simulate)
    except Exception:
        devices.close()
        raise
    return devices


def open_player_card_reader(
    devices: TableDevices,
    entry: PlayerCardReaderConfig,
    events: queue.Queue[Event],
    simulate: str | None,
) -> None:
    """A box's ``[[player_cards]]`` reader, read as the device ``player-cards-<box>``;
    simulated (an RDM6300 module on its own pty, whatever the protocol) under ``--sim`` or
    for a ``sim://`` URL."""
    protocol, url = entry.protocol, entry.url
    if simulate == "all" or entry.simulated:
        sim = devices.sim_player_cards[entry.box] = SimulatedRdm6300()
        protocol, url = "rdm6300", sim.path
        log.warning("SIMULATED player-card reader at box %d on %s", entry.box, url)
    hold = entry.repeat_window_ms / 1000
    reader = player_card_reader(protocol, url, entry.box, events, name=entry.name, hold=hold)
    devices.player_cards.append(reader)
    reader.start()
    devices.by_source[entry.name] = reader


def open_chip_reader(
    devices: TableDevices,
    url: str,
    events: queue.Queue[Event],
    simulate: str | None,
    resume: tuple[int, int] | None,
) -> None:
    """The ``[chips] reader``, simulated on a pty under ``--sim`` or for a
    ``sim://`` URL, read as the device ``chips``."""
    if simulate == "all" or url.startswith("sim://"):
        devices.sim_chips = SimulatedChipReader(PtyLink()).start()
        url = devices.sim_chips.link.url
        log.warning("SIMULATED chip reader on %s", url)
    devices.chips = ChipReader(url, events, name="chips", resume=resume)
    devices.chips.start()
    devices.by_source["chips"] = devices.chips


def _gate_of(table: SimTable) -> Callable[[float], object]:
    """Waits until the simulated table's gate pin is open (or no gate is fitted)."""

    def wait_open(timeout: float) -> object:
        return table.wait_for(lambda: table.gate_locked is not True, timeout)

    return wait_open
