"""The status display's server, inside the `tablectl` process (aiohttp, its own thread).

The controller thread calls `StatusServer.publish` after every event with the new state; the
server keeps only the latest and pushes it to every connected page over Server-Sent Events.
`publish` never blocks and never waits on the network: it hands the state to the server's
event loop with ``call_soon_threadsafe`` and returns.

Pages (docs/display.md), all served from ``static/`` by this server, nothing from the
internet (the Content-Security-Policy says ``'self'`` only):

- ``GET /``: the dealer's display and touch console (the table's own screen).
- ``GET /surveillance``: the same display, read-only: no console, no supervisor panel.

The HTTP API:

- ``GET  /api/state``: the latest state, JSON.
- ``GET  /api/events``: Server-Sent Events: one ``state`` event per published state (the
  latest at once on connect), and a ``ping`` every `PING_SECONDS`, so a page that hears
  nothing for 1.5 s knows the controller is gone and says DISCONNECTED.
- ``POST /api/console``: ``{"action": "double", "args": {"box": 3}, "actor": "dealer 7"}``
  puts a `ConsoleAction` on the controller's queue (the rules decide; a refusal shows in the
  state with its rule). ``{"button": "next"}`` puts a `ButtonPressed`.
- ``GET  /api/supervisor``: whether a PIN is configured, the wrong-PIN count, any lockout.
- ``POST /api/supervisor``: ``{"pin", "who", "decision", "reason"}``: the PIN is checked
  here (`controller.app.supervisor`); if right, a `SupervisorAction` with who and why goes
  on the queue, and the loop journals it with ``actor=who``. A wrong PIN is refused (403)
  and counted; after ``lockout_tries`` every attempt is refused (423) for
  ``lockout_seconds``.

Bound to localhost by default: the table's own screen runs Chromium in kiosk mode on it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.app.config import TableConfig
from controller.app.supervisor import SupervisorGate
from controller.app.webthread import WebThread
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    Event,
    SupervisorAction,
    SupervisorPinRefused,
)

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
PING_SECONDS = 0.5
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
PAGES = {"/": "index.html", "/surveillance": "surveillance.html"}


class StatusServer(WebThread):
    what = "the status display"

    def __init__(
        self,
        events: queue.Queue[Any],
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        gate: SupervisorGate | None = None,
    ) -> None:
        super().__init__(host, port)
        self.events = events
        self.gate = gate if gate is not None else SupervisorGate(None)
        self._state: dict[str, Any] = {}
        self._state_text = "{}"
        self._version = 0

    # --- the controller's side ----------------------------------------------------------

    def publish(self, state: dict[str, Any]) -> None:
        """Hand the new state to the server (from any thread; never blocks)."""
        text = json.dumps(state, separators=(",", ":"))
        if not self.call(self._set_state, state, text):
            self._state, self._state_text = state, text  # not serving (yet, or any more)

    def build_app(self) -> web.Application:
        app = web.Application()
        app.on_response_prepare.append(_headers)
        app.add_routes(
            [
                web.get("/api/state", self._get_state),
                web.get("/api/events", self._get_events),
                web.post("/api/console", self._post_console),
                web.get("/api/supervisor", self._get_supervisor),
                web.post("/api/supervisor", self._post_supervisor),
            ]
        )
        app.add_routes([web.get(path, self._page) for path in PAGES])
        app.add_routes([web.static("/static", STATIC)])
        return app

    def _set_state(self, state: dict[str, Any], text: str) -> None:
        self._state, self._state_text = state, text
        self._version += 1
        self.wake()

    # --- handlers -----------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / PAGES[request.path], headers={"Cache-Control": "no-cache"})

    async def _get_state(self, request: web.Request) -> web.Response:
        return web.Response(text=self._state_text, content_type="application/json")

    async def _get_events(self, request: web.Request) -> web.StreamResponse:
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
        try:
            while stop is not None and not stop.is_set() and self.changed is not None:
                changed = self.changed
                if self._version != seen:
                    seen = self._version
                    await response.write(f"event: state\ndata: {self._state_text}\n\n".encode())
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), timeout=PING_SECONDS)
                except TimeoutError:
                    await response.write(b"event: ping\ndata: {}\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response

    async def _post_console(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        event: Event
        if "button" in body:
            try:
                button = ConsoleButton(body["button"])
            except ValueError:
                return _refuse(f"no console button {body['button']!r}")
            if button is ConsoleButton.SUPERVISOR:
                return _refuse("the supervisor key is not on the touch console: use the PIN")
            event = ButtonPressed(source="console", button=button, held=bool(body.get("held")))
        else:
            action = body.get("action")
            args = body.get("args", {})
            if not isinstance(action, str) or not isinstance(args, dict):
                return _refuse("expected {'action': str, 'args': {...}} or {'button': str}")
            actor = body.get("actor")
            event = ConsoleAction(
                source="console", action=action, args=args, actor=str(actor) if actor else None
            )
        self.events.put(event)
        return web.json_response({"accepted": True}, status=202)

    async def _get_supervisor(self, request: web.Request) -> web.Response:
        return web.json_response(self.gate.status())

    async def _post_supervisor(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        who, decision = body.get("who"), body.get("decision")
        reason, pin = body.get("reason"), body.get("pin")
        if not isinstance(who, str) or not who.strip():
            return _refuse("a supervisor action names who does it")
        if not isinstance(reason, str) or not reason.strip():
            return _refuse("a supervisor action says why")
        if not isinstance(decision, str) or not decision:
            return _refuse("a supervisor action needs a decision")
        if not isinstance(pin, str):
            return _refuse("a supervisor action needs the supervisor PIN")
        loop = asyncio.get_running_loop()
        verdict = await loop.run_in_executor(None, self.gate.attempt, pin)  # scrypt: ~50 ms
        if not verdict.accepted:
            log.warning("supervisor action by %r refused: %s", who, verdict.error)
            self.events.put(
                SupervisorPinRefused(
                    source="supervisor",
                    who=who.strip(),
                    failures=verdict.failures,
                    locked_for=verdict.locked_for,
                )
            )
            status = 423 if verdict.tries_left == 0 and verdict.locked_for > 0 else 403
            return web.json_response(
                {
                    "accepted": False,
                    "error": verdict.error,
                    "failures": verdict.failures,
                    "tries_left": verdict.tries_left,
                    "locked_for": verdict.locked_for,
                },
                status=status,
            )
        self.events.put(
            SupervisorAction(
                source="supervisor", who=who.strip(), decision=decision, reason=reason.strip()
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


async def _json_body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="the body must be JSON") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="the body must be a JSON object")
    return body


def _refuse(message: str) -> web.Response:
    return web.json_response({"accepted": False, "error": message}, status=400)


def status_server(config: TableConfig, events: queue.Queue[Any]) -> StatusServer:
    """The status display for a table config (its supervisor PIN checked by the server)."""
    return StatusServer(
        events,
        host=config.display_host,
        port=config.display_port,
        gate=SupervisorGate(config.supervisor),
    )
