"""Who may hold a connection to one of our web servers, and for how long.

The status display and the pit's floor view accept connections themselves (`Doorway`) so
that a flood of them costs the process nothing it needs: each connection is counted from
the moment it is accepted, and one past a cap is closed there and then, before a byte is
read. The caps, in order:

- `PER_CLIENT` connections from one address: a browser opens at most 6 to a server
  (HTTP/1.1) besides its event stream; 16 leaves room for a second tab or a second
  browser behind the same address, and keeps one address from taking all the rest.
- `PER_SERVER` connections to one server: a table's screen and a handful of
  surveillance pages, or the pit's screens, need a few dozen at most.
- In all, the connections of every server in the process together leave `RESERVED_FDS`
  of the process's file descriptor limit (``RLIMIT_NOFILE``: ``LimitNOFILE`` in the
  unit) to the table itself: its journal (the file, its WAL and shared memory), the
  checkpoint it holds open, the pit's cursor and reader, the devices, the broker's
  socket, Python's own. At the unit's 1024 the per-server cap binds first; under a low
  limit the servers get less, never the journal's descriptors.

An event stream counts like any connection. Then time (`Timeouts`, checked every
`SWEEP_SECONDS`): a request's head (and body) must arrive within `HEADER_SECONDS` of its
first byte, a kept-alive connection with no request is closed after `IDLE_SECONDS`, and
one whose client stops reading what it is sent (a stalled event stream) after
`STALLED_SECONDS`; the TLS handshake gets `HEADER_SECONDS` too.

Refusals are logged once per cause when they begin, then as a count every `LOG_SECONDS`
while they go on: a flood never floods the log. Running out of descriptors at accept
(``EMFILE``) is one more cause: the server stops accepting for `ACCEPT_PAUSE` and tries
again, instead of spinning on a socket it cannot accept from (asyncio's own server logs
every such failure, with its traceback).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import resource
import socket
import ssl
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

from aiohttp import web

log = logging.getLogger(__name__)

PER_CLIENT = 16
PER_SERVER = 128
RESERVED_FDS = 64
HEADER_SECONDS = 10.0
IDLE_SECONDS = 15.0
STALLED_SECONDS = 30.0
SWEEP_SECONDS = 0.5
LOG_SECONDS = 60.0
ACCEPT_PAUSE = 0.5
ACCEPT_BURST = 64  # connections taken per wake-up, so one server cannot hog its loop
_OUT_OF_FDS = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM})


class ProcessBudget:
    """The connections every server of this process holds together, under the descriptor
    limit less `RESERVED_FDS` (read when the first server starts). Thread-safe: each
    server runs its own event loop on its own thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.held = 0
        self.limit: int | None = None

    def take(self) -> bool:
        with self._lock:
            if self.limit is None:
                soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
                unlimited = soft == resource.RLIM_INFINITY  # then the per-server caps bind
                self.limit = PER_SERVER * 8 if unlimited else max(0, soft - RESERVED_FDS)
            if self.held >= self.limit:
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.held -= 1


PROCESS = ProcessBudget()


class RefusalLog:
    """One warning when a cause of refusal begins (naming the first address refused for
    it), then a count every `LOG_SECONDS` while refusals go on; a cause quiet for a whole
    interval is announced again when it comes back. ``what``: the server, as its error
    messages name it."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.what = what
        self.clock = clock
        self.counts: Counter[str] = Counter()  # this interval's refusals, by cause
        self.announced: set[str] = set()
        self._since = clock()

    def refused(self, cause: str, client: str = "") -> None:
        if cause not in self.announced:
            self.announced.add(cause)
            log.warning(
                "%s: refusing connections: %s%s (a count follows every %d s while it lasts)",
                self.what,
                cause,
                f"; the first from {client}" if client else "",
                LOG_SECONDS,
            )
        self.counts[cause] += 1

    def tick(self) -> None:
        if self.clock() - self._since < LOG_SECONDS:
            return
        self._since = self.clock()
        for cause, count in sorted(self.counts.items()):
            log.warning(
                "%s: refused %d connections in the last %d s: %s",
                self.what,
                count,
                LOG_SECONDS,
                cause,
            )
        self.announced &= set(self.counts)  # quiet causes are announced again
        self.counts.clear()


@dataclasses.dataclass(eq=False)
class Connection(asyncio.Protocol):
    """One accepted connection, between the transport and aiohttp's request handler: it
    tells the doorway when the connection ends and when a request's first bytes come."""

    doorway: Doorway
    client: str
    handler: asyncio.Protocol
    transport: asyncio.Transport | None = None
    head_since: float | None = None  # the first byte of a request not yet being handled
    request: web.BaseRequest | None = None  # the request being handled
    busy_since: float = 0.0
    idle_since: float = 0.0
    stalled_since: float | None = None
    released: bool = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)
        self.idle_since = self.doorway.clock()
        self.doorway.open[self.transport] = self
        self.handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.request is None and self.head_since is None:
            self.head_since = self.doorway.clock()
        self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received()

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.doorway.release(self)
        self.handler.connection_lost(exc)

    def overdue(self, now: float) -> str | None:
        """Why this connection should be closed now, or None."""
        transport = self.transport
        if transport is None:
            return None
        if transport.get_write_buffer_size() > 0:
            self.stalled_since = self.stalled_since or now
            if now - self.stalled_since > STALLED_SECONDS:
                return f"its client read nothing it was sent for {STALLED_SECONDS:.0f} s"
        else:
            self.stalled_since = None
        request = self.request
        if request is not None:
            content = request.content
            if not content.at_eof() and now - self.busy_since > HEADER_SECONDS:
                return f"the request's body did not arrive within {HEADER_SECONDS:.0f} s"
            return None
        if self.head_since is not None:
            if now - self.head_since > HEADER_SECONDS:
                return f"the request's head did not arrive within {HEADER_SECONDS:.0f} s"
            return None
        if now - self.idle_since > IDLE_SECONDS:
            return f"idle for {IDLE_SECONDS:.0f} s"
        return None


class Doorway:
    """A server's listening socket, its accepting and its connections (module docstring).
    Runs on the server's event loop; ``factory`` makes aiohttp's handler of a connection
    (the runner's server)."""

    def __init__(
        self,
        what: str,
        factory: Callable[[], asyncio.Protocol],
        ssl_context: ssl.SSLContext | None = None,
        *,
        budget: ProcessBudget = PROCESS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.factory = factory
        self.ssl_context = ssl_context
        self.budget = budget
        self.clock = clock
        self.refusals = RefusalLog(what, clock)
        self.per_client: Counter[str] = Counter()
        self.held = 0
        self.open: dict[asyncio.BaseTransport, Connection] = {}
        self._sockets: list[socket.socket] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._accepting = False

    # --- listening ------------------------------------------------------------------------

    def listen(self, host: str, port: int) -> int:
        """Bind every address ``host`` names (as aiohttp's own site would; port 0: a free
        one, the same for all) and start accepting; the port bound."""
        self._loop = asyncio.get_running_loop()
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:  # as asyncio does: no clash with IPv4's bind
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                if self._sockets:
                    address = (address[0], self._sockets[0].getsockname()[1], *address[2:])
                sock.bind(address)
                sock.listen(128)
                sock.setblocking(False)
            except OSError:
                sock.close()
                for bound in self._sockets:
                    bound.close()
                self._sockets.clear()
                raise
            self._sockets.append(sock)
        self._resume()
        self._sweeper = asyncio.create_task(self._sweep())
        return int(self._sockets[0].getsockname()[1])

    def _resume(self) -> None:
        if self._loop is None or not self._sockets or self._accepting:
            return
        self._accepting = True
        for sock in self._sockets:
            self._loop.add_reader(sock.fileno(), self._accept, sock)

    def _pause(self) -> None:
        if self._loop is None or not self._accepting:
            return
        self._accepting = False
        for sock in self._sockets:
            self._loop.remove_reader(sock.fileno())

    async def close(self) -> None:
        """Stop accepting and close every connection (aiohttp's own clean-up follows)."""
        self._pause()
        for sock in self._sockets:
            sock.close()
        self._sockets.clear()
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for connection in list(self.open.values()):
            if connection.transport is not None:
                connection.transport.abort()

    # --- accepting ------------------------------------------------------------------------

    def _accept(self, listening: socket.socket) -> None:
        for _ in range(ACCEPT_BURST):
            try:
                sock, address = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:  # out of descriptors (EMFILE), or the kernel's trouble
                short = exc.errno in _OUT_OF_FDS
                what = "the process is short of file descriptors" if short else "accept failed"
                self.refusals.refused(f"{what} ({exc.strerror or exc})")
                self._pause()  # not a spin on a socket that cannot be accepted from
                asyncio.get_running_loop().call_later(ACCEPT_PAUSE, self._resume)
                return
            client = str(address[0]) if isinstance(address, tuple) else "local"
            cause = self._admit(client)
            if cause is not None:
                sock.close()
                self.refusals.refused(cause, client)
                continue
            sock.setblocking(False)
            self._connect(sock, client)

    def _admit(self, client: str) -> str | None:
        """Count the connection in, or say which cap it is over."""
        if self.per_client[client] >= PER_CLIENT:
            return f"an address already holds {PER_CLIENT} connections, the most one may"
        if self.held >= PER_SERVER:
            return f"{PER_SERVER} connections open, the most this server takes"
        if not self.budget.take():
            return (
                f"the process's web servers hold {self.budget.limit} connections, all the "
                f"file descriptor limit leaves them (less {RESERVED_FDS} kept for the table)"
            )
        self.per_client[client] += 1
        self.held += 1
        return None

    def _connect(self, sock: socket.socket, client: str) -> None:
        loop = asyncio.get_running_loop()
        connection = Connection(self, client, self.factory())
        extra: dict[str, Any] = {}
        if self.ssl_context is not None:
            extra = {"ssl": self.ssl_context, "ssl_handshake_timeout": HEADER_SECONDS}
        task = loop.create_task(loop.connect_accepted_socket(lambda: connection, sock, **extra))

        def done(task: asyncio.Task[Any]) -> None:
            if task.cancelled() or task.exception() is not None:
                sock.close()
                self.release(connection)  # the TLS handshake failed or timed out

        task.add_done_callback(done)

    def release(self, connection: Connection) -> None:
        """A connection ended: its place is free (once, however it ended)."""
        if connection.released:
            return
        connection.released = True
        if connection.transport is not None:
            self.open.pop(connection.transport, None)
        self.per_client[connection.client] -= 1
        if self.per_client[connection.client] <= 0:
            del self.per_client[connection.client]
        self.held -= 1
        self.budget.give_back()

    # --- time -----------------------------------------------------------------------------

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        """Marks the connection busy while a request is handled (its head is in)."""
        connection = self.open.get(request.transport) if request.transport else None
        if connection is None:
            response: web.StreamResponse = await handler(request)
            return response
        connection.request, connection.head_since = request, None
        connection.busy_since = self.clock()
        try:
            response = await handler(request)
            return response
        finally:
            connection.request = None
            connection.idle_since = self.clock()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = self.clock()
            for connection in list(self.open.values()):
                why = connection.overdue(now)
                transport = connection.transport
                if why is None or transport is None:
                    continue
                log.debug("%s: closed a connection from %s: %s", self.what, connection.client, why)
                if transport.get_write_buffer_size() > 0:
                    transport.abort()  # close() would wait for a client that is not reading
                else:
                    transport.close()
            self.refusals.tick()
