"""Who may change the floor view: pit staff signed in, each write named by the server.

Reading the floor (the page, ``/api/tables``, the events, figures, charts, the CSV) needs
no sign-in: a pit monitor shows it with nobody signed in, and nothing on it is a player's
card or a player's identity. The players' ratings (`reading`: the Ratings view's data and
its CSV) need a session of someone the staff file grants them to (``[ratings] readers``),
whatever their role; reading them does not keep the session alive, so a screen left on
the Ratings view signs itself out after `IDLE_SECONDS`. Writing needs a session of a role
that may (`MAY`): a pit manager acknowledges an alarm and starts a shift; surveillance
signs in and reads. The pit's store journals every
write with the staff id of the session, never a name the client sent.

Every request, read or write, must name this server in ``Host`` (a page on a DNS-rebound
name reads nothing through a manager's browser); every answer forbids framing and loading
anything from elsewhere (`SECURITY_HEADERS`). A write, sign-in and sign-out also must come
from this server's own page: ``Origin`` this server (when sent), ``Sec-Fetch-Site``
same-origin (when sent), the `HEADER` (which another origin cannot send without a CORS
preflight, which this server never answers), the session cookie (HttpOnly, SameSite=Strict),
JSON of at most the app's ``client_max_size`` and at most `MAX_DEPTH` deep, with exactly
the fields the route takes. Refused: 401 (no session), 403 (another origin, another site,
a rebound Host, a role that may not, a wrong PIN), 413, 415, 400, 429 (the wrong-PIN delay).

Sessions are kept in memory (`Sessions`): at most `MAX_SESSIONS`, each ended after
`SESSION_SECONDS`, or `IDLE_SECONDS` unused (no write, no ``/api/session``: the page asks
that when it loads; watching the floor does not keep a session); a restart of the view
signs everyone out. Wrong PINs are counted per client address (`PinGate`, as at the
table's console), one scrypt check at a time.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from controller.app.config import StaffMember
from controller.app.console.auth import Refusals, own_host, pin_of, staff_id_of
from controller.app.console.json_bounded import MAX_DEPTH, loads_bounded
from controller.app.console.supervisor import PinGate, PinVerdict
from controller.app.floor.staff import PIT_MANAGER, PitStaff
from controller.app.floor.store import PitStore
from controller.app.floor.tables import iso

log = logging.getLogger(__name__)

__all__ = ["COOKIE", "CSP", "HEADER", "MAY", "RATINGS", "FloorDoor", "Sessions"]

COOKIE = "tablectl_pit"
HEADER = "X-Tablectl-Pit"
SESSION_SECONDS = 12 * 3600  # one long shift; then sign in again
IDLE_SECONDS = 30 * 60  # a pit PC left signed in signs itself out
MAX_SESSIONS = 32  # more than a floor's pit staff; the longest idle goes first
MAX_ADDRESSES = 256  # wrong-PIN counts kept apart; further addresses share one count
MAY = {PIT_MANAGER: frozenset({"ack", "shift"})}  # any other role: read only
RATINGS = "ratings"  # may see the players' ratings: granted per person ([ratings] readers)
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Server(Protocol):
    """The web server the door guards: its address (the port is known once it serves)."""

    host: str
    port: int


@dataclasses.dataclass(slots=True)
class Session:
    member: StaffMember
    started: float
    seen: float


class Sessions:
    """Signed-in browsers, keyed by the SHA-256 of their cookie (the cookie itself is
    kept nowhere). Bounded and expiring; ``clock`` is injected for the tests."""

    def __init__(
        self,
        *,
        limit: int = MAX_SESSIONS,
        lifetime: float = SESSION_SECONDS,
        idle: float = IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.lifetime, self.idle, self.clock = limit, lifetime, idle, clock
        self._open: OrderedDict[str, Session] = OrderedDict()  # least recently seen first

    def __len__(self) -> int:
        return len(self._open)

    def open(self, member: StaffMember) -> str:
        """A new session for ``member``: its cookie value."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        while len(self._open) >= self.limit:
            self._open.popitem(last=False)
        self._open[_key(token)] = Session(member, now, now)
        return token

    def get(self, token: str) -> Session | None:
        """The live session of this cookie (seen now), or None (an ended one is dropped)."""
        key = _key(token)
        session = self._open.get(key)
        if session is None:
            return None
        now = self.clock()
        if now - session.started > self.lifetime or now - session.seen > self.idle:
            del self._open[key]
            return None
        session.seen = now
        self._open.move_to_end(key)
        return session

    def peek(self, token: str) -> Session | None:
        """The live session of this cookie, not marked as seen (a screen polling the
        ratings does not keep itself signed in)."""
        session = self._open.get(_key(token))
        if session is None:
            return None
        now = self.clock()
        if now - session.started > self.lifetime or now - session.seen > self.idle:
            del self._open[_key(token)]
            return None
        return session

    def close(self, token: str) -> None:
        self._open.pop(_key(token), None)


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers.update(SECURITY_HEADERS)


def _key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Refused(Exception):
    """A request refused: its status and the one line that says why."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status, self.why = status, why


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class FloorDoor:
    """The floor view's sign-in, sessions and request checks (see the module's text)."""

    def __init__(
        self,
        server: Server,
        staff: PitStaff,
        store: PitStore,
        *,
        names: tuple[str, ...] = (),
        max_body: int = 1024,
        sessions: Sessions | None = None,
    ) -> None:
        self.server = server
        self.staff = staff
        self.store = store
        self.max_body = max_body  # the app's client_max_size
        self.names = names  # further names a browser may use for this server (--server-name)
        self.sessions = sessions if sessions is not None else Sessions()
        self.gate = PinGate(staff.members, staff.lockout)
        self._addresses: set[str] = set()
        self._pin_lock: asyncio.Lock | None = None
        self._refusals = Refusals()

    # --- every request ------------------------------------------------------------------

    def names_me(self, named: str) -> bool:
        host, port = self.server.host, self.server.port
        return any(own_host(named, name, port, False) for name in (host, *self.names))

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Only requests that name this server are answered."""
        if not self.names_me(request.headers.get("Host", "")):
            return self._deny(request, 403, "the Host is not this server")
        return await handler(request)

    def install(self, app: web.Application) -> None:
        """The Host check on every route, the security headers on every answer (errors
        and the event stream too), the sign-in routes."""
        app.middlewares.append(self.middleware)
        app.on_response_prepare.append(_security_headers)
        app.add_routes(self.routes())

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/api/session", self._get_session),
            web.post("/api/signin", self._post_signin),
            web.post("/api/signout", self._post_signout),
        ]

    def may(self, member: StaffMember) -> frozenset[str]:
        """What ``member`` may do: their role's writes, and the ratings if granted."""
        granted = MAY.get(member.role, frozenset())
        if member.id in self.staff.rating_readers:
            granted |= {RATINGS}
        return granted

    # --- reads that need a grant ----------------------------------------------------------

    def reading(
        self,
        may: str,
        handler: Callable[[web.Request, StaffMember], Awaitable[web.StreamResponse]],
    ) -> Handler:
        """``handler`` for a GET only someone granted ``may`` gets: 401 without a session,
        403 for anyone else; from this server's pages only (``Origin``,
        ``Sec-Fetch-Site``). A download link cannot send the page's header, so a GET is
        not asked for it; it changes nothing but the audit."""

        async def read(request: web.Request) -> web.StreamResponse:
            try:
                self._same_origin(request)
                token = request.cookies.get(COOKIE, "")
                session = self.sessions.peek(token) if token else None
                if session is None:
                    raise Refused(401, "sign in first (pit staff granted the ratings only)")
                member = session.member
                if may not in self.may(member):
                    raise Refused(403, f"{member.id} is not granted the players' ratings")
                return await handler(request, member)
            except Refused as exc:
                return self._deny(request, exc.status, exc.why)

        return read

    # --- writes -------------------------------------------------------------------------

    def guarded(
        self,
        may: str,
        fields: frozenset[str],
        handler: Callable[[web.Request, StaffMember, dict[str, Any]], Awaitable[web.Response]],
    ) -> Handler:
        """``handler`` for a write a role ``may`` do, given the member signed in and the
        checked body (only ``fields``)."""

        async def write(request: web.Request) -> web.StreamResponse:
            try:
                member = self._signed_in(request).member
                if may not in self.may(member):
                    raise Refused(403, f"{member.id} is {member.role}: read only")
                body = await self._json(request, fields)
                return await handler(request, member, body)
            except Refused as exc:
                return self._deny(request, exc.status, exc.why)

        return write

    def _own_page(self, request: web.Request) -> None:
        """Refused unless from this server's own page."""
        self._same_origin(request)
        if request.headers.get(HEADER) != "1":
            raise Refused(403, f"the {HEADER} header is missing (not the floor view's page)")

    def _same_origin(self, request: web.Request) -> None:
        named = request.headers.get("Host", "")
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{named}":
            raise Refused(403, "a request from another origin")
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise Refused(403, "a request from another site")

    def _signed_in(self, request: web.Request) -> Session:
        """The live session of a request from this server's own page. No session at all
        is a 401 before the page's header is looked at: an anonymous write is a 401."""
        self._same_origin(request)
        session = self._session(request)
        if session is None:
            raise Refused(401, "sign in first (pit staff only)")
        self._own_page(request)
        return session

    def _session(self, request: web.Request) -> Session | None:
        token = request.cookies.get(COOKIE, "")
        return self.sessions.get(token) if token else None

    async def _json(self, request: web.Request, fields: frozenset[str]) -> dict[str, Any]:
        if request.content_type != "application/json":
            raise Refused(415, "the body must be application/json")
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            raise Refused(413, f"the body is over {self.max_body} bytes") from None
        try:
            body = loads_bounded(raw, MAX_DEPTH)
        except ValueError as exc:
            raise Refused(400, f"the body must be JSON: {exc}") from None
        if not isinstance(body, dict):
            raise Refused(400, "the body must be a JSON object")
        unknown = set(body) - fields
        if unknown:
            names = ", ".join(sorted(repr(k)[:40] for k in unknown))
            raise Refused(400, f"unknown fields: {names} (the server knows who you are)")
        return body

    def _deny(self, request: web.Request, status: int, why: str) -> web.Response:
        self._refusals.note(request, status, why)
        return web.json_response({"ok": False, "error": why}, status=status)

    # --- sign-in ------------------------------------------------------------------------

    async def _get_session(self, request: web.Request) -> web.Response:
        session = self._session(request)
        member = session.member if session is not None else None
        body: dict[str, Any] = {
            "staff_configured": bool(self.staff.members),
            "staff": None,
            "may": [],
        }
        if member is not None:
            body["staff"] = {"id": member.id, "name": member.name, "role": member.role}
            body["may"] = sorted(self.may(member))
        return web.json_response(body, headers={"Cache-Control": "no-store"})

    async def _post_signin(self, request: web.Request) -> web.StreamResponse:
        try:
            self._own_page(request)
            body = await self._json(request, frozenset({"staff", "pin"}))
            try:
                staff, pin = staff_id_of(body.get("staff")), pin_of(body.get("pin"))
            except ValueError as exc:
                raise Refused(400, str(exc)) from None
            if not self.staff.members:
                raise Refused(403, "no pit staff is configured (tablectl pit --staff FILE)")
        except Refused as exc:
            return self._deny(request, exc.status, exc.why)
        verdict, counted = await self._attempt(self._address(request), staff, pin)
        if verdict.member is None:
            if counted:  # a PIN looked at and wrong (not one refused during the delay)
                what = {"failures": verdict.failures, "from": request.remote or ""}
                self._journal("SignInRefused", staff, what)
            status = 429 if verdict.locked_for > 0 else 403
            headers = {"Retry-After": str(int(verdict.locked_for + 0.999))} if status == 429 else {}
            self._refusals.note(request, status, "a wrong staff id or PIN")
            answer = {"ok": False, "error": verdict.error, "locked_for": verdict.locked_for}
            return web.json_response(answer, status=status, headers=headers)
        member: StaffMember = verdict.member
        token = self.sessions.open(member)
        self._journal("SignedIn", member.id, {"role": member.role, "from": request.remote or ""})
        log.info(
            "%s (%s) signed in to the floor view from %s", member.id, member.role, request.remote
        )
        response = web.json_response(
            {"ok": True, "staff": {"id": member.id, "name": member.name, "role": member.role}}
        )
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/")
        return response

    async def _post_signout(self, request: web.Request) -> web.StreamResponse:
        try:
            session = self._signed_in(request)
            await self._json(request, frozenset())
        except Refused as exc:
            return self._deny(request, exc.status, exc.why)
        self.sessions.close(request.cookies.get(COOKIE, ""))
        self._journal("SignedOut", session.member.id, {})
        response = web.json_response({"ok": True})
        response.del_cookie(COOKIE, path="/")
        return response

    def _address(self, request: web.Request) -> str:
        """The wrong-PIN count's key: the client's address, or one shared count once
        `MAX_ADDRESSES` have tried (so the counts stay bounded)."""
        address = request.remote or "?"
        if address not in self._addresses and len(self._addresses) >= MAX_ADDRESSES:
            return "pit view from many addresses"
        self._addresses.add(address)
        return f"pit view from {address}"  # the gate logs "wrong PIN at the <this>"

    async def _attempt(self, address: str, staff: str, pin: str) -> tuple[PinVerdict, bool]:
        """One PIN, one at a time (scrypt, ~50 ms, in the executor): the verdict, and
        whether a wrong PIN was counted. The gate's role ``"dealer"`` means anyone on its
        list: the pit role is checked per write."""
        if self._pin_lock is None:
            self._pin_lock = asyncio.Lock()
        loop = asyncio.get_running_loop()
        async with self._pin_lock:
            before = self.gate.total_failures
            verdict = await loop.run_in_executor(
                None, self.gate.attempt, address, staff, pin, "dealer"
            )
            return verdict, self.gate.total_failures > before

    def _journal(self, kind: str, who: str, what: dict[str, Any]) -> None:
        self.store.journal(iso(time.time()), kind, who, what)
