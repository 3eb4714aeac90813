"""``tablectl shoe-conformance URL``: check a shoe's firmware against docs/protocol.md.

A shoe maker connects their shoe and runs::

    tablectl shoe-conformance /dev/serial/by-id/usb-ACME_Shoe-if00-port0

The kit plays the controller's side on the real port, case by case, and prints a table of
pass and fail, each row naming the section of docs/protocol.md it checks. When a case
needs a card out of the shoe it asks for one ("draw one card now") and waits; with
``--sim`` it runs against the built-in simulated shoe on a pty (and, for the kit's own
tests, ``--sim-broken CASE`` against a simulated shoe with the fault that breaks CASE,
sim_hardware/broken_shoes.py). Exit status 0 when every case passes.

The kit speaks raw frames (`firmware_bridge.frame`, `firmware_bridge.messages`), not the
reference session, so that it can send what a controller never would: a frame with a bad
CRC, a frame cut into single bytes, two frames in one write, a sequence number with a
gap, numbers across the wrap from 65535 to 0, a second HELLO with a new boot id, and
silence. Its own numbering starts at 65535, so the wrap falls inside the sequence case.

The kit is three modules: this one (the command and its report), `tools.conformance_cases`
(the cases) and `tools.conformance_wire` (the kit's end of the line).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from controller.app.cli import seconds
from controller.app.tools.conformance_cases import CASES, Conformance, Result
from controller.app.tools.conformance_wire import Wire
from drivers.errors import DeviceError
from drivers.transport import open_transport

__all__ = ["CASES", "DOC", "add_arguments", "check", "run", "table"]

DOC = "docs/protocol.md"


def table(results: list[Result]) -> str:
    width = max(len(r.section) for r in results)
    lines = [f"{'case':<15} {'result':<6} {'section of ' + DOC:<{width}}  detail"]
    for r in results:
        word = "pass" if r.passed else "FAIL"
        lines.append(f"{r.case:<15} {word:<6} {r.section:<{width}}  {r.detail}")
    passed = sum(r.passed for r in results)
    lines.append(f"{passed} of {len(results)} cases pass")
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", nargs="?", help="the shoe's port (a serial port or pyserial URL)")
    parser.add_argument("--baud", type=int, default=115200)
    parser.add_argument(
        "--sim", action="store_true", help="check the built-in simulated shoe instead"
    )
    parser.add_argument(
        "--sim-broken",
        choices=CASES,
        default=None,
        metavar="CASE",
        help="check a simulated shoe with the fault that breaks CASE (the kit's own test)",
    )
    parser.add_argument(
        "--draw-timeout", type=seconds, default=30.0, help="how long to wait for a card"
    )


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.sim or args.sim_broken:
        return _run_simulated(args, out)
    if not args.url:
        print("tablectl shoe-conformance: give the shoe's port (or --sim)", file=sys.stderr)
        return 2

    def ask() -> None:
        print("  >>> draw one card from the shoe now", file=out, flush=True)

    return check(args.url, args.baud, ask, out)


def check(url: str, baud: int, draw: Callable[[], None], out: TextIO) -> int:
    try:
        port = open_transport(url, baudrate=baud, timeout=0.05)
    except DeviceError as exc:
        print(f"tablectl shoe-conformance: {exc}", file=sys.stderr)
        return 1
    print(f"checking the shoe on {url} against {DOC}", file=out, flush=True)
    try:
        results = Conformance(Wire(port), draw, out).run()
    except DeviceError as exc:
        print(f"tablectl shoe-conformance: the line failed: {exc}", file=sys.stderr)
        return 1
    finally:
        port.close()
    print(table(results), file=out)
    return 0 if all(r.passed for r in results) else 1


def _run_simulated(args: argparse.Namespace, out: TextIO) -> int:
    from sim_hardware.broken_shoes import BROKEN_SHOES
    from sim_hardware.link import PtyLink
    from sim_hardware.shoe import SimulatedShoe

    kind = BROKEN_SHOES[args.sim_broken] if args.sim_broken else SimulatedShoe
    link = PtyLink()
    shoe = kind(link, decks=1).start()
    what = "the simulated shoe"
    if args.sim_broken:
        what = f"a simulated shoe broken for {args.sim_broken}"
    print(f"SIMULATED: {what} ({type(shoe).__name__})", file=out, flush=True)

    def draw() -> None:
        shoe.wait_for(lambda: not shoe.gate_locked, 5.0)
        shoe.draw()

    try:
        return check(link.url, args.baud, draw, out)
    finally:
        shoe.close()
