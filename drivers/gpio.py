"""The table's GPIO: chip sensors and console buttons in, lamps, gate and displays out.

`TableIO` turns the pins of a `PinMap` into controller events (``SpotOccupied``,
``SpotCleared``, ``ButtonPressed``) on the controller's queue, and executes the output
commands (``SetLamp``, ``LockShoe``, ``UnlockShoe``, ``ShowButtonPosition``,
``ShowLimits``) through `drivers.lamps.TableOutputs`.

The driver only reports what the felt and the console say; the rules layer decides what a
change means (a wager altered after the first card, rule 4.2; an insurance wager on the
line in front of its box, rule 9.2; a supervisor's long press to clear a HOLD).

Debounce. A contact bounces and a chip stack settles: one real change arrives as a burst
of edges. gpiozero's ``bounce_time`` depends on the pin back-end (MockFactory ignores it),
so the driver debounces itself, the same way on every back-end: an edge (re)starts the
input's settle timer; when the input has been quiet for ``debounce_ms`` its level is read
and compared with the last level reported. A burst that ends where it began (a glitch)
reports nothing; a burst that ends at the other level reports exactly one event.

Long press. A button with ``hold_s`` (the supervisor key by default) reports
``ButtonPressed(held=True)`` as soon as it has been down that long, or
``ButtonPressed(held=False)`` on release if it was let go earlier; other buttons report on
the press itself. Exactly one event per press.

Buttons are gpiozero ``DigitalInputDevice``, the device its ``Button`` is built on:
``Button`` adds one hold thread per button that polls every 100 ms and blocks ``close()``
for up to ``hold_time`` while pressed, and its hold timer starts on the raw, bouncing
edge. The settle thread here times long presses from the debounced press instead.

Threads. gpiozero calls back on its own threads (MockFactory: on the thread that drives
the pin). The callback only stamps the time and wakes one settle thread, which reads the
level and puts the event on the queue; the controller thread never waits on a pin.

Every gpiozero device gets ``pin_factory=``; this module never sets the global factory.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gpiozero import DigitalInputDevice

from controller.ports import (
    ButtonPressed,
    Command,
    Event,
    SpotCleared,
    SpotOccupied,
)
from drivers.errors import DeviceNotFound
from drivers.lamps import BadCommand, GpioError, OutputNotFitted, TableOutputs
from drivers.pinmap import ButtonInput, PinMap, SpotInput

__all__ = [
    "BadCommand",
    "GpioError",
    "OutputNotFitted",
    "TableIO",
    "real_pin_factory",
]

log = logging.getLogger(__name__)


def real_pin_factory() -> Any:
    """The Raspberry Pi's own GPIO (lgpio), or `DeviceNotFound` saying why not.

    No fallback to another back-end or to the mock: a table told to use real pins
    refuses to start without them (docs/architecture.md: missing hardware is an error).
    """
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception as exc:  # ImportError, lgpio.error, OSError: all mean "no GPIO here"
        raise DeviceNotFound(
            f"no Raspberry Pi GPIO on this machine ({type(exc).__name__}: {exc}); "
            "run with --sim to use the simulated table"
        ) from exc


def _input_kwargs(pull: str, active_high: bool) -> dict[str, Any]:
    if pull == "none":
        return {"pull_up": None, "active_state": active_high}
    return {"pull_up": pull == "up"}


@dataclass(eq=False)
class _Watch:
    """One debounced input and its settle state (guarded by the TableIO condition)."""

    name: str
    device: Any
    debounce_s: float
    on_change: Callable[[bool], None]
    hold_s: float | None = None
    on_hold: Callable[[], None] | None = None
    stable: bool = False
    level: bool = False  # the level its last edge left it at
    settle_at: float | None = None
    burst_start: float = 0.0
    hold_at: float | None = None
    held_sent: bool = False
    button: bool = False


class TableIO:
    """The table's GPIO inputs and outputs, on an explicit gpiozero pin factory.

    ``report_initial``: chips already on a spot when the driver starts are reported as
    ``SpotOccupied``, so a controller resuming a hand sees the table as it is.
    ``clock``: monotonic seconds for the settle and hold deadlines. It must run at real
    speed (the settle thread sleeps on it); it is injectable for a clock that is shared
    with the journal, not for a fake one.
    """

    def __init__(
        self,
        pinmap: PinMap,
        events: queue.Queue[Event],
        *,
        pin_factory: Any,
        source: str = "table",
        clock: Callable[[], float] = time.monotonic,
        report_initial: bool = True,
    ) -> None:
        if pin_factory is None:
            raise GpioError("TableIO needs an explicit pin_factory (real_pin_factory() or a sim)")
        self.pinmap = pinmap
        self.source = source
        self._events = events
        self._clock = clock
        self._cond = threading.Condition()
        self._stopping = False
        self._closed = False
        self._watches: list[_Watch] = []
        self._thread: threading.Thread | None = None
        self.outputs: TableOutputs | None = None
        try:
            self.outputs = TableOutputs(pinmap, pin_factory=pin_factory)
            for spot in pinmap.spots:
                self._watches.append(self._spot_watch(spot, pin_factory))
            for button in pinmap.buttons:
                self._watches.append(self._button_watch(button, pin_factory))
            with self._cond:
                for watch in self._watches:
                    watch.stable = watch.level = bool(watch.device.is_active)
                    self._attach(watch)
                initial = [w for w in self._watches if w.stable]
            for watch in initial:
                if watch.button:
                    log.warning("button %s is down at start: ignored until released", watch.name)
                elif report_initial:
                    self._put(SpotOccupied(source=self.source, spot=watch.name))
            self._thread = threading.Thread(
                target=self._settle_loop, name=f"tablectl-gpio-{source}", daemon=True
            )
            self._thread.start()
        except Exception:
            self.close()
            raise
        log.info(
            "GPIO table I/O %r: %d spots, %d buttons, on %s",
            source,
            len(pinmap.spots),
            len(pinmap.buttons),
            type(pin_factory).__name__,
        )

    # -- building inputs --

    def _spot_watch(self, spot: SpotInput, pin_factory: Any) -> _Watch:
        device = DigitalInputDevice(
            f"GPIO{spot.pin}",
            bounce_time=None,
            pin_factory=pin_factory,
            **_input_kwargs(spot.pull, spot.active_high),
        )
        name = spot.name

        def changed(occupied: bool) -> None:
            kind = SpotOccupied if occupied else SpotCleared
            self._put(kind(source=self.source, spot=name))

        return _Watch(name, device, spot.debounce_s, changed)

    def _button_watch(self, spec: ButtonInput, pin_factory: Any) -> _Watch:
        device = DigitalInputDevice(
            f"GPIO{spec.pin}",
            bounce_time=None,
            pin_factory=pin_factory,
            **_input_kwargs(spec.pull, spec.active_high),
        )
        button = spec.button

        def changed(down: bool) -> None:
            if spec.hold_s is None:
                if down:
                    self._put(ButtonPressed(source=self.source, button=button, held=False))
            elif not down and not watch.held_sent:
                self._put(ButtonPressed(source=self.source, button=button, held=False))

        def held() -> None:
            self._put(ButtonPressed(source=self.source, button=button, held=True))

        watch = _Watch(button.value, device, spec.debounce_s, changed, spec.hold_s, held)
        watch.button = True
        return watch

    def _attach(self, watch: _Watch) -> None:
        def edge() -> None:
            self._edge(watch)

        watch.device.when_activated = edge
        watch.device.when_deactivated = edge

    # -- the settle thread --

    def _edge(self, watch: _Watch) -> None:
        """A pin changed (gpiozero's thread): (re)start its settle timer and wake the loop.
        A burst that was already quiet for its debounce time when this edge came is decided
        first, at the level it was quiet at: a settle thread that ran late (a busy CPU) must
        not take a short press for a glitch."""
        with self._cond:
            now = self._clock()
            if watch.settle_at is not None and watch.settle_at <= now:
                self._settled(watch)
            if watch.settle_at is None:
                watch.burst_start = now
            watch.level = bool(watch.device.is_active)
            watch.settle_at = now + watch.debounce_s
            self._cond.notify_all()

    def _settle_loop(self) -> None:
        with self._cond:
            while not self._stopping:
                now = self._clock()
                for watch in self._watches:
                    if watch.settle_at is not None and watch.settle_at <= now:
                        self._settled(watch)
                for watch in self._watches:
                    if watch.hold_at is not None and watch.hold_at <= now:
                        self._hold_due(watch)
                deadlines = [w.settle_at for w in self._watches if w.settle_at is not None]
                deadlines += [w.hold_at for w in self._watches if w.hold_at is not None]
                timeout = max(0.0, min(deadlines) - self._clock()) if deadlines else None
                self._cond.notify_all()  # wakes wait_quiet()
                self._cond.wait(timeout)

    def _settled(self, watch: _Watch) -> None:
        watch.settle_at = None
        level = watch.level
        if level == watch.stable:
            log.debug("%s: glitch ignored (burst ended where it began)", watch.name)
            return
        watch.stable = level
        if watch.hold_s is not None:
            if level:
                watch.hold_at = watch.burst_start + watch.hold_s
                watch.held_sent = False
            else:
                watch.hold_at = None
        watch.on_change(level)

    def _hold_due(self, watch: _Watch) -> None:
        if watch.settle_at is not None:
            watch.hold_at = watch.settle_at  # a burst is settling: decide after it
            return
        watch.hold_at = None
        if watch.stable and watch.on_hold is not None:
            watch.held_sent = True
            watch.on_hold()

    def wait_quiet(self, timeout: float) -> bool:
        """Wait until no input is settling (every burst so far has been decided and its
        event, if any, is on the queue). False on timeout. Pending long-press timers do not
        count: a button held down is quiet."""
        with self._cond:
            return self._cond.wait_for(
                lambda: self._stopping or all(w.settle_at is None for w in self._watches),
                timeout,
            )

    def _put(self, event: Event) -> None:
        log.debug("event %r", event)
        self._events.put(event)

    # -- outputs --

    def handles(self, command: Command) -> bool:
        """Whether this table's pin map has the output ``command`` drives."""
        return self.outputs is not None and self.outputs.handles(command)

    def execute(self, command: Command) -> None:
        """Carry out an output command. Raises `OutputNotFitted` or `BadCommand`."""
        if self.outputs is None or self._closed:
            raise GpioError("the GPIO table I/O is closed")
        self.outputs.execute(command)

    def acknowledge(self, seq: int) -> None:
        """Pins have no acknowledgement (their events carry no sequence number)."""
        return None

    # -- lifetime --

    def close(self) -> None:
        """Stop reporting, put the gate in its fail-safe state and release every pin."""
        if self._closed:
            return
        self._closed = True
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5.0)
        for watch in self._watches:
            watch.device.close()
        self._watches.clear()
        if self.outputs is not None:
            self.outputs.close()

    def __enter__(self) -> TableIO:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
