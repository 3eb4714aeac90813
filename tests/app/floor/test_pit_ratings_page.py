"""The Ratings view in real headless Chromium, from real table journals through their pit
publishers, a real mosquitto and the real floor view: shown only to staff granted the
ratings, live open ratings and the shift's closed ones, per-player totals, a player at two
tables at once flagged, filters, and the CSV; the public floor page names no player."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from tests.support.floor import MANAGER
from tests.support.rating_rows import RatedPlayer
from tests.support.rating_scene import TWICE, rating_scene, sign_in


def test_the_ratings_view_shows_the_floor_s_ratings_to_the_staff_granted_them_only(
    tmp_path: Path, browser: Any
) -> None:
    with rating_scene(tmp_path) as scene:
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        try:
            page.goto(scene.view.url + "/ratings")
            page.wait_for_selector("#locked:not([hidden])")
            assert "Sign in" in page.inner_text("#locked")
            assert page.locator("#ratings").is_hidden()
            sign_in(page, MANAGER)  # a pit manager not granted the ratings sees none
            page.wait_for_function(
                "() => document.getElementById('locked').textContent.includes('not granted')"
            )
            assert "Mere" not in page.content() and TWICE not in page.content()
            page.click("#signout")
            sign_in(page)
            page.wait_for_selector("#closed tbody tr[data-table]")
            opened = page.locator("#open tbody tr")
            assert opened.count() == 5
            flagged = page.locator("#open tbody tr.flagged")
            assert flagged.count() == 2
            assert {flagged.nth(i).get_attribute("data-table") for i in range(2)} == {
                "bj-01",
                "bj-02",
            }
            assert all(TWICE in flagged.nth(i).inner_text() for i in range(2))
            assert "2 at two tables at once" in page.inner_text("#summary")
            closed = page.inner_text("#closed")
            assert "Mere Tāne" in closed and "adjusted" in closed and "moved to r13" in closed
            assert "anonymous" in page.inner_text("#open")
            sam = page.locator("#players tbody tr", has_text="Sam Wu")
            assert "bj-01" in sam.inner_text() and sam.locator("td").nth(2).inner_text() == "2"
            # live: a round at an open rating moves its figures on the page
            before = page.locator('#open tr:has-text("Wiremu Hohaia") td').nth(6).inner_text()
            wiremu = RatedPlayer("r32", 2, "Wiremu Hohaia", game="poker")
            wiremu.rounds = [{}] * 12  # its twelve rounds so far
            publisher = next(p for p in scene.publishers if p.table_id == "dp-01")
            from controller.app.runtime.journal_files import open_journal

            with open_journal(publisher.journal_path) as journal:
                kind, payload = wiremu.round({"ante": 10}, 10, 150, departures=None)
                journal.append(kind, payload, source="controller", round=1)
            publisher.publish({"view": {}})
            page.wait_for_function(
                "() => [...document.querySelectorAll('#open tr')].some((tr) => "
                "tr.textContent.includes('Wiremu Hohaia') && tr.children[6].textContent === '13')"
            )
            assert before == "12"
            # filters: a player, then the closed ratings of one table
            page.fill("#r-player", "sam")
            page.wait_for_function(
                "() => document.querySelectorAll('#open tbody tr[data-table]').length === 1"
            )
            page.fill("#r-player", "")
            page.select_option("#r-table", "dp-01")
            page.select_option("#r-state", "closed")
            page.wait_for_function(
                "() => document.querySelectorAll('#closed tbody tr[data-table]').length === 1"
                " && !document.querySelector('#open tbody tr[data-table]')"
            )
            href = page.get_attribute("#ratings-csv", "href")
            assert href == "/api/ratings.csv?table=dp-01&state=closed"
            answer = page.request.get(scene.view.url + href)
            assert answer.status == 200
            [row] = list(csv.DictReader(io.StringIO(answer.text())))
            assert (row["table"], row["player"], row["rounds"], row["game"]) == (
                "dp-01", "Ana Lemalu", "18", "poker"
            )  # fmt: skip
            # the floor page, which needs no sign-in, names no player
            floor = browser.new_page()
            try:
                floor.goto(scene.view.url + "/")
                floor.wait_for_selector('tr[data-table="dp-01"]')
                text = floor.content()
                assert all(name not in text for name in ("Mere", "Sam Wu", TWICE, "Ana"))
                assert "Player rated at two tables" in floor.inner_text("#alarm-log")
            finally:
                floor.close()
        finally:
            page.close()
