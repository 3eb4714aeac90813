"""Forged rows at the pit: what a stolen broker password can no longer do.

A real mosquitto with the shipped ACL (deploy/mosquitto/tablectl.acl) and a password per
login, two real tables (bj-01, bj-02: `RunningTable` on the simulators, each signing with
its own key in its own folder), and the real floor view believing the keys of its floor
file. The forger holds bj-01's broker login (the password sits in bj-01's config in
clear) and publishes on bj-01's topics; each forgery is refused with an alarm naming the
table and why, and moves nothing: no figure, no HOLD cleared, no journal head.

The signatures are made here with `cryptography` itself, as docs/mqtt.md describes the
envelope, so the envelope is checked as written down, not only as the code makes it.

Then the pit's signed witness: a table whose journal is behind the head the pit signed
for it (an older copy of the journal put back) refuses to start, naming both rows, and
starts after `tablectl journal reopen`; a witness with a bad signature is logged and
ignored.
"""

from __future__ import annotations

import datetime
import json
import logging
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from paho.mqtt.enums import CallbackAPIVersion

from controller.app.cli.demo import SimHands, act, sign_in_dealer
from controller.app.cli.run import JOURNAL_REFUSED
from controller.app.config import TableConfig, load_config
from controller.app.floor.view import PitView
from controller.app.runtime.table import RunningTable
from controller.cards import Card
from controller.ports import CardDrawn
from sim_hardware.dealer import BlackjackDealer
from tests.support.cli import tablectl
from tests.support.pit import Broker, table_config_text

ROOT = Path(__file__).resolve().parents[2]
ACL = ROOT / "deploy" / "mosquitto" / "tablectl.acl"
SITE = "demo-casino"
BASE = f"casino/{SITE}/table"
USERS = {
    "bj-01": "pw-bj01",
    "bj-02": "pw-bj02",
    "bj-09": "pw-bj09",  # a login on the broker whose table is not in the floor file
    "pit": "pw-pit",
    "surveillance": "pw-surv",
}
DOMAIN = b"tablectl-pit-1\n"


# --- the envelope, as docs/mqtt.md writes it ----------------------------------------------


def signed(key: Ed25519PrivateKey, topic: str, body: dict[str, Any]) -> bytes:
    """``body`` sent on ``topic`` with ``key``'s signature as its last member."""
    text = json.dumps(body, separators=(",", ":")).encode()
    signature = key.sign(DOMAIN + topic.encode() + b"\n" + text).hex()
    return text[:-1] + f',"sig":"{signature}"}}'.encode()


def public(key: Ed25519PrivateKey) -> str:
    return "ed25519:" + key.public_key().public_bytes_raw().hex()


def now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")


# --- the floor ----------------------------------------------------------------------------


class Login:
    """A bare MQTT client with one of the broker's logins: what a thief of it can send.
    ``raw`` keeps every message's bytes as they came."""

    def __init__(self, port: int, user: str, topics: tuple[str, ...] = ()) -> None:
        self.raw: list[tuple[str, bytes]] = []
        self.changed = threading.Condition()
        self.ready = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=f"thief-{user}-{id(self):x}"
        )
        self.client.username_pw_set(user, USERS[user])
        self.topics = topics
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *a: self.ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not topics:
            self.ready.set()
        assert self.ready.wait(10)

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if self.topics:
            client.subscribe([(t, 1) for t in self.topics])
        else:
            self.ready.set()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.changed:
            self.raw.append((message.topic, bytes(message.payload)))
            self.changed.notify_all()

    def send(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(10)

    def wait(self, check: Callable[[list[tuple[str, bytes]]], bool], timeout: float = 20) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: check(self.raw), timeout)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Floor:
    broker: Broker
    view: PitView
    keys: dict[str, Ed25519PrivateKey]  # each table's signing key, as its folder holds it
    pit_key: Ed25519PrivateKey
    configs: dict[str, Path]
    folder: Path


def table_config(folder: Path, table: str, broker: Broker, pit_key: Ed25519PrivateKey) -> Path:
    """A table in a folder of its own: its config (its login, the pit's public key, any
    free display port) and its signing key (0600)."""
    folder.mkdir(parents=True)
    text = table_config_text(
        "blackjack",
        table,
        folder / f"{table}.sqlite",
        broker.url,
        username=table,
        password=USERS[table],
    )
    text += f'pit_public_key = "{public(pit_key)}"\n'
    path = folder / f"{table}.toml"
    path.write_text(re.sub(r"(?m)^port = \d+$", "port = 0", text))
    return path


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[Floor]:
    passwords = tmp_path / "passwd"
    for n, (user, password) in enumerate(USERS.items()):
        make = ["-c"] if n == 0 else []
        subprocess.run(
            ["mosquitto_passwd", "-b", *make, str(passwords), user, password],
            check=True,
            capture_output=True,
        )
    broker = Broker(
        tmp_path / "broker", f"allow_anonymous false\npassword_file {passwords}\nacl_file {ACL}\n"
    ).start()
    pit_key = Ed25519PrivateKey.generate()
    keys: dict[str, Ed25519PrivateKey] = {}
    configs: dict[str, Path] = {}
    for table in ("bj-01", "bj-02"):
        configs[table] = table_config(tmp_path / table, table, broker, pit_key)
        keys[table] = key = Ed25519PrivateKey.generate()
        seed = key.private_bytes_raw().hex()
        path = tmp_path / table / "pit-signing.key"
        path.write_text(seed + "\n")
        path.chmod(0o600)
    floor_file = tmp_path / "floor.toml"
    floor_file.write_text(
        '[[area]]\nname = "Pit 1"\ntables = ["bj-01", "bj-02"]\n\n[keys]\n'
        + "".join(f'"{t}" = "{public(k)}"\n' for t, k in keys.items())
    )
    try:
        view = PitView(
            broker.url,
            port=0,
            username="pit",
            password=USERS["pit"],
            floor_file=floor_file,
            signing_key=pit_key,
        ).start()
        try:
            yield Floor(broker, view, keys, pit_key, configs, tmp_path)
        finally:
            view.close()
    finally:
        broker.kill()


class Playing:
    """A real table on the simulators, its dealer scripted."""

    def __init__(self, config: TableConfig, seed: int) -> None:
        self.table = RunningTable(config, simulate=True, serve=False, seed=seed).start()
        sign_in_dealer(self.table)
        self.dealer = BlackjackDealer(
            SimHands(self.table),
            lambda: self.table.state,
            random.Random(seed),
            insurance_sensors=False,
        )

    def rounds(self, count: int) -> None:
        target = self.dealer.rounds_finished + count
        while self.dealer.rounds_finished < target:
            act(self.table, self.dealer)

    def stray_card(self) -> None:
        """A card out of the shoe between rounds: rule 5.2 puts the table on HOLD."""
        seen = self.table.loop.processed
        self.table.events.put(CardDrawn(source="shoe", card=Card.parse("Qh")))
        self.table.loop.wait_processed(seen, timeout=10)

    def stop(self) -> None:
        self.table.stop()


@pytest.fixture
def playing(floor: Floor) -> Iterator[dict[str, Playing]]:
    tables: dict[str, Playing] = {}
    try:
        for n, (name, path) in enumerate(floor.configs.items()):
            tables[name] = Playing(load_config(path), seed=20 + n)
        yield tables
    finally:
        for table in tables.values():
            table.stop()


def row(view: PitView, table: str) -> dict[str, Any]:
    return next((t for t in view.floor.snapshot() if t["table"] == table), {})


def figures(view: PitView, table: str) -> dict[str, Any]:
    return next((f for f in view.figures()["tables"] if f["key"] == table), {})


def refused(view: PitView, table: str, needle: str, timeout: float = 20.0) -> str:
    """The text of the view's refusal alarm for ``table`` that holds ``needle``, once it
    is there (a refusal is the view's whole handling of the forged message)."""
    deadline = time.monotonic() + timeout
    floor = view.floor
    with floor.changed:
        while True:
            for entry in floor.log.entries.values():
                mine = entry["table"] == table and entry["kind"] == "MessageRefused"
                if mine and needle in entry["message"]:
                    assert entry["alert"], entry  # it flashes and sounds
                    return str(entry["message"])
            left = deadline - time.monotonic()
            if left <= 0:
                alarms = [e["message"] for e in floor.log.entries.values()]
                raise AssertionError(f"no refusal holding {needle!r} for {table}: {alarms}")
            floor.changed.wait(min(left, 0.5))


def played(view: PitView, table: Playing, name: str, rounds: int) -> None:
    """Wait until the view has the table's head and its settled rounds."""
    head = table.table.journal.head
    assert view.floor.wait_for(
        lambda f: any(t["table"] == name and t["journal_seq"] >= head.seq for t in f), 30
    ), view.floor.snapshot()
    deadline = time.monotonic() + 30
    while figures(view, name).get("rounds", 0) < rounds:
        assert time.monotonic() < deadline, view.figures()["tables"]
        with view.floor.changed:
            view.floor.changed.wait(0.5)


def journal_row(config: Path, kind: str) -> dict[str, Any]:
    """The table's last row of ``kind``, as the publisher sends it (its event body)."""
    path = config.with_suffix(".sqlite")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        seq, wall, round_, source, kind, payload, actor, digest = db.execute(
            "SELECT seq, wall, round, source, kind, payload, actor, hash FROM journal "
            "WHERE kind = ? ORDER BY seq DESC LIMIT 1",
            (kind,),
        ).fetchone()
    return {"v": 1, "table": config.stem, "site": SITE, "seq": seq, "wall": wall,
            "round": round_, "source": source, "kind": kind, "payload": json.loads(payload),
            "actor": actor, "hash": digest, "redacted": []}  # fmt: skip


def journal_figures(config: Path) -> tuple[int, int, int]:
    """(rounds, drop, win) of the table's own journal: what the pit's figures must be."""
    path = config.with_suffix(".sqlite")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT payload FROM journal WHERE kind = 'RoundSettled'").fetchall()
    settled = [json.loads(text) for (text,) in rows]
    kept = [p for p in settled if not p.get("void")]
    return len(kept), sum(p["wagers_in"] for p in kept), sum(p["house_result"] for p in kept)


# --- forged rows with a stolen broker password --------------------------------------------


def test_a_forged_round_settled_with_the_tables_login_moves_no_figure(
    floor: Floor, playing: dict[str, Playing]
) -> None:
    bj01 = playing["bj-01"]
    bj01.rounds(1)
    played(floor.view, bj01, "bj-01", 1)
    settled = journal_row(floor.configs["bj-01"], "RoundSettled")
    forged = {**settled, "seq": settled["seq"] + 1000, "wall": now(), "hash": "f" * 64}
    forged["payload"] = {**settled["payload"], "house_result": 999_994, "wagers_in": 1}
    forged_too = {**forged, "seq": settled["seq"] + 1001, "hash": "d" * 64}
    thief = Login(floor.broker.port, "bj-01")
    try:
        topic = f"{BASE}/bj-01/event"
        thief.send(topic, json.dumps(forged).encode())  # as the attacker sent it
        # signed, but with a key of the thief's own
        thief.send(topic, signed(Ed25519PrivateKey.generate(), topic, forged_too))
    finally:
        thief.close()
    bj01.rounds(1)  # the real table deals on: its rows come after the forged ones
    played(floor.view, bj01, "bj-01", 2)
    rounds, drop, win = journal_figures(floor.configs["bj-01"])
    shown = figures(floor.view, "bj-01")
    assert (shown["rounds"], shown["drop"], shown["win"]) == (rounds, drop, win)
    assert all(r["payload"].get("house_result") != 999_994 for r in floor.view.figures()["rows"])
    assert refused(floor.view, "bj-01", "not signed") == (
        "refused a message on bj-01's event topic: it is not signed"
    )
    assert refused(floor.view, "bj-01", "signature") == (
        "refused a message on bj-01's event topic: its signature does not check out "
        "(forged, or changed on the way)"
    )


def test_a_forged_hold_cleared_does_not_clear_the_hold(
    floor: Floor, playing: dict[str, Playing]
) -> None:
    bj01 = playing["bj-01"]
    bj01.rounds(1)
    bj01.stray_card()  # rule 5.2: the table is on HOLD

    def held() -> list[dict[str, Any]]:
        return [
            e
            for e in floor.view.floor.log.entries.values()
            if e["table"] == "bj-01" and e["kind"] == "Violation"
        ]

    assert floor.view.floor.wait_for(
        lambda f: bool(held()) and any(t["table"] == "bj-01" and t["hold"] for t in f), 30
    ), floor.view.floor.alarms()
    violation = journal_row(floor.configs["bj-01"], "Violation")
    cleared = {
        **violation,
        "seq": violation["seq"] + 1,
        "wall": now(),
        "source": "console",
        "kind": "HoldCleared",
        "payload": {"who": "s01", "decision": "void_hand", "violations": []},
        "actor": "s01",
        "hash": "e" * 64,
    }
    thief = Login(floor.broker.port, "bj-01")
    try:
        thief.send(f"{BASE}/bj-01/event", json.dumps(cleared).encode())
    finally:
        thief.close()
    playing["bj-02"].rounds(1)  # bj-02's rows reach the view after the forged one
    played(floor.view, playing["bj-02"], "bj-02", 1)
    assert [e["cleared"] for e in held()] == [None]  # no "cleared by s01"
    assert row(floor.view, "bj-01")["hold"]  # still on HOLD on the floor
    assert refused(floor.view, "bj-01", "not signed") == (
        "refused a message on bj-01's event topic: it is not signed"
    )


def test_another_tables_key_a_replay_and_an_unknown_table_are_refused(
    floor: Floor, playing: dict[str, Playing]
) -> None:
    """Signed with bj-02's key for bj-01's topic; bj-02's own signed row sent again on
    bj-01's topic; a table with a broker login and no key in the floor file."""
    watcher = Login(floor.broker.port, "surveillance", (f"{BASE}/bj-02/event",))
    thief = Login(floor.broker.port, "bj-01")
    stranger = Login(floor.broker.port, "bj-09")
    try:
        playing["bj-02"].rounds(1)
        assert watcher.wait(lambda raw: len(raw) >= 3)
        _, genuine = watcher.raw[-1]
        topic = f"{BASE}/bj-01/event"
        body = {**journal_row(floor.configs["bj-02"], "RoundSettled"), "wall": now()}
        body["table"], body["hash"] = "bj-01", "c" * 64  # bj-02's settlement, as bj-01's
        body["payload"] = {**body["payload"], "house_result": 500}
        thief.send(topic, signed(floor.keys["bj-02"], topic, body))
        thief.send(topic, genuine)
        mine = Ed25519PrivateKey.generate()
        elsewhere = f"{BASE}/bj-09/event"
        stranger.send(elsewhere, signed(mine, elsewhere, {**body, "table": "bj-09"}))
    finally:
        for client in (watcher, thief, stranger):
            client.close()
    playing["bj-02"].rounds(1)  # after the forged ones
    played(floor.view, playing["bj-02"], "bj-02", 2)
    assert figures(floor.view, "bj-01")["rounds"] == 0  # bj-01 has settled nothing
    assert figures(floor.view, "bj-01")["win"] == 0
    assert figures(floor.view, "bj-09") == {}
    assert refused(floor.view, "bj-01", "bj-02's key") == (
        "refused a message on bj-01's event topic: it is signed with bj-02's key"
    )
    assert refused(floor.view, "bj-01", "replayed") == (
        "refused a message on bj-01's event topic: it is bj-02's event message, "
        "replayed on bj-01's event topic"
    )
    assert refused(floor.view, "bj-09", "no key") == (
        "refused a message on bj-09's event topic: the floor file has no key for table bj-09"
    )


def test_a_state_with_an_impossible_seq_is_refused_and_leaves_no_head_alarm(
    floor: Floor, playing: dict[str, Playing]
) -> None:
    bj01 = playing["bj-01"]
    bj01.rounds(1)
    played(floor.view, bj01, "bj-01", 1)
    watcher = Login(floor.broker.port, "surveillance", (f"{BASE}/bj-01/state",))
    thief = Login(floor.broker.port, "bj-01")
    try:
        assert watcher.wait(lambda raw: bool(raw))  # the retained state
        state = json.loads(watcher.raw[-1][1])
        state.pop("sig", None)
        topic = f"{BASE}/bj-01/state"
        huge = {**state, "at": now(), "state": {**state["state"], "journal_seq": 10**9}}
        thief.send(topic, json.dumps(huge).encode(), retain=True)
        # the table's own key, as a table gone wrong would sign it
        thief.send(topic, signed(floor.keys["bj-01"], topic, huge), retain=True)
        for seq in (-1, "12", True):
            odd = {**state, "at": now(), "state": {**state["state"], "journal_seq": seq}}
            thief.send(topic, signed(floor.keys["bj-01"], topic, odd))
    finally:
        watcher.close()
        thief.close()
    bj01.rounds(1)  # the real table deals on: its head moves past where it was
    played(floor.view, bj01, "bj-01", 2)
    shown = row(floor.view, "bj-01")
    assert shown["journal_alarm"] == ""
    assert shown["journal_seq"] == bj01.table.journal.head.seq
    assert not any(a["kind"] == "JournalHead" for a in floor.view.floor.alarms())
    assert refused(floor.view, "bj-01", "not signed").endswith("it is not signed")
    assert refused(floor.view, "bj-01", "1000000000").startswith(
        "refused a message on bj-01's state topic: its journal seq 1000000000 is more "
        "than 10000 rows ahead of row "
    )
    for why in ("journal seq -1 is negative", "journal seq '12' is not", "seq True is not"):
        refused(floor.view, "bj-01", why)


# --- the pit's signed witness, checked by the table before it deals -----------------------


def witnessed(port: int, table: str) -> Login:
    return Login(port, "surveillance", (f"casino/{SITE}/witness/{table}",))


def witness_seq(raw: list[tuple[str, bytes]]) -> int:
    if not raw:
        return 0
    body = raw[-1][1]
    seq: int = json.loads(body[: body.rindex(b',"sig":')] + b"}")["seq"]
    return seq


def test_a_journal_behind_the_pits_signed_head_is_refused_until_reopened(
    floor: Floor,
) -> None:
    config = floor.configs["bj-01"]
    journal = config.with_suffix(".sqlite")
    watcher = witnessed(floor.broker.port, "bj-01")
    try:
        first = Playing(load_config(config), seed=31)
        try:
            first.rounds(1)
        finally:
            first.stop()
        kept = floor.folder / "copy"  # the old copy someone keeps to put back
        kept.mkdir()
        for item in config.parent.glob(f"{journal.name}*"):
            shutil.copy2(item, kept / item.name)

        second = Playing(load_config(config), seed=32)
        try:
            second.rounds(2)
        finally:
            second.stop()
        with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
            head, digest = db.execute(
                "SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1"
            ).fetchone()
        assert watcher.wait(lambda raw: witness_seq(raw) == head), watcher.raw[-1:]
    finally:
        watcher.close()
    for item in config.parent.glob(f"{journal.name}*"):
        item.unlink()
    for item in kept.iterdir():
        shutil.copy2(item, config.parent / item.name)
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        old_last = db.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    assert old_last < head

    result = tablectl("run", "--config", str(config), "--sim", timeout=120)
    assert result.returncode == JOURNAL_REFUSED, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("tablectl run:")]
    assert lines == [
        f"tablectl run: journal row {old_last}: the journal ends here, but the pit "
        f"witnessed row {head} (hash {digest[:12]}): rows were cut off "
        f"or an older copy put back; the table does not play on it, and {journal} is left "
        "as it is (a supervisor opens a new journal: tablectl journal reopen)"
    ], result.stderr

    done = tablectl(
        "journal", "reopen", "--config", str(config), "--staff", "s01", "--reason",
        "an older copy of the journal was put back", stdin="2468\n", timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    process = subprocess.Popen(
        [sys.executable, "-m", "controller.app.cli", "run", "--config", str(config), "--sim"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert "running" in process.stdout.readline()
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        process.kill()
        _, err = process.communicate()
    assert "is of another journal" in err, err


def test_a_witness_with_a_bad_signature_is_ignored_and_logged(
    floor: Floor, caplog: pytest.LogCaptureFixture
) -> None:
    topic = f"casino/{SITE}/witness/bj-01"
    forged = {"v": 1, "table": "bj-01", "site": SITE, "seq": 10**6, "hash": "a" * 64,
              "origin": "", "at": now()}  # fmt: skip
    pit_thief = Login(floor.broker.port, "pit")  # the pit's broker password, not its key
    try:
        pit_thief.send(topic, signed(Ed25519PrivateKey.generate(), topic, forged), retain=True)
    finally:
        pit_thief.close()
    with caplog.at_level(logging.INFO, logger="controller.app.runtime.witnessed_head"):
        table = Playing(load_config(floor.configs["bj-01"]), seed=41)  # it starts
        try:
            table.rounds(1)
        finally:
            table.stop()
    said = [
        r.getMessage() for r in caplog.records if r.name == "controller.app.runtime.witnessed_head"
    ]
    assert said == [
        f"the pit's witnessed head on {topic} is ignored: its signature does not check out "
        "(forged, or changed on the way)"
    ]


def test_only_the_pit_writes_a_witness_and_a_table_reads_only_its_own(floor: Floor) -> None:
    """The shipped ACL: bj-01's login cannot write (or clear) its own witness; bj-02's
    cannot read bj-01's; the pit's can write it."""
    topic, theirs = f"casino/{SITE}/witness/bj-01", f"casino/{SITE}/witness/bj-02"
    watcher = witnessed(floor.broker.port, "bj-01")
    reader = Login(floor.broker.port, "bj-02", (topic, theirs))
    own = Login(floor.broker.port, "bj-01", (topic,))
    table = Login(floor.broker.port, "bj-01")
    pit = Login(floor.broker.port, "pit")
    try:
        table.send(topic, b'{"by":"the table"}', retain=True)
        pit.send(topic, b'{"by":"the pit"}', retain=True)
        pit.send(theirs, b'{"for":"bj-02"}', retain=True)  # after bj-01's, in order
        assert watcher.wait(lambda raw: len(raw) >= 1)
        assert own.wait(lambda raw: len(raw) >= 1)
        assert reader.wait(lambda raw: len(raw) >= 1)
        assert [p for _, p in watcher.raw] == [b'{"by":"the pit"}']
        assert [p for _, p in own.raw] == [b'{"by":"the pit"}']
        assert reader.raw == [(theirs, b'{"for":"bj-02"}')]
    finally:
        for client in (watcher, reader, own, table, pit):
            client.close()
