"""The status display's server, inside the `tablectl` process (aiohttp, its own thread).

The controller thread calls `StatusServer.publish` after every event with the new state; the
server keeps only the latest and pushes it to every connected page over Server-Sent Events.
`publish` never blocks and never waits on the network: it hands the state to the server's
event loop with ``call_soon_threadsafe`` and returns.

The HTTP API:

- ``GET  /api/state``: the latest state, JSON.
- ``GET  /api/events``: Server-Sent Events, one ``state`` event per published state, the
  latest at once on connect.
- ``POST /api/console``: ``{"action": "double", "args": {"box": 3}, "actor": "dealer 7"}``
  puts a `ConsoleAction` on the controller's queue (the rules decide; a refusal shows in the
  state with its rule). ``{"button": "next"}`` puts a `ButtonPressed`.
- ``POST /api/supervisor``: ``{"who": ..., "decision": ..., "reason": ...}`` puts a
  `SupervisorAction`.

Bound to localhost by default: the table's own screen runs Chromium in kiosk mode on it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from aiohttp import web

from controller.app.config import TableConfig
from controller.ports import ButtonPressed, ConsoleAction, ConsoleButton, Event, SupervisorAction

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"


class StatusServer:
    def __init__(
        self,
        events: queue.Queue[Any],
        *,
        host: str = "127.0.0.1",
        port: int = 8080,
        check_supervisor: Callable[[dict[str, Any]], str | None] | None = None,
    ) -> None:
        self.events = events
        self.host = host
        self.port = port
        self.check_supervisor = check_supervisor
        self._state: dict[str, Any] = {}
        self._state_text = "{}"
        self._version = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None  # set, then replaced, on every new state
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._error: BaseException | None = None

    # --- the controller's side ----------------------------------------------------------

    def publish(self, state: dict[str, Any]) -> None:
        """Hand the new state to the server (from any thread; never blocks)."""
        text = json.dumps(state, separators=(",", ":"))
        loop = self._loop
        if loop is None:
            self._state, self._state_text = state, text
            return
        loop.call_soon_threadsafe(self._set_state, state, text)

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> StatusServer:
        self._thread = threading.Thread(target=self._serve, name="status-server", daemon=True)
        self._thread.start()
        self._ready.wait(timeout=10)
        if self._error is not None:
            raise OSError(
                f"cannot serve the status display on {self.host}:{self.port}: {self._error}"
            ) from self._error
        log.info("status display on http://%s:%d/", self.host, self.port)
        return self

    def close(self) -> None:
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            loop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to start()
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()
        self._stop = asyncio.Event()
        app = web.Application()
        app.add_routes(
            [
                web.get("/api/state", self._get_state),
                web.get("/api/events", self._get_events),
                web.post("/api/console", self._post_console),
                web.post("/api/supervisor", self._post_supervisor),
            ]
        )
        if STATIC.is_dir():
            app.add_routes([web.get("/", self._index), web.static("/static", STATIC)])
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port, reuse_address=True)
        await site.start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]
        self._ready.set()
        await self._stop.wait()
        await self._runner.cleanup()

    def _set_state(self, state: dict[str, Any], text: str) -> None:
        self._state, self._state_text = state, text
        self._version += 1
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    # --- handlers -----------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _get_state(self, request: web.Request) -> web.Response:
        return web.Response(text=self._state_text, content_type="application/json")

    async def _get_events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        seen = -1
        stop = self._stop
        try:
            while stop is not None and not stop.is_set() and self._changed is not None:
                changed = self._changed
                if self._version != seen:
                    seen = self._version
                    await response.write(f"event: state\ndata: {self._state_text}\n\n".encode())
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), timeout=1.0)
                except TimeoutError:
                    await response.write(b": keep-alive\n\n")
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

    async def _post_supervisor(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        if self.check_supervisor is not None:
            problem = self.check_supervisor(body)
            if problem is not None:
                return web.json_response({"accepted": False, "error": problem}, status=403)
        who, decision = body.get("who"), body.get("decision")
        if not isinstance(who, str) or not who or not isinstance(decision, str):
            return _refuse("a supervisor action needs 'who' and 'decision'")
        self.events.put(
            SupervisorAction(
                source="supervisor", who=who, decision=decision, reason=str(body.get("reason", ""))
            )
        )
        return web.json_response({"accepted": True}, status=202)


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
    """The status display for a table config."""
    return StatusServer(events, host=config.display_host, port=config.display_port)
