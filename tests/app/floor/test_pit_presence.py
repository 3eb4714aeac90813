"""Whether a table is there, as the floor page says it, over a real
mosquitto in real headless Chromium: a broker outage makes every table "unknown since ...",
never "offline", and they are dealing again when it is back; a frozen table goes offline
within the documented time; and the same reading with clocks in hand."""

from __future__ import annotations

import datetime
import json
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.app.floor.tables import Floor
from controller.app.floor.view import PitView
from tests.support.pit import Broker, DemoTable, folder_keys, write_config

KEEPALIVE = 3


def by_table(floor: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t["table"]: t for t in floor}


def test_a_broker_outage_shows_unknown_since_not_offline(
    tmp_path: Path, broker: Broker, browser: Any
) -> None:
    names = ["bj-11", "bj-12", "dp-11"]
    keys = folder_keys(tmp_path, *names)
    view = PitView(
        broker.url, port=0, store=tmp_path / "pit.sqlite", outage_grace=15, table_keys=keys
    ).start()
    shown: list[dict[str, str]] = []
    view.floor.listeners.append(
        lambda: shown.append({t["table"]: t["shown"] for t in view.floor.snapshot()})
    )
    tables: list[DemoTable] = []
    try:
        for name in names:
            game = "poker" if name.startswith("dp") else "blackjack"
            config = write_config(tmp_path, game, name, broker.url, keepalive=KEEPALIVE)
            tables.append(DemoTable(config, tmp_path / f"{name}.sqlite", pace=0.2))
        page = browser.new_page()
        try:
            page.goto(view.url + "/")
            for name in names:
                page.wait_for_selector(
                    f'#tables tr[data-table="{name}"][data-status="dealing"]', timeout=60_000
                )
            shown.clear()
            broker.stop()
            for name in names:
                page.wait_for_selector(f'#tables tr[data-table="{name}"][data-status="unknown"]')
            text = page.locator('#tables tr[data-table="bj-11"]').inner_text()
            assert "Unknown" in text and "the pit cannot reach the broker" in text
            assert re.search(r"since \d\d:\d\d:\d\d", text) and "OFFLINE" not in text
            assert "BROKER UNREACHABLE since" in page.inner_text("#broker")
            page.wait_for_selector('.tile.s-unknown[data-table="dp-11"]')
            for table in tables:  # the outage lasts while the tables deal on
                assert table.wait_actions(10), table.output()
            broker.start()
            for name in names:
                page.wait_for_selector(
                    f'#tables tr[data-table="{name}"][data-status="dealing"]', timeout=30_000
                )
            assert all(s != "offline" for snap in shown for s in snap.values()), shown
            assert any(set(snap.values()) == {"unknown"} for snap in shown)
            assert page.locator('#alarm-log li[data-kind="TableLost"].flash').count() == 0
            assert "OFFLINE" not in page.inner_text("#tables")
        finally:
            page.close()
    finally:
        for table in tables:
            table.stop()
        view.close()


def test_a_frozen_table_is_offline_within_the_documented_time(
    tmp_path: Path, broker: Broker
) -> None:
    """docs/mqtt.md: the broker gives up on a table 1.5 keepalives after the last packet it
    had from it, counted in whole seconds and looked at once a second (mosquitto 2.0: 16.2
    to 17.1 s measured for keepalive = 10, the 15 s documented before was the least); the
    pit then waits `Floor.WILL_SETTLE` to tell a table lost from a broker shutting down. So
    15 to 18.5 s for keepalive = 10 (18.4 s has been seen)."""
    keepalive = 10
    view = PitView(broker.url, port=0, table_keys=folder_keys(tmp_path, "bj-31")).start()
    config = write_config(tmp_path, "blackjack", "bj-31", broker.url, keepalive=keepalive)
    table = DemoTable(config, tmp_path / "bj-31.sqlite", pace=0.1)
    try:
        assert view.floor.wait_for(
            lambda f: by_table(f).get("bj-31", {}).get("shown") == "dealing", timeout=60
        )
        assert table.wait_actions(3)  # dealing: its last packet is just now
        stopped_at = time.monotonic()
        table.proc.send_signal(signal.SIGSTOP)
        try:
            assert view.floor.wait_for(
                # mosquitto 2.0.11 gives up on a busy client later than on an idle one: a plain
                # paho client publishing 3 KB at QoS 1 twenty times a second, frozen, had its
                # Will 8.6 s after, for keepalive 3 (docs/mqtt.md)
                lambda f: by_table(f)["bj-31"]["shown"] == "offline",
                timeout=1.5 * keepalive + 15,
            )
            waited = time.monotonic() - stopped_at
        finally:
            table.proc.send_signal(signal.SIGCONT)
        # never before the broker's 1.5 keepalives: a table alive but quiet is not offline.
        # How long after is the broker's timing (docs/mqtt.md gives what was measured, 16-17 s
        # for 10 s), bounded above only by the wait's own timeout: no timed assertion here.
        assert waited >= 1.5 * keepalive, waited
        assert view.floor.wait_for(lambda f: by_table(f)["bj-31"]["shown"] == "dealing", timeout=30)
    finally:
        table.stop()
        view.close()


# --- the floor's reading, with the clocks in hand (no broker) ----------------------------


def _say(
    floor: Floor, leaf: str, table: str = "bj-01", retained: bool = False, **body: Any
) -> None:
    floor.take(
        f"casino/dunedin/table/{table}/{leaf}", json.dumps({"v": 1, **body}).encode(), retained
    )


def _clocks() -> tuple[list[float], Callable[[], float], Callable[[], float]]:
    now = [1_800_000_000.0]
    return now, lambda: now[0], lambda: now[0]


def test_offline_closed_and_unknown_read_differently() -> None:
    now, clock, wall = _clocks()
    floor = Floor(clock=clock, wall=wall, outage_grace=20)
    _say(floor, "status", status="online", reason="connected", game="blackjack")
    assert by_table(floor.snapshot())["bj-01"]["shown"] == "unknown"  # no broker link yet
    floor.link(True)
    _say(floor, "status", status="online", reason="connected", game="blackjack")
    assert floor.snapshot()[0]["shown"] == "dealing"
    now[0] += 30
    _say(floor, "status", status="offline", reason="connection lost", game="blackjack")
    lost_at = datetime.datetime.fromtimestamp(now[0], datetime.UTC).isoformat()
    assert floor.snapshot()[0]["shown"] == "unknown"  # for WILL_SETTLE: is it the broker?
    assert not floor.alarms()[0]["alert"]
    now[0] += Floor.WILL_SETTLE
    table = floor.snapshot()[0]
    assert table["shown"] == "offline" and table["why"].startswith("connection lost")
    assert table["shown_since"] == lost_at and floor.alarms()[0]["alert"]
    (lost,) = floor.log.newest()
    assert lost["kind"] == "TableLost" and lost["alert"] and lost["cleared"] is None
    now[0] += 5
    _say(floor, "status", status="online", reason="connected", game="blackjack")
    assert floor.log.newest()[0]["cleared"]["how"] == "the table is back online"
    _say(floor, "status", status="offline", reason="stopped", game="blackjack")
    table = floor.snapshot()[0]
    assert (table["shown"], table["why"]) == ("closed", "stopped cleanly")
    assert len(floor.log.newest()) == 1  # a clean stop is no alarm
    floor.link(False)
    assert {t["shown"] for t in floor.snapshot()} == {"unknown"}


def test_a_last_will_just_after_a_broker_outage_is_unknown_for_the_grace() -> None:
    now, clock, wall = _clocks()
    floor = Floor(clock=clock, wall=wall, outage_grace=20)
    floor.link(True)
    _say(floor, "status", status="online", reason="connected", game="blackjack")
    floor.link(False)
    now[0] += 20
    floor.link(True)
    now[0] += 1
    _say(floor, "status", status="offline", reason="connection lost", game="blackjack")
    table = floor.snapshot()[0]
    assert table["shown"] == "unknown" and "broker outage" in table["why"]
    assert not floor.log.newest()[0]["alert"]  # no sound for the outage's own Will
    now[0] += 25
    assert floor.snapshot()[0]["shown"] == "offline"  # not back after the grace


def test_a_retained_status_seen_at_the_start_keeps_its_time() -> None:
    _, clock, wall = _clocks()
    floor = Floor(clock=clock, wall=wall)
    floor.link(True)
    stopped = "2027-01-15T08:00:00+00:00"
    _say(floor, "status", retained=True, status="offline", reason="stopped", at=stopped)
    _say(floor, "status", "bj-02", retained=True, status="offline", reason="connection lost")
    shown = by_table(floor.snapshot())
    assert shown["bj-01"]["shown_since"] == stopped
    assert shown["bj-02"]["shown"] == "offline"
    assert floor.log.newest() == []  # lost before the pit looked: no new alarm


def test_the_wills_a_broker_sends_as_it_shuts_down_are_the_outages() -> None:
    """mosquitto sends every table's Will as it stops, just before the pit's own link
    drops: those tables are unknown, and no alarm sounds."""
    now, clock, wall = _clocks()
    floor = Floor(clock=clock, wall=wall, outage_grace=20)
    floor.link(True)
    for table in ("bj-01", "bj-02"):
        _say(floor, "status", table, status="online", reason="connected", game="blackjack")
    now[0] += 60
    for table in ("bj-01", "bj-02"):
        _say(floor, "status", table, status="offline", reason="connection lost")
    now[0] += 0.2
    floor.link(False)
    assert {t["shown"] for t in floor.snapshot()} == {"unknown"}
    assert [a["alert"] for a in floor.alarms()] == [False, False]
    now[0] += 30
    floor.link(True)
    now[0] += 5
    _say(floor, "status", "bj-01", status="online", reason="connected", game="blackjack")
    shown = by_table(floor.snapshot())
    assert shown["bj-01"]["shown"] == "dealing" and shown["bj-02"]["shown"] == "unknown"
    assert "not back yet after the broker outage" in shown["bj-02"]["why"]
    now[0] += 20
    assert by_table(floor.snapshot())["bj-02"]["shown"] == "offline"
    alerts = {a["table"]: a["alert"] for a in floor.alarms()}
    assert alerts == {"bj-01": False, "bj-02": True}  # not back after the grace: an alarm
