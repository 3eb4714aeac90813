"""Attacks on the console (docs/security.md) against a running table: a
`tablectl run --sim gpio` process (the shoe on a simulated shoe's pty), real HTTP, and for
the cross-site cases a real Chromium page served from another origin. Each attack is
refused and leaves nothing in the journal; the table's own console keeps working.

"Nothing journaled" is shown with a marker: after each attack the real console presses a
button, and the rows the journal gained are exactly that press and what it produced. The
attack's request, had it reached the controller, would have been queued before it.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from controller.app.console.webthread import WebThread
from sim_hardware.link import PtyLink
from sim_hardware.remote import DEMO_DEALER, DEMO_SUPERVISOR, HEADER, ConsoleClient
from sim_hardware.shoe import SimulatedShoe
from sim_hardware.testbed import ControllerProcess, free_port, write_config

pytestmark = pytest.mark.timeout(180)

WAGER = {"action": "place_wager", "args": {"box": 5, "person": 1, "amount": 100}}


class Table:
    """The running table, its journal file, and its own console (a `ConsoleClient` that
    presented the secret and signed dealer d01 in)."""

    def __init__(self, folder: Path, port: int, controller: ControllerProcess) -> None:
        self.folder = folder
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.controller = controller
        self.console = controller.client
        self.journal = folder / "journal.sqlite"

    def rows(self, after: int = 0) -> list[dict[str, Any]]:
        """The journal's rows after ``after``, read from the file itself."""
        db = sqlite3.connect(f"file:{self.journal}?mode=ro", uri=True)
        try:
            found = db.execute(
                "SELECT seq, kind, source, actor, payload FROM journal WHERE seq > ? ORDER BY seq",
                (after,),
            ).fetchall()
        finally:
            db.close()
        return [
            {"seq": s, "kind": k, "source": src, "actor": a, "payload": json.loads(p)}
            for s, k, src, a, p in found
        ]

    def last_seq(self) -> int:
        rows = self.rows()
        return rows[-1]["seq"] if rows else 0

    def marker(self, after: int) -> list[dict[str, Any]]:
        """The console presses EVEN MONEY; returns every row journaled after ``after``
        once that press is in (it must be the first of them)."""
        assert self.console.post("/api/console", {"button": "even_money"})
        return self.wait_rows(after, lambda r: r["kind"] == "ButtonPressed")

    def wait_rows(
        self, after: int, until: Callable[[dict[str, Any]], bool], timeout: float = 15.0
    ) -> list[dict[str, Any]]:
        """The rows after ``after`` once one of them is ``until`` (the journal file is
        read after each round trip to the controller: another process, polled)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            rows = self.rows(after)
            if any(until(r) for r in rows):
                return rows
            self.console.state()
        raise AssertionError(f"not journaled within {timeout} s: {self.rows(after)}")

    def assert_nothing_journaled(self, before: int) -> None:
        rows = self.marker(before)
        first = rows[0]
        assert first["kind"] == "ButtonPressed" and first["payload"]["button"] == "even_money", rows
        assert first["actor"] == DEMO_DEALER[0]  # the dealer signed in, from the server
        assert all(r["source"] == "controller" for r in rows[1:]), rows


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    folder = tmp_path_factory.mktemp("table")
    with SimulatedShoe(PtyLink(), decks=6, rng=random.Random(12)) as shoe:
        port = free_port()
        client = ConsoleClient(f"http://127.0.0.1:{port}")
        controller = ControllerProcess(write_config(folder, shoe.link.url, port), client)
        controller.start()
        try:
            assert client.sign_in(*DEMO_DEALER), client.last_status
            running = Table(folder, port, controller)
            running.marker(0)  # the sign-in is in: every test starts from a quiet journal
            yield running
        finally:
            controller.stop()


def raw(
    table: Table,
    path: str,
    body: bytes | None,
    headers: dict[str, str],
    method: str = "POST",
) -> int:
    """A request from someone on the network: no cookie unless given in ``headers``."""
    request = urllib.request.Request(table.url + path, data=body, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        exc.close()
        return int(exc.code)


JSON = {"Content-Type": "application/json"}


# --- 1. no PIN and no token: a wager, a stand, a void, a changed wager ------------------


@pytest.mark.parametrize(
    "body",
    [
        WAGER,
        {"action": "place_wager", "args": {"box": 2, "person": 1, "amount": 100}},
        {"action": "stand", "args": {"box": 1}},
        {"button": "void_hand"},
    ],
)
@pytest.mark.parametrize(
    "headers",
    [JSON, {**JSON, HEADER: "1"}],  # the header alone is no key
    ids=["plain", "with-header"],
)
def test_1_a_request_without_the_console_cookie_is_refused(
    table: Table, body: dict[str, Any], headers: dict[str, str]
) -> None:
    before = table.last_seq()
    assert raw(table, "/api/console", json.dumps(body).encode(), headers) in (401, 403)
    table.assert_nothing_journaled(before)


def test_1_a_forged_cookie_or_a_guessed_secret_is_refused(table: Table) -> None:
    before = table.last_seq()
    forged = {**JSON, HEADER: "1", "Cookie": "tablectl_console=" + "0" * 64}
    assert raw(table, "/api/console", json.dumps(WAGER).encode(), forged) == 401
    assert raw(table, "/?console=" + "0" * 64, None, {}, method="GET") == 403
    table.assert_nothing_journaled(before)


def test_1_the_console_itself_still_places_a_wager(table: Table) -> None:
    """The positive control: the same request from the table's console is taken, and
    its row names the dealer signed in, not anyone the request names."""
    before = table.last_seq()
    assert table.console.post("/api/console", WAGER)
    rows = table.marker(before)
    wager = next(r for r in rows if r["kind"] == "ConsoleAction")
    assert wager["payload"]["action"] == "place_wager" and wager["actor"] == DEMO_DEALER[0]


# --- 2. cross-site request forgery from a page on another origin -------------------------


class EvilSite(WebThread):
    """Another origin on loopback, serving the attacker's pages."""

    what = "the attacker's pages"

    def __init__(self, target: str) -> None:
        super().__init__("127.0.0.1", 0)
        self.target = target

    def build_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/fetch", self._fetch),
                web.get("/form", self._form),
                web.get("/cors", self._cors),
            ]
        )
        return app

    def _html(self, body: str) -> web.Response:
        return web.Response(
            text=f"<!doctype html><html><body>{body}</body></html>", content_type="text/html"
        )

    async def _fetch(self, request: web.Request) -> web.Response:
        # the attack: no preflight for a "simple" no-cors text/plain POST
        return self._html(
            "<script>fetch(" + json.dumps(self.target + "/api/console") + ", {method: 'POST', "
            "mode: 'no-cors', credentials: 'include', headers: {'Content-Type': 'text/plain'}, "
            "body: JSON.stringify({button: 'void_hand'})})"
            ".then(() => { document.title = 'sent'; }, (e) => { document.title = 'error'; });"
            "</script>"
        )

    async def _cors(self, request: web.Request) -> web.Response:
        # the header that would pass needs a preflight: the server refuses it
        return self._html(
            "<script>fetch(" + json.dumps(self.target + "/api/console") + ", {method: 'POST', "
            "credentials: 'include', headers: {'Content-Type': 'application/json', "
            f"'{HEADER}': '1'}}, body: JSON.stringify({{button: 'void_hand'}})}})"
            ".then(() => { document.title = 'sent'; }, (e) => { document.title = 'blocked'; });"
            "</script>"
        )

    async def _form(self, request: web.Request) -> web.Response:
        # text/plain form: name=value becomes {"action":...,"x":"="} on the wire
        name = json.dumps(WAGER)[:-1] + ', "x": "'
        return self._html(
            f"<form id='f' method='POST' enctype='text/plain' "
            f"action='{self.target}/api/console'>"
            f"<input name='{name}' value='\"}}'></form>"
            "<script>document.getElementById('f').submit();</script>"
        )


@pytest.fixture(scope="module")
def evil(table: Table) -> Iterator[EvilSite]:
    site = EvilSite(table.url).start()
    try:
        yield site
    finally:
        site.close()


@pytest.fixture
def kiosk(browser: Any, table: Table) -> Iterator[Any]:
    """The kiosk's browser: it opened the console URL, so it holds the console cookie
    (on another port of 127.0.0.1 it is the same site: SameSite alone would send it)."""
    secret = (table.folder / "console.secret").read_text().strip()
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{table.url}/?console={secret}")
    assert page.url == table.url + "/"  # the secret left the address bar
    assert any(c["name"] == "tablectl_console" for c in context.cookies())
    try:
        yield context
    finally:
        context.close()


def test_2_a_no_cors_text_plain_fetch_from_another_origin_is_refused(
    table: Table, evil: EvilSite, kiosk: Any
) -> None:
    before = table.last_seq()
    page = kiosk.new_page()
    page.goto(evil.url + "/fetch")
    page.wait_for_function("document.title === 'sent'")  # it went out, opaque answer
    table.assert_nothing_journaled(before)


def test_2_a_fetch_with_the_console_header_is_stopped_by_the_refused_preflight(
    table: Table, evil: EvilSite, kiosk: Any
) -> None:
    before = table.last_seq()
    page = kiosk.new_page()
    page.goto(evil.url + "/cors")
    page.wait_for_function("document.title === 'blocked'")
    table.assert_nothing_journaled(before)


def test_2_an_auto_submitted_text_plain_form_from_another_origin_is_refused(
    table: Table, evil: EvilSite, kiosk: Any
) -> None:
    before = table.last_seq()
    page = kiosk.new_page()
    with page.expect_response(table.url + "/api/console") as answer:
        page.goto(evil.url + "/form")
    assert answer.value.status == 403
    table.assert_nothing_journaled(before)


def test_2_the_kiosk_page_itself_still_works(table: Table, kiosk: Any) -> None:
    before = table.last_seq()
    page = kiosk.pages[0]
    page.wait_for_function("window.tablePage && window.tablePage.connected")
    page.locator('#buttons button[data-button="insurance_closed"]').click()
    rows = table.wait_rows(before, lambda r: r["kind"] == "ButtonPressed")
    assert rows[0]["kind"] == "ButtonPressed" and rows[0]["source"] == "console"
    assert rows[0]["payload"]["button"] == "insurance_closed"


# --- 3. the PIN lockout cannot be triggered from outside -------------------------------


def test_3_wrong_pins_from_outside_are_not_even_tried(table: Table) -> None:
    before = table.last_seq()
    wrong = {"staff": DEMO_SUPERVISOR[0], "pin": "0000", "decision": "keep_card", "reason": "x"}
    for _ in range(12):
        status = raw(table, "/api/supervisor", json.dumps(wrong).encode(), {**JSON, HEADER: "1"})
        assert status == 401
        assert raw(table, "/api/signin", json.dumps(wrong).encode(), JSON) == 403
    table.assert_nothing_journaled(before)
    # the supervisor at the console is not locked out: the right PIN is taken at once
    before = table.last_seq()
    right = {**wrong, "pin": DEMO_SUPERVISOR[1], "reason": "checking the lockout"}
    assert table.console.post("/api/supervisor", right), table.console.last_status
    rows = table.marker(before)
    action = next(r for r in rows if r["kind"] == "SupervisorAction")
    assert action["actor"] == DEMO_SUPERVISOR[0]


def test_3_a_wrong_pin_at_the_console_is_counted_and_journaled(table: Table) -> None:
    before = table.last_seq()
    wrong = {"staff": DEMO_SUPERVISOR[0], "pin": "0000", "decision": "keep_card", "reason": "x"}
    assert not table.console.post("/api/supervisor", wrong)
    assert table.console.last_status == 403
    rows = table.marker(before)
    refused = next(r for r in rows if r["kind"] == "SupervisorPinRefused")
    assert refused["payload"]["who"] == DEMO_SUPERVISOR[0] and refused["payload"]["failures"] >= 1
    right = {**wrong, "pin": DEMO_SUPERVISOR[1]}  # and the right PIN resets the count
    before = table.last_seq()
    assert table.console.post("/api/supervisor", right)
    assert any(r["kind"] == "SupervisorAction" for r in table.marker(before))


# --- 4. the client chooses no actor, no size, no argument -------------------------------


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({**WAGER, "actor": "dealer 7"}, 400),
        ({**WAGER, "actor": "x" * 900_000}, 413),
        ({"action": "place_wager", "args": {**WAGER["args"], "evil": 1}}, 400),  # type: ignore[dict-item]
        ({"action": "stand", "args": {"box": "1; drop table"}}, 400),
        ({"action": "supervisor_clear", "args": {}}, 400),
    ],
    ids=["actor", "900KB-actor", "unknown-argument", "wrong-type", "not-a-console-action"],
)
def test_4_the_console_itself_cannot_name_an_actor_or_an_unknown_argument(
    table: Table, body: dict[str, Any], status: int
) -> None:
    before = table.last_seq()
    assert not table.console.post("/api/console", body)
    assert table.console.last_status == status
    table.assert_nothing_journaled(before)  # no ControllerFault, no row at all


def test_4_size_host_origin_and_type_are_checked_before_anything(table: Table) -> None:
    before = table.last_seq()
    cookie = {"Cookie": f"tablectl_console={_cookie(table)}", HEADER: "1"}
    body = json.dumps({"button": "void_hand"}).encode()
    assert raw(table, "/api/console", body, {**cookie, "Content-Type": "text/plain"}) == 415
    assert raw(table, "/api/console", body, {**JSON, **cookie, "Host": "evil.example"}) == 403
    assert raw(table, "/api/console", body, {**JSON, **cookie, "Origin": "http://x.example"}) == 403
    assert raw(table, "/api/console", b"{" + b" " * 10_000 + b"}", {**JSON, **cookie}) == 413
    assert raw(table, "/api/console", None, {}, method="OPTIONS") == 405  # no preflight
    table.assert_nothing_journaled(before)


def _cookie(table: Table) -> str:
    """The console cookie as the kiosk holds it (the client got it from the server)."""
    for cookie in table.console._cookies:
        if cookie.name == "tablectl_console" and cookie.value:
            return cookie.value
    raise AssertionError("the console client holds no cookie")
