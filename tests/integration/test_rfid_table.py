"""An RFID shoe on a running table: a simulated RDM6300 reader at the mouth of a shoe of
six tagged decks, on a real pty in this process, read by a real `tablectl run --sim gpio`
process through its deck enrolment files; the dealer's console inputs go through the
table's console API (sim_hardware.remote), as in the power-cut tests.

What an RFID reader makes hard: the reader repeats a tag while it is in the field (one
card per pass), a tag read again since the shuffle is one card out twice (the shoe audit),
a tag in no enrolled deck is a card the table cannot name, and a reader pulled while the
gate was open may have let cards pass unseen, which no acknowledgement can recover. Each
test ends by reading the journal the controller wrote.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.app.runtime.journal_files import open_journal
from controller.journal.store import Entry
from sim_hardware.dealer import BlackjackDealer
from sim_hardware.rdm6300 import SimulatedRfidShoe
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.testbed import ControllerProcess, free_port, settle, write_config

SEED = 20261201
STRANGER = "1122334455"  # a tag in no enrolled deck
WAIT = 20.0


class Table:
    def __init__(self, folder: Path, shoe: SimulatedRfidShoe, window_ms: int = 1000) -> None:
        self.folder = folder
        self.shoe = shoe
        port = free_port()
        self.client = ConsoleClient(f"http://127.0.0.1:{port}")
        decks = shoe.write_decks(folder)
        config = write_config(folder, shoe.path, port, rfid_decks=decks, repeat_window_ms=window_ms)
        self.controller = ControllerProcess(config, self.client)
        self.hands = RemoteHands(self.client, shoe, pin="2468")
        self.dealer = BlackjackDealer(
            self.hands, self.client.state, random.Random(SEED), insurance_sensors=False
        )
        self.state: dict[str, Any] = {}
        self.rows: list[Entry] = []

    def __enter__(self) -> Table:
        """Start the controller; on the way out stop it and read its journal (`rows`)."""
        self.state = self.controller.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.rows = self.journal()

    def step(self) -> str:
        seen = self.state.get("journal_seq", 0)
        did = self.dealer.step()
        self.state = settle(self.client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
        return did

    def wait_for(self, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Poll the other process's published state until ``check`` holds."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = self.client.state()
            if state and check(state):
                self.state = state
                return state
            time.sleep(0.02)  # polling another process's state
        raise AssertionError(f"the table never reached the state asked for: {self.state}")

    def journal(self) -> list[Entry]:
        """Stop the controller (cleanly) and read what it journaled."""
        assert self.controller.stop() == 0
        with open_journal(self.folder / "journal.sqlite", readonly=True) as journal:
            assert journal.verify() > 0
            return list(journal.entries())


@pytest.fixture
def shoe(tmp_path: Path) -> Iterator[SimulatedRfidShoe]:
    # eight frames per card: a tag that stays in the field is read again and again
    with SimulatedRfidShoe(
        6, rng=random.Random(SEED), link=tmp_path / "rdm6300", repeats=8
    ) as device:
        yield device


def held(state: dict[str, Any]) -> bool:
    return bool(state.get("view", {}).get("state") == "hold")


def violations(rows: list[Entry]) -> list[dict[str, Any]]:
    return [row.payload for row in rows if row.kind == "Violation"]


def dealing(state: dict[str, Any]) -> bool:
    return bool(state.get("view", {}).get("state") in ("initial_deal", "boxes_acting"))


def deal_until(table: Table, check: Callable[[dict[str, Any]], bool], steps: int = 200) -> None:
    for _ in range(steps):
        if check(table.state):
            return
        table.step()
    raise AssertionError(f"not reached in {steps} steps: {table.state.get('view')}")


@pytest.mark.timeout(180)
def test_whole_rounds_from_a_simulated_rdm6300_through_tablectl_run_to_the_journal(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    with Table(tmp_path, shoe) as table:
        while table.dealer.rounds_finished < 2:
            table.step()
    rows = table.rows
    drawn = [row.payload for row in rows if row.kind == "CardDrawn" and row.source == "shoe"]
    burned = [row.payload for row in rows if row.kind == "CardBurned"]
    # every card slid past the reader (eight frames each) is one row, with its own tag
    assert [(p["tag"], p["card"]) for p in drawn] == [(t, str(c)) for t, c in shoe.drawn]
    assert len(drawn) == len(shoe.drawn) > 8 and len(burned) >= 1
    assert all(p["seq"] is None for p in drawn)  # an RFID reader has no acknowledgement
    assert not violations(rows)
    settled = [row.payload for row in rows if row.kind == "RoundSettled"]
    assert len(settled) >= 2
    for round_ in settled:
        assert round_["wagers_in"] == round_["paid_out"] + round_["house_result"], round_


@pytest.mark.timeout(120)
def test_an_unknown_tag_holds_the_table_naming_the_tag(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    with Table(tmp_path, shoe) as table:
        deal_until(table, dealing)
        shoe.present(STRANGER)
        table.wait_for(held)
    rows = table.rows
    faults = [r.payload for r in rows if r.kind == "DeviceFault"]
    assert [(f["fault"], f["detail"]) for f in faults] == [("unknown-tag", STRANGER)]
    (violation,) = violations(rows)
    assert STRANGER in violation["message"] and violation["rule"] == "3.3"
    assert violation["by"] == "the reader shoe"


@pytest.mark.timeout(120)
def test_a_card_read_again_since_the_shuffle_is_a_duplicate(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    with Table(tmp_path, shoe, window_ms=100) as table:
        deal_until(table, dealing)
        deal_until(table, lambda state: len(shoe.drawn) >= 3)
        tag, card = shoe.drawn[-2]
        time.sleep(0.3)  # the card leaves the field for longer than the repeat window...
        shoe.present(tag)  # ...and its tag is read again: the same card out twice
        table.wait_for(held)
    rows = table.rows
    (violation,) = violations(rows)
    assert f"tag {tag}" in violation["message"] and violation["card"] == str(card)
    assert "already read since the shuffle" in violation["message"]


@pytest.mark.timeout(120)
def test_a_reader_pulled_mid_deal_holds_the_table_and_says_cards_may_be_unseen(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    with Table(tmp_path, shoe) as table:
        deal_until(table, dealing)
        shoe.unplug()
        state = table.wait_for(held)
        assert state["devices"]["shoe"].startswith("LOST")
        shoe.replug()
        table.wait_for(lambda state: state["devices"].get("shoe") == "ok")
    rows = table.rows
    lost = [r.payload for r in rows if r.kind == "DeviceLost"]
    assert len(lost) == 1 and lost[0]["resends"] is False
    assert sum(r.kind == "DeviceRestored" for r in rows) == 1
    (violation,) = violations(rows)
    assert "cards may have left the shoe unseen" in violation["message"]
    assert violation["by"] == "the reader shoe"


@pytest.mark.timeout(180)
def test_a_controller_killed_mid_deal_holds_on_restart_as_a_reader_lost_with_the_gate_open(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    """A card read by the controller that was killed before it journaled it is gone (the
    reader cannot resend): the restarted table must not deal on as if nothing passed."""
    with Table(tmp_path, shoe) as table:
        deal_until(table, dealing)
        assert table.state["view"]["gate_locked"] is False
        table.controller.kill()
        table.state = table.controller.start()
        table.wait_for(held)
    rows = table.rows
    lost = [r.payload for r in rows if r.kind == "DeviceLost"]
    assert len(lost) == 1 and lost[0]["resends"] is False
    assert "restarted" in lost[0]["reason"]
    (violation,) = violations(rows)
    assert "cards may have left the shoe unseen" in violation["message"]


@pytest.mark.timeout(180)
def test_a_controller_killed_with_the_gate_locked_restarts_without_a_hold(
    tmp_path: Path, shoe: SimulatedRfidShoe
) -> None:
    with Table(tmp_path, shoe) as table:
        deal_until(table, lambda state: state.get("view", {}).get("state") == "betting")
        assert table.state["view"]["gate_locked"] is True
        table.controller.kill()
        table.state = table.controller.start()
        table.wait_for(lambda state: state["devices"].get("shoe") == "ok")
        assert not held(table.state)
    rows = table.rows
    assert [r.payload["resends"] for r in rows if r.kind == "DeviceLost"] == [False]
    assert not violations(rows)
