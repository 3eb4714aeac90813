"""The game's view, built while the controller thread waits for the disk (issue 16).

Between applying a burst and publishing it the controller thread does two things that do
not depend on each other: it waits for the journal's commit (the fsync, about 0.3 ms,
during which it holds no GIL) and it builds the game's view for the display (about
0.16 ms of Python for a blackjack table). Done one after the other they add up on every
card; `ViewAhead` lets a helper thread build the view during the wait.

Why it is safe to read the game on another thread: between `start` and `result` the
controller thread does not touch the game at all. It commits the journal, carries out
commands, acknowledges devices, and then asks for the view; the game is neither applied
to nor snapshotted until `result` has returned, and `result` returns only when the
helper has finished reading. The game is handed over, not shared: one thread reads it at
a time (DESIGN "Runtime model": only the controller thread changes it).

Why it never makes a card slower than building the view in place: whichever thread comes
first claims the work. If the helper has not started when the controller thread asks
(a busy machine did not give it a CPU in time), the controller thread builds the view
itself and the helper skips it. Nothing is published before the journal is durable: the
view is only a value until the loop publishes it, after the commit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["ViewAhead"]


class ViewAhead:
    """One view at a time: `start(build)`, then `result()` (the view, or ``build``'s
    exception raised again) on the thread that started it. The helper thread runs between
    `open` and `close` (the controller thread's run); without it `result` builds the view
    in place, as a loop stepped directly (tests, the journal's CLI) does."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._done = threading.Condition(self._lock)
        self._build: Callable[[], Any] | None = None  # the job not yet claimed
        self._running = False  # the helper is building
        self._value: Any = None
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None
        self._closing = False
        self.helped = 0  # views the helper built (the rest the controller built itself)

    def open(self) -> None:
        """Start the helper thread."""
        with self._lock:
            if self._thread is not None:
                return
            self._closing = False
            self._thread = threading.Thread(target=self._serve, name="view", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the helper thread (after the view in hand, if any). Safe twice."""
        with self._lock:
            thread, self._thread = self._thread, None
            self._closing = True
            self._wake.notify()
        if thread is not None:
            thread.join(timeout=5.0)

    def start(self, build: Callable[[], Any]) -> None:
        """Offer ``build`` to the helper. The caller must not change what ``build`` reads
        until `result` returns."""
        with self._lock:
            self._build, self._value, self._error = build, None, None
            if self._thread is not None:
                self._wake.notify()

    def result(self) -> Any:
        """The view: built here if the helper has not claimed it, else awaited."""
        with self._lock:
            build, self._build = self._build, None
            if build is None:
                while self._running:
                    self._done.wait()
                value, error = self._value, self._error
                self._value = self._error = None
                if error is not None:
                    raise error
                return value
        return build()

    def discard(self) -> None:
        """Forget the view offered (the burst failed): return once nothing reads the game."""
        with self._lock:
            self._build = None
            while self._running:
                self._done.wait()
            self._value = self._error = None

    def _serve(self) -> None:
        while True:
            with self._lock:
                while self._build is None and not self._closing:
                    self._wake.wait()
                if self._closing:
                    return  # a view still offered is built by `result`, in place
                build: Callable[[], Any] | None = self._build
                self._build = None
                if build is None:
                    continue
                self._running = True
            value: Any = None
            error: BaseException | None = None
            try:
                value = build()
            except BaseException as exc:  # handed to the controller thread by `result`
                error = exc
            with self._lock:
                self._value, self._error = value, error
                self._running = False
                self.helped += 1
                self._done.notify_all()
