"""The simulated dealer waits at a locked gate until it opens (a fixed 2 s
wait fails under load), however long the controller takes, up to a generous bound."""

from __future__ import annotations

import random
import threading

import pytest

from sim_hardware.device import DeviceRefused
from sim_hardware.link import PtyLink
from sim_hardware.shoe import GATE_WAIT_SECONDS, SimulatedShoe


def test_a_draw_waits_for_the_gate_and_goes_as_soon_as_it_opens() -> None:
    assert GATE_WAIT_SECONDS >= 10.0
    with SimulatedShoe(PtyLink(), decks=1, rng=random.Random(1)) as shoe:
        shoe.gate_locked = True
        drawing = threading.Event()
        drawn: list[str] = []

        def dealer() -> None:
            drawing.set()
            drawn.append(str(shoe.draw_when_open()))

        thread = threading.Thread(target=dealer)
        thread.start()
        assert drawing.wait(5)
        assert not drawn  # still at the gate
        shoe.gate_locked = False  # the controller's GATE_UNLOCK arrives
        thread.join(timeout=5)
        assert not thread.is_alive() and len(drawn) == 1


def test_a_gate_that_stays_locked_is_refused_after_the_wait() -> None:
    with SimulatedShoe(PtyLink(), decks=1, rng=random.Random(1)) as shoe:
        shoe.gate_locked = True
        with pytest.raises(DeviceRefused, match="locked"):
            shoe.draw_when_open(timeout=0.05)
