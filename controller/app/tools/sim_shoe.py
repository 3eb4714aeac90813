"""`tablectl sim-shoe`: a simulated shoe on a pseudo-terminal or TCP port, for engineers to
test a monitor, a controller or their own firmware tools against.

It prints the port to open (a pty path or a ``socket://`` URL) and deals a card every
``--deal-every`` seconds until interrupted. It is a simulator, and says so.
"""

from __future__ import annotations

import argparse
import logging
import random
import signal
import sys
import threading
from typing import TextIO

from controller.app.cli import seconds, tcp_port
from controller.game.arguments import at_least
from sim_hardware.device import DeviceRefused
from sim_hardware.faults import FaultyLink, LineFaults
from sim_hardware.link import Link, PtyLink, TcpLink
from sim_hardware.shoe import SimulatedShoe

log = logging.getLogger(__name__)

FAULT_KINDS = ("corrupt", "split", "duplicate", "drop", "delay")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--pty", action="store_true", help="serve on a new pseudo-terminal")
    where.add_argument(
        "--tcp", type=tcp_port, metavar="PORT", help="serve on 127.0.0.1:PORT (0: any free port)"
    )
    parser.add_argument(
        "--decks", type=at_least(1), default=6, help="decks in the shoe (default 6)"
    )
    parser.add_argument("--seed", type=int, default=None, help="shuffle seed (default: random)")
    parser.add_argument(
        "--deal-every", type=seconds, default=1.0, metavar="SECONDS", help="pace of the dealing"
    )
    parser.add_argument(
        "--count", type=at_least(0), default=None, help="stop after this many cards"
    )
    parser.add_argument(
        "--faults",
        default="",
        metavar="KIND=RATE,...",
        help=f"line faults on what the shoe sends, e.g. corrupt=0.01,drop=0.02 ({FAULT_KINDS})",
    )


def parse_faults(text: str, rng: random.Random) -> LineFaults | None:
    """``corrupt=0.01,drop=0.02`` to `LineFaults`; raises ValueError naming a bad entry."""
    if not text:
        return None
    rates: dict[str, float] = {}
    for entry in text.split(","):
        kind, _, value = entry.partition("=")
        kind = kind.strip()
        if kind not in FAULT_KINDS:
            raise ValueError(f"unknown fault {kind!r}; known: {', '.join(FAULT_KINDS)}")
        try:
            rate = float(value)
        except ValueError:
            raise ValueError(
                f"fault {kind!r} needs a rate between 0 and 1, got {value!r}"
            ) from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault {kind!r} rate {rate} is not between 0 and 1")
        rates[kind] = rate
    faults = LineFaults(rng)
    for kind, rate in rates.items():
        setattr(faults, kind, rate)
    return faults


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    try:
        faults = parse_faults(args.faults, random.Random(seed + 1))
    except ValueError as exc:
        print(f"tablectl sim-shoe: --faults: {exc}", file=sys.stderr)
        return 2
    try:
        link: Link = PtyLink() if args.pty else TcpLink(args.tcp)
    except OSError as exc:
        where = "a pseudo-terminal" if args.pty else f"127.0.0.1:{args.tcp}"
        print(f"tablectl sim-shoe: cannot serve on {where}: {exc.strerror}", file=sys.stderr)
        return 1
    line: Link = FaultyLink(link, outbound=faults) if faults else link
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    shoe = SimulatedShoe(line, decks=args.decks, rng=random.Random(seed)).start()
    print(f"SIMULATED shoe ({args.decks} decks, seed {seed}) on {link.url}", file=out, flush=True)
    log.warning("this is a SIMULATED shoe on %s", link.url)
    dealt = 0
    try:
        while not stop.wait(args.deal_every):
            if args.count is not None and dealt >= args.count:
                break
            try:
                card = shoe.draw()
            except DeviceRefused as exc:
                print(f"not dealt: {exc}", file=out, flush=True)
                continue
            dealt += 1
            print(f"dealt {card} ({shoe.cards_left} left)", file=out, flush=True)
        shoe.wait_until_acknowledged(timeout=2.0)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        shoe.close()
    return 0
