"""The broker binds each login to its own client id (deploy/mosquitto/mosquitto.conf): the
read-only ``pit`` login, connecting with a table's client id, cannot knock that table off
the broker. A real mosquitto with the shipped config (its paths and ports changed, its TLS
listener left out), a real table publisher, the real pit view and surveillance's recorder.

Without the binding, each such connection takes the table's session over: the broker
drops the table, publishes its Last Will (``offline``), and the pit view raises "Table
lost" for a table that never stopped.
"""

from __future__ import annotations

import re
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.app.floor.view import PitView
from controller.app.pit.publisher import pit_publisher
from controller.app.runtime.journal_files import open_journal
from sim_hardware.testbed import free_port
from tests.support.pit import ROOT, Broker, Recorder, folder_keys, make_config

SHIPPED = ROOT / "deploy" / "mosquitto" / "mosquitto.conf"
ACL = ROOT / "deploy" / "mosquitto" / "tablectl.acl"
USERS = {"bj-01": "pw-bj01", "pit": "pw-pit", "surveillance": "pw-surv"}
STATUS = "casino/demo-casino/table/bj-01/status"
EVENTS = "casino/demo-casino/table/bj-01/event"
TAKEOVERS = 6


def shipped_broker(folder: Path) -> Broker:
    """mosquitto on the shipped config: the same settings, only the files and the loopback
    listener's port are the test's, and the TLS listener (certificates) is left out."""
    folder.mkdir()
    passwords = folder / "passwd"
    for n, (user, password) in enumerate(USERS.items()):
        create = ["-c"] if n == 0 else []
        subprocess.run(
            ["mosquitto_passwd", "-b", *create, str(passwords), user, password],
            check=True,
            capture_output=True,
        )
    text = SHIPPED.read_text()
    text, tls_blocks = re.subn(r"(?ms)^listener 8883$.*?^tls_version .*?$", "", text)
    assert tls_blocks == 1, "the shipped config's TLS listener was not found"
    for old, new in {
        "/etc/mosquitto/tablectl.passwd": str(passwords),
        "/etc/mosquitto/tablectl.acl": str(ACL),
        "/var/lib/mosquitto/": f"{folder}/",
        "listener 1883 127.0.0.1": f"listener {free_port()} 127.0.0.1",
    }.items():
        assert old in text, old
        text = text.replace(old, new)
    broker = Broker(folder, whole=text)
    port = re.search(r"^listener (\d+) 127\.0\.0\.1$", text, re.M)
    assert port is not None
    broker.port = int(port[1])
    broker.url = f"mqtt://127.0.0.1:{broker.port}"
    return broker.start()


def connect_as(port: int, user: str, client_id: str) -> bool:
    """One MQTT connection with ``user``'s login and ``client_id``, closed again once the
    broker has answered; whether the broker let it in."""
    answered = threading.Event()
    accepted: list[bool] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        accepted.append(not reason.is_failure)
        answered.set()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv311)
    client.username_pw_set(user, USERS[user])
    client.on_connect = on_connect
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    try:
        assert answered.wait(10), "the broker did not answer"
    finally:
        client.disconnect()
        client.loop_stop()
    return accepted == [True]


def test_the_pit_login_with_a_tables_client_id_cannot_knock_the_table_off(
    tmp_path: Path,
) -> None:
    broker = shipped_broker(tmp_path / "broker")
    config = make_config(
        tmp_path, "blackjack", "bj-01", broker.url, username="bj-01", password=USERS["bj-01"]
    )
    watcher = Recorder(
        broker.port, [STATUS, EVENTS], username="surveillance", password=USERS["surveillance"]
    )
    view = PitView(
        broker.url,
        port=0,
        username="pit",
        password=USERS["pit"],
        store=tmp_path / "pit.sqlite",
        table_keys=folder_keys(config.journal_path.parent, "bj-01"),
        outage_grace=0.0,
    )
    floor = FloorWatch(view)
    view.start()
    drops: list[object] = []
    knocked: list[object] = []
    statuses: list[str] = []
    try:
        with open_journal(config.journal_path, create=True) as journal:
            journal.append("DeviceLost", {"reason": "before"}, source="shoe", round=0)
            publisher = pit_publisher(config)
            table_id = publisher.client._client_id.decode()
            dropped = publisher.client.on_disconnect

            def on_disconnect(*args: Any) -> None:
                drops.append(args[3])
                dropped(*args)

            publisher.client.on_disconnect = on_disconnect
            publisher.start()
            try:
                assert publisher.wait_acknowledged(1, 15)
                assert watcher.wait_for(lambda r: "online" in statuses_of(r))
                assert floor.wait_for(lambda: table_status(view) == "online")
                ids = {table_id, "bj-01", config.table_id}
                let_in = [connect_as(broker.port, "pit", i) for i in sorted(ids) * TAKEOVERS]
                assert all(let_in), "the pit login was refused outright"
                # a row after the attempts: once surveillance has it, any Last Will is in
                journal.append("DeviceLost", {"reason": "after"}, source="shoe", round=0)
                assert publisher.wait_acknowledged(2, 15)
                assert watcher.wait_for(lambda r: len(r.on("/event")) >= 2)
                # the view shares the pit's login, so it was displaced too: once it is back
                assert floor.wait_for(lambda: view.broker_connected)
                assert floor.wait_for(lambda: table_status(view) is not None)
                lost = [a for a in view.floor.alarms() if a.get("kind") == "TableLost"]
                status = table_status(view)
                knocked = list(drops)  # before the table's own goodbye below
                statuses = statuses_of(watcher)
            finally:
                publisher.close()
    finally:
        view.close()
        watcher.close()
        broker.kill()
    assert knocked == [], f"the table was knocked off the broker {len(knocked)} times"
    assert "offline" not in statuses, f"its Last Will went out: {statuses}"
    assert lost == [], f"the pit view raised 'Table lost': {lost}"
    assert status == "online"


def statuses_of(recorder: Recorder) -> list[str]:
    return [str(m.get("status")) for m in recorder.on("/status") if isinstance(m, dict)]


def table_status(view: PitView) -> str | None:
    found = [t["status"] for t in view.floor.snapshot(60.0) if t["table"] == "bj-01"]
    return found[0] if found else None


class FloorWatch:
    """Wakes on every change the pit view's floor announces (its listeners)."""

    def __init__(self, view: PitView) -> None:
        self.changed = threading.Condition()
        view.floor.listeners.append(self._wake)

    def _wake(self) -> None:
        with self.changed:
            self.changed.notify_all()

    def wait_for(self, check: Callable[[], bool], timeout: float = 15.0) -> bool:
        with self.changed:
            return self.changed.wait_for(check, timeout)


def test_the_pit_views_session_under_its_login_keeps_what_came_while_it_was_away(
    tmp_path: Path,
) -> None:
    """The broker binds the view's session to its login (``pit``): a row published while
    the view is down is handed to it when it is back (its persistent session)."""
    broker = shipped_broker(tmp_path / "broker")
    config = make_config(
        tmp_path, "blackjack", "bj-01", broker.url, username="bj-01", password=USERS["bj-01"]
    )
    store = tmp_path / "pit.sqlite"

    def pit_view() -> tuple[PitView, FloorWatch]:
        keys = folder_keys(config.journal_path.parent, "bj-01")
        view = PitView(
            broker.url, port=0, username="pit", password=USERS["pit"], store=store, table_keys=keys
        )
        watch = FloorWatch(view)
        view.start()
        return view, watch

    def reasons(view: PitView) -> list[str]:
        rows = view.store.rows("1970-01-01T00:00:00+00:00", frozenset({"DeviceLost"}))
        return [str((row.get("payload") or {}).get("reason")) for row in rows]

    view, watch = pit_view()
    try:
        with open_journal(config.journal_path, create=True) as journal:
            journal.append("DeviceLost", {"reason": "before"}, source="shoe", round=0)
            publisher = pit_publisher(config).start()
            try:
                assert publisher.wait_acknowledged(1, 15)
                assert watch.wait_for(lambda: reasons(view) == ["before"])
                view.close()
                journal.append("DeviceLost", {"reason": "while away"}, source="shoe", round=0)
                assert publisher.wait_acknowledged(2, 15)  # the broker holds it for the view
                view, watch = pit_view()
                assert watch.wait_for(lambda: reasons(view) == ["before", "while away"])
            finally:
                publisher.close()
    finally:
        view.close()
        broker.kill()
