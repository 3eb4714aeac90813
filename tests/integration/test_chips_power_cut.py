"""A power cut in the middle of a payout mismatch (rule 4.1): a real controller
process with a chip reader is SIGKILLed while a box is overpaid (once at rest, once with
the reading still on the line); it comes back still showing the mismatch and still
refusing NEXT, and everything is journaled with the amounts and the dealer signed in.

`tablectl run --sim gpio` with ``[chips] reader`` on a pty: the shoe (stacked: the round is
known) and the chip reader are simulated in this process on real ptys and outlive the
controller, resending what was not acknowledged.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app.runtime.journal_files import open_journal
from controller.cards import Card
from sim_hardware.device import SimulatedChipReader
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle, write_config

# the burn; box1 9s, box2 5d, the dealer 7h, box1 9d, box2 Th; the dealer's Kc: box 1's 18
# wins 20 against 17, box 2's 15 loses
STACK = ["2c", "9s", "5d", "7h", "9d", "Th", "Kc"]


def chips_config(folder: Path, shoe_url: str, reader_url: str, port: int) -> Path:
    """The example table (`write_config`) with its wagers read by chip readers, its
    settlement checked by them, and the reader at ``reader_url`` (``[chips] reader``)."""
    path = write_config(folder, shoe_url, port, f'\n[chips]\nreader = "{reader_url}"\n')
    text = path.read_text().replace(
        "[blackjack]", "[blackjack]\nchip_readers = true\nsettlement_check = true", 1
    )
    path.write_text(text)
    return path


@pytest.fixture
def devices() -> Iterator[tuple[SimulatedShoe, SimulatedChipReader]]:
    cards = [Card.parse(c) for c in STACK]
    with (
        SimulatedShoe(PtyLink(), cards=cards, rng=random.Random(18)) as shoe,
        SimulatedChipReader(PtyLink()) as reader,
    ):
        yield shoe, reader


def box(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(b for b in state["view"]["boxes"] if b["number"] == number)


@pytest.mark.timeout(180)
def test_rule_4_1_sigkill_in_a_mismatch_comes_back_refusing_next(
    tmp_path: Path, devices: tuple[SimulatedShoe, SimulatedChipReader]
) -> None:
    shoe, reader = devices
    port = free_port()
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    config = chips_config(tmp_path, shoe.link.url, reader.link.url, port)
    controller = ControllerProcess(config, client)  # tablectl run --sim gpio
    hands = RemoteHands(client, shoe, pin="2468")
    state = controller.start()

    def act(do: Any) -> dict[str, Any]:
        seen = client.state().get("journal_seq", 0)
        do()
        return settle(client, seen)

    def chips(spot: str, total: int) -> dict[str, Any]:
        def sense() -> None:
            reader.sense(spot, total)
            assert reader.wait_until_acknowledged(10.0)

        return act(sense)

    try:
        act(lambda: hands.console("shuffled"))
        act(hands.draw)  # the burn
        act(lambda: hands.press("next"))
        chips("box1", 20)
        chips("box2", 20)
        act(lambda: hands.press("no_more_bets"))
        for _ in range(5):
            act(hands.draw)
        act(lambda: hands.press("next"))  # box 1 stands on 18
        act(lambda: hands.press("next"))  # box 2 stands on 15
        state = act(hands.draw)  # the dealer's 17
        assert state["view"]["state"] == "settlement"

        state = chips("box1", 45)  # 25 paid on a 20 win
        assert box(state, 1)["mismatch"] == "Box 1: paid $25, owed $20: $5 over (rule 4.1)"

        controller.kill()  # at rest, in the mismatch
        state = controller.start()
        assert state["recovered"] is True
        assert box(state, 1)["mismatch"] == "Box 1: paid $25, owed $20: $5 over (rule 4.1)"
        assert state["view"]["buttons"]["next"] is False

        reader.sense("box1", 50)  # more chips, and the power goes before it is journaled
        controller.kill()
        state = controller.start()
        assert reader.wait_until_acknowledged(10.0)  # resent to the new controller
        state = settle(client, state.get("journal_seq", 0))
        assert box(state, 1)["mismatch"] == "Box 1: paid $30, owed $20: $10 over (rule 4.1)"

        state = act(lambda: hands.press("next"))
        assert state["view"]["state"] == "settlement"  # still refused
        refused = [n for n in state["notices"] if n.get("type") == "ActionRefused"]
        assert refused and refused[-1]["rule"] == "4.1"
        assert "paid $30, owed $20: $10 over" in refused[-1]["reason"]
        assert "Box 2: losing wager not collected: $20" in refused[-1]["reason"]

        chips("box1", 40)  # the dealer takes the 10 back
        body = {
            "staff": "s01", "pin": "2468", "decision": "accept_payout",
            "reason": "box 2's player left; the pit keeps the chips", "args": {"box": 2},
        }  # fmt: skip
        act(lambda: client.post("/api/supervisor", body))
        state = act(lambda: hands.press("next"))
        assert state["view"]["state"] == "round_over"
    finally:
        code = controller.stop()
    assert code == 0

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    mismatches = [
        (r.payload["kind"], r.payload["paid"], r.actor) for r in rows if r.kind == "PayoutMismatch"
    ]
    assert mismatches == [("over", 25, "d01"), ("over", 30, "d01"), ("uncollected", 20, "d01")]
    [corrected] = [r.payload for r in rows if r.kind == "MismatchCorrected"]
    assert (corrected["box"], corrected["reads"]) == (1, 40)
    [accepted] = [r.payload for r in rows if r.kind == "MismatchAccepted"]
    assert (accepted["box"], accepted["who"], accepted["paid"]) == (2, "s01", 20)
    assert "player left" in accepted["reason"]
    readings = [r.payload["seq"] for r in rows if r.source == "chips" and r.kind == "ChipsSensed"]
    assert readings == sorted(set(readings))  # the resent reading applied once
