"""The contract suite runs on the simulated table everywhere and, marked ``hardware``, on
real pins of a Raspberry Pi wired back to back to a jig Pi. Hardware runs are opt-in."""

from __future__ import annotations

import os

import pytest

HARDWARE_REASON = (
    "needs real GPIO on a Raspberry Pi wired pin-for-pin to a jig Pi running pigpiod "
    "(docs/wiring.md, 'The contract suite on a real Pi'): "
    "set TABLECTL_HARDWARE=1 and TABLECTL_JIG_HOST (README, 'Tests that are skipped, and when')"
)


@pytest.fixture(autouse=True)
def skip_hardware_unless_asked(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("hardware") and os.environ.get("TABLECTL_HARDWARE") != "1":
        pytest.skip(HARDWARE_REASON)
