"""The shift survives a restart of the pit view: its start (set by the pit manager
on the page), the rows its figures come from, and the rows published while the view was
down (its persistent MQTT session) are all there after it starts again on the same store.
With the store lost, the tables come back from the broker's retained state, and the figures
start again: what cannot be rebuilt from the broker (docs/mqtt.md); the table's journal
export, imported with `tablectl pit --import-journal`, gives them back."""

from __future__ import annotations

import argparse
import io
import re
import subprocess
from pathlib import Path
from typing import Any

from controller.app.floor.view import PitView, add_arguments, run
from tests.support.cli import tablectl_command
from tests.support.floor import MANAGER, pit_staff, sign_in_on_page
from tests.support.floor_scene import journal_figures
from tests.support.pit import ROOT, Broker, DemoTable, folder_keys, write_config

TABLE = "bj-21"


def rounds_of(view: PitView) -> int:
    got = {f["key"]: f for f in view.figures()["tables"]}
    return int(got.get(TABLE, {}).get("rounds", 0))


def test_the_shift_survives_a_restart_of_the_pit_view(
    tmp_path: Path, broker: Broker, browser: Any
) -> None:
    store = tmp_path / "pit.sqlite"
    keys = folder_keys(tmp_path, TABLE)
    config = write_config(tmp_path, "blackjack", TABLE, broker.url, keepalive=3)
    table = DemoTable(config, tmp_path / f"{TABLE}.sqlite", pace=0.1)
    view = PitView(broker.url, port=0, store=store, staff=pit_staff(), table_keys=keys).start()
    try:
        assert view.floor.wait_for(
            lambda f: any(t["table"] == TABLE and t["shown"] == "dealing" for t in f), 60
        )
        page = browser.new_page()
        try:
            page.goto(view.url + "/")
            sign_in_on_page(page)
            page.click("#shift-set")  # no time given: the shift starts now
            page.wait_for_function(
                "() => document.getElementById('shift').textContent"
                f".includes('set by {MANAGER[0]}')"
            )
            assert re.search(r"Shift from \d\d:\d\d:\d\d", page.inner_text("#shift"))
        finally:
            page.close()
        start = view.floor.shift_start
        (entry,) = view.store.journal_entries("ShiftStarted")
        assert entry["who"] == MANAGER[0] and entry["what"]["start"] == start
        assert view.floor.wait_for(lambda _: rounds_of(view) >= 2, 60)
        view.close()

        assert table.wait_actions(40), table.output()  # the table deals on, the view is away
        view = PitView(broker.url, port=0, store=store, table_keys=keys).start()
        assert view.floor.shift_start == start
        assert view.store.get("shift_by") == MANAGER[0]
        table.stop()
        expected = journal_figures(tmp_path / f"{TABLE}.sqlite", start)

        def agree(_: Any) -> bool:
            got = {f["key"]: f for f in view.figures()["tables"]}.get(TABLE, {})
            return (got.get("rounds"), got.get("drop"), got.get("win")) == expected

        assert view.floor.wait_for(agree, 30), (view.figures()["tables"], expected)
        view.close()

        store.unlink()  # the store lost: the tables from the broker's retained topics
        for extra in ("-wal", "-shm"):
            Path(f"{store}{extra}").unlink(missing_ok=True)
        view = PitView(broker.url, port=0, store=store, table_keys=keys).start()
        assert view.floor.wait_for(
            lambda f: any(t["table"] == TABLE and t["shown"] == "closed" and t["round"] for t in f),
            30,
        )
        (shown,) = view.floor.snapshot()
        assert shown["game"] == "blackjack" and shown["round"] >= 2
        assert shown["limits"] == [2, 100] and shown["state_words"]  # its retained state
        assert view.floor.shift_start > start and rounds_of(view) == 0  # not rebuilt
        view.close()

        # the table's own journal gives the rows back: its export into the store
        export = tmp_path / f"{TABLE}.jsonl"
        with export.open("w") as out:
            done = subprocess.run(
                tablectl_command("journal", "export", str(tmp_path / f"{TABLE}.sqlite")),
                cwd=ROOT,
                stdout=out,
                check=False,
            )
        assert done.returncode == 0
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        line = io.StringIO()
        given = ["--broker", broker.url, "--store", str(store), "--site", shown["site"]]
        args = parser.parse_args([*given, "--import-journal", f"{TABLE}={export}"])
        assert run(args, out=line) == 0 and line.getvalue().startswith(f"{TABLE}: ")
        assert run(args, out=io.StringIO()) == 0  # again: each row once
        view = PitView(broker.url, port=0, store=store, table_keys=keys).start()
        view.floor.set_shift(start, "Anna Reid")  # the manager sets the shift's start back
        assert view.floor.wait_for(agree, 10), (view.figures()["tables"], expected)
    finally:
        table.stop()
        view.close()
