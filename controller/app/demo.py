"""`tablectl demo`: a simulated table, for a first look without hardware.

For now this is the wire slice: a simulated shoe on a real pseudo-terminal, dealing at a
human pace, and the shoe monitor reading it through the real driver, as `tablectl
shoe-monitor` would. The complete table (rules, journal, status display) replaces it when
the event loop lands; the command stays the same.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import threading
from typing import TextIO

from controller.app.shoe_monitor import Monitor
from controller.ports import Event
from drivers.serial_device import SerialDevice
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal-every", type=float, default=0.8, metavar="SECONDS")
    parser.add_argument("--count", type=int, default=None, help="stop after this many cards")
    parser.add_argument("--seed", type=int, default=None)


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    import queue

    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    link = PtyLink()
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    shoe = SimulatedShoe(link, decks=6, rng=random.Random(seed)).start()
    events: queue.Queue[Event] = queue.Queue()
    driver = SerialDevice(link.url, events).start()
    monitor = Monitor(out)
    print(f"SIMULATED table: shoe of 6 decks (seed {seed}) on {link.url}", file=out, flush=True)
    print("Ctrl-C to stop.", file=out, flush=True)
    try:
        while not stop.is_set():
            if args.count is not None and monitor.cards >= args.count:
                break
            try:
                event = events.get(timeout=args.deal_every)
            except queue.Empty:
                if shoe.cards_left:
                    shoe.draw()
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
        shoe.close()
    return 0
