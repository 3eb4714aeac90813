"""What the floor view believes: a table's message is taken only when that table's own key
signed it for the topic it came on (docs/mqtt.md, "Signatures"); and what the floor view
vouches for: the head it last witnessed for each table, signed with the pit's key.

`Gate` stands in front of the view's message handling. Refused, with an alarm naming the
table and why: a message with no signature, a bad one, one signed with another table's
key, one of another table's replayed on this table's topic, one from a table with no key
in the floor file, a state older than one already taken, and a state or row whose seq is
impossible (`impossible_seq`). A refused message changes nothing else: no figure, no
HOLD, no head.

`Witness` publishes, per table, a retained message under ``<prefix>/<site>/witness/<id>``
with the head the view last took from that table (its seq and hash, and the hash of the
journal's row 1 the table names, so a journal reopened is not held to the old one's
head), signed with the pit's key: the table reads it before it deals
(`controller.app.runtime.witnessed_head`).
"""

from __future__ import annotations

import argparse
import datetime
import json
import logging
import sys
import time
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from controller.app.console.json_bounded import loads_bounded
from controller.app.floor.tables import Floor
from controller.app.pit.signing import (
    PIT_KEY_WHAT,
    Refused,
    create_private_key,
    open_signed,
    parse_public,
    private_key,
    public_text,
    sign,
    split_signed,
    verifies,
)
from controller.app.runtime.witnessed_head import witness_topic
from controller.errors import ConfigError, TableError

log = logging.getLogger(__name__)

SEQ_MAX = 2**53 - 1  # past this a JSON number is no longer an exact whole number
ROWS_PER_SECOND = 1000  # a table journals far fewer (about 70 a second flat out)
ROWS_AHEAD = 10_000  # what a table may be ahead of its last witnessed row, at least
ALARM_EVERY = 10.0  # seconds: one refusal alarm per table this often, the rest counted
WITNESS_EVERY = 1.0  # seconds: a table's witnessed head republished at most this often
KINDS = ("status", "state", "event", "alarm")
RATING_LEAF = "restricted/rating"  # the table's player ratings (`floor.ratings`)
LEAVES = {**{kind: kind for kind in KINDS}, "rating": RATING_LEAF}  # kind -> topic leaf
PIT_KEY_NAME = "witness-signing.key"
SigningKey = Path | Ed25519PrivateKey | None


def table_topic(topic: str) -> tuple[str, str, str] | None:
    """``<prefix>/<site>/table/<id>/<kind>`` (a kind of `KINDS`), or
    ``.../table/<id>/restricted/rating`` (kind ``rating``) -> (site, table, kind); None
    for any other topic."""
    parts = topic.split("/")
    if len(parts) >= 6 and "/".join(parts[-2:]) == RATING_LEAF and parts[-4] == "table":
        return parts[-5], parts[-3], "rating"
    if len(parts) >= 5 and parts[-3] == "table" and parts[-1] in KINDS:
        return parts[-4], parts[-2], parts[-1]
    return None


def load_floor_keys(path: Path) -> dict[str, Ed25519PublicKey]:
    """``[keys]`` of the floor file: ``"<table id>" = "ed25519:<64 hex>"`` for every table
    the view believes (`tablectl secrets --config ... --public-key` prints the line)."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--floor {path}: {exc}") from exc
    keys = doc.get("keys", {})
    if not isinstance(keys, dict):
        raise ConfigError(f"--floor {path}: [keys] must be a table of table id = key")
    return {str(t): parse_public(k, f"--floor {path}: keys.{t}") for t, k in keys.items()}


def view_keys(floor_file: Path | None, table_keys: Mapping[str, str] | None) -> dict[str, Any]:
    """The keys the view believes: the floor file's ``[keys]``, and ``table_keys``."""
    keys = load_floor_keys(floor_file) if floor_file is not None else {}
    return keys | {t: parse_public(k, f"the key of {t}") for t, k in (table_keys or {}).items()}


def view_signing_key(given: SigningKey, store: Path | str | None) -> Ed25519PrivateKey:
    """The pit's key: given, in the file given, beside the store (made on the first
    start), or, for a view with no store, one of its own life only."""
    if isinstance(given, Ed25519PrivateKey):
        return given
    if given is not None:
        return pit_key(Path(given))
    if store is not None:
        return pit_key(Path(store).parent / PIT_KEY_NAME)
    return Ed25519PrivateKey.generate()


def add_key_arguments(parser: argparse.ArgumentParser) -> None:
    """``tablectl pit``'s own key (the tables' keys are in the ``--floor`` file)."""
    parser.add_argument(
        "--signing-key",
        default=None,
        metavar="PATH",
        help=f"the pit's own signing key (default {PIT_KEY_NAME} beside the store; made on "
        "the first start, 0600)",
    )
    parser.add_argument(
        "--public-key",
        action="store_true",
        help="print the pit's public key (for the tables' [pit] pit_public_key) and exit",
    )


def key_path(args: argparse.Namespace) -> Path:
    return Path(args.signing_key or Path(args.store).parent / PIT_KEY_NAME)


def print_public_key(args: argparse.Namespace, out: TextIO) -> int:
    """``tablectl pit --public-key``: the pit's public key, its key made if missing."""
    try:
        print(public_text(pit_key(key_path(args))), file=out)
    except (TableError, OSError) as exc:
        print(f"tablectl pit: {exc}", file=sys.stderr)
        return 2
    return 0


def pit_key(path: Path) -> Ed25519PrivateKey:
    """The pit's signing key in ``path``, made (0600) on the first start."""
    if not path.exists():
        key = create_private_key(path)
        log.warning("made the pit's signing key %s", path)
        return key
    return private_key(path, PIT_KEY_WHAT)


def impossible_seq(seq: Any, witnessed: int | None, seconds: float) -> str:
    """Why ``seq`` cannot be a row of a table whose last witnessed row is ``witnessed``
    (None: none yet), ``seconds`` ago ('' if it can): not a whole number, negative, past
    `SEQ_MAX`, or further ahead than the table can have journaled since: `ROWS_AHEAD`
    rows, or `ROWS_PER_SECOND` for every second since, whichever is more."""
    if isinstance(seq, bool) or not isinstance(seq, int):
        return f"its journal seq {seq!r} is not a whole number"
    if seq < 0:
        return f"its journal seq {seq} is negative"
    if seq > SEQ_MAX:
        return f"its journal seq {seq} is past {SEQ_MAX}"
    if witnessed is not None:
        ahead = max(ROWS_AHEAD, int(ROWS_PER_SECOND * seconds))
        if seq > witnessed + ahead:
            return (
                f"its journal seq {seq} is more than {ahead} rows ahead of row {witnessed}, "
                f"witnessed {seconds:.0f} s ago"
            )
    return ""


@dataclass
class Seen:
    """What the gate keeps per table: the highest row taken and when, the last state's
    time and the journal it named."""

    seq: int | None = None
    at: float = 0.0  # the view's monotonic clock, when ``seq`` was taken
    state_at: str = ""  # the newest state's own time (ISO 8601 UTC) taken
    origin: str = ""  # the journal's row-1 hash the newest state named


class Gate:
    """Verifies each message before the view takes it (`check`). ``alarm(site, table,
    text)`` raises the refusal's alarm (the floor's log)."""

    def __init__(
        self,
        keys: Mapping[str, Ed25519PublicKey],
        alarm: Callable[[str, str, str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.keys = dict(keys)
        self.alarm = alarm
        self.clock = clock
        self.seen: dict[tuple[str, str], Seen] = {}
        self.alarmed: dict[tuple[str, str, str], tuple[float, int]] = {}  # -> (when, held)

    def check(self, topic: str, payload: bytes) -> bytes | None:
        """The body to take (the bytes its table signed), or None: refused (alarmed) or
        not a table's message at all."""
        named = table_topic(topic)
        if named is None or not payload:
            return None  # not a table's topic, or a cleared retained message
        site, table, kind = named
        try:
            return self._check(topic, site, table, kind, payload)
        except Refused as exc:
            self._refuse(site, table, kind, str(exc))
            return None

    def _check(self, topic: str, site: str, table: str, kind: str, payload: bytes) -> bytes:
        key = self.keys.get(table)
        if key is None:
            raise Refused(f"the floor file has no key for table {table}")
        try:
            body = open_signed(topic, payload, key, self.keys)
        except Refused as exc:
            raise Refused(self._replayed(topic, table, kind, payload) or str(exc)) from None
        try:
            message = loads_bounded(body)
        except ValueError as exc:  # not JSON, or nested past the bound (a RecursionError)
            raise Refused(f"it is not JSON ({str(exc)[:80]})") from None
        if not isinstance(message, dict) or "sig" in message:
            raise Refused("it is not a table's message")
        if (message.get("table"), message.get("site")) != (table, site):
            raise Refused(f"it names table {message.get('table')!r} of {message.get('site')!r}")
        seen = self.seen.setdefault((site, table), Seen())
        now = self.clock()
        if kind == "state":
            self._state(seen, message, now)
        elif kind in ("event", "alarm", "rating"):
            self._seq(seen, message.get("seq"), now)
        return body

    def _state(self, seen: Seen, message: dict[str, Any], now: float) -> None:
        state = message.get("state")
        if not isinstance(state, dict):
            raise Refused("the state has no state")
        at = message.get("at")
        if not isinstance(at, str) or _stamp(at) is None:
            raise Refused(f"the state's time {at!r} is not an ISO 8601 time")
        seq = state.get("journal_seq")
        older = at < seen.state_at and seen.seq is not None
        if older and isinstance(seq, int) and seq <= (seen.seq or 0):
            # older and no further on: a replay (a table whose clock is behind moves on)
            raise Refused(f"a state of {at}, older than one of {seen.state_at} (replayed)")
        self._seq(seen, seq, now)
        seen.state_at = at
        seen.origin = str(message.get("origin") or "")

    def _seq(self, seen: Seen, seq: Any, now: float) -> None:
        why = impossible_seq(seq, seen.seq, now - seen.at)
        if why:
            raise Refused(why)
        if seen.seq is None or seq > seen.seq:
            seen.seq, seen.at = seq, now

    def _replayed(self, topic: str, table: str, kind: str, payload: bytes) -> str:
        """Why, when the message is one another table signed for its own topic."""
        try:
            body, signature = split_signed(payload)
            named = loads_bounded(body)
            other, site = str(named["table"]), str(named["site"])
        except (Refused, ValueError, KeyError, TypeError):
            return ""
        prefix = topic.split("/table/", 1)[0].rsplit("/", 1)[0]
        for leaf in LEAVES.values():
            origin = f"{prefix}/{site}/table/{other}/{leaf}"
            key = self.keys.get(other)
            if origin != topic and key is not None and verifies(key, origin, body, signature):
                return f"it is {other}'s {leaf} message, replayed on {table}'s {kind} topic"
        return ""

    def _refuse(self, site: str, table: str, kind: str, why: str) -> None:
        """One alarm per table and reason every `ALARM_EVERY` seconds: a flood of forged
        messages is counted, not an alarm each."""
        text = f"refused a message on {table}'s {kind} topic: {why}"
        now = self.clock()
        name = (site, table, text)
        last, held = self.alarmed.get(name, (None, 0))
        if last is not None and now - last < ALARM_EVERY:
            self.alarmed[name] = (last, held + 1)
            log.debug("table %s/%s: %s", site, table, text)
            return
        if held:
            text += f" ({held} more refused since the last alarm)"
        if len(self.alarmed) > 10_000:  # a flood of distinct reasons: forget the old ones
            self.alarmed.clear()
        self.alarmed[name] = (now, 0)
        log.error("table %s/%s: %s", site, table, text)
        self.alarm(site, table, text)


class Witness:
    """Publishes each table's witnessed head, signed with the pit's key, retained, at most
    every `WITNESS_EVERY` seconds a table (and at once when the table stops or is lost).
    ``publish(topic, payload)`` hands it to the view's MQTT client."""

    def __init__(
        self,
        key: Ed25519PrivateKey,
        prefix: str,
        publish: Callable[[str, bytes], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.key = key
        self.prefix = prefix
        self.publish = publish
        self.clock = clock
        self.sent: dict[tuple[str, str], tuple[tuple[int, str, str], float]] = {}
        self.waiting: dict[tuple[str, str], tuple[int, str, str]] = {}

    def head(self, site: str, table: str, seq: int, digest: str, origin: str, now: bool) -> None:
        """The head the view now holds for a table; ``now``: send it without waiting."""
        if not digest:
            return
        name = (site, table)
        head = (seq, digest, origin)
        sent = self.sent.get(name)
        if sent is not None and sent[0] == head:
            self.waiting.pop(name, None)
            return
        self.waiting[name] = head
        clock = self.clock()
        for waiting in list(self.waiting):
            last = self.sent.get(waiting)
            if (now and waiting == name) or last is None or clock - last[1] >= WITNESS_EVERY:
                self._send(waiting, self.waiting.pop(waiting), clock)

    def _send(self, name: tuple[str, str], head: tuple[int, str, str], clock: float) -> None:
        site, table = name
        seq, digest, origin = head
        topic = witness_topic(self.prefix, site, table)
        at = datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
        body = {"v": 1, "table": table, "site": site, "seq": seq, "hash": digest}
        body |= {"origin": origin, "at": at}
        text = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        self.publish(topic, sign(self.key, topic, text))
        self.sent[name] = (head, clock)


def _stamp(text: str) -> float | None:
    try:
        stamp = datetime.datetime.fromisoformat(text)
    except ValueError:
        return None
    return None if stamp.tzinfo is None else stamp.timestamp()


class Trust:
    """The floor view's side of the signatures: `Gate` in front of its message handling,
    `Witness` after it. ``publish(topic, payload, qos, retain)``: the view's MQTT client."""

    def __init__(
        self,
        floor: Floor,
        keys: Mapping[str, Ed25519PublicKey],
        key: Ed25519PrivateKey,
        prefix: str,
        publish: Callable[..., Any],
    ) -> None:
        self.floor = floor
        self.gate = Gate(keys, floor.refused)
        self.witness = Witness(key, prefix, lambda t, p: publish(t, p, qos=1, retain=True))

    def check(self, topic: str, payload: bytes) -> bytes | None:
        return self.gate.check(topic, payload)

    def witnessed(self, topic: str) -> None:
        """After a table's message: the newest row the view holds a hash of for that
        table (its state's head, or a row after it), signed; at once when it stops."""
        named = table_topic(topic)
        if named is None:
            return
        site, table, kind = named
        seen = self.floor.tables.get((site, table))
        head = self.floor.store.witness.witnessed_head(site, table)  # durable (pit_witness)
        if seen is None or head is None:
            return
        origin = self.gate.seen[(site, table)].origin
        gone = kind == "status" and seen.status == "offline"
        self.witness.head(site, table, *head, origin, gone)
