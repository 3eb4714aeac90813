"""Staff PINs, stored only as salted scrypt hashes (`controller.app.console.supervisor` checks
them at the console; `tablectl pin-hash` makes them; the config checks their form).

The format is ``scrypt$<log2 n>$<r>$<p>$<salt, base64>$<key, base64>``: the parameters
travel with the hash, so a casino can raise the cost later without breaking old configs.
This module imports nothing of the app, so the config can check a hash's form without
importing the console's gate (which needs the config).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os

from controller.errors import ConfigError

__all__ = ["check_pin", "hash_pin", "parse_hash"]

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
        raise ConfigError(f"a PIN has at least {MIN_PIN_DIGITS} characters")
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
        raise ConfigError("pin_hash is not a 'scrypt$...' hash from tablectl pin-hash")
    try:
        log2_n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt = base64.b64decode(parts[4], validate=True)
        key = base64.b64decode(parts[5], validate=True)
    except ValueError as exc:
        raise ConfigError(f"pin_hash is malformed: {exc}") from exc
    if not (10 <= log2_n <= 20 and 1 <= r <= 32 and 1 <= p <= 16 and salt and key):
        raise ConfigError("pin_hash has scrypt parameters out of range")
    return log2_n, r, p, salt, key


def _scrypt(pin: str, salt: bytes, log2_n: int, r: int, p: int) -> bytes:
    n = 1 << log2_n
    return hashlib.scrypt(
        pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + (1 << 20), dklen=KEY_BYTES
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
