"""A shift on the floor page, in real headless Chromium over a real mosquitto
with four tables (two blackjack and one poker dealing in their own processes, one
blackjack table driven by the test): per table the game, limits, dealer, state in words,
the last card, a HOLD with its rule and since when; the alarm log with times, who cleared
the HOLD and how, the manager's acknowledgement journaled at the pit, the flash and the
sound; filters and sorting; the shift's figures against the tables' own journals, their
CSV, the charts; a SIGKILLed table offline and red with since when and why, a stopped one
closed and not red; and the screenshots."""

from __future__ import annotations

import csv
import io
import re
import struct
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from controller.app.floor.words import all_state_words
from tests.support.floor import MANAGER, sign_in_on_page
from tests.support.floor_scene import (
    DRIVEN,
    SIZES,
    by_table,
    floor_scene,
    journal_figures,
    mid_shift,
    screenshots,
)

CLOCK = re.compile(r"\b\d\d:\d\d:\d\d\b")
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


def fetch(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers.get("Content-Type", ""), response.read().decode()


def row_text(page: Any, table: str) -> str:
    return str(page.locator(f'#tables tr[data-table="{table}"]').inner_text())


def header_positions(page: Any) -> list[float]:
    return list(
        page.evaluate("[...document.querySelectorAll('#floor th')].map((th) => th.offsetLeft)")
    )


def test_a_shift_on_the_floor_page(tmp_path: Path, browser: Any) -> None:
    with floor_scene(tmp_path) as scene:
        assert scene.wait_dealing(rounds=1), scene.view.floor.snapshot()
        scene.play_rounds(2)
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        try:
            page.goto(scene.view.url + "/")
            for table in ("bj-01", "bj-02", "dp-01", DRIVEN):
                page.wait_for_selector(f'#tables tr[data-table="{table}"][data-status="dealing"]')
            # per table: game, limits, who deals, the state in words, the last card
            text = row_text(page, "bj-01")
            assert "Blackjack" in text
            assert "limits 2\u2013100" in text and "Demo Dealer" in text and "d01" in text
            assert "Pit 1: blackjack" in text
            assert re.search(r"\d+ s ago", text) and CLOCK.search(text)
            assert "limits 2\u201310" in row_text(page, "dp-01")
            assert "Draw poker" in row_text(page, "dp-01")
            for cell in page.locator("#tables td.c-state").all_inner_texts():
                first = cell.splitlines()[0]
                assert first in all_state_words().values() and "_" not in cell, cell
            for cell in page.locator("#tables td:not(.c-trend)").all_inner_texts():
                assert cell.strip(), "an empty cell"
            before = header_positions(page)
            # the map: a tile per table of the floor file, coloured by state
            assert page.locator(".area h3").all_inner_texts() == ["Pit 1: blackjack", "Poker room"]
            page.wait_for_selector('.tile.s-dealing[data-table="dp-01"]')
            assert (
                page.locator('.tile.s-none[data-table="bj-04"]')
                .inner_text()
                .endswith("not seen yet")
            )

            # a HOLD: shown with its rule and since when, flashing, with a sound
            sounds = int(page.evaluate("Number(document.body.dataset.sounds || 0)"))
            scene.stray_card("Qh")
            row = f'#tables tr[data-table="{DRIVEN}"]'
            page.wait_for_selector(f'{row}[data-status="hold"]')
            held = row_text(page, DRIVEN)
            assert "HOLD rule 4.2: a card before NO MORE BETS" in held
            assert re.search(r"since \d\d:\d\d:\d\d \(\d+ s\)", held), held
            page.wait_for_selector(f'.tile.s-hold.flash[data-table="{DRIVEN}"]')
            entry = page.locator('#alarm-log li[data-kind="Violation"]').first
            page.wait_for_selector('#alarm-log li[data-kind="Violation"].flash')
            shown = entry.inner_text()
            assert CLOCK.match(shown) and DRIVEN in shown and "rule 4.2" in shown
            assert "Not cleared yet" in shown and "#" not in shown  # no journal numbers
            page.wait_for_function(f"() => Number(document.body.dataset.sounds || 0) > {sounds}")
            page.select_option("#f-state", "hold")
            page.wait_for_function(
                "() => document.querySelectorAll('#tables tr[data-table]').length === 1"
            )
            assert page.locator("#tables tr[data-table]").get_attribute("data-table") == DRIVEN
            page.select_option("#f-state", "")

            # the pit manager acknowledges it: journaled in the pit's own store
            assert entry.locator("button.ack").count() == 1
            assert not entry.locator("button.ack").is_visible()  # nobody signed in yet
            sign_in_on_page(page)
            entry.locator("button.ack").click()
            page.wait_for_selector('#alarm-log li[data-kind="Violation"].acked')
            acked = page.locator('#alarm-log li[data-kind="Violation"]').first.inner_text()
            assert re.search(rf"Acknowledged \d\d:\d\d:\d\d by {MANAGER[0]}", acked)
            (ack,) = scene.view.store.journal_entries("AlarmAcknowledged")
            assert ack["who"] == MANAGER[0] and ack["what"]["table"] == DRIVEN
            assert scene.view.store.verify_journal()

            # a supervisor clears it: who, when and how; no longer amber
            scene.clear_hold("s01", "void_hand")
            page.wait_for_selector('#alarm-log li[data-kind="Violation"].cleared')
            cleared = page.locator('#alarm-log li[data-kind="Violation"]').first
            assert re.search(
                r"Cleared \d\d:\d\d:\d\d by s01: voided the hand", cleared.inner_text()
            )
            colour = cleared.evaluate("(li) => getComputedStyle(li).borderLeftColor")
            assert colour == "rgb(47, 158, 90)", colour  # green, not the HOLD's amber
            page.wait_for_selector(f'{row}:not([data-status="hold"])')
            assert "HOLD" not in page.locator(f"{row} td.c-hold").inner_text()

            # filter and sort
            page.select_option("#f-game", "Draw poker")
            page.wait_for_function(
                "() => document.querySelectorAll('#tables tr[data-table]').length === 1"
            )
            assert "1 of 4 tables shown" in page.inner_text("#shown-count")
            page.select_option("#f-game", "")
            page.select_option("#f-area", "Poker room")
            page.wait_for_function(
                "() => document.querySelectorAll('#tables tr[data-table]').length === 1"
            )
            page.select_option("#f-area", "")

            # a table killed: offline, red, since when, why; a sound for the table lost
            sounds = int(page.evaluate("Number(document.body.dataset.sounds || 0)"))
            scene.demos["bj-02"].kill()
            lost = '#tables tr[data-table="bj-02"]'
            page.wait_for_selector(f'{lost}[data-status="offline"]', timeout=20_000)
            text = row_text(page, "bj-02")
            assert "OFFLINE" in text and re.search(r"since \d\d:\d\d:\d\d", text)
            assert "connection lost: crash, power or network" in text and "last known" in text
            # the rows are drawn anew on every update: read the colours of the row on the page
            # now (an element read a moment ago may be detached, with no computed style)
            colour = (
                "([sel, want]) => { const e = document.querySelector(sel);"
                " return e !== null && getComputedStyle(e).backgroundColor === want; }"
            )
            page.wait_for_function(colour, arg=[f"{lost} td", "rgb(58, 23, 25)"], timeout=5_000)
            page.wait_for_function(colour, arg=[f"{lost} .pill", "rgb(229, 72, 77)"], timeout=5_000)
            page.wait_for_selector('.tile.s-offline.flash[data-table="bj-02"]')
            page.wait_for_selector('#alarm-log li[data-kind="TableLost"].flash')
            page.wait_for_function(f"() => Number(document.body.dataset.sounds || 0) > {sounds}")
            page.select_option("#sort", "state")
            page.wait_for_function(
                "() => document.querySelector('#tables tr[data-table]').dataset.table === 'bj-02'"
            )
            page.select_option("#sort", "table")

            # it starts again: back, and flagged as restarted with its hand recovered
            scene.restart("bj-02")
            page.wait_for_selector(f'{lost}[data-status="dealing"]', timeout=60_000)
            page.wait_for_function(
                f"() => document.querySelector('{lost} .flag')?.textContent.includes('recovered')"
            )
            assert re.search(r"RESTARTED \d\d:\d\d:\d\d", row_text(page, "bj-02"))
            back = page.locator('#alarm-log li[data-kind="TableLost"]').first
            assert re.search(r"Back \d\d:\d\d:\d\d: the table is back online", back.inner_text())
            restarted = page.locator('#alarm-log li[data-kind="TableStarted"]').first.inner_text()
            assert "Table restarted" in restarted and "recovered from its journal" in restarted
            scene.demos["bj-02"].kill()
            page.wait_for_selector(f'{lost}[data-status="offline"]', timeout=20_000)

            # a clean stop: closed, grey, not red and no alarm
            scene.demos["bj-01"].stop()
            scene.demos["dp-01"].stop()
            closed = '#tables tr[data-table="bj-01"]'
            page.wait_for_selector(f'{closed}[data-status="closed"]', timeout=20_000)
            assert "stopped cleanly" in row_text(page, "bj-01")
            assert page.locator('#alarm-log li[data-kind="TableLost"]').count() == 2  # bj-02
            assert header_positions(page) == before  # the columns have not moved

            # the shift's figures: the tables' journals, on the page, in the CSV
            start = scene.view.floor.shift_start
            expected = {}
            for table in ("bj-01", "dp-01", DRIVEN):
                expected[table] = journal_figures(tmp_path / f"{table}.sqlite", start)
                assert expected[table][0] >= 1

            def agree(_: Any) -> bool:
                got = {f["key"]: f for f in scene.view.figures()["tables"]}
                return all(
                    (got[t]["rounds"], got[t]["drop"], got[t]["win"]) == expected[t]
                    for t in expected
                )

            assert scene.view.floor.wait_for(agree, 20), (scene.view.figures(), expected)
            killed = {f["key"]: f for f in scene.view.figures()["tables"]}["bj-02"]
            assert killed["rounds"] <= journal_figures(tmp_path / "bj-02.sqlite", start)[0]
            kind, text = fetch(scene.view.url + "/api/figures.csv")
            assert kind.startswith("text/csv")
            lines = list(csv.DictReader(io.StringIO(text)))
            by_id = {(r["scope"], r["id"]): r for r in lines}
            for table, (rounds, drop, win) in expected.items():
                line = by_id[("table", table)]
                assert (int(line["rounds"]), int(line["drop"]), int(line["win"])) == (
                    rounds,
                    drop,
                    win,
                )
            assert by_id[("dealer", "d01")]["dealer_name"] == "Demo Dealer"
            assert by_id[("table", DRIVEN)]["holds_by_rule"] == "4.2:1"
            floor_line = by_id[("floor", "floor")]
            assert int(floor_line["rounds"]) == sum(
                int(r["rounds"]) for r in lines if r["scope"] == "table"
            )
            page.wait_for_selector('#fig-games tr[data-key="poker"]')
            assert "Draw poker" in page.locator('#fig-games tr[data-key="poker"]').inner_text()
            assert "Demo Dealer (d01)" in page.inner_text("#fig-dealers")

            # the charts: SVG from the view itself, drawn on the page
            for url in ("/chart/win.svg?table=bj-01", "/chart/rounds.svg"):
                kind, svg = fetch(scene.view.url + url)
                assert kind.startswith("image/svg+xml")
                root = ET.fromstring(svg)
                assert root.tag.endswith("svg") and len(root) >= 3
            page.wait_for_function(
                "() => ['chart-win', 'chart-rounds'].every((id) => "
                "document.getElementById(id).naturalWidth > 0)"
            )
            spark = page.locator(f'#tables tr[data-table="{DRIVEN}"] img.spark')
            assert spark.evaluate("(i) => i.complete && i.naturalWidth > 0")
            page.click(f'#tables tr[data-table="{DRIVEN}"] td.c-state')  # its own charts
            page.wait_for_function(
                "() => document.getElementById('charts-title').textContent === "
                f"'{DRIVEN} over the shift'"
            )
            for chart in ("chart-win", "chart-rounds"):
                assert f"table={DRIVEN}" in str(page.get_attribute(f"#{chart}", "src"))
            page.wait_for_function(
                "() => ['chart-win', 'chart-rounds'].every((id) => "
                "document.getElementById(id).complete && "
                "document.getElementById(id).naturalWidth > 0)"
            )
            assert (
                page.locator(f'#fig-tables tr[data-key="{DRIVEN}"]').inner_text().startswith(DRIVEN)
            )
            page.click("#charts-floor")
            page.wait_for_function(
                "() => document.getElementById('charts-title').textContent === "
                "'Floor over the shift'"
            )
        finally:
            page.close()


def test_screenshots_of_the_floor_mid_shift(tmp_path: Path, browser: Any) -> None:
    """The floor mid-shift at 1920x1080 and 1280x800: one HOLD standing (one cleared
    before it), one table killed. ``tests/support/floor_scene.py`` writes the same scene to
    docs/screenshots/pit-floor-*.png."""
    with floor_scene(tmp_path) as scene:
        mid_shift(scene)
        scene.demos["bj-02"].kill()
        assert scene.view.floor.wait_for(lambda f: by_table(f)["bj-02"]["shown"] == "offline", 20)
        page = browser.new_page()
        try:
            made = screenshots(scene, page, tmp_path)
        finally:
            page.close()
    assert [p.name for p in made] == ["pit-floor-1920x1080.png", "pit-floor-1280x800.png"]
    for path, size in zip(made, SIZES, strict=True):
        assert path.read_bytes()[16:24] == struct.pack(">II", *size)  # the PNG's IHDR
    assert all((SCREENSHOTS / p.name).exists() for p in made)  # floor_scene.py writes those
