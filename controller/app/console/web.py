"""The status display's server, inside the `tablectl` process (aiohttp, its own thread).

The controller thread calls `StatusServer.publish` after every burst of events with the new
state; the server keeps only the latest and pushes it to every connected page over
Server-Sent Events. `publish` never blocks, never waits on the network and never
serialises: it hands the state (built from copies, never changed after) to the server's
event loop with ``call_soon_threadsafe`` and returns; the JSON is made here, on the
server's thread, when a page or a request first asks for that state.

Pages (docs/display.md), all served from ``static/`` by this server, nothing from the
internet (the Content-Security-Policy says ``'self'`` only):

- ``GET /``: the dealer's display and touch console (the table's own screen).
  ``GET /?console=<secret>`` is how the kiosk presents the table's console secret, once:
  the answer sets the console cookie and sends the browser to ``/``, so the secret leaves
  the address bar (docs/security.md).
- ``GET /surveillance``: the same display, read-only: no console, no supervisor panel.
- ``GET /game.js``: the running game's own drawing, if its spec names one (`console.game_page`).

Read-only API: ``GET /api/state`` (the latest state, JSON) and ``GET /api/events``
(Server-Sent Events: one ``state`` event per published state, the latest at once on
connect, and a ``ping`` every `PING_SECONDS`, so a page that hears nothing for 1.5 s knows
the controller is gone and says DISCONNECTED).

The console API: only the table's own console may use it. Every request must carry the
console cookie (derived from the per-table secret) and the ``X-Tablectl-Console: 1``
header (which a page of another origin cannot send without a CORS preflight, which this
server refuses), name this server in ``Host`` (and ``Origin``, when sent), be
``application/json`` and at most `MAX_BODY` bytes, with exactly the fields below. Anything
else is refused (401, 403, 400, 413, 415), logged (rate-limited) and never journaled.

- ``GET  /api/session``: whether this browser is the console, who is signed in, the PIN
  count and any delay.
- ``POST /api/console``: ``{"button": "next"}`` puts a `ButtonPressed` (source
  ``console``) on the controller's queue; ``{"action": "double", "args": {"box": 3}}`` a
  `ConsoleAction`, its arguments checked against the game's own signature
  (`controller.app.console.schema`). The rules decide; a refusal shows in the state.
- ``POST /api/signin``: ``{"staff", "pin"}``: a dealer signs in (`DealerSignedIn`).
- ``POST /api/signout``: ``{}``: the dealer signed in signs out (`DealerSignedOut`).
- ``POST /api/supervisor``: ``{"staff", "pin", "decision", "reason"}``: a supervisor's
  decision (`SupervisorAction`, journaled with that supervisor's staff id).

PINs are checked here against the ``[[staff]]`` entries (`controller.app.console.supervisor`);
a wrong one is refused, counted for this console (a growing delay) and journaled
(`SignInRefused`, `SupervisorPinRefused`).

A second, read-only address (``[display] view_host``/``view_port``) serves the
surveillance page, the state and the events to others, and no console route at all.

The players' board (`controller.app.console.board`), on both addresses: ``GET /board``
(the page), ``GET /api/board`` (the board document alone, never the state) and
``GET /api/board/events`` (Server-Sent Events as ``/api/events``: one ``board`` event per
published state, a ``ping`` every `PING_SECONDS`). On an orderly stop every board hears
``closed`` before the server goes.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import queue
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.app.config import StaffMember, SupervisorConfig, TableConfig
from controller.app.config.board import BoardConfig
from controller.app.console.auth import (
    COOKIE,
    MAX_BODY,
    MAX_REASON,
    BadRequest,
    ConsoleCheck,
    Refusals,
    body_fields,
    console_secret,
    own_host,
    pin_of,
    staff_id_of,
    tls_context,
)
from controller.app.console.board import board_document
from controller.app.console.game_page import PATH as GAME_SCRIPT
from controller.app.console.game_page import handler as game_script
from controller.app.console.json_bounded import loads_bounded
from controller.app.console.schema import BadArguments, console_actions, supervisor_decisions
from controller.app.console.supervisor import PinGate
from controller.app.console.webthread import WebThread
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    DealerSignedIn,
    DealerSignedOut,
    Event,
    SignInRefused,
    SupervisorAction,
    SupervisorPinRefused,
)

log = logging.getLogger(__name__)
ARGS = frozenset({"args"})

STATIC = Path(__file__).parent / "static"
PING_SECONDS = 0.5
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'none'"
)
PAGES = {"/": "index.html", "/surveillance": "surveillance.html", "/board": "board.html"}
VIEW_PAGES = {
    "/": "surveillance.html",
    "/surveillance": "surveillance.html",
    "/board": "board.html",
}
CONSOLE = "console"  # the one console of a table: the key of its wrong-PIN count


class StatusServer(WebThread):
    what = "the status display"

    def __init__(
        self,
        events: queue.Queue[Any],
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        game: str,  # a registered game (its console actions and decisions)
        secret: bytes | None = None,
        staff: tuple[StaffMember, ...] = (),
        lockout: SupervisorConfig | None = None,
        gate: PinGate | None = None,
        readonly: bool = False,
        ssl_context: ssl.SSLContext | None = None,
        board: BoardConfig | None = None,
    ) -> None:
        super().__init__(host, port)
        self.board = board if board is not None else BoardConfig()
        self._board_text: str | None = None
        self._closing = False
        self._streams = 0  # the event streams open now (`finishing` lets them end)
        self.events = events
        self.game = game
        self.readonly = readonly
        self.ssl_context = ssl_context
        self.gate = gate if gate is not None else PinGate(staff, lockout)
        self.check = ConsoleCheck(secret)
        self._secret_hex = None if secret is None else secret.hex()
        self._state: dict[str, Any] = {}
        self._state_text: str | None = "{}"
        self._version = 0
        self._refusals = Refusals()
        self._pin_lock: asyncio.Lock | None = None
        self.views: list[StatusServer] = []  # read-only mirrors on other addresses

    @property
    def console_url(self) -> str | None:
        """The URL the kiosk opens once (it holds the secret: never log it)."""
        if self._secret_hex is None or self.readonly:
            return None
        return f"{self.url}/?console={self._secret_hex}"

    # --- the controller's side ----------------------------------------------------------

    def publish(self, state: dict[str, Any]) -> None:
        """Hand the new state to the server (from any thread; never blocks, never
        serialises). The state is the controller's hand-over: built from copies and never
        changed after, so this server's thread turns it into JSON, once, when a page or a
        request first asks for it (`_text`)."""
        self._hand_over(state)
        for view in self.views:
            view._hand_over(state)

    def _hand_over(self, state: dict[str, Any]) -> None:
        if not self.call(self._set_state, state):
            self._state, self._state_text = state, None  # not serving (yet, or any more)

    def start(self) -> StatusServer:
        super().start()
        for view in self.views:
            view.start()
        return self

    def close(self) -> None:
        """Stop serving; every players' board hears ``closed`` first (TABLE CLOSED)."""
        for view in self.views:
            view.close()
        self.call(self._table_closing)
        super().close()

    def _table_closing(self) -> None:
        self._closing, self._board_text = True, None
        self._version += 1
        self.wake()

    def build_app(self) -> web.Application:
        middlewares = [] if self.readonly else [self._host_is_mine]
        app = web.Application(client_max_size=MAX_BODY, middlewares=middlewares)
        app.on_response_prepare.append(_headers)
        app.add_routes(
            [
                web.get("/api/state", self._get_state),
                web.get("/api/events", self._get_events),
                web.get(GAME_SCRIPT, game_script(self.game)),  # the game's own drawing
                web.get("/api/board", self._get_board),  # the players' board
                web.get("/api/board/events", self._get_board_events),
            ]
        )
        if self.readonly:
            app.add_routes([web.get(path, self._page) for path in VIEW_PAGES])
        else:
            app.add_routes(
                [
                    web.get("/api/session", self._get_session),
                    web.post("/api/console", self._guard(self._post_console)),
                    web.post("/api/signin", self._guard(self._post_signin)),
                    web.post("/api/signout", self._guard(self._post_signout)),
                    web.post("/api/supervisor", self._guard(self._post_supervisor)),
                ]
            )
            app.add_routes([web.get(path, self._page) for path in PAGES])
        app.add_routes([web.static("/static", STATIC)])
        return app

    @web.middleware
    async def _host_is_mine(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """The console's server answers only requests that name it: a page that rebinds
        its own DNS name to 127.0.0.1 can read nothing through the kiosk's browser."""
        named = request.headers.get("Host", "")
        if not own_host(named, self.host, self.port, self.ssl_context is not None):
            return self._deny(request, 403, "the Host is not this server")
        return await handler(request)

    def _set_state(self, state: dict[str, Any]) -> None:
        self._state, self._state_text, self._board_text = state, None, None
        self._version += 1
        self.wake()

    def _text(self) -> str:
        """The latest state as JSON, made on the server's thread the first time it is
        asked for (a state nobody reads before the next one is never serialised)."""
        text = self._state_text
        if text is None:
            text = self._state_text = json.dumps(self._state, separators=(",", ":"))
        return text

    def _board(self) -> str:
        """The players' board of the latest state as JSON, made on the server's thread
        once per state (`controller.app.console.board`: never the state itself)."""
        text = self._board_text
        if text is None:
            document = board_document(self._state, self.board, self.game, closed=self._closing)
            text = self._board_text = json.dumps(document, separators=(",", ":"))
        return text

    # --- pages and read-only views ------------------------------------------------------

    async def _page(self, request: web.Request) -> web.StreamResponse:
        if not self.readonly and "console" in request.query:
            return self._present_secret(request)
        pages = VIEW_PAGES if self.readonly else PAGES
        return web.FileResponse(STATIC / pages[request.path], headers={"Cache-Control": "no-cache"})

    def _present_secret(self, request: web.Request) -> web.StreamResponse:
        """``/?console=<secret>``: right, the cookie is set and the browser sent to ``/``
        (the secret leaves the address bar and the history entry); wrong, refused."""
        given = request.query.get("console", "").strip().lower()
        cookie = self.check.cookie
        if self._secret_hex is None or cookie is None or request.path != "/":
            return self._deny(request, 403, "this server has no console")
        if not hmac.compare_digest(given.encode(), self._secret_hex.encode()):
            return self._deny(request, 403, "not this table's console secret")
        response = web.Response(status=303, headers={"Location": "/", "Cache-Control": "no-store"})
        response.set_cookie(
            COOKIE,
            cookie,
            httponly=True,
            samesite="Strict",
            path="/",
            secure=self.ssl_context is not None,
        )
        log.info("the console secret was presented: this browser is the table's console")
        return response

    async def _get_state(self, request: web.Request) -> web.Response:
        return web.Response(text=self._text(), content_type="application/json")

    async def _get_board(self, request: web.Request) -> web.Response:
        return web.Response(
            text=self._board(),
            content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )

    async def _get_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, "state", self._text)

    async def _get_board_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, "board", self._board)

    async def _stream(
        self, request: web.Request, kind: str, text: Callable[[], str]
    ) -> web.StreamResponse:
        """Server-Sent Events: ``kind`` with the latest document at once and after every
        change, a ``ping`` every `PING_SECONDS` otherwise; the last change made before the
        server stops (the board's ``closed``) is still sent."""
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        await response.write(b"retry: 500\n\n")
        seen = -1
        stop = self.stopping
        self._streams += 1
        try:
            while stop is not None and self.changed is not None:
                changed = self.changed
                if self._version != seen:
                    seen = self._version
                    await response.write(f"event: {kind}\ndata: {text()}\n\n".encode())
                    continue
                if stop.is_set():
                    break
                try:
                    await asyncio.wait_for(changed.wait(), timeout=PING_SECONDS)
                except TimeoutError:
                    await response.write(b"event: ping\ndata: {}\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._streams -= 1
        return response

    async def finishing(self) -> None:
        """Every open event stream sends the last change (the board's ``closed``) before the
        connections close: stopping wakes the server's own task and the streams alike, and
        the server's must not close them first. A second at most (a page that reads
        nothing)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 1.0
        while self._streams and loop.time() < deadline:
            await asyncio.sleep(0.01)

    # --- who may write -------------------------------------------------------------------

    def is_console(self, request: web.Request) -> bool:
        """Whether the request carries this table's console cookie."""
        return self.check.is_console(request)

    def _deny(self, request: web.Request, status: int, why: str) -> web.Response:
        self._refusals.note(request, status, why)
        return web.json_response({"accepted": False, "error": why}, status=status)

    def _guard(
        self, handler: Callable[[web.Request, dict[str, Any]], Awaitable[web.Response]]
    ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def guarded(request: web.Request) -> web.Response:
            refused = self.check.refusal(
                request, host=self.host, port=self.port, tls=self.ssl_context is not None
            )
            if refused is not None:
                return self._deny(request, *refused)
            try:
                raw = await request.read()
            except web.HTTPRequestEntityTooLarge:
                return self._deny(request, 413, f"the body is over {MAX_BODY} bytes")
            try:
                body = loads_bounded(raw)
            except ValueError as exc:
                return self._deny(request, 400, f"the body must be JSON: {exc}")
            if not isinstance(body, dict):
                return self._deny(request, 400, "the body must be a JSON object")
            try:
                return await handler(request, body)
            except BadRequest as exc:
                return self._deny(request, 400, str(exc))

        return guarded

    # --- the console -----------------------------------------------------------------------

    async def _get_session(self, request: web.Request) -> web.Response:
        console = self.is_console(request)
        answer: dict[str, Any] = {"console": console, "dealer": self._state.get("dealer")}
        if console:
            answer.update(self.gate.status(CONSOLE))
        return web.json_response(answer)

    async def _post_console(self, request: web.Request, body: dict[str, Any]) -> web.Response:
        event: Event
        if "button" in body:
            body_fields(body, required={"button"}, optional=frozenset({"held"}))
            try:
                button = ConsoleButton(body["button"])
            except (ValueError, TypeError):
                raise BadRequest("no such console button") from None
            if button is ConsoleButton.SUPERVISOR:
                raise BadRequest("the supervisor key is not on the touch console: use the PIN")
            held = body.get("held", False)
            if not isinstance(held, bool):
                raise BadRequest("'held' is true or false")
            event = ButtonPressed(source="console", button=button, held=held)
        else:
            body_fields(body, required={"action"}, optional=ARGS)
            action, args = body["action"], body.get("args", {})
            schema = console_actions(self.game)
            if not isinstance(action, str) or action not in schema:
                raise BadRequest(f"the {self.game} console has no such action")
            if not isinstance(args, dict):
                raise BadRequest("'args' is an object")
            try:
                schema[action].check(args)
            except BadArguments as exc:
                raise BadRequest(str(exc)) from None
            event = ConsoleAction(source="console", action=action, args=args)
        self.events.put(event)
        return web.json_response({"accepted": True}, status=202)

    async def _attempt(self, staff: str, pin: str, role: str) -> Any:
        """One PIN at this console, one at a time (the count is exact)."""
        if self._pin_lock is None:
            self._pin_lock = asyncio.Lock()
        loop = asyncio.get_running_loop()
        async with self._pin_lock:  # scrypt: ~50 ms, in the executor
            return await loop.run_in_executor(None, self.gate.attempt, CONSOLE, staff, pin, role)

    def _pin_refused(
        self, verdict: Any, staff: str, record: type[SignInRefused | SupervisorPinRefused]
    ) -> web.Response:
        """A wrong PIN (or one during the delay): journaled as ``record`` with who tried and
        how the count stands, and answered 403, or 429 while the delay runs."""
        self.events.put(
            record(
                source="console",
                who=staff,
                failures=verdict.failures,
                locked_for=verdict.locked_for,
            )
        )
        status = 429 if verdict.locked_for > 0 else 403
        headers = {"Retry-After": str(int(verdict.locked_for + 0.999))} if status == 429 else {}
        return web.json_response(
            {
                "accepted": False,
                "error": verdict.error,
                "failures": verdict.failures,
                "tries_left": verdict.tries_left,
                "locked_for": verdict.locked_for,
            },
            status=status,
            headers=headers,
        )

    async def _post_signin(self, request: web.Request, body: dict[str, Any]) -> web.Response:
        body_fields(body, required={"staff", "pin"})
        staff, pin = staff_id_of(body["staff"]), pin_of(body["pin"])
        verdict = await self._attempt(staff, pin, "dealer")
        if verdict.member is None:
            return self._pin_refused(verdict, staff, SignInRefused)
        member: StaffMember = verdict.member
        self.events.put(DealerSignedIn(source="console", staff_id=member.id, name=member.name))
        return web.json_response(
            {"accepted": True, "dealer": {"id": member.id, "name": member.name}}, status=202
        )

    async def _post_signout(self, request: web.Request, body: dict[str, Any]) -> web.Response:
        body_fields(body, required=set())
        dealer = self._state.get("dealer")
        if not isinstance(dealer, dict):
            return web.json_response(
                {"accepted": False, "error": "nobody is signed in"}, status=409
            )
        self.events.put(
            DealerSignedOut(source="console", staff_id=str(dealer["id"]), name=str(dealer["name"]))
        )
        return web.json_response({"accepted": True}, status=202)

    async def _post_supervisor(self, request: web.Request, body: dict[str, Any]) -> web.Response:
        body_fields(body, required={"staff", "pin", "decision", "reason"}, optional=ARGS)
        staff, pin = staff_id_of(body["staff"]), pin_of(body["pin"])
        decision, reason, args = body["decision"], body["reason"], body.get("args", {})
        decisions = supervisor_decisions(self.game)
        if not isinstance(decision, str) or decision not in decisions:
            raise BadRequest("a supervisor action needs a decision the game knows")
        if not isinstance(args, dict):
            raise BadRequest("'args' is an object")
        try:
            decisions[decision].check(args)
        except BadArguments as exc:
            raise BadRequest(str(exc)) from None
        if not isinstance(reason, str) or not reason.strip():
            raise BadRequest("a supervisor action says why")
        if len(reason) > MAX_REASON or not reason.isprintable():
            raise BadRequest(f"the reason is printable text of at most {MAX_REASON} characters")
        verdict = await self._attempt(staff, pin, "supervisor")
        if verdict.member is None:
            return self._pin_refused(verdict, staff, SupervisorPinRefused)
        self.events.put(
            SupervisorAction(
                source="supervisor",
                who=verdict.member.id,
                decision=decision,
                reason=reason.strip(),
                args=args,
            )
        )
        return web.json_response({"accepted": True}, status=202)


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Every response says: nothing but this server may be loaded (no CDN, no fonts from
    the internet), and the page may not be framed elsewhere."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.path.startswith("/static/"):  # after an upgrade the kiosk must not run old JS
        response.headers["Cache-Control"] = "no-cache"


def status_server(config: TableConfig, events: queue.Queue[Any]) -> StatusServer:
    """The status display and console for a table config, and its read-only address when
    the config gives one."""
    gate = PinGate(config.staff, config.supervisor)
    server = StatusServer(
        events,
        host=config.display_host,
        port=config.display_port,
        game=config.game,
        secret=console_secret(config),
        gate=gate,
        ssl_context=tls_context(config),
        board=config.board,
    )
    if config.view_host:
        server.views.append(
            StatusServer(
                events,
                host=config.view_host,
                port=config.view_port,
                game=config.game,
                gate=gate,
                readonly=True,
                board=config.board,
            )
        )
    return server
