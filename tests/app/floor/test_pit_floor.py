"""The floor view (`tablectl pit`): ten simulated tables on one broker, one killed;
and the view's reading of the topics."""

from __future__ import annotations

import argparse
import datetime
import json
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.app.floor.view import Floor, PitView, add_arguments, run
from tests.support.pit import ROOT, Broker, DemoTable, folder_keys, write_config

KEEPALIVE = 3


def fetch(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.headers.get("Content-Type", ""), response.read().decode()


def by_table(tables: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t["table"]: t for t in tables}


def test_ten_tables_on_one_broker_and_one_killed_is_offline_within_its_keepalive(
    tmp_path: Path, broker: Broker
) -> None:
    names = [f"bj-{n:02d}" for n in range(1, 11)]
    view = PitView(broker.url, port=0, table_keys=folder_keys(tmp_path, *names)).start()
    tables: list[DemoTable] = []
    try:
        for name in names:
            config = write_config(tmp_path, "blackjack", name, broker.url, keepalive=KEEPALIVE)
            tables.append(DemoTable(config, tmp_path / f"{name}.sqlite", pace=0.3))

        def all_playing(floor: list[dict[str, Any]]) -> bool:
            seen = by_table(floor)
            return all(
                n in seen
                and seen[n]["status"] == "online"
                and seen[n]["round"] is not None
                and seen[n]["last_event_age"] is not None
                for n in names
            )

        assert view.floor.wait_for(all_playing, timeout=90), view.floor.snapshot()
        _, body = fetch(f"{view.url}/api/tables")
        assert json.loads(body)["broker"] is True
        shown = by_table(json.loads(body)["tables"])
        assert sorted(shown) == names
        assert {t["game"] for t in shown.values()} == {"blackjack"}
        assert all(t["simulated"] for t in shown.values())

        victim = tables[3]
        killed_at = time.monotonic()
        victim.kill()
        assert view.floor.wait_for(
            lambda floor: by_table(floor)["bj-04"]["status"] == "offline",
            timeout=1.5 * KEEPALIVE + 5,
        )
        assert time.monotonic() - killed_at <= 1.5 * KEEPALIVE + 1  # the MQTT Last Will
        floor = by_table(view.floor.snapshot())
        assert floor["bj-04"]["reason"] == "connection lost"
        assert [n for n in names if floor[n]["status"] != "online"] == ["bj-04"]
    finally:
        for table in tables:
            if table.proc.poll() is None:
                table.proc.send_signal(signal.SIGTERM)
        for table in tables:
            table.stop()
        view.close()


def test_the_page_and_its_files_are_served_without_the_internet(broker: Broker) -> None:
    view = PitView(broker.url, port=0).start()
    try:
        kind, page = fetch(view.url + "/")
        assert kind.startswith("text/html") and "/static/pit.js" in page
        _, script = fetch(view.url + "/static/pit.js")
        assert "EventSource" in script
        for text in (page, script):
            assert "http://" not in text and "https://" not in text
        kind, body = fetch(view.url + "/api/tables")
        assert kind.startswith("application/json") and json.loads(body)["tables"] == []
    finally:
        view.close()


def _message(leaf: str, /, **body: Any) -> tuple[str, bytes]:
    return f"casino/dunedin/table/bj-01/{leaf}", json.dumps({"v": 1, **body}).encode()


def test_the_floor_shows_holds_with_their_rule_alarms_and_event_age() -> None:
    now = [100.0]
    floor = Floor(clock=lambda: now[0])
    floor.link(True)  # the pit's own link to the broker is up
    take: Callable[[tuple[str, bytes]], None] = lambda m: floor.take(*m)  # noqa: E731
    take(_message("status", status="online", reason="connected", game="blackjack"))
    view = {
        "state": "hold",
        "next_action": "HOLD: a supervisor must clear the table",
        "hold": [{"rule": "9.3", "message": "a card before insurance closed"}],
    }
    take(
        _message(
            "state",
            state={
                "game": "blackjack",
                "round": 7,
                "journal_seq": 40,
                "simulated": False,
                "view": view,
            },
        )
    )
    take(
        _message(
            "event",
            seq=41,
            kind="Violation",
            payload={"rule": "9.3", "message": "a card before insurance closed"},
        )
    )
    take(
        _message(
            "alarm",
            seq=41,
            kind="Violation",
            severity="hold",
            payload={"rule": "9.3", "message": "a card before insurance closed"},
        )
    )
    now[0] = 112.5
    (table,) = floor.snapshot()
    assert table["site"] == "dunedin" and table["round"] == 7
    assert table["hold"] == "rule 9.3: a card before insurance closed"
    assert table["alarms"][0]["rule"] == "9.3"
    assert table["last_event_age"] == 12.5 and table["journal_seq"] == 41
    take(_message("status", status="offline", reason="connection lost", game="blackjack"))
    assert floor.snapshot()[0]["status"] == "offline"
    now[0] = 1000.0
    take(_message("status", status="online", reason="connected", game="blackjack"))
    now[0] = 1100.0
    assert floor.snapshot(quiet_after=60)[0]["quiet"] is True


def test_the_floor_ignores_other_versions_and_garbage() -> None:
    floor = Floor()
    floor.take("casino/s/table/t/state", b"not json")
    floor.take("casino/s/table/t/state", json.dumps({"v": 2, "state": {}}).encode())
    floor.take("casino/s/table/t/status", b"")  # a cleared retained message
    floor.take("elsewhere", b"{}")
    assert floor.snapshot() == []


def _cli(*args: str) -> list[str]:
    code = (
        "import argparse, sys\n"
        "from controller.app.floor import view as pit_view\n"
        "parser = argparse.ArgumentParser()\n"
        "pit_view.add_arguments(parser)\n"
        "sys.exit(pit_view.run(parser.parse_args(sys.argv[1:])))\n"
    )
    return [sys.executable, "-c", code, *args]


def test_tablectl_pit_serves_until_sigterm(tmp_path: Path, broker: Broker) -> None:
    store = tmp_path / "pit.sqlite"
    floor = ROOT / "examples" / "pit-floor.toml"
    proc = subprocess.Popen(
        _cli("--broker", broker.url, "--port", "0", "--store", str(store), "--floor", str(floor)),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # "pit floor view: http://127.0.0.1:PORT ..."
        url = line.split()[3]
        kind, _ = fetch(url + "/api/tables")
        assert kind.startswith("application/json")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        assert store.exists()  # the pit's own store, where it was told
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_tablectl_pit_refuses_a_bad_broker_url_a_bad_floor_file_and_an_unusable_store(
    tmp_path: Path, capsys: Any
) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    store = ["--store", str(tmp_path / "pit.sqlite")]
    assert run(parser.parse_args(["--broker", "http://pit.local", *store])) == 2
    assert not (tmp_path / "pit.sqlite").exists()
    bad = tmp_path / "floor.toml"
    bad.write_text("[[area]]\nname = 1\n")
    assert (
        run(parser.parse_args(["--broker", "mqtt://pit.local", *store, "--floor", str(bad)])) == 2
    )
    assert "--floor" in capsys.readouterr().err
    away = ["--store", str(tmp_path / "no" / "such" / "pit.sqlite")]
    assert run(parser.parse_args(["--broker", "mqtt://pit.local", *away])) == 2
    assert "the pit store" in capsys.readouterr().err


def test_a_retained_state_seen_at_start_keeps_its_age_and_other_topics_add_no_table() -> None:
    floor = Floor(clock=lambda: 500.0, wall=lambda: 1_800_000_030.0)
    at = datetime.datetime.fromtimestamp(1_800_000_000.0, datetime.UTC).isoformat()
    floor.take(
        *_message(
            "state",
            at=at,
            state={"game": "poker", "round": 3, "journal_seq": 9, "view": {"state": "first_round"}},
        )
    )
    floor.take("casino/dunedin/table/dp-02/reveal", b'{"v": 1}')
    (table,) = floor.snapshot()
    assert table["last_event_age"] == 30.0 and table["game"] == "poker"


def test_a_hung_table_is_offline_within_one_and_a_half_keepalives_then_back_online(
    tmp_path: Path, broker: Broker
) -> None:
    """SIGSTOP: the socket stays open but the table says nothing (a hung Pi, a cut cable
    behind a switch); the broker gives up on it after 1.5 keepalives (MQTT 3.1.1 §3.1.2.10)
    and publishes its Last Will. SIGCONT: it reconnects and says online again."""
    view = PitView(broker.url, port=0, table_keys=folder_keys(tmp_path, "bj-31")).start()
    config = write_config(tmp_path, "blackjack", "bj-31", broker.url, keepalive=KEEPALIVE)
    table = DemoTable(config, tmp_path / "bj-31.sqlite", pace=0.3)
    try:
        assert view.floor.wait_for(
            lambda floor: any(t["table"] == "bj-31" and t["status"] == "online" for t in floor),
            timeout=60,
        )
        stopped_at = time.monotonic()
        table.proc.send_signal(signal.SIGSTOP)
        try:
            assert view.floor.wait_for(
                lambda floor: by_table(floor)["bj-31"]["status"] == "offline",
                timeout=1.5 * KEEPALIVE + 10,
            )
            waited = time.monotonic() - stopped_at
        finally:
            table.proc.send_signal(signal.SIGCONT)
        # the broker's timing: mosquitto 2.0.11 says a busy client's Will up to about 5 s
        # after the 1.5 keepalives (docs/mqtt.md, "A frozen table"); the floor shows it at once
        assert waited <= 1.5 * KEEPALIVE + 7, waited
        assert by_table(view.floor.snapshot())["bj-31"]["reason"] == "connection lost"
        assert view.floor.wait_for(
            lambda floor: by_table(floor)["bj-31"]["status"] == "online", timeout=30
        )
    finally:
        table.stop()
        view.close()
