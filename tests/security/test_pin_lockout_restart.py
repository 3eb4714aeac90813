"""A restart does not lift a PIN lockout (docs/security.md, "Wrong PINs and the lockout"):
every wrong PIN is journaled with the count and the wait it began, and a real `tablectl
run` process stopped and started again goes on where the count stood: still waiting, the
right PIN refused unlooked-at until the wait is over, and the next wrong PIN counted on
from there. A right PIN ends the count, and a restart after it starts from nothing."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sim_hardware.link import PtyLink
from sim_hardware.remote import DEMO_DEALER, DEMO_SUPERVISOR, ConsoleClient
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, write_config

pytestmark = pytest.mark.timeout(180)

WAIT = 120  # the first wait after the free tries: longer than any restart takes


@pytest.fixture
def controller(tmp_path: Path) -> Iterator[ControllerProcess]:
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(4)) as shoe:
        port = free_port()
        config = write_config(tmp_path, shoe.link.url, port)
        text = config.read_text()
        config.write_text(
            text.replace("lockout_first_seconds = 5", f"lockout_first_seconds = {WAIT}")
        )
        process = ControllerProcess(config, ConsoleClient(f"http://127.0.0.1:{port}"))
        process.start()
        try:
            yield process
        finally:
            process.stop()


def refusals(journal: Path) -> list[dict[str, Any]]:
    db = sqlite3.connect(f"file:{journal}?mode=ro", uri=True)
    try:
        rows = db.execute(
            "SELECT payload FROM journal WHERE kind IN ('SignInRefused', 'SupervisorPinRefused') "
            "ORDER BY seq"
        ).fetchall()
    finally:
        db.close()
    return [json.loads(payload) for (payload,) in rows]


def journaled(controller: ControllerProcess, count: int) -> list[dict[str, Any]]:
    """The refusals once ``count`` are journaled (another process: read again after each
    round trip to it)."""
    journal = controller.config.parent / "journal.sqlite"
    for _ in range(300):
        found = refusals(journal)
        if len(found) >= count:
            return found
        controller.client.state()
    raise AssertionError(f"{count} refusals not journaled: {refusals(journal)}")


def sign_in(controller: ControllerProcess, pin: str) -> int:
    controller.client.post("/api/signin", {"staff": DEMO_DEALER[0], "pin": pin})
    return controller.client.last_status


def test_a_restart_keeps_the_wrong_pin_count_and_the_wait(controller: ControllerProcess) -> None:
    for _ in range(4):  # lockout_tries = 5: the fifth wrong PIN in a row begins a wait
        assert sign_in(controller, "0000") == 403
    assert sign_in(controller, "0000") == 429  # the console waits WAIT s
    assert controller.stop() == 0
    controller.start()
    assert sign_in(controller, DEMO_DEALER[1]) == 429  # the right PIN, unlooked-at
    supervisor = {"staff": DEMO_SUPERVISOR[0], "pin": DEMO_SUPERVISOR[1]}
    controller.client.post(
        "/api/supervisor", {**supervisor, "decision": "keep_card", "reason": "x"}
    )
    assert controller.client.last_status == 429
    after = journaled(controller, 7)[5:]
    assert [r["failures"] for r in after] == [5, 5]  # the count went on, not from 0
    assert all(WAIT - 60 < r["locked_for"] <= WAIT for r in after), after


def test_a_right_pin_ends_the_count_and_a_restart_after_it_starts_from_nothing(
    controller: ControllerProcess,
) -> None:
    for _ in range(3):
        assert sign_in(controller, "0000") == 403
    assert sign_in(controller, DEMO_DEALER[1]) == 202
    assert controller.stop() == 0
    controller.start()
    assert sign_in(controller, "0000") == 403
    assert [r["failures"] for r in journaled(controller, 4)] == [1, 2, 3, 1]
