"""The console's authentication (docs/security.md): only the table's own console writes.

The kiosk presents the per-table console secret once and gets a cookie derived from it
(`console_cookie`); every write must then carry that cookie and the `HEADER` (which a page
of another origin cannot send without a CORS preflight, which the status server refuses),
name the server in ``Host`` and ``Origin``, and be JSON with exactly the fields of its
request. `ConsoleCheck` does the checks before a body is read; `body_fields`, `staff_id_of`
and `pin_of` check the body; a refusal is logged at most every few seconds (`Refusals`) and
never journaled. `console_secret` and `tls_context` read what the table config names.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import ssl
import time
from typing import Any

from aiohttp import web

from controller.app.config import LOOPBACK, STAFF_ID, TableConfig
from controller.app.secrets import create_secret, read_secret
from controller.errors import ConfigError

log = logging.getLogger(__name__)

COOKIE = "tablectl_console"
HEADER = "X-Tablectl-Console"
MAX_BODY = 4096
MAX_REASON = 200
MAX_PIN = 32


def console_cookie(secret: bytes) -> str:
    """The console cookie's value: derived from the secret (so it survives a restart of
    the controller and changes when the secret is rotated), never the secret itself."""
    return hmac.new(secret, b"console-cookie-v1", hashlib.sha256).hexdigest()


class Refusals:
    """Logs refused requests at most once per `every` seconds, counting the rest, so a
    flood of bad requests cannot flood the log."""

    def __init__(self, every: float = 5.0) -> None:
        self.every = every
        self._last = -every
        self._quiet = 0

    def note(self, request: web.Request, status: int, why: str) -> None:
        now = time.monotonic()
        if now - self._last < self.every:
            self._quiet += 1
            return
        more = f" ({self._quiet} more refused since)" if self._quiet else ""
        self._last, self._quiet = now, 0
        log.warning(
            "refused %s %s from %s: %d %s%s",
            request.method,
            request.path,
            request.remote,
            status,
            why,
            more,
        )


class ConsoleCheck:
    """Whether a request comes from the table's own console: its cookie, its header, this
    server's own Host and Origin, JSON. Checked before the body is read."""

    def __init__(self, secret: bytes | None) -> None:
        self.cookie = None if secret is None else console_cookie(secret)

    def is_console(self, request: web.Request) -> bool:
        """Whether the request carries this table's console cookie."""
        given = request.cookies.get(COOKIE, "")
        return self.cookie is not None and hmac.compare_digest(given.encode(), self.cookie.encode())

    def refusal(
        self, request: web.Request, *, host: str, port: int, tls: bool
    ) -> tuple[int, str] | None:
        """Why a console request to the server on ``host:port`` is refused, or None."""
        named = request.headers.get("Host", "")
        if not own_host(named, host, port, tls):
            return 403, "the Host is not this server"
        origin = request.headers.get("Origin")
        if origin is not None and origin != f"{request.scheme}://{named}":
            return 403, "a request from another origin"
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            return 403, "a request from another site"
        if request.headers.get(HEADER) != "1":
            return 403, f"the {HEADER} header is missing"
        if not self.is_console(request):
            return 401, "not the table's console (open the console URL: tablectl kiosk-url)"
        if request.content_type != "application/json":
            return 415, "the body must be application/json"
        return None


def own_host(named: str, host: str, port: int, tls: bool) -> bool:
    """``Host`` names this server (a DNS-rebinding page names its own host). Over TLS, any
    name on this port: the certificate check already refuses a rebound name."""
    name, _, given_port = named.rpartition(":")
    if given_port != str(port):
        return False
    if tls:
        return True
    return name.strip("[]") in (*LOOPBACK, host)


class BadRequest(ValueError):
    """A console request whose body does not fit: 400, not journaled."""


def body_fields(
    body: dict[str, Any], *, required: set[str], optional: frozenset[str] = frozenset()
) -> None:
    unknown = set(body) - required - optional
    if unknown:
        raise BadRequest(f"unknown fields: {', '.join(sorted(repr(k)[:40] for k in unknown))}")
    missing = required - set(body)
    if missing:
        raise BadRequest(f"missing fields: {', '.join(sorted(missing))}")


def staff_id_of(value: Any) -> str:
    if not isinstance(value, str) or not STAFF_ID.fullmatch(value):
        raise BadRequest("a staff id is 1 to 32 letters, digits, '.', '-' or '_'")
    return value


def pin_of(value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_PIN:
        raise BadRequest("a PIN is text of 1 to 32 characters")
    return value


def console_secret(config: TableConfig) -> bytes:
    """The table's console secret; created (and logged) when it is missing, so a first
    start works. Group-readable: the kiosk user reads it through the service's group."""
    path = config.console_secret_file
    if not path.exists():
        create_secret(path, mode=0o640)
        log.warning("created the console secret %s (docs/security.md)", path)
    return read_secret(path, "the console secret")


def tls_context(config: TableConfig) -> ssl.SSLContext | None:
    if not config.tls_cert_file:
        return None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(config.tls_cert_file, config.tls_key_file)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigError(
            f"{config.source}: [display] tls_cert_file/tls_key_file "
            f"({config.tls_cert_file}, {config.tls_key_file}): cannot load: {exc}"
        ) from exc
    return context
