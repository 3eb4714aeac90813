"""The pit publisher against a real mosquitto, fed from journals written here.

The journal is the outbox: these tests write rows with `Journal.append` (as the controller
thread does), call `publish(state)` (as the loop does), and check what a subscriber gets.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.app.pit.publisher import (
    PitPublisher,
    cursor_path,
    parse_broker,
    pit_publisher,
    topic_base,
)
from controller.app.runtime.journal_files import open_journal
from controller.errors import ConfigError
from controller.journal.store import Journal
from tests.support.pit import Broker, Recorder, make_config, schema_validator

BASE = "casino/demo-casino/table"


def card(journal: Journal, text: str, round_: int = 1) -> None:
    journal.append(
        "CardDrawn", {"card": text, "seq": None, "device_ms": None}, source="shoe", round=round_
    )


def state(seq: int, game: str = "blackjack") -> dict[str, Any]:
    return {
        "table": "t",
        "site": "demo-casino",
        "simulated": True,
        "limits": {"minimum": 2, "maximum": 100},
        "journal_seq": seq,
        "events_processed": seq,
        "recovered": False,
        "devices": {},
        "notices": [],
        "game": game,
        "round": 1,
        "view": {"state": "betting"},
    }


def seqs(recorder: Recorder, suffix: str = "/event") -> list[int]:
    return [body["seq"] for body in recorder.on(suffix)]


def test_every_row_is_published_in_order_with_its_seq_and_a_valid_schema(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/#")
    with open_journal(config.journal_path, create=True) as journal:
        for text in ("AS", "KH", "7C"):
            card(journal, text)
        publisher = pit_publisher(config).start()
        try:
            publisher.publish(state(3))
            assert publisher.wait_acknowledged(3, 10)
            card(journal, "2D")
            publisher.publish(state(4))
            assert recorder.wait_for(lambda r: seqs(r) == [1, 2, 3, 4])
            assert recorder.wait_for(
                lambda r: any(b["state"]["journal_seq"] == 4 for b in r.on("/state"))
            )
        finally:
            publisher.close()
    events = recorder.on("/event")
    assert [e["payload"]["card"] for e in events] == ["AS", "KH", "7C", "2D"]
    assert all(e["redacted"] == [] for e in events)  # blackjack is dealt face up
    validate_event = schema_validator("event")
    for event in events:
        validate_event(event)
    for body in recorder.on("/state"):
        schema_validator("state")(body)
    statuses = recorder.on("/status")
    for body in statuses:
        schema_validator("status")(body)
    assert [s["status"] for s in statuses] == ["online", "offline"]
    assert statuses[-1]["reason"] == "stopped"


def test_a_restarted_publisher_resumes_after_the_durable_cursor(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/event")
    with open_journal(config.journal_path, create=True) as journal:
        for text in ("AS", "KH"):
            card(journal, text)
        first = pit_publisher(config).start()
        try:
            assert first.wait_acknowledged(2, 10)
        finally:
            first.close()
        assert cursor_path(config.journal_path).exists()
        card(journal, "QS")  # journaled while no publisher runs (the controller restarts)
        second = pit_publisher(config).start()
        try:
            assert second.cursor is not None and second.cursor.seq == 2
            assert second.wait_acknowledged(3, 10)
            assert recorder.wait_for(lambda r: 3 in seqs(r))
        finally:
            second.close()
    assert seqs(recorder) == [1, 2, 3]


def test_rows_journaled_while_the_broker_is_down_arrive_after_it_returns(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/event", client_id="keep", persistent=True)
    with open_journal(config.journal_path, create=True) as journal:
        publisher = pit_publisher(config).start()
        try:
            card(journal, "AS")
            publisher.publish(state(1))
            assert publisher.wait_acknowledged(1, 10)
            broker.stop()
            for text in ("2S", "3S", "4S", "5S"):
                card(journal, text)
                publisher.publish(state(journal.last_seq))
            broker.start()
            assert publisher.wait_acknowledged(5, 20)
            assert recorder.wait_for(lambda r: set(seqs(r)) >= {1, 2, 3, 4, 5})
        finally:
            publisher.close()
    first_seen = list(dict.fromkeys(seqs(recorder)))
    assert first_seen == [1, 2, 3, 4, 5]


class _Stuck:
    """A paho client whose publish never returns until released (a dead network)."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.entered = threading.Event()

    def publish(self, *args: Any, **kw: Any) -> Any:
        self.entered.set()
        self.release.wait(30)
        raise ConnectionError("released")


def test_publish_from_the_controller_thread_never_waits_on_the_network(
    tmp_path: Path, broker: Broker
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    with open_journal(config.journal_path, create=True) as journal:
        card(journal, "AS")
        publisher = pit_publisher(config)
        stuck = _Stuck()
        real_publish = publisher.client.publish
        publisher.client.publish = stuck.publish  # type: ignore[method-assign]
        publisher.start()
        try:
            assert stuck.entered.wait(10)  # the publisher thread is stuck in the network
            for n in range(1000):
                publisher.publish(state(n))  # returns at once: nothing here waits on it
            assert publisher._state is not None and publisher._state["journal_seq"] == 999
        finally:
            stuck.release.set()
            publisher.client.publish = real_publish  # type: ignore[method-assign]
            publisher.close()


@pytest.mark.parametrize("mode", ["restricted", "delayed"])
def test_11_3_a_a_poker_players_cards_are_not_on_the_public_event_topic(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder], mode: str
) -> None:
    config = make_config(tmp_path, "poker", "dp-01", broker.url, private_cards=mode)
    recorder = recorders(broker.port, f"{BASE}/dp-01/#")
    with open_journal(config.journal_path, create=True) as journal:
        journal.append(
            "HandStarted",
            {"hand": 1, "button": 1, "button_dead": False, "blinds": [], "seats": [2, 3]},
            source="controller",
            round=1,
        )
        for text in ("AS", "KD"):
            card(journal, text)
        journal.append(
            "DrawTaken", {"seat": 2, "count": 1, "discards": ["KD"]}, source="controller", round=1
        )
        journal.append(
            "HandSettled",
            {"hand": 1, "chips_in": 4, "awards": [], "returned": [], "rake": 0, "void": False},
            source="controller",
            round=1,
        )
        publisher = pit_publisher(config).start()
        try:
            assert publisher.wait_acknowledged(5, 10)
            assert recorder.wait_for(lambda r: seqs(r) == [1, 2, 3, 4, 5])
            if mode == "restricted":
                assert recorder.wait_for(lambda r: seqs(r, "/restricted/event") == [2, 3, 4])
            else:
                assert recorder.wait_for(lambda r: len(r.on("/reveal")) == 1)
        finally:
            publisher.close()
    public = [b for t, b, _ in recorder.messages if t == f"{BASE}/dp-01/event"]
    for event in public:
        schema_validator("event")(event)
    assert [e["payload"].get("card") for e in public if e["kind"] == "CardDrawn"] == [None, None]
    assert public[1]["redacted"] == ["card"]
    assert public[3]["payload"]["discards"] is None
    assert "AS" not in str(public) and "KD" not in str(public)
    if mode == "restricted":
        private = recorder.on("/restricted/event")
        assert [e["payload"].get("card") for e in private[:2]] == ["AS", "KD"]
        assert recorder.on("/reveal") == []
    else:
        assert recorder.on("/restricted/event") == []
        reveal = recorder.on("/reveal")[0]
        schema_validator("reveal")(reveal)
        assert reveal["seq"] == 5  # at the hand's end (11.4(c)), not before
        assert [r["fields"] for r in reveal["rows"]] == [
            {"card": "AS"},
            {"card": "KD"},
            {"discards": ["KD"]},
        ]


def test_violations_and_device_losses_go_to_the_alarm_topic(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/alarm")
    with open_journal(config.journal_path, create=True) as journal:
        card(journal, "AS")
        journal.append(
            "Violation",
            {
                "rule": "9.3",
                "message": "insurance after a card",
                "state": "insurance",
                "card": "5D",
            },
            source="controller",
            round=1,
        )
        journal.append(
            "HoldCleared",
            {"who": "sup", "decision": "keep_card", "rule": "9.6"},
            source="controller",
            round=1,
            actor="sup",
        )
        journal.append("DeviceLost", {"reason": "heartbeat overdue"}, source="shoe", round=1)
        publisher = pit_publisher(config).start()
        try:
            assert recorder.wait_for(lambda r: len(r.on("/alarm")) == 3)
        finally:
            publisher.close()
    alarms = recorder.on("/alarm")
    for alarm in alarms:
        schema_validator("alarm")(alarm)
    assert [(a["seq"], a["severity"]) for a in alarms] == [
        (2, "hold"),
        (3, "cleared"),
        (4, "device"),
    ]
    assert alarms[0]["payload"]["rule"] == "9.3"


def test_the_latest_state_is_retained_for_a_pit_that_connects_later(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    with open_journal(config.journal_path, create=True) as journal:
        card(journal, "AS")
        publisher = pit_publisher(config).start()
        try:
            publisher.publish(state(1))
            assert publisher.wait_acknowledged(1, 10)
            late = recorders(broker.port, f"{BASE}/+/state")
            assert late.wait_for(lambda r: len(r.messages) >= 1)
        finally:
            publisher.close()
    _topic, body, retained = late.messages[0]
    assert retained and body["state"]["journal_seq"] == 1


def test_broker_urls_and_topics_are_checked() -> None:
    assert parse_broker("mqtt://pit.local") == ("pit.local", 1883, False)
    assert parse_broker("mqtts://pit.local") == ("pit.local", 8883, True)
    assert parse_broker("mqtt://10.0.0.5:1884") == ("10.0.0.5", 1884, False)
    with pytest.raises(ConfigError):
        parse_broker("http://pit.local")
    assert topic_base("casino", "dunedin", "bj-01") == "casino/dunedin/table/bj-01"
    for site, table in (("a/b", "t"), ("s", "t+"), ("s", "#"), ("s", "")):
        with pytest.raises(ConfigError):
            topic_base("casino", site, table)


def test_tls_and_credentials_come_from_the_config(tmp_path: Path) -> None:
    config = make_config(
        tmp_path,
        "blackjack",
        "bj-01",
        "mqtts://pit.example:8883",
        username="bj-01",
        password="s3cret",
    )
    publisher = PitPublisher(config)
    assert publisher.port == 8883
    assert publisher.client._username == b"bj-01"
    assert publisher.client._password == b"s3cret"
    assert publisher.client._ssl is True


def test_a_failing_pass_is_logged_and_retried_and_the_table_is_not_stopped(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/event")
    with open_journal(config.journal_path, create=True) as journal:
        card(journal, "AS")
        publisher = pit_publisher(config)
        real = publisher._send_rows
        failures = [sqlite3.OperationalError("database is locked")]

        def flaky() -> None:
            if failures:
                raise failures.pop()
            real()

        publisher._send_rows = flaky  # type: ignore[method-assign]
        publisher.start()
        try:
            assert publisher.wait_acknowledged(1, 15)
            card(journal, "KS")
            publisher.publish(state(2))
            assert recorder.wait_for(lambda r: seqs(r) == [1, 2])
        finally:
            publisher.close()
    assert failures == []


def test_a_new_journal_at_the_same_path_is_published_from_its_first_row(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    recorder = recorders(broker.port, f"{BASE}/bj-01/event")
    with open_journal(config.journal_path, create=True) as journal:
        for text in ("AS", "KH", "7C"):
            card(journal, text)
    first = pit_publisher(config).start()
    try:
        assert first.wait_acknowledged(3, 10)
    finally:
        first.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{config.journal_path}{suffix}").unlink(missing_ok=True)
    # a new journal, longer than the cursor
    with open_journal(config.journal_path, create=True) as journal:
        for text in ("2D", "3D", "4D", "5D", "6D"):
            card(journal, text)
        second = pit_publisher(config).start()
        try:
            assert second.wait_acknowledged(5, 10)
            assert recorder.wait_for(lambda r: len(seqs(r)) == 8)
        finally:
            second.close()
    assert seqs(recorder) == [1, 2, 3, 1, 2, 3, 4, 5]
    assert recorder.on("/event")[3]["payload"]["card"] == "2D"
