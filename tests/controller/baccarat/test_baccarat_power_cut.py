"""Pulling the plug on a baccarat table: a real `tablectl run` process dealing baccarat
(found by the registry from `[table] game = "baccarat"`), SIGKILLed at seeded points and
restarted on the same journal. A cut at rest must bring the table back exactly as it was;
at the end no card the controller acknowledged is missing from the journal or there twice,
the chain verifies, and every settled coup balances."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.journal_files import open_journal
from sim_hardware.baccarat_dealer import BaccaratDealer
from sim_hardware.link import PtyLink
from sim_hardware.remote import ConsoleClient, RemoteHands
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, settle

ROOT = Path(__file__).resolve().parents[3]
KILLS = 8
SEED = 20261201
EXAMPLE_SHOE = "/dev/serial/by-id/usb-FTDI_FT232R_USB_UART_SHOE03-if00-port0"


def config(folder: Path, shoe_url: str, port: int) -> Path:
    text = (ROOT / "examples" / "baccarat-table.toml").read_text()
    for old, new in {
        f'url = "{EXAMPLE_SHOE}"': f'url = "{shoe_url}"',
        'path = "/var/lib/tablectl/bc-01.sqlite"': f'path = "{folder}/journal.sqlite"',
        "port = 8080": f"port = {port}",
    }.items():
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "table.toml"
    path.write_text(text)
    return path


@pytest.fixture
def shoe() -> Iterator[SimulatedShoe]:
    with SimulatedShoe(PtyLink(), decks=8, rng=random.Random(SEED)) as device:
        yield device


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_sigkill_loses_nothing_and_a_cut_at_rest_recovers_exactly(
    tmp_path: Path, shoe: SimulatedShoe
) -> None:
    port = free_port()
    client = ConsoleClient(f"http://127.0.0.1:{port}")
    controller = ControllerProcess(config(tmp_path, shoe.link.url, port), client)
    rng = random.Random(SEED)
    hands = RemoteHands(client, shoe, pin="2468")  # the example config's demo PIN
    dealer = BaccaratDealer(hands, client.state, rng)
    state = controller.start()
    assert state["game"] == "baccarat"
    kills = exact = 0
    try:
        while kills < KILLS:
            seen = state.get("journal_seq", 0)
            did = dealer.step()
            if rng.random() < 0.15:  # a cut while the action is on its way in
                controller.kill()
                state = controller.start()
                assert state["recovered"] is True
                kills += 1
                continue
            state = settle(client, seen, timeout=0.5 if did.startswith("wait") else 3.0)
            if rng.random() < 0.15:  # a cut at rest: the table must come back as it was
                controller.kill()
                after = controller.start()
                assert after["view"] == state["view"], (state["view"], after["view"])
                state = after
                kills += 1
                exact += 1
        while dealer.rounds_finished < 4:
            seen = state.get("journal_seq", 0)
            dealer.step()
            state = settle(client, seen)
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0 and exact >= 2

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    from_shoe = [r.payload["seq"] for r in rows if r.source == "shoe" and r.payload.get("seq")]
    assert from_shoe == list(range(1, len(from_shoe) + 1))
    assert len(from_shoe) == shoe.session.counters.sent
    assert not [row for row in rows if row.kind == "ControllerFault"]
    settled = [row.payload for row in rows if row.kind == "CoupSettled"]
    assert len(settled) >= 4
    for coup in settled:
        assert coup["wagers_in"] == coup["paid_out"] + coup["house_result"], coup
