"""The supervisor PIN (controller/app/supervisor.py), `tablectl pin-hash`, and the status
server's HTTP API (controller/app/web.py), without a browser."""

from __future__ import annotations

import argparse
import io
import json
import queue
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from controller.app import pin_hash
from controller.app.config import SupervisorConfig
from controller.app.supervisor import SupervisorGate, check_pin, hash_pin, parse_hash
from controller.app.web import StatusServer
from controller.errors import ConfigError
from controller.ports import ButtonPressed, ConsoleButton, SupervisorAction, SupervisorPinRefused

PIN = "4827"
STORED = hash_pin(PIN, log2_n=10)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gate(clock: Clock, tries: int = 5, seconds: int = 300) -> SupervisorGate:
    return SupervisorGate(SupervisorConfig(STORED, tries, seconds), clock=clock)


def test_a_pin_is_stored_salted_and_checked() -> None:
    assert check_pin(PIN, STORED)
    assert not check_pin("4828", STORED)
    assert PIN not in STORED
    assert hash_pin(PIN, log2_n=10) != STORED  # a fresh salt every time
    assert parse_hash(STORED)[0] == 10


@pytest.mark.parametrize(
    "bad", ["", "4827", "pbkdf2$1$2$3$AA==$AA==", "scrypt$x$8$1$AA==$AA==", "scrypt$14$8$1$!$AA=="]
)
def test_a_malformed_hash_is_a_config_error_at_start(bad: str) -> None:
    with pytest.raises(ConfigError):
        SupervisorGate(SupervisorConfig(bad))


def test_a_short_pin_is_refused() -> None:
    with pytest.raises(ConfigError):
        hash_pin("123")


def test_wrong_pins_are_counted_and_a_right_one_resets_the_count() -> None:
    g = gate(Clock())
    first = g.attempt("1111")
    assert not first.accepted and first.failures == 1 and first.tries_left == 4
    assert "4 tries left" in first.error
    assert g.attempt("2222").failures == 2
    assert g.attempt(PIN).accepted
    assert g.failures == 0 and g.total_failures == 2


def test_locked_out_after_5_wrong_pins_for_the_configured_time() -> None:
    clock = Clock()
    g = gate(clock, tries=5, seconds=120)
    for _ in range(4):
        assert g.attempt("0000").tries_left > 0
    fifth = g.attempt("0000")
    assert not fifth.accepted and fifth.locked_for == 120
    clock.now += 119
    locked = g.attempt(PIN)  # even the right PIN, during the lockout
    assert not locked.accepted and "locked out" in locked.error
    assert g.status()["locked_for"] == 1.0
    clock.now += 1
    assert g.status() == {"configured": True, "failures": 0, "locked_for": 0.0}
    assert g.attempt(PIN).accepted
    assert g.status() == {"configured": True, "failures": 0, "locked_for": 0.0}


def test_without_a_configured_pin_every_supervisor_action_is_refused() -> None:
    verdict = SupervisorGate(None).attempt(PIN)
    assert not verdict.accepted and "no supervisor PIN" in verdict.error


def test_pin_hash_command_prints_a_hash_for_the_config() -> None:
    out = io.StringIO()
    answers = iter([PIN, PIN])
    assert (
        pin_hash.run(argparse.Namespace(stdin=False), out=out, prompt=lambda _: next(answers)) == 0
    )
    line = out.getvalue().strip()
    assert line.startswith('pin_hash = "scrypt$') and PIN not in line
    assert check_pin(PIN, line.split('"')[1])


def test_pin_hash_command_refuses_differing_or_short_pins() -> None:
    differ = iter([PIN, "9999"])
    assert pin_hash.run(argparse.Namespace(), out=io.StringIO(), prompt=lambda _: next(differ)) == 1
    short = iter(["12", "12"])
    assert pin_hash.run(argparse.Namespace(), out=io.StringIO(), prompt=lambda _: next(short)) == 2
    parser = argparse.ArgumentParser()
    pin_hash.add_arguments(parser)
    assert parser.parse_args(["--stdin"]).stdin


# --- the HTTP API ---------------------------------------------------------------------


@pytest.fixture
def server() -> Iterator[StatusServer]:
    events: queue.Queue[Any] = queue.Queue()
    s = StatusServer(events, port=0, gate=gate(Clock(), tries=2, seconds=60)).start()
    s.publish({"game": "blackjack", "view": {"state": "hold"}})
    try:
        yield s
    finally:
        s.close()


def call(server: StatusServer, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


ACTION = {"who": " Pit boss Hemi ", "reason": "card flashed ", "decision": "keep_card"}


def test_a_right_pin_queues_the_supervisor_action_with_who_and_why(server: StatusServer) -> None:
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": PIN})
    assert (status, answer) == (202, {"accepted": True})
    event = server.events.get_nowait()
    assert event == SupervisorAction(
        source="supervisor", who="Pit boss Hemi", decision="keep_card", reason="card flashed"
    )


def test_a_wrong_pin_is_refused_counted_and_locks_out(server: StatusServer) -> None:
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": "0000"})
    assert status == 403 and answer["tries_left"] == 1 and answer["failures"] == 1
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": "0001"})
    assert status == 423 and answer["locked_for"] == 60
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": PIN})
    assert status == 423 and "locked out" in answer["error"]
    # no action reached the table; each refusal goes to the journal with who tried
    refused = [server.events.get_nowait() for _ in range(3)]
    assert server.events.empty()
    assert all(isinstance(e, SupervisorPinRefused) and e.who == "Pit boss Hemi" for e in refused)
    assert [e.failures for e in refused[:2]] == [1, 2] and refused[1].locked_for == 60
    assert call(server, "/api/supervisor")[1]["failures"] == 2


@pytest.mark.parametrize("missing", ["who", "reason", "decision", "pin"])
def test_a_supervisor_action_needs_who_why_what_and_the_pin(
    server: StatusServer, missing: str
) -> None:
    body = {**ACTION, "pin": PIN, missing: ""}
    if missing == "pin":
        del body["pin"]
    status, _ = call(server, "/api/supervisor", body)
    assert status == 400
    assert server.events.empty() and server.gate.failures == 0


def test_the_console_presses_buttons_but_not_the_supervisor_key(server: StatusServer) -> None:
    assert call(server, "/api/console", {"button": "next"})[0] == 202
    assert server.events.get_nowait() == ButtonPressed(source="console", button=ConsoleButton.NEXT)
    assert call(server, "/api/console", {"button": "supervisor"})[0] == 400
    assert call(server, "/api/console", {"button": "jump"})[0] == 400
    assert server.events.empty()


@pytest.mark.parametrize(
    "path", ["/", "/surveillance", "/static/app.js", "/static/faces.js", "/static/app.css"]
)
def test_pages_and_assets_are_served_with_a_self_only_policy(
    server: StatusServer, path: str
) -> None:
    with urllib.request.urlopen(server.url + path, timeout=5) as response:
        assert response.status == 200
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
        text = response.read().decode()
    assert "http://" not in text and "https://" not in text  # no CDN, no web fonts


def test_events_stream_pushes_each_published_state_and_pings(server: StatusServer) -> None:
    with urllib.request.urlopen(server.url + "/api/events", timeout=5) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.readline() == b"retry: 500\n"
        server.publish({"game": "blackjack", "view": {"state": "betting"}})
        seen: list[str] = []
        for raw in stream:
            line = raw.decode().strip()
            seen.append(line)
            if "event: ping" in seen and any('"betting"' in x for x in seen):
                break
    assert seen[0] == "" and "event: state" in seen and "event: ping" in seen
    assert call(server, "/api/state")[1]["view"]["state"] == "betting"
