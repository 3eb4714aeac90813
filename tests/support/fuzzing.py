"""Run a hypothesis test for a time budget instead of a fixed number of examples.

``FUZZ_SECONDS`` (default 2.5) is each target's budget: the normal test run keeps the whole
folder near 30 s; ``make fuzz SECONDS=600`` runs each target for ten minutes. The test is
run again and again (each run a fresh random seed, ``max_examples`` per run) until the
budget is spent; the first failure stops it with hypothesis' shrunk falsifying example.
``FUZZ_REPORT`` names a file to which each target appends one JSON line: the target, the
examples run and the seconds spent (the figures for the hardening note).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, settings

BUDGET = float(os.environ.get("FUZZ_SECONDS", "2.5"))
LONG = BUDGET > 30

FUZZ = settings(
    max_examples=2000 if LONG else 100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


class Counter:
    """Examples run by one target (the test body increments it)."""

    def __init__(self) -> None:
        self.examples = 0

    def hit(self) -> None:
        self.examples += 1


def run_for(name: str, test: Callable[[], None], counter: Counter, budget: float = BUDGET) -> int:
    """Call the hypothesis ``test`` until ``budget`` seconds have passed (at least once)."""
    started = time.monotonic()
    runs = 0
    while True:
        test()
        runs += 1
        if time.monotonic() - started >= budget:
            break
    spent = time.monotonic() - started
    report = os.environ.get("FUZZ_REPORT")
    if report:
        line = {"target": name, "examples": counter.examples, "runs": runs, "seconds": spent}
        with Path(report).open("a") as out:
            out.write(json.dumps(line) + "\n")
    return counter.examples
