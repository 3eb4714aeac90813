"""`tablectl shoe-monitor URL`: watch a shoe's line as the controller sees it.

Prints each card read with its sequence number and latency, device status changes, and every
named fault. The monitor acknowledges each event as it prints it, standing in for the
journal. Latency is the time from the device's own timestamp to the card's arrival, less the
clock offset estimated as the smallest such difference seen since the device said hello: on
a simulated shoe, which shares the host's clock, that is the true one-way latency; on real
firmware it is the delay above the quickest frame.
"""

from __future__ import annotations

import argparse
import queue
import signal
import sys
import threading
import time
from typing import TextIO

from controller.app.cli import seconds
from controller.game.arguments import at_least
from controller.ports import (
    CardDrawn,
    ChipsSensed,
    DeviceFault,
    DeviceHello,
    DeviceLost,
    DeviceRestored,
    Event,
    ShoeStatusChanged,
)
from drivers.errors import DeviceError
from drivers.serial_device import SerialDevice


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", help="the shoe's port: /dev/ttyUSB0, a pty path, socket://...")
    parser.add_argument(
        "--baud", type=at_least(1), default=115200, help="baud rate (default 115200)"
    )
    parser.add_argument(
        "--count", type=at_least(0), default=None, help="stop after this many cards"
    )
    parser.add_argument("--duration", type=seconds, default=None, help="stop after SECONDS")


class Monitor:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.cards = 0
        self._offset_ms: float | None = None

    def show(self, event: Event) -> None:
        now_ms = time.monotonic() * 1000
        match event:
            case CardDrawn(card=card, seq=seq, device_ms=device_ms):
                self.cards += 1
                latency = ""
                if device_ms is not None:
                    gap = now_ms - device_ms
                    self._offset_ms = gap if self._offset_ms is None else min(self._offset_ms, gap)
                    latency = f"  latency {gap - self._offset_ms:4.0f} ms"
                self._print(f"card {card!s:<3} seq {seq:>5}{latency}")
            case DeviceHello():
                self._offset_ms = None
                self._print(
                    f"hello: {event.device_kind} {event.serial_number}, firmware "
                    f"{event.firmware}, protocol {event.protocol_version}, boot {event.boot_id:08x}"
                )
            case ShoeStatusChanged():
                flags = [
                    name
                    for name, on in (
                        ("cut card seen", event.cut_card_seen),
                        ("shoe empty", event.shoe_empty),
                        ("door open", event.door_open),
                        ("gate locked", event.gate_locked),
                    )
                    if on
                ]
                self._print(f"status: {', '.join(flags) or 'normal'}")
            case ChipsSensed(spot=spot, total=total):
                self._print(f"chips: {spot} = {total}")
            case DeviceFault(fault=fault, detail=detail):
                self._print(f"FAULT {fault.value}: {detail}")
            case DeviceLost(reason=reason):
                self._print(f"LOST: {reason}")
            case DeviceRestored():
                self._print("restored")

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    events: queue.Queue[Event] = queue.Queue()
    try:
        driver = SerialDevice(args.url, events, baudrate=args.baud).start()
    except DeviceError as exc:
        print(f"tablectl shoe-monitor: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    deadline = None if args.duration is None else time.monotonic() + args.duration
    monitor = Monitor(out)
    try:
        while not stop.is_set():
            if args.count is not None and monitor.cards >= args.count:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            try:
                event = events.get(timeout=0.2)
            except queue.Empty:
                continue
            monitor.show(event)
            seq = getattr(event, "seq", None)
            if seq is not None:
                driver.acknowledge(seq)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        driver.close()
        counters = driver.session.counters
        print(
            f"{monitor.cards} cards; line: {counters.duplicates} duplicates, "
            f"{counters.out_of_order} out of order, {counters.bad_frames} bad frames",
            file=out,
        )
    return 0
