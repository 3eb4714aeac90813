"""A device that restarts on its own (a shoe that loses power and comes back) says HELLO
with a new boot id and remembers nothing it was told: the controller tells it again the
state of what it carries out (docs/protocol.md, "Commands")."""

from __future__ import annotations

import random
from pathlib import Path

from controller.app.cli.demo import act, demo_config, make_dealer
from controller.app.runtime.table import RunningTable


def test_a_shoe_that_restarts_is_told_the_gate_again(tmp_path: Path) -> None:
    config = demo_config("blackjack", tmp_path / "journal.sqlite", port=0)
    table = RunningTable(config, simulate=True, serve=False, seed=41).start()
    try:
        assert table.devices is not None and table.devices.sim_shoe is not None
        shoe = table.devices.sim_shoe
        dealer = make_dealer(table, random.Random(42))
        for _ in range(2000):  # until the game has the gate open for a card
            if table.loop.channels.get(("gate",)).__class__.__name__ == "UnlockShoe":
                break
            act(table, dealer)
        assert type(table.loop.channels[("gate",)]).__name__ == "UnlockShoe"
        assert shoe.wait_for(lambda: not shoe.gate_locked, 5.0)
        shoe.power_cycle()  # comes back with its gate locked, as its firmware must
        assert shoe.wait_for(lambda: not shoe.gate_locked, 10.0), (
            "the restarted shoe was left locked while the game has the gate open"
        )
    finally:
        table.stop()
