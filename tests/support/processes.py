"""A child process whose output is kept line by line, to wait on: `Watched`, the base of
the pit tests' demo table (`tests.support.pit.DemoTable`) and of the idle-connection
tests' served commands (tests/security/test_idle_connections.py).

One reader thread takes every line (stdout and stderr together) under a condition and
wakes whoever waits; `stop` and `kill` end the process and join the thread, so no test
leaves it running (tests/conftest.py fails one that does)."""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


class Watched:
    """``command`` run from ``cwd``; ``lines`` is its output so far, ``changed`` the
    condition notified at each line and when the output ends."""

    def __init__(self, command: list[str], *, name: str, cwd: Path = ROOT) -> None:
        self.proc = subprocess.Popen(
            command,
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name=name, daemon=True)
        self._reader.start()

    def took(self, line: str) -> None:
        """Called with ``changed`` held for every line: a subclass counts what it waits on."""

    def _read(self) -> None:
        if self.proc.stdout is None:
            return
        for line in self.proc.stdout:
            with self.changed:
                self.lines.append(line)
                self.took(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, check: Callable[[list[str]], bool], timeout: float = 60.0) -> bool:
        """Whether ``check(lines)`` came to hold before the process ended or ``timeout``."""
        with self.changed:
            return self.changed.wait_for(
                lambda: check(self.lines) or self.proc.poll() is not None, timeout
            ) and check(self.lines)

    def stop(self, timeout: float = 30.0) -> int | None:
        """SIGTERM; the exit status, or None if it had not exited within ``timeout`` (it is
        then killed)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            return None
        finally:
            self._reader.join(timeout=5)

    def kill(self) -> None:
        """SIGKILL: no flush, no goodbye."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        self._reader.join(timeout=5)
