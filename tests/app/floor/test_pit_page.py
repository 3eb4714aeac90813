"""The floor page in real headless Chromium (Debian's, never a download): rows per table,
offline and holds marked, live updates over Server-Sent Events, nothing fetched from
anywhere but the pit view itself."""

from __future__ import annotations

import json
from typing import Any

from controller.app.floor.view import PitView
from tests.support.pit import Broker


def _say(view: PitView, table: str, leaf: str, **body: Any) -> None:
    view.floor.take(f"casino/dunedin/table/{table}/{leaf}", json.dumps({"v": 1, **body}).encode())


def test_the_floor_page_shows_every_table_offline_and_holds_and_updates_live(
    broker: Broker, browser: Any
) -> None:
    view = PitView(broker.url, port=0).start()
    try:
        _say(view, "bj-01", "status", status="online", reason="connected", game="blackjack")
        _say(
            view,
            "bj-01",
            "state",
            state={
                "game": "blackjack",
                "round": 12,
                "journal_seq": 300,
                "simulated": "all",
                "view": {
                    "state": "hold",
                    "next_action": "HOLD",
                    "hold": [{"rule": "9.3", "message": "card before insurance closed"}],
                },
            },
        )
        _say(view, "bj-02", "status", status="offline", reason="connection lost", game="blackjack")
        requests: list[str] = []
        page = browser.new_page()
        try:
            page.on("request", lambda r: requests.append(r.url))
            page.goto(view.url + "/")
            page.wait_for_selector('tr[data-table="bj-02"][data-status="offline"]')
            held = page.locator('tr[data-table="bj-01"]')
            assert "HOLD rule 9.3: card before insurance closed" in held.inner_text()
            assert "round 12" in held.inner_text() and "SIM" in held.inner_text()
            assert "2 tables, 1 online, 1 on hold" in page.inner_text("#summary")
            _say(
                view,
                "bj-01",
                "status",
                status="offline",
                reason="connection lost",
                game="blackjack",
            )
            page.wait_for_selector('tr[data-table="bj-01"][data-status="offline"]')
            page.wait_for_selector('body[data-broker="up"]')
            broker.stop()  # the pit's own link down: every status shown is stale
            page.wait_for_selector('body[data-broker="down"]')
            assert "BROKER UNREACHABLE" in page.inner_text("#broker")
        finally:
            page.close()
    finally:
        view.close()
    assert requests and all(url.startswith(view.url) for url in requests), requests
