"""Signed pit messages: Ed25519 over the topic and the exact bytes sent (docs/mqtt.md,
"Signatures").

A message's body is a compact JSON object, ``B``. What goes on the wire is ``B`` with one
last member, ``,"sig":"<128 hexadecimal digits>"}`` in place of its closing brace; the
signature is over ``b"tablectl-pit-1\\n" + topic + b"\\n" + B``. So the topic (prefix,
site, table id, kind) is bound into it: a message signed for one table's topic, or one
kind of topic, does not verify on another. The reader takes the tail off, puts the brace
back, checks the signature over those bytes and then uses those bytes, never what it
parsed around them (`open_signed`).

A signing key is a secret file like the table's others (`controller.app.secrets`: 32
random bytes as 64 hexadecimal digits, 0600): here the Ed25519 private key's seed. Its
public key is written ``ed25519:<64 hexadecimal digits>`` (`public_text`), the form the
pit's floor file and the table's ``[pit] pit_public_key`` take.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Mapping
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.app.config import TableConfig
from controller.app.secrets import create_secret, read_secret
from controller.errors import ConfigError

DOMAIN = b"tablectl-pit-1\n"
PUBLIC_PREFIX = "ed25519:"
TABLE_KEY_WHAT = "the table's pit signing key"
PIT_KEY_WHAT = "the pit's signing key"
_TAIL = re.compile(rb',"sig":"([0-9a-f]{128})"\}\Z')


class Refused(Exception):
    """A message the reader does not believe; ``str`` says why in a few words."""


def signed_bytes(topic: str, body: bytes) -> bytes:
    return DOMAIN + topic.encode() + b"\n" + body


def sign(key: Ed25519PrivateKey, topic: str, body: bytes) -> bytes:
    """``body`` (a JSON object's compact bytes, without a ``sig``) as it is sent."""
    if not body.endswith(b"}") or body == b"{}":
        raise ValueError("only a non-empty JSON object is signed")
    signature = key.sign(signed_bytes(topic, body)).hex().encode()
    return body[:-1] + b',"sig":"' + signature + b'"}'


def split_signed(payload: bytes) -> tuple[bytes, bytes]:
    """(the body as signed, the signature); `Refused` when there is no signature."""
    found = _TAIL.search(payload)
    if found is None or found.start() < 2:
        raise Refused("it is not signed")
    return payload[: found.start()] + b"}", bytes.fromhex(found.group(1).decode())


def verifies(key: Ed25519PublicKey, topic: str, body: bytes, signature: bytes) -> bool:
    try:
        key.verify(signature, signed_bytes(topic, body))
    except InvalidSignature:
        return False
    return True


def open_signed(
    topic: str,
    payload: bytes,
    key: Ed25519PublicKey,
    others: Mapping[str, Ed25519PublicKey] | None = None,
) -> bytes:
    """The body of a message ``key`` signed for ``topic``, else `Refused` saying why:
    unsigned, signed by one of ``others`` (named), or a signature that is nobody's here."""
    body, signature = split_signed(payload)
    if verifies(key, topic, body, signature):
        return body
    for name, other in (others or {}).items():
        if other != key and verifies(other, topic, body, signature):
            raise Refused(f"it is signed with {name}'s key")
    raise Refused("its signature does not check out (forged, or changed on the way)")


# --- keys ---------------------------------------------------------------------------------


def private_key(path: Path, what: str) -> Ed25519PrivateKey:
    """The signing key in ``path`` (`read_secret`'s checks: there, well formed, not
    readable by others); `ConfigError` naming the file otherwise."""
    return Ed25519PrivateKey.from_private_bytes(read_secret(path, what))


def create_private_key(path: Path) -> Ed25519PrivateKey:
    """A new signing key in ``path``, 0600; refused when one is there."""
    return Ed25519PrivateKey.from_private_bytes(create_secret(path))


def public_text(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return PUBLIC_PREFIX + public.public_bytes_raw().hex()


def parse_public(text: object, where: str) -> Ed25519PublicKey:
    """``ed25519:<64 hex>`` -> the key; `ConfigError` naming ``where`` otherwise."""
    if isinstance(text, str) and text.startswith(PUBLIC_PREFIX):
        try:
            raw = binascii.unhexlify(text.removeprefix(PUBLIC_PREFIX))
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) == 32:
            return Ed25519PublicKey.from_public_bytes(raw)
    raise ConfigError(f"{where}: expected ed25519: and 64 hexadecimal digits, not {text!r}")


def signing_key_path(config: TableConfig) -> Path:
    """The table's signing key: ``[pit] signing_key_file``, or ``pit-signing.key`` in the
    journal's folder (beside the console secret and the journal's key)."""
    named = config.pit.signing_key_file if config.pit is not None else ""
    if named:
        return Path(named).expanduser()
    return config.journal_path.parent / "pit-signing.key"


def table_signing_key(config: TableConfig, *, create: bool = False) -> Ed25519PrivateKey:
    """The table's signing key; with ``create``, made (0600) where there is none."""
    path = signing_key_path(config)
    if create and not path.exists():
        return create_private_key(path)
    return private_key(path, TABLE_KEY_WHAT)
