"""Truncation seen from outside: a table publishes its journal head with every
state, and the floor view raises a journal alarm when a table's head goes backwards or
forks, shown on the floor page.

The first test is the attack the table cannot see itself: a table plays, stops; someone
with the SD card (and, as far as the table can tell, the key) cuts the rows after the last
checkpoint off its journal, which then checks out at the next start, and deletes its pit
cursor (which would have told the table); the table starts and publishes its shorter
head, and the pit, over a real mosquitto, flags it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

from controller.app.cli.demo import SimHands, act, sign_in_dealer
from controller.app.floor.store import PitStore
from controller.app.floor.view import Floor, PitView
from controller.app.pit.cursor import cursor_path
from controller.app.runtime.table import RunningTable
from controller.journal.store import checkpoint_path
from sim_hardware.dealer import BlackjackDealer
from tests.support.pit import Broker, folder_keys, make_config

TABLE = "bj-77"


def row(floor: list[dict[str, Any]], table: str = TABLE) -> dict[str, Any]:
    return next((t for t in floor if t["table"] == table), {})


def test_a_journal_cut_short_while_the_table_was_off_raises_the_pits_alarm(
    tmp_path: Path, broker: Broker, browser: Any
) -> None:
    config = make_config(tmp_path, "blackjack", TABLE, broker.url)
    view = PitView(broker.url, port=0, table_keys=folder_keys(tmp_path, TABLE)).start()
    try:
        table = RunningTable(config, simulate=True, serve=False, seed=8).start()
        try:
            sign_in_dealer(table)
            dealer = BlackjackDealer(
                SimHands(table), lambda: table.state, random.Random(9), insurance_sensors=False
            )
            while dealer.rounds_finished < 1:
                act(table, dealer)
            for _ in range(5):  # into the next round: rows after the checkpoint
                act(table, dealer)
            head = table.journal.head
            assert view.floor.wait_for(
                lambda f: (
                    row(f).get("journal_seq") == head.seq
                    and row(f).get("journal_hash") == head.hash
                ),
                timeout=30,
            ), view.floor.snapshot()
        finally:
            table.stop()
        assert row(view.floor.snapshot())["journal_alarm"] == ""

        checkpoint = json.loads(checkpoint_path(config.journal_path).read_text())["seq"]
        assert checkpoint + 2 <= head.seq
        db = sqlite3.connect(config.journal_path, isolation_level=None)
        db.execute("DROP TRIGGER journal_no_delete")
        db.execute("DELETE FROM journal WHERE seq > ?", (checkpoint,))
        db.close()
        # and the pit cursor, which would say the pit saw more (the table would refuse)
        cursor_path(config.journal_path).unlink()

        again = RunningTable(config, simulate=True, serve=False, seed=8).start()  # checks out
        try:
            went_back = f"journal head went back from row {head.seq} to row "
            assert view.floor.wait_for(
                lambda f: row(f).get("journal_alarm", "").startswith(went_back), 30
            ), view.floor.snapshot()
            alarm = row(view.floor.snapshot())["journal_alarm"]
            to_row = int(alarm.removeprefix(went_back).split()[0])
            assert checkpoint < to_row < head.seq  # its TableStarted row, and what came next
            assert alarm.endswith("(rows cut off the end, or a new journal opened)")
        finally:
            again.stop()

        with urllib.request.urlopen(f"{view.url}/api/tables", timeout=10) as response:
            shown = row(json.loads(response.read())["tables"])
        assert shown["journal_alarm"] == alarm
        assert shown["alarms"][0]["severity"] == "journal"
        page = browser.new_page()
        try:
            page.goto(view.url + "/")
            page.wait_for_selector(f'tr[data-table="{TABLE}"].journal')
            text = page.locator(f'tr[data-table="{TABLE}"] .journal-alarm').inner_text()
            assert text == "JOURNAL " + alarm
            assert "1 JOURNAL ALARMS" in page.inner_text("#summary")
        finally:
            page.close()
    finally:
        view.close()


# --- the floor's reading of heads (no broker needed) --------------------------------------


def _state(floor: Floor, seq: int, digest: str, table: str = "bj-01") -> None:
    body = {"v": 1, "state": {"journal_seq": seq, "journal_hash": digest, "view": {}}}
    floor.take(f"casino/dunedin/table/{table}/state", json.dumps(body).encode())


def _alarm(floor: Floor, seq: int, digest: str, table: str = "bj-01") -> None:
    body = {"v": 1, "seq": seq, "hash": digest, "kind": "Violation", "severity": "hold",
            "payload": {"rule": "9.6"}}  # fmt: skip
    floor.take(f"casino/dunedin/table/{table}/alarm", json.dumps(body).encode())


def test_a_head_that_moves_on_raises_nothing() -> None:
    floor = Floor()
    for seq in (3, 7, 7, 12):
        _state(floor, seq, f"{seq:064x}")
    _alarm(floor, 9, f"{9:064x}")
    _state(floor, 20, "")  # a table that publishes no head hash: nothing to check
    assert floor.snapshot()[0]["journal_alarm"] == ""


def test_a_head_that_goes_back_raises_the_alarm_once_and_keeps_it() -> None:
    floor = Floor()
    _state(floor, 40, "a" * 64)
    _state(floor, 35, "b" * 64)
    shown = floor.snapshot()[0]
    assert shown["journal_alarm"].startswith("journal head went back from row 40 to row 35")
    _state(floor, 36, "c" * 64)  # the shorter journal goes on: no new alarm, the old stays
    _state(floor, 41, "d" * 64)  # past where it was: another journal's rows, not a fork
    shown = floor.snapshot()[0]
    assert shown["journal_alarm"].startswith("journal head went back from row 40")
    assert [a["kind"] for a in shown["alarms"]] == ["JournalHead"]


def test_another_hash_at_a_row_seen_is_a_fork() -> None:
    floor = Floor()
    _alarm(floor, 10, "a" * 64)  # a violation's row, seen on the alarm topic
    _state(floor, 12, "b" * 64)
    _state(floor, 10, "c" * 64)  # back, and at row 10 another hash
    assert floor.snapshot()[0]["journal_alarm"] == (
        f"journal forked at row 10: hash {'c' * 12}, where {'a' * 12} was seen before "
        "(the journal was rewritten)"
    )
    _state(floor, 1, "e" * 64, table="bj-02")
    _alarm(floor, 1, "f" * 64, table="bj-02")  # same row, another hash, head not moved
    assert floor.snapshot()[1]["journal_alarm"].startswith("journal forked at row 1:")


def test_the_floor_remembers_every_hash_durably(tmp_path: Path) -> None:
    """No bounded memory: a row witnessed long ago, and before a restart of the view on
    the same store, is still recognised when it comes again with another hash."""
    store = PitStore(tmp_path / "pit.sqlite")
    floor = Floor(store=store)
    for seq in range(1, 6001):
        _state(floor, seq, f"{seq:064x}")
        _alarm(floor, seq, f"{seq:064x}")
    assert floor.snapshot()[0]["journal_alarm"] == ""
    store.close()
    store = PitStore(tmp_path / "pit.sqlite")
    again = Floor(store=store)
    _alarm(again, 2, "f" * 64)
    assert again.snapshot()[0]["journal_alarm"] == (
        f"journal forked at row 2: hash {'f' * 12}, where {2:064x}"[:-52] + " was seen "
        "before (the journal was rewritten)"
    )
    store.close()
