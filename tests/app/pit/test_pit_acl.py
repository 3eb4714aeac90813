"""The documented mosquitto ACL (deploy/mosquitto/tablectl.acl), loaded by a real mosquitto:
a table writes only its own topics; the pit reads no player's cards."""

from __future__ import annotations

import json
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.app.pit.publisher import pit_publisher
from controller.app.runtime.journal_files import open_journal
from tests.support.pit import ROOT, Broker, Recorder, make_config

ACL = ROOT / "deploy" / "mosquitto" / "tablectl.acl"
BASE = "casino/demo-casino/table"
USERS = {"bj-01": "pw-bj01", "bj-02": "pw-bj02", "pit": "pw-pit", "surveillance": "pw-surv"}


@pytest.fixture
def secured(tmp_path: Path, broker_factory: Callable[..., Broker]) -> Broker:
    passwords = tmp_path / "passwd"
    for n, (user, password) in enumerate(USERS.items()):
        args = [
            "mosquitto_passwd",
            "-b",
            *(["-c"] if n == 0 else []),
            str(passwords),
            user,
            password,
        ]
        subprocess.run(args, check=True, capture_output=True)
    extra = f"allow_anonymous false\npassword_file {passwords}\nacl_file {ACL}\n"
    return broker_factory("secured", extra)


class Table:
    """A bare MQTT client logged in as a table, to try what the ACL allows."""

    def __init__(self, port: int, user: str) -> None:
        self.connected = threading.Event()
        self.refused = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"raw-{user}", protocol=mqtt.MQTTv311
        )
        self.client.username_pw_set(user, USERS.get(user, "wrong"))
        self.client.on_connect = self._on_connect
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        (self.refused if reason.is_failure else self.connected).set()

    def send(self, topic: str, body: dict[str, Any]) -> None:
        info = self.client.publish(topic, json.dumps(body), qos=1)
        info.wait_for_publish(timeout=10)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def test_a_table_cannot_publish_on_another_tables_topics(
    secured: Broker, recorders: Callable[..., Recorder]
) -> None:
    watcher = recorders(
        secured.port, "casino/#", username="surveillance", password=USERS["surveillance"]
    )
    table = Table(secured.port, "bj-01")
    try:
        assert table.connected.wait(10)
        table.send(f"{BASE}/bj-02/event", {"forged": True})
        table.send(f"{BASE}/bj-02/status", {"forged": True})
        table.send(f"{BASE}/bj-01/event", {"sentinel": True})  # after the forgeries, in order
        assert watcher.wait_for(lambda r: len(r.on("/event")) >= 1)
    finally:
        table.close()
    topics = [topic for topic, _, _ in watcher.messages]
    assert topics == [f"{BASE}/bj-01/event"]


def test_the_pit_reads_the_floor_but_not_the_restricted_cards(
    secured: Broker, recorders: Callable[..., Recorder]
) -> None:
    pit = recorders(secured.port, "casino/#", username="pit", password=USERS["pit"])
    watcher = recorders(
        secured.port, "casino/#", username="surveillance", password=USERS["surveillance"]
    )
    table = Table(secured.port, "bj-01")
    try:
        assert table.connected.wait(10)
        table.send(f"{BASE}/bj-01/restricted/event", {"card": "AS"})
        table.send(f"{BASE}/bj-01/event", {"sentinel": True})
        assert pit.wait_for(lambda r: len(r.on("/event")) == 1)
        assert watcher.wait_for(lambda r: len(r.messages) == 2)
    finally:
        table.close()
    assert [topic for topic, _, _ in pit.messages] == [f"{BASE}/bj-01/event"]
    assert watcher.on("/restricted/event") == [{"card": "AS"}]


def test_a_wrong_password_is_refused(secured: Broker) -> None:
    stranger = Table(secured.port, "bj-99")
    try:
        assert stranger.refused.wait(10)
    finally:
        stranger.close()


def test_the_publisher_logs_in_and_writes_its_own_topics_under_the_acl(
    tmp_path: Path, secured: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(
        tmp_path, "blackjack", "bj-02", secured.url, username="bj-02", password=USERS["bj-02"]
    )
    pit = recorders(secured.port, "casino/#", username="pit", password=USERS["pit"])
    with open_journal(config.journal_path, create=True) as journal:
        journal.append("DeviceLost", {"reason": "unplugged"}, source="shoe", round=0)
        publisher = pit_publisher(config).start()
        try:
            assert publisher.wait_acknowledged(1, 10)
            assert pit.wait_for(lambda r: len(r.on("/alarm")) == 1 and len(r.on("/event")) == 1)
            assert pit.wait_for(lambda r: any(s["status"] == "online" for s in r.on("/status")))
        finally:
            publisher.close()
