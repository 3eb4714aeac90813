"""Progress on long work (a simulation, a journal's full check, a deck's enrolment): a
`tqdm` bar on standard error when it is a terminal, and nothing at all otherwise.

Nothing a script reads changes: the bar goes to stderr only when stderr is a terminal
(tqdm's own test, ``disable=None``), never with ``--json`` (``quiet``), and it is
cleared when the work ends (``leave=False``), so a piped or redirected run prints exactly
the bytes it printed without it.
"""

from __future__ import annotations

import sys
from typing import Protocol, TextIO

from tqdm import tqdm

tqdm.monitor_interval = 0  # no monitor thread: each bar is drawn from the loop it counts


class Bar(Protocol):
    """What the commands use of a `tqdm` bar."""

    n: float
    total: float | None

    def update(self, n: float = 1) -> None: ...
    def refresh(self) -> None: ...
    def __enter__(self) -> Bar: ...
    def __exit__(self, *exc: object) -> None: ...


def progress_bar(total: int | None, what: str, unit: str, *, quiet: bool = False) -> Bar:
    """A bar counting ``unit`` up to ``total`` (None: a count without an end); a bar that
    draws nothing when stderr is not a terminal or ``quiet``. Use it as a context manager
    and call ``update(n)``."""
    bar: Bar = tqdm(
        total=total,
        desc=what,
        unit=unit,
        unit_scale=True,
        leave=False,
        dynamic_ncols=True,
        file=sys.stderr,
        disable=True if quiet else None,
    )
    return bar


def say(line: str, out: TextIO) -> None:
    """Print ``line`` to ``out`` above any bar on the terminal (the bar is drawn again
    below it), flushed: a prompt the dealer waits for."""
    tqdm.write(line, file=out)
    out.flush()
