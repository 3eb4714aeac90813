"""``tablectl rfid-monitor``: watch an RFID reader and print what it reports.

For the table-games engineer wiring a reader and enrolling a deck: present each card and
see its tag id (and, with ``--deck``, the card it is enrolled as), bad frames, and a pulled
line. Without ``--deck`` every tag is shown as not enrolled, with its id, ready to copy into
a deck file (docs/rfid.md)::

    tablectl rfid-monitor /dev/serial/by-id/usb-FTDI_...-if00-port0 --deck deck1.toml
    tablectl rfid-monitor --usb ffff:0035 --deck deck1.toml
    tablectl rfid-monitor --sim        # a simulated RDM6300 presenting the example deck

Exit status: 0 when done (``--count`` reached, or Ctrl-C), 1 when the reader cannot be
opened, 2 for a bad deck file or bad arguments.
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
import tempfile
from importlib.resources import as_file
from pathlib import Path
from typing import TextIO

from controller.app.cli import seconds, shipped
from controller.errors import ConfigError
from controller.game.arguments import at_least
from controller.ports import CardDrawn, DeviceFault, DeviceLost, DeviceRestored, Event, Fault
from drivers.deck import DeckEnrolment, load_deck
from drivers.errors import DeviceError
from drivers.hid_reader import HidRfidReader
from drivers.rfid import Rdm6300Reader

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "url",
        nargs="?",
        help="serial port of an RDM6300 reader: /dev/ttyUSB0, /dev/serial/by-id/..., "
        "socket://host:port, spy:///dev/ttyUSB0",
    )
    where.add_argument(
        "--usb", metavar="VID:PID", help="a USB keyboard RFID reader instead, e.g. ffff:0035"
    )
    where.add_argument(
        "--sim",
        action="store_true",
        help="a SIMULATED RDM6300 reader that presents every card of the example deck",
    )
    parser.add_argument("--deck", type=Path, help="deck enrolment file (docs/rfid.md)")
    parser.add_argument(
        "--count",
        type=at_least(0),
        default=0,
        help="stop after N tag reads (default: until Ctrl-C)",
    )
    parser.add_argument(
        "--hold",
        type=seconds,
        default=1.0,
        help="seconds a tag must be gone before it reads again (default 1.0)",
    )


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        deck = load_deck(args.deck) if args.deck else DeckEnrolment([], name="(no deck)")
        if args.sim and not args.deck:
            with as_file(shipped.example_deck()) as example:
                deck = load_deck(example)
        usb_ids = _parse_usb(args.usb) if args.usb else None
    except ConfigError as exc:
        print(f"rfid-monitor: {exc}", file=sys.stderr)
        return 2
    events: queue.Queue[Event] = queue.Queue()
    with tempfile.TemporaryDirectory(prefix="tablectl-rfid-") as scratch:
        sim = None
        if args.sim:
            from sim_hardware.rdm6300 import SimulatedRdm6300

            sim = SimulatedRdm6300(link=Path(scratch) / "rdm6300")
            print(f"SIMULATED RDM6300 reader at {sim.path} (not real hardware)", file=out)
        reader: Rdm6300Reader | HidRfidReader
        if usb_ids is not None:
            reader = HidRfidReader(*usb_ids, deck, events, hold=args.hold)
        else:
            url = sim.path if sim is not None else args.url
            reader = Rdm6300Reader(url, deck, events, hold=args.hold)
        try:
            reader.start()
        except DeviceError as exc:
            print(f"rfid-monitor: {exc}", file=sys.stderr)
            if sim is not None:
                sim.close()
            return 1
        try:
            if sim is not None:
                for entry in deck:
                    sim.present(entry.tag, repeats=3)
            _watch(events, out, args.count, len(deck) if sim is not None else 0)
        except KeyboardInterrupt:
            pass
        finally:
            reader.close()
            if sim is not None:
                sim.close()
        _summary(reader, out)
    return 0


def _parse_usb(text: str) -> tuple[int, int]:
    try:
        vendor, product = (int(part, 16) for part in text.split(":"))
    except ValueError as exc:
        raise ConfigError(f"--usb {text!r}: expected VID:PID in hex, e.g. ffff:0035") from exc
    return vendor, product


def _watch(events: queue.Queue[Event], out: TextIO, count: int, sim_cards: int) -> None:
    reads = 0
    limit = count or sim_cards
    while not limit or reads < limit:
        try:
            event = events.get(timeout=0.5)
        except queue.Empty:
            continue
        print(describe(event), file=out, flush=True)
        if isinstance(event, CardDrawn) or (
            isinstance(event, DeviceFault) and event.fault is Fault.UNKNOWN_TAG
        ):
            reads += 1


def describe(event: Event) -> str:
    """One line for an event, as the monitor prints it."""
    if isinstance(event, CardDrawn):
        return f"{event.source}: card {event.card}"
    if isinstance(event, DeviceFault) and event.fault is Fault.UNKNOWN_TAG:
        return f"{event.source}: tag {event.detail} (not enrolled)"
    if isinstance(event, DeviceFault):
        return f"{event.source}: {event.fault}: {event.detail}"
    if isinstance(event, DeviceLost):
        return f"{event.source}: LOST: {event.reason}"
    if isinstance(event, DeviceRestored):
        return f"{event.source}: restored"
    return f"{event.source}: {event!r}"


def _summary(reader: Rdm6300Reader | HidRfidReader, out: TextIO) -> None:
    counts = ", ".join(f"{key} {value}" for key, value in sorted(reader.stats.items()) if value)
    print(f"{reader.name}: {counts or 'nothing read'}", file=out)


def main(argv: list[str] | None = None) -> int:
    """Run the monitor on its own (``python -m controller.app.tools.rfid_monitor``)."""
    parser = argparse.ArgumentParser(prog="rfid-monitor", description="Watch an RFID reader.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
