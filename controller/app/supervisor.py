"""The supervisor PIN: stored only as a salted scrypt hash, checked on the server, and
locked out after repeated wrong tries.

A supervisor action (clear a HOLD keeping the card, void the hand: rules 9.6 and 11.4(e)
leave these to a supervisor, never the dealer) arrives at ``POST /api/supervisor`` with the
PIN. The page never holds the PIN or its hash; it sends what was typed, over the table's
own localhost connection, and the server checks it here.

The hash format is ``scrypt$<log2 n>$<r>$<p>$<salt, base64>$<key, base64>``: the parameters
travel with the hash, so a casino can raise the cost later without breaking old configs.
`tablectl pin-hash` (`controller.app.pin_hash`) prints one for the ``[supervisor]``
section of the table config.

Wrong PINs are counted here, in the status server's memory: after ``lockout_tries`` wrong
PINs in a row every attempt (right or wrong) is refused for ``lockout_seconds``, and the
count starts again when the lockout ends or a right PIN is given. A restart of the
controller resets the count (docs/display.md says why that is acceptable and what would
journal it).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import logging
import os
import threading
import time
from collections.abc import Callable

from controller.app.config import SupervisorConfig
from controller.errors import ConfigError

log = logging.getLogger(__name__)

SCHEME = "scrypt"
LOG2_N = 14  # n = 16384: about 50 ms and 16 MiB on a Raspberry Pi 4
BLOCK_SIZE = 8
PARALLEL = 1
SALT_BYTES = 16
KEY_BYTES = 32
MIN_PIN_DIGITS = 4


def hash_pin(pin: str, *, salt: bytes | None = None, log2_n: int = LOG2_N) -> str:
    """The stored form of a PIN: a salted scrypt hash with its parameters."""
    if len(pin) < MIN_PIN_DIGITS:
        raise ConfigError(f"a supervisor PIN has at least {MIN_PIN_DIGITS} characters")
    salt = os.urandom(SALT_BYTES) if salt is None else salt
    key = _scrypt(pin, salt, log2_n, BLOCK_SIZE, PARALLEL)
    return "$".join((SCHEME, str(log2_n), str(BLOCK_SIZE), str(PARALLEL), _b64(salt), _b64(key)))


def check_pin(pin: str, stored: str) -> bool:
    """Whether ``pin`` matches the stored hash (a constant-time comparison)."""
    log2_n, r, p, salt, key = parse_hash(stored)
    candidate = _scrypt(pin, salt, log2_n, r, p)
    return hmac.compare_digest(candidate, key)


def parse_hash(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """Split a stored hash into (log2 n, r, p, salt, key); a malformed one is a config
    error (the table refuses to start rather than accept any PIN)."""
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        raise ConfigError("[supervisor] pin_hash is not a 'scrypt$...' hash from tablectl pin-hash")
    try:
        log2_n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt = base64.b64decode(parts[4], validate=True)
        key = base64.b64decode(parts[5], validate=True)
    except ValueError as exc:
        raise ConfigError(f"[supervisor] pin_hash is malformed: {exc}") from exc
    if not (10 <= log2_n <= 20 and 1 <= r <= 32 and 1 <= p <= 16 and salt and key):
        raise ConfigError("[supervisor] pin_hash has scrypt parameters out of range")
    return log2_n, r, p, salt, key


def _scrypt(pin: str, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    n = 1 << log2_n
    return hashlib.scrypt(
        pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + (1 << 20), dklen=KEY_BYTES
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@dataclasses.dataclass(frozen=True, slots=True)
class PinVerdict:
    """The answer to one attempt: ``accepted``, or why not, and how the count stands."""

    accepted: bool
    error: str = ""
    failures: int = 0  # wrong PINs in a row, this one included
    tries_left: int = 0
    locked_for: float = 0.0  # seconds until a PIN is looked at again


class SupervisorGate:
    """Checks supervisor PINs and keeps the wrong-PIN count and the lockout.

    Thread-safe (the status server may check from its executor). ``clock`` is injected
    (monotonic seconds) so the lockout is tested without waiting.
    """

    def __init__(
        self, config: SupervisorConfig | None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if config is not None:
            parse_hash(config.pin_hash)  # fail at start, not at the first HOLD
            if config.lockout_tries < 1 or config.lockout_seconds < 1:
                raise ConfigError("[supervisor] lockout_tries and lockout_seconds must be >= 1")
        self.config = config
        self.clock = clock
        self.failures = 0
        self.total_failures = 0
        self._locked_until: float | None = None
        self._lock = threading.Lock()

    def attempt(self, pin: str) -> PinVerdict:
        """One PIN attempt: accepted, wrong (counted), or refused during a lockout."""
        config = self.config
        if config is None:
            return PinVerdict(False, "no supervisor PIN is configured ([supervisor] pin_hash)")
        with self._lock:
            now = self.clock()
            if self._locked_until is not None:
                if now < self._locked_until:
                    left = self._locked_until - now
                    return PinVerdict(
                        False,
                        f"locked out after {config.lockout_tries} wrong PINs: "
                        f"try again in {int(left + 0.999)} s",
                        self.failures,
                        0,
                        left,
                    )
                self._locked_until = None
                self.failures = 0
        ok = bool(pin) and check_pin(pin, config.pin_hash)  # slow: outside the lock
        with self._lock:
            if ok:
                self.failures = 0
                return PinVerdict(True)
            self.failures += 1
            self.total_failures += 1
            left = config.lockout_tries - self.failures
            log.warning("wrong supervisor PIN (%d in a row)", self.failures)
            if left <= 0:
                self._locked_until = self.clock() + config.lockout_seconds
                log.warning("supervisor PIN locked out for %d s", config.lockout_seconds)
                return PinVerdict(
                    False,
                    f"wrong PIN: locked out for {config.lockout_seconds} s",
                    self.failures,
                    0,
                    float(config.lockout_seconds),
                )
            return PinVerdict(False, f"wrong PIN ({left} tries left)", self.failures, left)

    def status(self) -> dict[str, object]:
        """For the page: whether a PIN is configured, the count, and any lockout."""
        with self._lock:
            until = self._locked_until
            left = 0.0 if until is None else max(0.0, until - self.clock())
            expired = until is not None and left == 0.0  # the count restarts at the next try
            return {
                "configured": self.config is not None,
                "failures": 0 if expired else self.failures,
                "locked_for": round(left, 1),
            }
