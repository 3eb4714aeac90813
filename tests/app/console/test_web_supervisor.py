"""Staff PINs and the console's wrong-PIN delay (controller/app/console/supervisor.py), `tablectl
pin-hash`, and the status server's HTTP API (controller/app/console/web.py) without a browser:
the console cookie, the header, the body checks, dealer sign-in and supervisor actions."""

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

from controller.app.cli import pin_hash
from controller.app.config import StaffMember, SupervisorConfig
from controller.app.console.auth import COOKIE, HEADER, console_cookie
from controller.app.console.supervisor import (
    IdentityRefused,
    PinGate,
    check_pin,
    hash_pin,
    identify,
    parse_hash,
)
from controller.app.console.web import StatusServer
from controller.errors import ConfigError
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    DealerSignedIn,
    DealerSignedOut,
    SignInRefused,
    SupervisorAction,
    SupervisorPinRefused,
)

PIN = "4827"
STORED = hash_pin(PIN, log2_n=10)
DEALER_PIN = "1593"
STAFF = (
    StaffMember("d07", "Aroha Ngata", "dealer", hash_pin(DEALER_PIN, log2_n=10)),
    StaffMember("s01", "Hemi Walker", "supervisor", STORED),
)
SECRET = bytes(range(32))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def gate(clock: Clock, tries: int = 5, seconds: int = 300, first: int = 5) -> PinGate:
    return PinGate(STAFF, SupervisorConfig(tries, seconds, first), clock=clock)


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
        PinGate([StaffMember("x", "X", "dealer", bad)])


def test_a_short_pin_is_refused() -> None:
    with pytest.raises(ConfigError):
        hash_pin("123")


def test_identify_names_the_member_from_the_config_for_the_role() -> None:
    assert identify(STAFF, "s01", PIN, "supervisor") == STAFF[1]
    assert identify(STAFF, "d07", DEALER_PIN, "dealer") == STAFF[0]
    assert identify(STAFF, "s01", PIN, "dealer") == STAFF[1]  # a supervisor may deal
    with pytest.raises(IdentityRefused, match="not a supervisor"):
        identify(STAFF, "d07", DEALER_PIN, "supervisor")
    for staff_id, pin in (("s01", "0000"), ("nobody", PIN), ("s01", "")):
        with pytest.raises(IdentityRefused, match="wrong staff id or PIN"):
            identify(STAFF, staff_id, pin, "supervisor")


def test_wrong_pins_are_counted_per_console_and_a_right_one_resets_the_count() -> None:
    g = gate(Clock())
    first = g.attempt("console", "s01", "1111", "supervisor")
    assert not first.accepted and first.failures == 1 and first.tries_left == 4
    assert "4 tries left" in first.error
    assert g.attempt("console", "s01", "2222", "supervisor").failures == 2
    assert g.failures("other console") == 0  # each console has its own count
    verdict = g.attempt("console", "s01", PIN, "supervisor")
    assert verdict.accepted and verdict.member == STAFF[1]
    assert g.failures("console") == 0 and g.total_failures == 2


def test_the_delay_grows_after_the_free_tries_and_is_capped() -> None:
    clock = Clock()
    g = gate(clock, tries=3, seconds=60, first=5)
    for _ in range(2):
        assert g.attempt("console", "d07", "0000", "dealer").locked_for == 0
    delays = []
    for _ in range(6):
        verdict = g.attempt("console", "d07", "0000", "dealer")
        delays.append(verdict.locked_for)
        during = g.attempt("console", "d07", DEALER_PIN, "dealer")  # even the right PIN
        assert not during.accepted and "try again in" in during.error
        clock.now += verdict.locked_for
    assert delays == [5, 10, 20, 40, 60, 60]
    assert g.status("console")["failures"] == 8
    assert g.attempt("console", "d07", DEALER_PIN, "dealer").accepted
    assert g.status("console") == {
        "dealers": True,
        "supervisors": True,
        "failures": 0,
        "locked_for": 0.0,
    }


def test_without_staff_nobody_signs_in_or_supervises() -> None:
    verdict = PinGate(()).attempt("console", "s01", PIN, "supervisor")
    assert not verdict.accepted and "no supervisor is configured" in verdict.error


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
    s = StatusServer(
        events,
        port=0,
        game="blackjack",
        secret=SECRET,
        gate=gate(Clock(), tries=2, seconds=60, first=60),
    ).start()
    s.publish({"game": "blackjack", "view": {"state": "hold"}, "dealer": None})
    try:
        yield s
    finally:
        s.close()


def call(
    server: StatusServer,
    path: str,
    body: dict[str, Any] | None = None,
    *,
    console: bool = True,
    headers: dict[str, str] | None = None,
    data: bytes | None = None,
) -> tuple[int, Any]:
    sent = {"Content-Type": "application/json", HEADER: "1"}
    if console:
        sent["Cookie"] = f"{COOKIE}={console_cookie(SECRET)}"
    sent.update(headers or {})
    if data is None and body is not None:
        data = json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as exc:
        text = exc.read()
        return exc.code, json.loads(text) if text.startswith(b"{") else text


ACTION = {"staff": "s01", "reason": "card flashed ", "decision": "keep_card"}


def test_a_right_pin_queues_the_supervisor_action_naming_the_staff_member(
    server: StatusServer,
) -> None:
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": PIN})
    assert (status, answer) == (202, {"accepted": True})
    event = server.events.get_nowait()
    assert event == SupervisorAction(
        source="supervisor", who="s01", decision="keep_card", reason="card flashed"
    )


@pytest.mark.parametrize(
    ("decision", "args"),
    [("void_box", {"box": 2}), ("change_wager", {"box": 2, "person": 1, "amount": 10})],
)
def test_a_decision_takes_its_own_arguments(
    server: StatusServer, decision: str, args: dict[str, Any]
) -> None:
    body = {**ACTION, "pin": PIN, "decision": decision, "args": args}
    assert call(server, "/api/supervisor", body)[0] == 202
    event = server.events.get_nowait()
    assert isinstance(event, SupervisorAction) and (event.decision, event.args) == (decision, args)
    for bad in ({**args, "who": "dealer 7"}, {**args, "box": "2"}, [2]):
        assert call(server, "/api/supervisor", {**body, "args": bad})[0] == 400
    assert server.events.empty()


def test_a_wrong_pin_is_refused_counted_delayed_and_journaled(server: StatusServer) -> None:
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": "0000"})
    assert status == 403 and answer["tries_left"] == 1 and answer["failures"] == 1
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": "0001"})
    assert status == 429 and answer["locked_for"] == 60
    status, answer = call(server, "/api/supervisor", {**ACTION, "pin": PIN})
    assert status == 429 and "try again in" in answer["error"]
    refused = [server.events.get_nowait() for _ in range(3)]
    assert server.events.empty()  # no action reached the table
    assert all(isinstance(e, SupervisorPinRefused) and e.who == "s01" for e in refused)
    assert [e.failures for e in refused[:2]] == [1, 2] and refused[1].locked_for == 60
    assert call(server, "/api/session")[1]["failures"] == 2


def test_a_dealer_signs_in_and_out_with_staff_id_and_pin(server: StatusServer) -> None:
    status, answer = call(server, "/api/signin", {"staff": "d07", "pin": DEALER_PIN})
    assert status == 202 and answer["dealer"] == {"id": "d07", "name": "Aroha Ngata"}
    assert server.events.get_nowait() == DealerSignedIn(
        source="console", staff_id="d07", name="Aroha Ngata"
    )
    assert call(server, "/api/signin", {"staff": "d07", "pin": "9999"})[0] == 403
    refused = server.events.get_nowait()
    assert isinstance(refused, SignInRefused) and refused.who == "d07" and refused.failures == 1
    assert call(server, "/api/signout", {})[0] == 409  # the state says nobody yet
    server.publish({"game": "blackjack", "dealer": {"id": "d07", "name": "Aroha Ngata"}})
    assert call(server, "/api/state")[1]["dealer"]["id"] == "d07"
    assert call(server, "/api/signout", {})[0] == 202
    assert server.events.get_nowait() == DealerSignedOut(
        source="console", staff_id="d07", name="Aroha Ngata"
    )


@pytest.mark.parametrize(
    "body",
    [
        {**ACTION, "pin": PIN, "who": "dealer 7"},  # the client names nobody
        {**ACTION, "pin": PIN, "decision": "pay_everyone"},
        {**ACTION, "pin": PIN, "reason": ""},
        {**ACTION, "pin": PIN, "reason": "x" * 201},
        {**ACTION, "pin": PIN, "staff": "s01; drop"},
        {"staff": "s01", "reason": "r", "decision": "keep_card"},
    ],
)
def test_a_supervisor_action_that_does_not_fit_is_400_and_not_counted(
    server: StatusServer, body: dict[str, Any]
) -> None:
    assert call(server, "/api/supervisor", body)[0] == 400
    assert server.events.empty() and server.gate.failures("console") == 0


def test_the_console_presses_buttons_but_not_the_supervisor_key(server: StatusServer) -> None:
    assert call(server, "/api/console", {"button": "next"})[0] == 202
    assert server.events.get_nowait() == ButtonPressed(source="console", button=ConsoleButton.NEXT)
    assert call(server, "/api/console", {"button": "supervisor"})[0] == 400
    assert call(server, "/api/console", {"button": "jump"})[0] == 400
    assert server.events.empty()


def test_console_actions_are_checked_against_the_games_signatures(server: StatusServer) -> None:
    ok = {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": 5}}
    assert call(server, "/api/console", ok)[0] == 202
    assert server.events.get_nowait() == ConsoleAction(
        source="console", action="place_wager", args={"box": 2, "person": 1, "amount": 5}
    )
    for bad in (
        {**ok, "actor": "dealer 7"},
        {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": 5, "evil": 1}},
        {"action": "place_wager", "args": {"box": 2, "person": 1}},
        {"action": "place_wager", "args": {"box": "2", "person": 1, "amount": 5}},
        {"action": "place_wager", "args": {"box": True, "person": 1, "amount": 5}},
        {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": 10**12}},
        {"action": "supervisor_clear", "args": {}},
        {"action": "__init__", "args": {}},
        {"action": "stand", "args": [1]},
    ):
        assert call(server, "/api/console", bad)[0] == 400, bad
    assert server.events.empty()


@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"console": False}, 401),
        ({"headers": {HEADER: ""}}, 403),
        ({"headers": {"Content-Type": "text/plain"}}, 415),
        ({"headers": {"Origin": "http://evil.example"}}, 403),
        ({"headers": {"Host": "evil.example"}}, 403),
        ({"headers": {"Sec-Fetch-Site": "cross-site"}}, 403),
        ({"headers": {"Cookie": f"{COOKIE}=00"}}, 401),
        ({"data": b"x" * 5000}, 413),
        ({"data": b"not json"}, 400),
        ({"data": b"[1]"}, 400),
    ],
)
def test_a_write_that_is_not_from_the_console_is_refused(
    server: StatusServer, kwargs: dict[str, Any], status: int
) -> None:
    assert call(server, "/api/console", {"button": "next"}, **kwargs)[0] == status
    assert server.events.empty()


def test_the_kiosk_presents_the_secret_once_and_gets_the_cookie(server: StatusServer) -> None:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    with pytest.raises(urllib.error.HTTPError) as seen:
        opener.open(f"{server.url}/?console={SECRET.hex()}", timeout=5)
    assert seen.value.code == 303 and seen.value.headers["Location"] == "/"
    cookie = seen.value.headers["Set-Cookie"]
    assert f"{COOKIE}={console_cookie(SECRET)}" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert SECRET.hex() not in cookie
    with pytest.raises(urllib.error.HTTPError) as wrong:
        opener.open(f"{server.url}/?console={'0' * 64}", timeout=5)
    assert wrong.value.code == 403
    assert server.console_url == f"{server.url}/?console={SECRET.hex()}"


def test_a_preflight_is_refused(server: StatusServer) -> None:
    request = urllib.request.Request(server.url + "/api/console", method="OPTIONS")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 405
    assert "Access-Control-Allow-Origin" not in refused.value.headers


def test_the_read_only_address_serves_no_console() -> None:
    events: queue.Queue[Any] = queue.Queue()
    view = StatusServer(events, port=0, game="blackjack", readonly=True).start()
    try:
        view.publish({"game": "blackjack", "view": {"state": "betting"}})
        with urllib.request.urlopen(view.url + "/", timeout=5) as page:
            assert 'data-mode="surveillance"' in page.read().decode()
        for path in ("/api/console", "/api/supervisor", "/api/signin", "/api/signout"):
            assert call(view, path, {"button": "next"})[0] in (404, 405)
        assert call(view, "/api/state")[1]["view"]["state"] == "betting"
        assert events.empty()
    finally:
        view.close()


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


@pytest.mark.parametrize("path", ["/", "/api/state", "/api/session", "/static/app.js"])
def test_a_rebound_host_reads_nothing_from_the_console_server(
    server: StatusServer, path: str
) -> None:
    """DNS rebinding: a page whose own name now points at 127.0.0.1 sends its own name."""
    request = urllib.request.Request(server.url + path, headers={"Host": "evil.example:80"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 403
    refused.value.close()
    host = f"localhost:{server.port}"  # loopback by another name is the server's own
    with urllib.request.urlopen(
        urllib.request.Request(server.url + path, headers={"Host": host}), timeout=5
    ) as answer:
        assert answer.status == 200


def test_every_console_action_the_games_list_is_offered_with_its_signature() -> None:
    """The schema is derived from the games' code: an action whose arguments are not plain
    types would silently vanish from the console, so say so here."""
    from controller.app.console.schema import console_actions, supervisor_decisions
    from controller.blackjack import game as blackjack_game
    from controller.game.table import RATING_CONSOLE
    from controller.poker import console
    from controller.poker.game import PokerGame

    rating = set(RATING_CONSOLE)  # every table's (docs/ratings.md)
    assert set(console_actions("blackjack")) == set(blackjack_game.CONSOLE) | rating
    assert (
        set(console_actions("poker")) == set(console.CONSOLE_ACTIONS) | PokerGame.SEATING | rating
    )
    assert {"keep_card", "void_hand", "void_box"} <= set(supervisor_decisions("blackjack"))
    assert set(supervisor_decisions("poker")) == {"accept", "void_hand", "adjust_average_bet"}
