"""The pieces of the pit's signatures without a broker: the envelope, the floor view's gate
(what it refuses and how often it says so), the impossible seqs, the witness's pace, the
keys' files and commands (docs/mqtt.md, "Signatures"). tests/security/test_pit_forgery.py
has the same attacks against a real mosquitto and real tables."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from controller.app.config import load_config
from controller.app.floor.verify import ALARM_EVERY, SEQ_MAX, Gate, Witness, impossible_seq
from controller.app.pit.signing import Refused, open_signed, public_text, sign, signing_key_path
from controller.app.runtime.preflight import preflight
from controller.app.runtime.witnessed_head import _witness
from controller.errors import ConfigError
from tests.support.cli import tablectl
from tests.support.pit import make_config, write_config

TOPIC = "casino/dunedin/table/bj-01/event"


def body(**extra: Any) -> bytes:
    fields = {"v": 1, "table": "bj-01", "site": "dunedin", "seq": 5, "hash": "a" * 64}
    return json.dumps({**fields, **extra}, separators=(",", ":")).encode()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# --- the envelope -------------------------------------------------------------------------


def test_a_signed_message_opens_to_the_bytes_signed_and_on_its_own_topic_only() -> None:
    key = Ed25519PrivateKey.generate()
    sent = sign(key, TOPIC, body())
    assert sent.startswith(body()[:-1] + b',"sig":"') and json.loads(sent)["v"] == 1
    assert open_signed(TOPIC, sent, key.public_key()) == body()
    with pytest.raises(Refused, match="does not check out"):
        open_signed(TOPIC.replace("bj-01", "bj-02"), sent, key.public_key())
    with pytest.raises(Refused, match="does not check out"):
        open_signed(TOPIC.replace("event", "alarm"), sent, key.public_key())
    with pytest.raises(Refused, match="does not check out"):
        open_signed(TOPIC, sent.replace(b'"seq":5', b'"seq":6'), key.public_key())
    with pytest.raises(Refused, match="it is not signed"):
        open_signed(TOPIC, body(), key.public_key())
    other = Ed25519PrivateKey.generate()
    with pytest.raises(Refused, match="signed with bj-02's key"):
        open_signed(
            TOPIC, sign(other, TOPIC, body()), key.public_key(), {"bj-02": other.public_key()}
        )


def test_a_second_sig_inside_the_signed_bytes_is_not_a_tables_message() -> None:
    key = Ed25519PrivateKey.generate()
    alarms: list[str] = []
    gate = Gate({"bj-01": key.public_key()}, lambda s, t, text: alarms.append(text))
    assert gate.check(TOPIC, sign(key, TOPIC, body(sig="0" * 128))) is None
    assert alarms == ["refused a message on bj-01's event topic: it is not a table's message"]


# --- the gate -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seq", "witnessed", "seconds", "why"),
    [
        (True, None, 0.0, "its journal seq True is not a whole number"),
        ("7", None, 0.0, "its journal seq '7' is not a whole number"),
        (-1, None, 0.0, "its journal seq -1 is negative"),
        (SEQ_MAX + 1, None, 0.0, f"its journal seq {SEQ_MAX + 1} is past {SEQ_MAX}"),
        (10**9, None, 0.0, ""),  # nothing taken from the table yet: its signed word
        (10_100, 100, 5.0, ""),
        (
            10_101,
            100,
            5.0,
            "its journal seq 10101 is more than 10000 rows ahead of row 100, witnessed 5 s ago",
        ),
        (60_100, 100, 60.0, ""),  # a table away a minute: 1,000 rows a second
        (0, 100, 0.0, ""),  # behind: the head alarm's business, not impossible
    ],
)
def test_an_impossible_seq(seq: Any, witnessed: int | None, seconds: float, why: str) -> None:
    assert impossible_seq(seq, witnessed, seconds) == why


def state(key: Ed25519PrivateKey, seq: int, at: str, table: str = "bj-01") -> tuple[str, bytes]:
    topic = f"casino/dunedin/table/{table}/state"
    text = {"v": 1, "table": table, "site": "dunedin", "at": at, "origin": "o",
            "state": {"journal_seq": seq, "journal_hash": "b" * 64}, "redacted": []}  # fmt: skip
    return topic, sign(key, topic, json.dumps(text, separators=(",", ":")).encode())


def test_an_old_signed_state_sent_again_is_refused_the_same_one_again_is_not() -> None:
    key = Ed25519PrivateKey.generate()
    alarms: list[str] = []
    gate = Gate({"bj-01": key.public_key()}, lambda s, t, text: alarms.append(text), Clock())
    old = state(key, 10, "2026-12-01T20:00:00.000+00:00")
    new = state(key, 12, "2026-12-01T20:00:05.000+00:00")
    assert gate.check(*old) is not None
    assert gate.check(*new) is not None
    assert gate.check(*new) is not None  # the retained state again, at a reconnect
    assert gate.check(*old) is None
    assert alarms == [
        "refused a message on bj-01's state topic: a state of 2026-12-01T20:00:00.000+00:00, "
        "older than one of 2026-12-01T20:00:05.000+00:00 (replayed)"
    ]
    behind = state(key, 13, "2026-12-01T19:59:00.000+00:00")  # its clock behind, rows on
    assert gate.check(*behind) is not None


def test_a_flood_of_refusals_is_one_alarm_per_table_and_reason_every_ten_seconds() -> None:
    key = Ed25519PrivateKey.generate()
    clock = Clock()
    alarms: list[tuple[str, str, str]] = []
    gate = Gate({"bj-01": key.public_key()}, lambda *a: alarms.append(a), clock)
    for _ in range(3):
        assert gate.check(TOPIC, body()) is None
    assert gate.check("casino/dunedin/table/bj-02/event", body(table="bj-02")) is None
    assert len(alarms) == 2  # bj-01's first, bj-02's
    clock.now += ALARM_EVERY
    gate.check(TOPIC, body())
    assert alarms[-1] == (
        "dunedin",
        "bj-01",
        "refused a message on bj-01's event topic: it is not signed "
        "(2 more refused since the last alarm)",
    )


def test_a_body_naming_another_table_than_its_topic_is_refused() -> None:
    key = Ed25519PrivateKey.generate()
    alarms: list[str] = []
    gate = Gate({"bj-01": key.public_key()}, lambda s, t, text: alarms.append(text))
    assert gate.check(TOPIC, sign(key, TOPIC, body(table="bj-02"))) is None
    assert alarms == ["refused a message on bj-01's event topic: it names table 'bj-02' of "
                      "'dunedin'"]  # fmt: skip


# --- the witness --------------------------------------------------------------------------


def test_the_witness_is_sent_at_most_once_a_second_and_at_once_when_the_table_stops() -> None:
    key = Ed25519PrivateKey.generate()
    clock = Clock()
    sent: list[tuple[str, bytes]] = []
    witness = Witness(key, "casino", lambda topic, payload: sent.append((topic, payload)), clock)
    witness.head("dunedin", "bj-01", 10, "a" * 64, "o", False)
    witness.head("dunedin", "bj-01", 11, "b" * 64, "o", False)  # too soon: waits
    assert len(sent) == 1
    witness.head("dunedin", "bj-01", 12, "c" * 64, "o", True)  # it stopped: now
    assert len(sent) == 2
    topic, payload = sent[-1]
    assert topic == "casino/dunedin/witness/bj-01"
    seen = json.loads(open_signed(topic, payload, key.public_key()))
    assert (seen["seq"], seen["hash"], seen["origin"]) == (12, "c" * 64, "o")
    witness.head("dunedin", "bj-01", 12, "c" * 64, "o", True)  # the same head: nothing
    assert len(sent) == 2


def test_the_table_ignores_a_witness_that_is_not_well_formed(caplog: Any) -> None:
    key = Ed25519PrivateKey.generate()
    topic = "casino/dunedin/witness/bj-01"
    public = public_text(key)
    good = {"v": 1, "table": "bj-01", "site": "dunedin", "seq": 7, "hash": "c" * 64,
            "origin": "o", "at": "now"}  # fmt: skip

    def sent(**changed: Any) -> bytes:
        return sign(key, topic, json.dumps({**good, **changed}).encode())

    assert _witness(topic, sent(), public) == (7, "c" * 64, "o")
    assert _witness(topic, sent(seq=0), public) is None
    assert _witness(topic, sent(seq=True), public) is None
    assert _witness(topic, sent(hash="C" * 64), public) is None
    assert _witness(topic, sent(origin=None), public) is None
    assert _witness(topic, sign(key, topic, b'{"v":1}'), public) is None
    assert _witness(topic, sent(pad="x" * 5000), public) is None
    said = [r.getMessage().split(": ", 1)[1] for r in caplog.records]
    assert said == [
        "its seq 0 is not a row",
        "its seq True is not a row",
        "its hash is not 64 hexadecimal digits",
        "its origin is not a hash",
        "it is not well formed",
        f"it is {len(sent(pad='x' * 5000))} bytes",
    ]


# --- the keys' files and commands ---------------------------------------------------------


def test_tablectl_secrets_makes_the_signing_key_for_the_service_only_and_prints_its_line(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path, "blackjack", "bj-01", "mqtt://127.0.0.1:9")
    done = tablectl("secrets", "--config", str(config))
    key = tmp_path / "pit-signing.key"
    assert done.returncode == 0, done.stderr
    assert f"created {key} (the table's pit signing key" in done.stdout
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    printed = tablectl("secrets", "--config", str(config), "--public-key")
    assert printed.returncode == 0
    line = printed.stdout.strip()
    assert line.startswith('"bj-01" = "ed25519:') and len(line) == len('"bj-01" = "ed25519:"') + 64
    again = tablectl("secrets", "--config", str(config), "--public-key")
    assert again.stdout.strip() == line  # the same key: made once
    assert "kept" in tablectl("secrets", "--config", str(config)).stdout


def test_a_signing_key_others_can_read_and_a_bad_pit_key_are_refused_before_the_start(
    tmp_path: Path,
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", "mqtt://127.0.0.1:9")
    key = signing_key_path(config)
    key.write_text("ab" * 32 + "\n")
    key.chmod(0o644)
    with pytest.raises(ConfigError, match="readable by others"):
        preflight(config)
    key.chmod(0o600)
    preflight(config)
    path = Path(config.source)
    path.write_text(path.read_text() + 'pit_public_key = "ed25519:12"\n')
    with pytest.raises(ConfigError, match=r"pit\.pit_public_key: expected ed25519:"):
        preflight(load_config(path))


def test_tablectl_pit_prints_its_public_key_and_keeps_its_key_for_itself(tmp_path: Path) -> None:
    store = tmp_path / "pit.sqlite"
    done = tablectl("pit", "--broker", "mqtt://127.0.0.1:9", "--store", str(store), "--public-key")
    key = tmp_path / "witness-signing.key"
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ed25519:") and len(done.stdout.strip()) == 8 + 64
    assert stat.S_IMODE(os.stat(key).st_mode) == 0o600
    assert not store.exists()  # printing the key opens no store
    again = tablectl("pit", "--broker", "mqtt://127.0.0.1:9", "--store", str(store), "--public-key")
    assert again.stdout == done.stdout


def test_a_message_nested_past_the_parsers_depth_is_refused_and_the_gate_goes_on() -> None:
    """Python's JSON parser recurses once per bracket: a small body nested thousands deep
    raises `RecursionError`. Signed or not (a forged one is parsed too, to name the table
    it claims), it is refused with an alarm, and the next message is taken as before."""
    key = Ed25519PrivateKey.generate()
    alarms: list[str] = []
    gate = Gate({"bj-01": key.public_key()}, lambda s, t, text: alarms.append(text))
    deep = b"[" * 5000 + b"]" * 5000
    forged = b'{"v":1,"a":' + deep + b',"sig":"' + b"0" * 128 + b'"}'
    assert gate.check(TOPIC, forged) is None
    signed = sign(key, TOPIC, b'{"v":1,"a":' + deep + b"}")
    assert gate.check(TOPIC, signed) is None
    assert len(alarms) == 2 and "nests deeper than" in alarms[1], alarms
    assert gate.check(TOPIC, sign(key, TOPIC, body())) == body()
