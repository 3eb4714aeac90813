"""`tablectl pit --broker URL [--port P]`: the floor view, every table seen on the broker.

A pit supervisor watches many tables (issue 8). This subscribes to the tables' ``state``,
``status`` and ``alarm`` topics (docs/mqtt.md; not to every event, which a floor of
hundreds of tables does not need, and never to ``restricted``: the floor needs no player's
cards) and serves one web page (aiohttp, the same stack as the table's status display; its
files in ``pit_static/``, nothing from the internet) that shows, per table: the game, its
state, the round count, holds (with the rule they cite) and recent alarms, online or
offline, and the age of its last event.

**The journal's head** (issue 12): every state carries the table's journal head, its last
row's seq and hash (``journal_seq``, ``journal_hash``), and every alarm its row's. The
floor remembers the hashes it has seen per table (the newest `HEADS_KEPT`) and raises a
journal alarm, kept on the table's row until the view restarts, when a table's head goes
backwards (rows cut off the end while the table was off, or a new journal opened) or forks
(a hash at a row it has seen with another: the journal was rewritten). That is the check a
person with the SD card and the journal's key cannot get past, since they cannot reach the
pit: what the table's own start-up check cannot see (docs/security.md). Surveillance checks
a journal against a head shown here with ``tablectl journal verify --head SEQ:HASH``.

Online/offline comes from the retained ``status`` topic, which the broker itself sets to
``offline`` (the table's MQTT Last Will) when a table dies or its network drops, within
1.5 keepalive periods. A table still online that has said nothing for ``--quiet-after``
seconds is shown as quiet.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self, TextIO

from aiohttp import web

from controller.app.cli import seconds, tcp_port
from controller.app.config import PitConfig
from controller.app.pit import make_client
from controller.app.webthread import WebThread
from controller.errors import TableError

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "pit_static"
HEADS_KEPT = 4096  # journal hashes remembered per table, to see a fork at a row seen before
PASSWORD_ENV = "TABLECTL_PIT_PASSWORD"


def broker_password(args: argparse.Namespace) -> str:
    """The broker password from the environment. A variable named with ``--password-env``,
    or the default one when a ``--username`` needs a password, must be set: an unset one
    would log in with no password and be refused ("Not authorized") again and again."""
    name = args.password_env or PASSWORD_ENV
    password = os.environ.get(name)
    if password is None:
        if args.password_env is not None:
            raise TableError(f"--password-env names {name}, which is not set")
        if args.username:
            raise TableError(
                f"--username {args.username} needs its password in {name}, which is not set "
                "(or name another variable with --password-env)"
            )
        return ""
    return password


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--broker", required=True, help="mqtt://host[:port] or mqtts://...")
    parser.add_argument("--port", type=tcp_port, default=8090, help="web port (default 8090)")
    parser.add_argument("--host", default="127.0.0.1", help="web address (default localhost)")
    parser.add_argument("--prefix", default="casino", help="topic prefix (default casino)")
    parser.add_argument("--username", default="", help="broker user (the pit's, read-only)")
    parser.add_argument(
        "--password-env",
        default=None,
        metavar="NAME",
        help=f"environment variable holding the broker password (default {PASSWORD_ENV}; "
        "a variable named here, or needed for --username, that is not set is an error)",
    )
    parser.add_argument("--ca-file", default="", help="CA certificate for mqtts://")
    parser.add_argument("--quiet-after", type=seconds, default=60.0, metavar="SECONDS")


@dataclass
class TableSeen:
    """What the floor knows of one table, from its topics."""

    site: str
    table: str
    game: str = ""
    status: str = "unknown"
    reason: str = ""
    state: str = ""
    round: int | None = None
    next_action: str = ""
    hold: str = ""
    simulated: bool = False
    journal_seq: int = 0
    last_seq: int = 0
    last_kind: str = ""
    last_heard: float | None = None  # monotonic, when the pit last heard from it
    last_event: float | None = None  # monotonic, when its last journal event arrived
    alarms: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=5))
    journal_hash: str = ""  # the head's hash (with journal_seq)
    heads: dict[int, str] = field(default_factory=dict)  # seq -> hash seen, newest last
    journal_alarm: str = ""  # the head went backwards or forked (kept until restart)

    def as_dict(self, now: float, quiet_after: float) -> dict[str, Any]:
        quiet = (
            self.status == "online"
            and self.last_heard is not None
            and now - self.last_heard > quiet_after
        )
        return {
            "site": self.site,
            "table": self.table,
            "game": self.game,
            "status": self.status,
            "reason": self.reason,
            "quiet": quiet,
            "state": self.state,
            "round": self.round,
            "next_action": self.next_action,
            "hold": self.hold,
            "simulated": self.simulated,
            "journal_seq": max(self.journal_seq, self.last_seq),
            "last_kind": self.last_kind,
            "last_event_age": None if self.last_event is None else round(now - self.last_event, 1),
            "alarms": list(self.alarms),
            "journal_hash": self.journal_hash,
            "journal_alarm": self.journal_alarm,
        }


def _hold_text(view: dict[str, Any]) -> str:
    """The hold a table is under and the rule it cites (blackjack: a tuple of violations;
    poker: one dict), or ''."""
    hold = view.get("hold")
    items = hold if isinstance(hold, list) else [hold] if isinstance(hold, dict) else []
    texts = []
    for item in items:
        if isinstance(item, dict):
            rule, message = item.get("rule", ""), item.get("message", "")
            texts.append(f"rule {rule}: {message}" if rule else str(message))
    if not texts and view.get("state") == "hold":
        texts.append("on hold")
    return "; ".join(texts)


class Floor:
    """The tables seen on the broker; thread-safe (paho's thread writes, the web reads)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.clock = clock
        self.wall = wall
        self.tables: dict[tuple[str, str], TableSeen] = {}
        self.version = 0
        self.changed = threading.Condition()
        self.listeners: list[Callable[[], None]] = []

    def take(self, topic: str, payload: bytes) -> None:
        """One MQTT message: ``<prefix>/<site>/table/<id>/<kind>``."""
        parts = topic.split("/")
        if len(parts) < 5 or parts[-3] != "table":
            return
        site, table_id, kind = parts[-4], parts[-2], parts[-1]
        if kind not in ("status", "state", "alarm", "event") or not payload:
            return  # a cleared retained message
        try:
            body = json.loads(payload)
        except ValueError:
            log.warning("not JSON on %s", topic)
            return
        if not isinstance(body, dict) or body.get("v") != 1:
            log.warning("unknown payload version on %s", topic)
            return
        now = self.clock()
        with self.changed:
            seen = self.tables.setdefault((site, table_id), TableSeen(site, table_id))
            if kind == "status":
                seen.status = str(body.get("status", "unknown"))
                seen.reason = str(body.get("reason", ""))
                seen.game = str(body.get("game", seen.game))
            elif kind == "state":
                state = body.get("state") or {}
                self._watch_head(seen, state.get("journal_seq"), state.get("journal_hash"), True)
                self._state(seen, state, now - self._age(body.get("at")))
            elif kind == "alarm":
                self._watch_head(seen, body.get("seq"), body.get("hash"), False)
                seen.alarms.appendleft(
                    {
                        "seq": body.get("seq"),
                        "severity": body.get("severity"),
                        "kind": body.get("kind"),
                        "rule": (body.get("payload") or {}).get("rule", ""),
                        "message": (body.get("payload") or {}).get("message")
                        or (body.get("payload") or {}).get("reason", ""),
                        "wall": body.get("wall"),
                    }
                )
            elif kind == "event":
                seq = body.get("seq")
                if isinstance(seq, int) and seq > seen.last_seq:
                    seen.last_seq, seen.last_kind = seq, str(body.get("kind", ""))
                    seen.last_event = now
            if kind != "status" or seen.status == "online":
                seen.last_heard = now
            self.version += 1
            self.changed.notify_all()
            listeners = list(self.listeners)
        for listener in listeners:
            listener()

    @staticmethod
    def _watch_head(seen: TableSeen, seq: Any, digest: Any, head: bool) -> None:
        """A row's hash the table published (``head``: its journal's last row). A head
        below the last one seen, or a hash other than the one seen at that row, raises the
        table's journal alarm."""
        if not isinstance(seq, int) or not isinstance(digest, str) or not digest:
            return  # a table from before issue 12 publishes no hash
        known = seen.heads.get(seq)
        alarm = ""
        if known is not None and known != digest:
            alarm = (
                f"journal forked at row {seq}: hash {digest[:12]}, where {known[:12]} was "
                "seen before (the journal was rewritten)"
            )
        elif head and seq < seen.journal_seq:
            alarm = (
                f"journal head went back from row {seen.journal_seq} to row {seq} (rows cut "
                "off the end, or a new journal opened)"
            )
        if alarm:
            log.error("table %s/%s: %s", seen.site, seen.table, alarm)
            seen.journal_alarm = alarm
            seen.alarms.appendleft(
                {"seq": seq, "severity": "journal", "kind": "JournalHead", "rule": "",
                 "message": alarm, "wall": None}
            )  # fmt: skip
            for later in [s for s in seen.heads if s > seq]:  # another journal's rows now
                del seen.heads[later]
        seen.heads.pop(seq, None)
        seen.heads[seq] = digest
        while len(seen.heads) > HEADS_KEPT:
            del seen.heads[next(iter(seen.heads))]
        if head:
            seen.journal_hash = digest

    def _age(self, at: Any) -> float:
        """Seconds since the table published a state (its ``at``; the floor's clocks are
        kept by NTP), so a retained state seen at the pit's start has its true age."""
        try:
            stamp = datetime.datetime.fromisoformat(str(at)).timestamp()
        except ValueError:
            return 0.0
        return max(0.0, self.wall() - stamp)

    @staticmethod
    def _state(seen: TableSeen, state: dict[str, Any], at: float) -> None:
        """A state is published after every event: a higher ``journal_seq`` means new
        events (so the floor needs no subscription to every table's every event)."""
        view = state.get("view") or {}
        seen.game = str(state.get("game", seen.game))
        seen.round = state.get("round")
        journal_seq = int(state.get("journal_seq") or 0)
        if journal_seq > max(seen.journal_seq, seen.last_seq):
            seen.last_event = at
        seen.journal_seq = journal_seq
        seen.simulated = bool(state.get("simulated"))
        seen.state = str(view.get("state", ""))
        seen.next_action = str(view.get("next_action", ""))
        seen.hold = _hold_text(view)

    def snapshot(self, quiet_after: float = 60.0) -> list[dict[str, Any]]:
        now = self.clock()
        with self.changed:
            return [self.tables[key].as_dict(now, quiet_after) for key in sorted(self.tables)]

    def wait_for(self, check: Callable[[list[dict[str, Any]]], bool], timeout: float) -> bool:
        """Wait until ``check(snapshot)`` holds (tests); re-checked on every message."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not check(self.snapshot()):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, 0.5))
            return True


class PitView(WebThread):
    """The floor view: an MQTT subscriber and a web server, each on its own thread."""

    what = "the pit view"

    def __init__(
        self,
        broker: str,
        *,
        host: str = "127.0.0.1",
        port: int = 8090,
        prefix: str = "casino",
        username: str = "",
        password: str = "",
        ca_file: str = "",
        quiet_after: float = 60.0,
    ) -> None:
        super().__init__(host, port)
        self.floor = Floor()
        self.prefix = prefix
        self.quiet_after = quiet_after
        pit = PitConfig(
            broker=broker, prefix=prefix, username=username, password=password, ca_file=ca_file
        )
        self.client, self.broker_host, self.broker_port = make_client(
            pit, f"tablectl-pit-{os.getpid()}-{id(self):x}"
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.broker_connected = False
        self.client.on_message = lambda client, userdata, msg: self.floor.take(
            msg.topic, bytes(msg.payload)
        )
        self.floor.listeners.append(self._wake)

    # --- MQTT ---------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the pit view: %s", reason)
            return
        self.broker_connected = True
        self._wake()
        topics = [f"{self.prefix}/+/table/+/{kind}" for kind in ("status", "state", "alarm")]
        client.subscribe([(topic, 1) for topic in topics])

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        """Without the broker every table's status is stale: the page says so."""
        self.broker_connected = False
        self._wake()

    # --- life cycle ---------------------------------------------------------------------

    def start(self) -> Self:
        super().start()
        self.client.connect_async(self.broker_host, self.broker_port, keepalive=30)
        self.client.loop_start()
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        super().close()

    def _wake(self) -> None:
        """From the MQTT thread: wake every page's stream."""
        self.call(self.wake)

    def build_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/api/tables", self._tables),
                web.get("/api/events", self._events),
                web.static("/static", STATIC),
            ]
        )
        return app

    def _body(self) -> str:
        return json.dumps(
            {"broker": self.broker_connected, "tables": self.floor.snapshot(self.quiet_after)}
        )

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _tables(self, request: web.Request) -> web.Response:
        return web.Response(text=self._body(), content_type="application/json")

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """Server-Sent Events: the floor at once, then at most 4 times a second on change,
        and every second anyway (the ages move)."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        stop = self.stopping
        try:
            while stop is not None and self.changed is not None and not stop.is_set():
                changed = self.changed
                await response.write(f"event: floor\ndata: {self._body()}\n\n".encode())
                try:
                    await asyncio.wait_for(changed.wait(), timeout=1.0)
                except TimeoutError:
                    continue
                await asyncio.sleep(0.25)  # coalesce a burst of messages into one update
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    try:
        password = broker_password(args)
        view = PitView(
            args.broker,
            host=args.host,
            port=args.port,
            prefix=args.prefix,
            username=args.username,
            password=password,
            ca_file=args.ca_file,
            quiet_after=args.quiet_after,
        ).start()
    except (TableError, OSError) as exc:
        print(f"tablectl pit: {exc}", file=sys.stderr)
        return 2
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    print(
        f"pit floor view: {view.url}  (broker {args.broker}; Ctrl-C to stop)", file=out, flush=True
    )
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        view.close()
    return 0
