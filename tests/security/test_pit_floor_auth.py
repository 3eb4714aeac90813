"""The pit's floor view: only pit staff signed in write, and the pit's journal names them
(docs/security.md, "The pit floor view"). Against a `tablectl pit` process on a real
mosquitto, over real HTTP; the cross-site, framing and rebinding cases in Debian's Chromium.

The pit's store is seeded before the view starts with a shift begun an hour ago and
HOLD alarms of a table from half an hour ago (what a view restarted mid-shift loads), so
there is something to acknowledge whatever the tables' MQTT carries. "Nothing changed" is
read from the store's own file: the pit's journal (acknowledgements, shift starts) and the
shift's start are as they were.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from controller.app.console.auth import HEADER as CONSOLE_HEADER
from controller.app.console.auth import console_cookie
from controller.app.console.web import StatusServer
from controller.app.console.webthread import WebThread
from controller.app.floor.auth import Sessions
from controller.app.floor.store import PitStore
from controller.app.floor.tables import iso
from controller.app.floor.view import PitView
from tests.support.chromium import CHROMIUM, CHROMIUM_ARGS
from tests.support.cli import tablectl
from tests.support.floor import (
    MANAGER,
    PAGE_HEADERS,
    SURVEILLANCE,
    StaffClient,
    manager,
    pit_staff,
    request,
    sign_in_on_page,
    write_staff_file,
)
from tests.support.pit import Broker

pytestmark = pytest.mark.timeout(180)

ROOT = Path(__file__).resolve().parents[2]
SITE, TABLE = "dunedin", "bj-07"
HOLDS = 6  # alarms to acknowledge: each test that acknowledges takes its own
JSON = {"Content-Type": "application/json"}
NESTED = ("[" * 1500 + "]" * 1500).encode()  # 3,000 bytes: under every size limit


class Pit:
    """A running `tablectl pit`, its store file, and its URL."""

    def __init__(self, folder: Path, broker: Broker, staff_text: str | None = None) -> None:
        self.folder = folder
        self.store = folder / "pit.sqlite"
        seed(self.store)
        staff = write_staff_file(folder / "pit-staff.toml")
        if staff_text is not None:
            staff.write_text(staff.read_text() + staff_text)
        self.log = (folder / "pit.log").open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller.app.cli", "pit", "--broker", broker.url,
             "--port", "0", "--store", str(self.store), "--staff", str(staff)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=self.log, text=True,
        )  # fmt: skip
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "pit floor view: http://127.0.0.1:PORT ..."
        assert line.startswith("pit floor view: "), (folder / "pit.log").read_text()
        self.url = line.split()[3]
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.log.close()

    def journal(self) -> list[tuple[str, str, Any]]:
        """The pit's journal as its file holds it: (kind, who, what)."""
        db = sqlite3.connect(f"file:{self.store}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT kind, who, what FROM pit_journal ORDER BY id").fetchall()
        finally:
            db.close()
        return [(kind, who, json.loads(what)) for kind, who, what in found]

    def writes(self) -> list[tuple[str, str, Any]]:
        return [e for e in self.journal() if e[0] in ("AlarmAcknowledged", "ShiftStarted")]

    def floor(self, headers: dict[str, str] | None = None) -> dict[str, Any]:
        status, _, body = request(self.url + "/api/tables", None, headers or {}, "GET")
        assert status == 200
        answer: dict[str, Any] = json.loads(body)
        return answer

    def open_alarms(self) -> list[str]:
        return [a["id"] for a in self.floor()["alarms"] if a["table"] == TABLE and not a["acked"]]


def seed(path: Path) -> None:
    """A shift begun an hour ago with `HOLDS` HOLDs of one table half an hour ago."""
    store = PitStore(path)
    now = time.time()
    store.put("shift_start", iso(now - 3600))
    store.put("shift_by", "the test")
    for n in range(HOLDS):
        store.add_row(SITE, TABLE, {
            "hash": f"{n + 1:064x}", "seq": n + 1, "wall": iso(now - 1800 + n), "round": n + 1,
            "kind": "Violation", "actor": "d01",
            "payload": {"rule": "4.2", "message": "a card before NO MORE BETS"},
        })  # fmt: skip
    store.close()


def post(url: str, body: Any, headers: dict[str, str]) -> tuple[int, Any]:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    status, _, text = request(url, raw, headers)
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text.decode(errors="replace")


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    running = Broker(tmp_path_factory.mktemp("broker")).start()
    try:
        yield running
    finally:
        running.kill()


@pytest.fixture(scope="module")
def pit(tmp_path_factory: pytest.TempPathFactory, broker: Broker) -> Iterator[Pit]:
    running = Pit(tmp_path_factory.mktemp("pit"), broker)
    try:
        yield running
    finally:
        running.stop()


# --- who may write ---------------------------------------------------------------------


def test_anonymous_acknowledgements_and_shift_starts_get_401_and_change_nothing(
    pit: Pit,
) -> None:
    writes, floor = pit.writes(), pit.floor()
    alarm = pit.open_alarms()[0]
    for headers in (JSON, PAGE_HEADERS):  # as the attacker, and as the page would
        assert post(pit.url + "/api/ack", {"id": alarm, "by": "Pit Boss"}, headers)[0] == 401
        assert post(pit.url + "/api/ack", {"id": alarm}, headers)[0] == 401
        assert post(pit.url + "/api/shift", {"start": "now", "by": "Pit Boss"}, headers)[0] == 401
        assert post(pit.url + "/api/shift", {"start": "now"}, headers)[0] == 401
    forged = {**PAGE_HEADERS, "Cookie": "tablectl_pit=" + "A" * 43}
    assert post(pit.url + "/api/ack", {"id": alarm}, forged)[0] == 401
    assert pit.writes() == writes
    after = pit.floor()
    assert after["shift"] == floor["shift"] and alarm in pit.open_alarms()
    assert len(after["alarms"]) == len(floor["alarms"])  # the alarm log was not emptied


def test_reading_the_floor_needs_no_sign_in(pit: Pit) -> None:
    """The documented choice: a pit monitor shows the floor with nobody signed in."""
    assert pit.open_alarms()
    status, headers, _ = request(pit.url + "/api/figures.csv", None, {}, "GET")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")


def test_surveillance_signed_in_reads_but_gets_403_on_every_write(pit: Pit) -> None:
    writes, floor = pit.writes(), pit.floor()
    officer = StaffClient(pit.url)
    assert officer.sign_in(SURVEILLANCE[0], SURVEILLANCE[1]) == 200
    status, _, session = request(pit.url + "/api/session", None, {"Cookie": officer.cookie}, "GET")
    assert json.loads(session)["may"] == []
    alarm = pit.open_alarms()[0]
    status, _, answer = officer.post("/api/ack", {"id": alarm})
    assert status == 403 and "read only" in answer["error"]
    assert officer.post("/api/shift", {"start": "now"})[0] == 403
    assert pit.writes() == writes and pit.floor()["shift"] == floor["shift"]
    assert alarm in pit.open_alarms()
    kinds = [(k, who) for k, who, _ in pit.journal()]
    assert ("SignedIn", SURVEILLANCE[0]) in kinds


def test_a_pit_manager_signed_in_acknowledges_and_the_store_names_them(pit: Pit) -> None:
    anna = manager(pit.url)
    alarm = pit.open_alarms()[0]
    writes = pit.writes()
    status, _, answer = anna.post("/api/ack", {"id": alarm, "by": "Pit Boss"})
    assert status == 400 and "unknown fields" in answer["error"]  # nobody names themselves
    assert pit.writes() == writes
    assert anna.post("/api/ack", {"id": alarm})[0] == 200
    kind, who, what = pit.writes()[-1]
    assert (kind, who, what["alarm"], what["table"]) == (
        "AlarmAcknowledged",
        MANAGER[0],
        alarm,
        TABLE,
    )
    shown = next(a for a in pit.floor()["alarms"] if a["id"] == alarm)
    assert shown["acked"]["by"] == MANAGER[0]
    assert anna.post("/api/ack", {"id": alarm})[0] == 409  # once


def test_sign_in_gives_an_httponly_samesite_strict_session_and_sign_out_ends_it(pit: Pit) -> None:
    anna = StaffClient(pit.url)
    status, headers, answer = anna.post("/api/signin", {"staff": MANAGER[0], "pin": MANAGER[1]})
    assert status == 200 and answer["staff"]["role"] == "pit_manager"
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert MANAGER[1] not in cookie and "Max-Age" not in cookie  # a browser session only
    anna.cookie = cookie.split(";", 1)[0]
    status, _, session = request(pit.url + "/api/session", None, {"Cookie": anna.cookie}, "GET")
    assert json.loads(session)["staff"]["id"] == MANAGER[0]
    assert anna.post("/api/signout", {})[0] == 200
    alarm = pit.open_alarms()[0]
    assert anna.post("/api/ack", {"id": alarm})[0] == 401  # the old cookie is nobody now
    assert alarm in pit.open_alarms()
    kinds = [k for k, who, _ in pit.journal() if who == MANAGER[0]]
    assert "SignedIn" in kinds and "SignedOut" in kinds


def test_sessions_are_bounded_and_expire() -> None:
    now = [0.0]
    sessions = Sessions(limit=2, lifetime=100.0, idle=30.0, clock=lambda: now[0])
    anna, hemi = pit_staff().members
    first, second = sessions.open(anna), sessions.open(hemi)
    now[0] = 10.0
    assert sessions.get(first) is not None  # seen: now the second is the longest idle
    third = sessions.open(anna)
    assert len(sessions) == 2 and sessions.get(second) is None and sessions.get(first)
    now[0] = 45.0  # the third idle 35 s (> 30): ended; the first seen at 10, then 10: ended
    assert sessions.get(third) is None and sessions.get(first) is None
    kept = sessions.open(anna)
    for step in range(1, 5):  # seen every 26 s: never idle, but at most 100 s in all
        now[0] = 45.0 + 26 * step
        assert (sessions.get(kept) is not None) == (step < 4)


# --- shift times -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "start",
    [
        "0001-01-01T00:00:00+13:00",
        "1970-01-01T00:00:00+00:00",
        "9999-12-31T23:59:59-13:00",
        "+1 day",
        "-49 hours",
        "2026-13-45T00:00:00Z",
        12,
    ],
)
def test_a_shift_start_in_year_1_in_1970_or_in_the_future_is_one_400_line(
    pit: Pit, start: Any
) -> None:
    now = time.time()
    if start == "+1 day":
        start = iso(now + 86400)
    elif start == "-49 hours":
        start = iso(now - 49 * 3600)
    anna, writes, floor = manager(pit.url), pit.writes(), pit.floor()
    status, _, answer = anna.post("/api/shift", {"start": start})
    assert status == 400, answer
    assert "\n" not in answer["error"] and "48 hours" in answer["error"]
    assert pit.writes() == writes and pit.floor()["shift"] == floor["shift"]


def test_a_shift_start_within_the_last_48_hours_is_taken_and_names_the_manager(pit: Pit) -> None:
    start = iso(time.time() - 47 * 3600)  # earlier than the seeded shift: no alarm is lost
    anna = manager(pit.url)
    status, _, answer = anna.post("/api/shift", {"start": start})
    assert status == 200 and answer["start"] == start
    kind, who, what = pit.writes()[-1]
    assert (kind, who, what["start"]) == ("ShiftStarted", MANAGER[0], start)
    assert pit.floor()["shift"] == {"start": start, "by": MANAGER[0]}


# --- the page's origin, the Host, framing ----------------------------------------------


def test_a_rebound_host_name_is_refused_for_reads_and_writes(pit: Pit) -> None:
    rebound = {"Host": f"rebound.example:{pit.port}"}
    for path in ("/", "/api/tables", "/api/figures.csv", "/api/session"):
        status, _, body = request(pit.url + path, None, rebound, "GET")
        assert status == 403 and TABLE.encode() not in body, path
    anna, writes = manager(pit.url), pit.writes()
    alarm = pit.open_alarms()[0]
    assert anna.post("/api/ack", {"id": alarm}, rebound)[0] == 403
    assert anna.post("/api/ack", {"id": alarm}, {"Host": f"127.0.0.1:{pit.port + 1}"})[0] == 403
    assert anna.post("/api/ack", {"id": alarm}, {"Origin": "http://127.0.0.1:1"})[0] == 403
    assert anna.post("/api/ack", {"id": alarm}, {"Sec-Fetch-Site": "same-site"})[0] == 403
    assert pit.writes() == writes


def test_a_server_name_given_is_served_and_no_other(tmp_path: Path) -> None:
    """Beyond loopback the browsers name the pit's PC: ``--server-name`` says which names
    are the view's own (the view itself, in this process: the same door)."""
    view = PitView(
        "mqtt://127.0.0.1:9", port=0, store=tmp_path / "pit.sqlite",
        staff=pit_staff(), server_names=("pit-pc.floor.lan",),
    ).start()  # fmt: skip
    try:
        for name, status in (("pit-pc.floor.lan", 200), ("localhost", 200), ("pit-pc", 403)):
            got, _, _ = request(
                view.url + "/api/tables", None, {"Host": f"{name}:{view.port}"}, "GET"
            )
            assert got == status, name
    finally:
        view.close()


def test_every_answer_forbids_framing(pit: Pit) -> None:
    for path in ("/", "/static/pit.js", "/api/tables", "/no-such-page"):
        _, headers, _ = request(pit.url + path, None, {}, "GET")
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], path
        assert headers["X-Frame-Options"] == "DENY", path


class EvilSite(WebThread):
    """Another origin on loopback (the same site as the pit view, so a SameSite=Strict
    cookie alone would still go along), serving the attacker's pages."""

    what = "the attacker's pages"

    def __init__(self, target: str, alarm: str) -> None:
        super().__init__("127.0.0.1", 0)
        self.target, self.alarm = target, alarm

    def build_app(self) -> web.Application:
        app = web.Application()
        app.add_routes([web.get("/fetch", self._fetch), web.get("/form", self._form),
                        web.get("/frame", self._frame)])  # fmt: skip
        return app

    def _html(self, body: str) -> web.Response:
        return web.Response(
            text=f"<!doctype html><html><body>{body}</body></html>", content_type="text/html"
        )

    async def _fetch(self, request: web.Request) -> web.Response:
        body = json.dumps(json.dumps({"id": self.alarm}))
        return self._html(
            "<script>fetch(" + json.dumps(self.target + "/api/ack") + ", {method: 'POST', "
            "mode: 'no-cors', credentials: 'include', headers: {'Content-Type': 'text/plain'}, "
            f"body: {body}}}).then(() => {{ document.title = 'sent'; }}, "
            "() => { document.title = 'error'; });</script>"
        )

    async def _form(self, request: web.Request) -> web.Response:
        # text/plain: name=value goes on the wire as {"start": "now", "x": "="}
        return self._html(
            "<form id='f' method='POST' enctype='text/plain' "
            f"action='{self.target}/api/shift'>"
            """<input name='{"start": "now", "x": "' value='"}'></form>"""
            "<script>document.getElementById('f').submit();</script>"
        )

    async def _frame(self, request: web.Request) -> web.Response:
        return self._html(
            f"<iframe id='pit' src='{self.target}/' width='800' height='600'></iframe>"
        )


@pytest.fixture(scope="module")
def evil(pit: Pit) -> Iterator[EvilSite]:
    site = EvilSite(pit.url, pit.open_alarms()[-1]).start()
    try:
        yield site
    finally:
        site.close()


def test_a_cross_site_post_holding_the_managers_cookie_fails(
    pit: Pit, evil: EvilSite, browser: Any
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(pit.url + "/")
        sign_in_on_page(page)  # the manager's browser, on the pit's own page
        (cookie,) = [c for c in context.cookies() if c["name"] == "tablectl_pit"]
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert page.evaluate("document.cookie") == ""  # no script reads it
        writes, floor = pit.writes(), pit.floor()
        attack = context.new_page()
        with attack.expect_response(pit.url + "/api/shift") as answer:
            attack.goto(evil.url + "/form")
        assert answer.value.status == 403
        attack.goto(evil.url + "/fetch")
        attack.wait_for_function("document.title === 'sent'")  # it went out; answered
        assert pit.writes() == writes and pit.floor()["shift"] == floor["shift"]
        assert evil.alarm in pit.open_alarms()
        # the manager's own page still acknowledges it, in the same browser
        page.locator(f'#alarm-log li[data-id="{evil.alarm}"] button.ack').click()
        page.wait_for_selector(f'#alarm-log li[data-id="{evil.alarm}"].acked')
        assert pit.writes()[-1][:2] == ("AlarmAcknowledged", MANAGER[0])
    finally:
        context.close()


def test_a_page_of_another_origin_framing_the_floor_view_gets_nothing(
    pit: Pit, evil: EvilSite, browser: Any
) -> None:
    page = browser.new_page()
    try:
        page.goto(evil.url + "/frame", wait_until="load")  # the frame's load included
        (frame,) = [f for f in page.frames if f != page.main_frame]
        assert not frame.url.startswith(pit.url), frame.url  # Chromium's error page
        assert "Pit floor" not in page.content() and frame.query_selector("#summary") is None
    finally:
        page.close()


def test_a_page_on_a_rebound_name_reads_nothing_in_chromium(pit: Pit, browser: Any) -> None:
    """DNS rebinding as the browser sees it: a name that now resolves to the pit view's
    address (Chromium's own resolver rule stands in for the attacker's DNS)."""
    rebinding = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP rebound.test 127.0.0.1"],
    )
    try:
        page = rebinding.new_page()
        for path in ("/", "/api/tables"):
            answer = page.goto(f"http://rebound.test:{pit.port}{path}")
            assert answer is not None and answer.status == 403, path
            assert TABLE not in page.content()
        answer = page.goto(pit.url + "/api/tables")  # the control: its own name is served
        assert answer is not None and answer.status == 200 and TABLE in page.content()
    finally:
        rebinding.close()


# --- wrong PINs ------------------------------------------------------------------------


def test_wrong_pins_are_counted_and_delayed_as_at_the_table(tmp_path: Path, broker: Broker) -> None:
    """`[lockout]` as the table's `[supervisor]`: the third wrong PIN in a row starts a
    delay; during it even the right PIN is not looked at (429); each wrong PIN looked at
    is journaled."""
    lockout = "\n[lockout]\nlockout_tries = 3\nlockout_first_seconds = 60\n"
    pit = Pit(tmp_path, broker, lockout)
    try:
        guess = StaffClient(pit.url)
        assert guess.sign_in(MANAGER[0], "0000") == 403
        assert guess.sign_in("nobody", "0000") == 403  # an unknown id counts the same
        status, headers, answer = guess.post("/api/signin", {"staff": MANAGER[0], "pin": "1111"})
        assert status == 429 and int(headers["Retry-After"]) == 60, answer
        assert guess.sign_in(MANAGER[0], MANAGER[1]) == 429  # not looked at during the delay
        refused = [
            (who, what["failures"]) for k, who, what in pit.journal() if k == "SignInRefused"
        ]
        assert refused == [(MANAGER[0], 1), ("nobody", 2), (MANAGER[0], 3)]
        assert not guess.cookie
    finally:
        pit.stop()


# --- bodies nested deep, and the command line --------------------------------------------


def test_a_json_body_nested_deep_is_one_400_on_the_pit_view(pit: Pit) -> None:
    """The pit takes at most 1,024 bytes: 1,500 deep is too big (413); 1,020 unclosed
    brackets fit, and would take the parser past Python's recursion limit."""
    deep = b"[" * 1020
    assert post(pit.url + "/api/signin", NESTED, PAGE_HEADERS)[0] == 413
    status, answer = post(pit.url + "/api/signin", deep, PAGE_HEADERS)  # anyone can
    assert status == 400 and "deeper than" in answer["error"], answer
    anna, writes = manager(pit.url), pit.writes()
    status, _, answer = anna.post("/api/ack", deep)
    assert status == 400 and "deeper than" in answer["error"]
    assert pit.writes() == writes


def test_a_json_body_nested_1500_deep_is_one_400_on_the_tables_console() -> None:
    import queue

    secret = b"s" * 32
    events: queue.Queue[Any] = queue.Queue()
    server = StatusServer(events, port=0, game="blackjack", secret=secret).start()
    try:
        headers = {**JSON, CONSOLE_HEADER: "1",
                   "Cookie": f"tablectl_console={console_cookie(secret)}"}  # fmt: skip
        status, answer = post(server.url + "/api/console", NESTED, headers)
        assert status == 400 and "deeper than" in answer["error"], answer
        assert post(server.url + "/api/console", {"button": "next"}, headers)[0] == 202
        assert events.get(timeout=5).button.value == "next"  # the control: the console works
        assert events.empty()
    finally:
        server.close()


def _one_line(result: subprocess.CompletedProcess[str], needle: str) -> None:
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert needle in line, line


def test_tablectl_pit_with_a_broker_port_out_of_range_says_so_in_one_line(tmp_path: Path) -> None:
    result = tablectl("pit", "--broker", "mqtt://h:99999", "--store", str(tmp_path / "p.sqlite"))
    _one_line(result, "port")
    assert not (tmp_path / "p.sqlite").exists()


@pytest.mark.parametrize("option", ["--floor", "--staff"])
def test_tablectl_pit_with_a_floor_file_not_utf8_says_so_in_one_line(
    tmp_path: Path, option: str
) -> None:
    bad = tmp_path / "floor.toml"
    bad.write_bytes(b'\xff\xfe[[area]]\nname = "Pit 1"\n')
    store = str(tmp_path / "p.sqlite")
    result = tablectl("pit", "--broker", "mqtt://127.0.0.1:1", option, str(bad), "--store", store)
    _one_line(result, f"{option} {bad}")
