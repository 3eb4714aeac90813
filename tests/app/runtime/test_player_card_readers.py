"""A table's ``[[player_cards]]`` readers on the simulators: a card presented at a box's
reader reaches the journal as that box's `PlayerCardPresented`, read by the real driver
over a real pty."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from controller.app.cli.demo import demo_config
from controller.app.config.player_cards import PlayerCardReader
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable

NUMBER = "0F00A1B2C3"
WAIT = 10.0


def test_a_card_at_a_box_reader_is_journaled_for_that_box(tmp_path: Path) -> None:
    config = dataclasses.replace(
        demo_config("blackjack", tmp_path / "journal.sqlite", port=0),
        player_cards=(PlayerCardReader(2, "rdm6300", "sim://"),),
    )
    table = RunningTable(config, simulate=True, serve=False, seed=5).start()
    try:
        assert table.devices is not None
        assert [r.box for r in table.devices.player_cards] == [2]
        seen = table.loop.processed
        table.devices.sim_player_cards[2].present(NUMBER, repeats=4)
        assert table.loop.wait_processed(seen, WAIT)
        assert table.loop.wait_idle(WAIT)
    finally:
        table.stop()
    with open_journal(config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.kind == "PlayerCardPresented"]
    assert [(r.source, r.payload["box"], r.payload["number"]) for r in rows] == [
        ("player-cards-2", 2, NUMBER)
    ]
