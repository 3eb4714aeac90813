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

from controller.app.runtime.journal_files import open_journal
from sim_hardware.baccarat_dealer import BaccaratDealer
from sim_hardware.link import PtyLink
from sim_hardware.shoe import SimulatedShoe
from tests.integration.power_cuts import (
    check_shoe_rows,
    deal_with_cuts,
    settled_rounds,
    table_process,
)

ROOT = Path(__file__).resolve().parents[2]
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
    client, controller, hands = table_process(
        shoe, lambda port: config(tmp_path, shoe.link.url, port)
    )
    rng = random.Random(SEED)
    dealer = BaccaratDealer(hands, client.state, rng)
    state = controller.start()
    assert state["game"] == "baccarat"
    try:
        run = deal_with_cuts(
            controller, client, dealer, rng, state,
            shoe=shoe, kills=KILLS, rounds=4, in_flight=0.15, at_rest=0.15,
        )  # fmt: skip
        assert shoe.wait_until_acknowledged(10.0)
    finally:
        code = controller.stop()
    assert code == 0 and run.exact >= 2

    with open_journal(tmp_path / "journal.sqlite", readonly=True) as journal:
        assert journal.verify() > 0
        rows = list(journal.entries())
    check_shoe_rows(rows, shoe)
    assert len(settled_rounds(rows, "CoupSettled")) >= 4
