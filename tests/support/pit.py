"""Helpers for the pit tests (the publisher's, tests/app/pit, and the floor view's,
tests/app/floor): real mosquitto brokers on loopback, an MQTT recorder, pit table configs,
a demo table, and the fixtures that always stop them (``broker_factory``, ``broker``,
``recorders``: each folder's conftest.py imports them).

Each broker gets a generated config in the test's tmp_path and a free port; tests stop and
restart it as they need (on the same port, with its persistence file, so a subscriber's
session survives), and the fixture always kills it at the end. Waiting is on conditions
(the broker's own "running" log line, messages arriving), never on sleeps.
"""

from __future__ import annotations

import getpass
import json
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from controller.app.config import TableConfig, load_config
from sim_hardware.testbed import free_port
from tests.needs import missing
from tests.support.cli import tablectl_command
from tests.support.processes import Watched

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
SCHEMAS = ROOT / "docs" / "mqtt-schema"


class Broker:
    """One mosquitto process; `stop` and `start` again keep the port and persistence."""

    def __init__(self, folder: Path, extra: str = "", *, whole: str | None = None) -> None:
        """``whole``: a complete config of the caller's (its listeners included), used as
        it stands but for the user and the log lines."""
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        ours = (
            f"user {getpass.getuser()}\n"  # as root, keep root: the folder is root's
            "log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\n"
            "log_type information\n"
        )
        if whole is not None:
            self.conf.write_text(whole + "\n" + ours)
        else:
            self.conf.write_text(
                f"listener {self.port} 127.0.0.1\n"
                f"persistence true\npersistence_location {folder}/\n"
                "autosave_interval 1\n"
                "max_queued_messages 100000\nmax_inflight_messages 100\n"
                + ours
                + (extra or "allow_anonymous true\n")
            )
        self.proc: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None
        self.url = f"mqtt://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> Broker:
        if not os.path.exists(MOSQUITTO):
            missing("mosquitto")
        self.proc = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.conf)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        running = threading.Event()
        lines: list[str] = []
        proc = self.proc

        def read() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                lines.append(line)
                if " running" in line:
                    running.set()
            running.set()

        self._reader = threading.Thread(target=read, name="mosquitto-log", daemon=True)
        self._reader.start()
        if not running.wait(timeout) or proc.poll() is not None:
            self.kill()
            raise RuntimeError("mosquitto did not start: " + "".join(lines))
        return self

    def stop(self) -> None:
        """A clean stop (SIGTERM): mosquitto saves its persistence file."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
        self._join()

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self._join()

    def _join(self) -> None:
        if self._reader is not None:
            self._reader.join(timeout=5)
            self._reader = None


class Recorder:
    """A paho subscriber that keeps every message (topic, decoded JSON, retained)."""

    def __init__(
        self,
        port: int,
        topics: str | list[str],
        *,
        client_id: str = "",
        persistent: bool = False,
        username: str = "",
        password: str = "",
        tls: tuple[Path, Path, Path] | None = None,
    ) -> None:
        self.messages: list[tuple[str, Any, bool]] = []
        self.changed = threading.Condition()
        self.topics = [topics] if isinstance(topics, str) else topics
        self.subscribed = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or f"recorder-{id(self)}",
            clean_session=not persistent,
            protocol=mqtt.MQTTv311,
        )
        if username:
            self.client.username_pw_set(username, password)
        if tls is not None:  # (CA, client certificate, its key)
            ca, cert, key = tls
            self.client.tls_set(ca_certs=str(ca), certfile=str(cert), keyfile=str(key))
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.connect("127.0.0.1", port, keepalive=30)  # synchronous: the broker is there
        self.client.loop_start()
        if not self.subscribed.wait(10):
            raise RuntimeError("the recorder could not subscribe")

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        client.subscribe([(t, 1) for t in self.topics])

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            body = json.loads(message.payload)
        except ValueError:
            body = message.payload.decode(errors="replace")
        with self.changed:
            self.messages.append((message.topic, body, bool(message.retain)))
            self.changed.notify_all()

    def on(self, suffix: str) -> list[Any]:
        """The messages on one of a table's topics: ``/event``, ``/restricted/event``..."""
        with self.changed:
            return [body for topic, body, _ in self.messages if _leaf(topic) == suffix]

    def wait_for(self, check: Callable[[Recorder], bool], timeout: float = 20.0) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: check(self), timeout)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _leaf(topic: str) -> str:
    """``casino/site/table/bj-01/restricted/event`` -> ``/restricted/event``."""
    _, _, rest = topic.partition("/table/")
    _, _, leaf = rest.partition("/")
    return "/" + leaf


def table_config_text(
    game: str,
    table_id: str,
    journal: Path,
    broker_url: str,
    *,
    private_cards: str = "restricted",
    keepalive: int = 5,
    username: str = "",
    password: str = "",
) -> str:
    """An example config with its own table id and journal, and a [pit] section."""
    text = (ROOT / "examples" / f"{game}-table.toml").read_text()
    old_id = "bj-01" if game == "blackjack" else "dp-01"
    text = text.replace(f'id = "{old_id}"', f'id = "{table_id}"')
    text = text.replace(f'path = "/var/lib/tablectl/{old_id}.sqlite"', f'path = "{journal}"')
    text += (
        f'\n[pit]\nbroker = "{broker_url}"\nkeepalive = {keepalive}\n'
        f'private_cards = "{private_cards}"\n'
    )
    if username:
        text += f'username = "{username}"\npassword = "{password}"\n'
    return text


def write_config(folder: Path, game: str, table_id: str, broker_url: str, **kw: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{table_id}.toml"
    path.write_text(
        table_config_text(game, table_id, folder / f"{table_id}.sqlite", broker_url, **kw)
    )
    return path


def make_config(folder: Path, game: str, table_id: str, broker_url: str, **kw: Any) -> TableConfig:
    return load_config(write_config(folder, game, table_id, broker_url, **kw))


def schema_validator(name: str) -> Callable[[Any], None]:
    """Validate against docs/mqtt-schema/<name>.json (jsonschema, a dev dependency)."""
    import jsonschema

    schema = json.loads((SCHEMAS / f"{name}.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    return validator.validate


class DemoTable(Watched):
    """`tablectl demo` in a subprocess: a blackjack table playing by itself on the
    simulators. Counts the dealer's actions from its output, to wait on."""

    def __init__(self, config: Path, journal: Path, pace: float = 0.02) -> None:
        self.config, self.pace = config, pace
        self.actions = 0
        command = tablectl_command(
            "demo", "--config", str(config), "--journal", str(journal), "--pace", str(pace),
            "--port", "0",
        )  # fmt: skip
        super().__init__(command, name="demo-output", cwd=ROOT)

    def took(self, line: str) -> None:
        if line.startswith("round"):
            self.actions += 1

    def wait_actions(self, more: int, timeout: float = 30.0) -> bool:
        """Wait until the dealer has done ``more`` further actions."""
        with self.changed:
            target = self.actions + more
            return (
                self.changed.wait_for(
                    lambda: self.actions >= target or self.proc.poll() is not None, timeout
                )
                and self.actions >= target
            )

    def output(self) -> str:
        with self.changed:
            return "".join(self.lines[-40:])


def folder_keys(folder: Path, *tables: str) -> dict[str, str]:
    """{table id: public key} for tables whose journals are in ``folder``: they share its
    ``pit-signing.key`` (made here if missing), which signs what they publish; the floor
    view believes them with ``PitView(table_keys=...)``."""
    from controller.app.pit.signing import create_private_key, private_key, public_text

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pit-signing.key"
    key = private_key(path, "the key") if path.exists() else create_private_key(path)
    return {table: public_text(key) for table in tables}


# --- the fixtures: brokers and recorders that are always stopped at the end ---------------


@pytest.fixture
def broker_factory(tmp_path: Path) -> Iterator[Callable[..., Broker]]:
    made: list[Broker] = []

    def make(name: str = "broker", extra: str = "") -> Broker:
        broker = Broker(tmp_path / name, extra)
        made.append(broker)
        return broker.start()

    yield make
    for broker in made:
        broker.kill()


@pytest.fixture
def broker(broker_factory: Callable[..., Broker]) -> Broker:
    return broker_factory()


@pytest.fixture
def recorders() -> Iterator[Callable[..., Recorder]]:
    made: list[Recorder] = []

    def make(port: int, topics: str | list[str], **kw: Any) -> Recorder:
        recorder = Recorder(port, topics, **kw)
        made.append(recorder)
        return recorder

    yield make
    for recorder in made:
        recorder.close()
