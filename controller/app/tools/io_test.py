"""``tablectl io-test --config FILE [--sim]``: check a table's wiring by eye.

For the engineer with a screwdriver under the table: every input is listed as it changes
(place a chip, press a button, see its name and pin), and every output is cycled in turn
(the shoe gate, each lamp, each seat of the dealer-button display, the limit sign), with a
line saying which pin should be doing what. With ``--sim`` it runs on the simulated table
(gpiozero MockFactory, said so on the first line) and a simulated hand walks the inputs.

On exit (Ctrl-C, SIGTERM, or ``--duration``) the driver is closed, which puts the shoe gate
back in its fail-safe state; the last line says which. ``--history FILE`` (with ``--sim``)
writes every pin change to FILE as JSON, so a test can check the pins after the process
has stopped.
"""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from controller.app.cli import seconds
from controller.app.config.pins import PinMapError, load_pinmap
from controller.game import device_needs
from controller.ports import (
    ButtonPressed,
    Event,
    LampPattern,
    LockShoe,
    SetLamp,
    ShowButtonPosition,
    ShowLimits,
    SpotCleared,
    SpotOccupied,
    UnlockShoe,
)
from drivers.errors import DeviceError
from drivers.gpio import TableIO, real_pin_factory
from drivers.pinmap import ButtonInput, PinMap, SpotInput
from sim_hardware.table import SimTable

__all__ = ["add_arguments", "run"]

Step = tuple[str, Callable[[], None]]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", required=True, type=Path, help="the table config (TOML)")
    parser.add_argument(
        "--sim",
        action="store_true",
        help="use the simulated table (gpiozero MockFactory), not the Pi's pins",
    )
    parser.add_argument(
        "--step", type=seconds, default=1.0, help="seconds each output stays on (default 1)"
    )
    parser.add_argument(
        "--duration", type=seconds, default=None, help="stop after this many seconds"
    )
    parser.add_argument(
        "--history", type=Path, default=None, help="with --sim: write every pin change here"
    )


def _describe(event: Event, pinmap: PinMap) -> str:
    if isinstance(event, SpotOccupied | SpotCleared):
        pin = pinmap.spot(event.spot).pin
        what = "chips placed" if isinstance(event, SpotOccupied) else "chips removed"
        return f"{event.spot:<18} GPIO{pin:<3} {what}"
    if isinstance(event, ButtonPressed):
        pin = pinmap.button(event.button).pin
        how = "held (long press)" if event.held else "pressed"
        return f"button {event.button.value:<11} GPIO{pin:<3} {how}"
    return repr(event)


def _steps(io: TableIO, pinmap: PinMap) -> list[Step]:
    """Every output on, then off, one at a time; the gate first, ending fail-safe."""
    steps: list[Step] = []
    if pinmap.gate is not None:
        pin = pinmap.gate.pin
        unlock: Step = (f"shoe gate: unlocked (GPIO{pin})", lambda: io.execute(UnlockShoe()))
        lock: Step = (f"shoe gate: locked (GPIO{pin})", lambda: io.execute(LockShoe()))
        # first away from the fail-safe state (the coil energised), then back to it
        if pinmap.gate.fail_safe.value == "locked":
            steps += [unlock, lock]
        else:
            steps += [lock, unlock]
    for lamp in pinmap.lamps:

        def on(lamp: Any = lamp.lamp) -> None:
            io.execute(SetLamp(lamp, LampPattern.STEADY))

        def off(lamp: Any = lamp.lamp) -> None:
            io.execute(SetLamp(lamp, LampPattern.OFF))

        steps.append((f"lamp {lamp.lamp.value}: on (GPIO{lamp.pin})", on))
        steps.append((f"lamp {lamp.lamp.value}: off", off))
    if pinmap.position is not None:
        for seat, pin in enumerate(pinmap.position.pins, start=1):

            def show(seat: int = seat) -> None:
                io.execute(ShowButtonPosition(seat))

            steps.append((f"dealer button: seat {seat} (GPIO{pin})", show))
        steps.append(("dealer button: all off", lambda: io.execute(ShowButtonPosition(None))))
    if pinmap.limit_sign is not None:
        sign = pinmap.limit_sign
        pattern = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: sign.columns]

        def test_text() -> None:
            if io.outputs is not None:
                io.outputs.show_text([pattern] * sign.rows)

        steps.append((f"limit sign: test pattern {pattern!r}", test_text))
        steps.append(("limit sign: limits 10-500", lambda: io.execute(ShowLimits(10, 500))))
    return steps


def _walk_inputs(sim: SimTable, pinmap: PinMap, stop: threading.Event, gap: float) -> None:
    """The simulated hand: chips on and off every spot, then every button pressed."""
    while not stop.is_set():
        for spot in pinmap.spots:
            for active in (True, False):
                if stop.wait(gap):
                    return
                sim.set_input(spot.name, active, bounce=5)
        for button in pinmap.buttons:
            if stop.wait(gap):
                return
            sim.set_input(button.name, True, bounce=5)
            held = stop.wait(button.hold_s + 0.1 if button.hold_s else max(gap, 0.1))
            sim.set_input(button.name, False, bounce=5)
            if held:
                return


def run(args: argparse.Namespace) -> int:
    out: TextIO = sys.stdout
    try:
        pinmap = load_pinmap(args.config, games=device_needs())
    except PinMapError as exc:
        print(f"io-test: {exc}", file=sys.stderr)
        return 2
    sim: SimTable | None = None
    if args.sim:
        sim = SimTable(pinmap)
        factory: Any = sim.pin_factory
        print("SIMULATOR: simulated table on gpiozero MockFactory; no pin is touched", file=out)
    elif args.history is not None:
        print("io-test: --history needs --sim", file=sys.stderr)
        return 2
    else:
        try:
            factory = real_pin_factory()
        except DeviceError as exc:
            print(f"io-test: {exc}", file=sys.stderr)
            return 3
    events: queue.Queue[Event] = queue.Queue()
    stop = threading.Event()
    previous = None
    if threading.current_thread() is threading.main_thread():

        def on_term(signum: int, frame: FrameType | None) -> None:
            stop.set()

        previous = signal.signal(signal.SIGTERM, on_term)
    walker: threading.Thread | None = None
    start_levels: dict[str, float] = {}
    try:
        io = TableIO(pinmap, events, pin_factory=factory, source="io-test")
    except DeviceError as exc:
        print(f"io-test: cannot open the pins: {exc}", file=sys.stderr)
        return 3
    try:
        if sim is not None and pinmap.gate is not None:
            start_levels["gate"] = sim.level("gate")
        inputs: list[SpotInput | ButtonInput] = [*pinmap.spots, *pinmap.buttons]
        for spec in inputs:
            level = "high" if spec.active_high else "low"
            print(
                f"input  {spec.name:<18} GPIO{spec.pin:<3} pull {spec.pull}, active {level}",
                file=out,
            )
        if pinmap.gate is not None:
            print(f"gate   fail-safe {pinmap.gate.fail_safe.value}: now {_gate(io)}", file=out)
        if sim is not None:
            walker = threading.Thread(
                target=_walk_inputs, args=(sim, pinmap, stop, args.step / 2), name="io-test-sim"
            )
            walker.start()
        print("ready: inputs are listed as they change; outputs cycle. Ctrl-C stops.", file=out)
        out.flush()
        _loop(io, pinmap, events, stop, args, out)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        if walker is not None:
            walker.join()
        io.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    if pinmap.gate is not None:
        print(
            f"closed: shoe gate released in its fail-safe state ({pinmap.gate.fail_safe.value})",
            file=out,
        )
    if sim is not None and args.history is not None:
        _write_history(sim, pinmap, start_levels, args.history)
    out.flush()
    return 0


def _gate(io: TableIO) -> str:
    locked = io.outputs.gate_locked if io.outputs is not None else None
    return "not fitted" if locked is None else ("locked" if locked else "unlocked")


def _loop(
    io: TableIO,
    pinmap: PinMap,
    events: queue.Queue[Event],
    stop: threading.Event,
    args: argparse.Namespace,
    out: TextIO,
) -> None:
    steps = _steps(io, pinmap)
    start = time.monotonic()
    next_step, index = start, 0
    while not stop.is_set():
        now = time.monotonic()
        if args.duration is not None and now - start >= args.duration:
            return
        if steps and now >= next_step:
            label, action = steps[index % len(steps)]
            action()
            print(f"{now - start:8.3f}  output  {label}", file=out, flush=True)
            index += 1
            next_step = now + args.step
        try:
            event = events.get(timeout=max(0.0, min(0.05, next_step - time.monotonic())))
        except queue.Empty:
            continue
        print(
            f"{time.monotonic() - start:8.3f}  input   {_describe(event, pinmap)}",
            file=out,
            flush=True,
        )


def _write_history(sim: SimTable, pinmap: PinMap, start: dict[str, float], path: Path) -> None:
    record: dict[str, Any] = {
        "start": start,
        "gate_pin": pinmap.gate.pin if pinmap.gate is not None else None,
        "changes": [[c.seq, c.t, c.gpio, c.level] for c in sim.changes()],
    }
    path.write_text(json.dumps(record), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tablectl io-test", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
