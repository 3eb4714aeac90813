"""An aiohttp application served from its own thread, with its own event loop.

The status display and the pit's floor view both run this way inside a process whose main
work happens elsewhere (the controller thread, the MQTT client). Other threads reach the
server only through `call` (``call_soon_threadsafe``), which never blocks; pages waiting for
news wait on `changed`, an event that is set and replaced each time there is news.

Connections come in through a `controller.app.console.connections.Doorway`, not aiohttp's own
site: it caps them per client, per server and for the process as a whole, closes slow and
idle ones, and logs a flood once (docs/security.md, "Connections").
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import ssl
import threading
from collections.abc import Callable
from typing import Any, Self

from aiohttp import web

from controller.app.console.connections import Doorway

log = logging.getLogger(__name__)


class WebThread(abc.ABC):
    what = "the web server"  # for error messages: "cannot serve <what> on host:port"
    ssl_context: ssl.SSLContext | None = None  # set before start() to serve over TLS

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.loop: asyncio.AbstractEventLoop | None = None
        self.stopping: asyncio.Event | None = None
        self.changed: asyncio.Event | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    @abc.abstractmethod
    def build_app(self) -> web.Application:
        """The server's routes (each server builds its own)."""

    @property
    def url(self) -> str:
        scheme = "https" if self.ssl_context is not None else "http"
        return f"{scheme}://{self.host}:{self.port}"

    def start(self) -> Self:
        self._thread = threading.Thread(target=self._serve, name=type(self).__name__, daemon=True)
        self._thread.start()
        self._ready.wait(timeout=10)
        if self._error is not None:
            raise OSError(
                f"cannot serve {self.what} on {self.host}:{self.port}: {self._error}"
            ) from self._error
        log.info("%s on %s/", self.what, self.url)
        return self

    def close(self) -> None:
        loop, stopping = self.loop, self.stopping
        if loop is not None and stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def call(self, function: Callable[..., Any], *args: Any) -> bool:
        """Run ``function(*args)`` on the server's loop, from any thread, without waiting.
        False when the server is not running."""
        loop = self.loop
        if loop is None:
            return False
        try:
            loop.call_soon_threadsafe(function, *args)
        except RuntimeError:  # the loop has closed
            return False
        return True

    async def finishing(self) -> None:
        """On the server's loop, once told to stop and before the connections close: what
        the server still owes its pages (nothing, by default)."""
        return None

    def wake(self) -> None:
        """On the server's loop: tell every waiting page there is news."""
        if self.changed is not None:
            self.changed.set()
            self.changed = asyncio.Event()

    def _serve(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported to start()
            self._error = exc
            self._ready.set()

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.changed = asyncio.Event()
        self.stopping = asyncio.Event()
        app = self.build_app()
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
        doorway = Doorway(self.what, lambda: _handler(runner), self.ssl_context)
        app.middlewares.insert(0, doorway.middleware)  # before the app's own
        await runner.setup()
        try:
            self.port = doorway.listen(self.host, self.port)
            self._ready.set()
            await self.stopping.wait()
            await self.finishing()
        finally:
            await doorway.close()
            await runner.cleanup()


def _handler(runner: web.AppRunner) -> asyncio.Protocol:
    """aiohttp's handler for one new connection (the runner is set up before any)."""
    server = runner.server
    if server is None:
        raise RuntimeError("the web server is not set up")
    return server()
