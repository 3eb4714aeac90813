"""A table's ``[[player_cards]]`` readers on the simulators: a card presented at a box's
reader reaches the journal as that box's `PlayerCardPresented`, read by the real driver
over a real pty."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from controller.app.cli.demo import demo_config
from controller.app.config import TableConfig
from controller.app.config.player_cards import PlayerCardReader
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.loop import Stop
from controller.app.runtime.table import RunningTable

NUMBER = "7000000037"  # digits: the [rating] card_pattern's default format
WAIT = 10.0


def rated_config(tmp_path: Path) -> TableConfig:
    """The demo's blackjack table rating players, a simulated player-card reader at box 2."""
    config = dataclasses.replace(
        demo_config("blackjack", tmp_path / "journal.sqlite", port=0),
        player_cards=(PlayerCardReader(2, "rdm6300", "sim://"),),
    )
    return dataclasses.replace(config, rating=dataclasses.replace(config.rating, enabled=True))


def rated_boxes(table: RunningTable, boxes: list[int]) -> list[int]:
    """The boxes the table says are rated, once they are ``boxes`` or after `WAIT`: the
    card reaches the queue from the reader's own thread, at its own pace."""
    deadline = time.monotonic() + WAIT
    while True:
        rated = [mark["box"] for mark in table.state["view"].get("rated") or ()]
        left = deadline - time.monotonic()
        if rated == boxes or left <= 0:
            return rated
        table.loop.wait_processed(table.loop.processed, left)


def test_a_card_at_a_box_reader_is_journaled_for_that_box(tmp_path: Path) -> None:
    config = rated_config(tmp_path)
    table = RunningTable(config, simulate=True, serve=False, seed=5).start()
    try:
        assert table.devices is not None
        assert [r.box for r in table.devices.player_cards] == [2]
        table.devices.sim_player_cards[2].present(NUMBER, repeats=4)
        assert rated_boxes(table, [2]) == [2]
    finally:
        table.stop()
    with open_journal(config.journal_path, create=True) as journal:
        rows = [r for r in journal.entries() if r.kind == "PlayerCardPresented"]
    assert [(r.source, r.payload["box"], r.payload["number"]) for r in rows] == [
        ("player-cards-2", 2, NUMBER)
    ]


def test_a_table_where_a_card_was_tapped_starts_again_from_its_journal(tmp_path: Path) -> None:
    """The tap is an event row, replayed at the next start: its number is never read as a
    playing card (a row's ``card`` field is one), so the table comes back, the rating
    it opened with it."""
    config = rated_config(tmp_path)
    table = RunningTable(config, simulate=True, serve=False, seed=7).start()
    try:
        assert table.devices is not None
        table.devices.sim_player_cards[2].present(NUMBER)
        assert rated_boxes(table, [2]) == [2]
    finally:
        table.events.put(Stop())  # the power goes: no orderly close of the ratings
        table.stop()
    again = RunningTable(config, simulate=True, serve=False, seed=8).start()
    try:
        assert again.state["recovered"]
        assert [m["box"] for m in again.state["view"]["rated"]] == [2]
    finally:
        again.stop()
