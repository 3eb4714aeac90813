"""`tablectl pit --broker URL`: the floor view a pit manager runs a shift from.

It subscribes to every table's ``status``, ``state`` and ``event`` topics (docs/mqtt.md;
never to ``restricted/event``: the floor needs no player's cards), and to
``restricted/rating``, the players' ratings, shown only to staff granted them (the Ratings
page, `floor.ratings`, `floor.rating_board`), and serves one page (aiohttp,
the same stack as the table's status display; its files in ``static/``, nothing from
the internet), updated over Server-Sent Events:

- the floor as a map of tables by pit or area (``--floor FILE``, TOML), coloured by state;
- per table (`floor.tables`): game and limits, who is dealing, the state in words, the time
  since the last card, a HOLD with its rule and since when, a restart or recovery, online,
  offline (red: its Last Will, since when and why), closed (a clean stop) or unknown (the
  broker out of reach);
- the alarm log (`floor.alarms`) with times, who cleared each HOLD and how, the manager's
  acknowledgements, a sound and a flash for a new HOLD or a table lost;
- the shift's figures per table, game and dealer (`floor.figures`), small SVG charts, and
  their CSV export.

Reading needs no sign-in; acknowledging an alarm and starting a shift need a pit manager
signed in (``--staff FILE``, `floor.staff`; the checks, sessions and headers in `floor.auth`),
and the pit's journal names who did each.

The shift, its figures' rows, the tables' statuses and the acknowledgements are kept in the
pit's own SQLite file (``--store``, `floor.store`): a restart of the view loses none of them,
and its persistent MQTT session brings what was published while it was down.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import sys
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self, TextIO

from aiohttp import web

from controller.app.cli import seconds, tcp_port
from controller.app.config import PitConfig, StaffMember
from controller.app.console.webthread import WebThread
from controller.app.floor.auth import RATINGS, FloorDoor
from controller.app.floor.boards import GameViews
from controller.app.floor.figures import figures_csv, series, shift_figures, svg_chart, when
from controller.app.floor.imports import import_journals
from controller.app.floor.rating_board import STATES, board, ratings_csv
from controller.app.floor.shift import SHIFT_TIME_WORDS, shift_time
from controller.app.floor.staff import PitStaff, load_pit_staff
from controller.app.floor.store import PitStore, PitStoreError
from controller.app.floor.tables import KEEP_NAMES_DAYS, Floor, TableSeen, iso
from controller.app.floor.verify import (
    RATING_LEAF,
    SigningKey,
    Trust,
    add_key_arguments,
    key_path,
    print_public_key,
    table_topic,
    view_keys,
    view_signing_key,
)
from controller.app.pit.link import PASSWORD_ENV, broker_password, make_client, parse_broker
from controller.errors import ConfigError, TableError

log = logging.getLogger(__name__)

__all__ = ["Floor", "PitView", "TableSeen", "add_arguments", "run"]

STATIC = Path(__file__).parent / "static"
FIGURES_SECONDS = 5.0  # the figures are worked out again at most this often without news
MANAGER_BODY_MAX = 1024  # the largest body a pit manager's POST has any need for


def load_floor_file(path: Path) -> dict[str, str]:
    """``--floor FILE``: ``[[area]]`` tables, each with ``name`` and ``tables`` (ids, in
    the order they stand) -> {table id: area}. A table in no area is drawn apart."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--floor {path}: {exc}") from exc
    areas: dict[str, str] = {}
    for number, area in enumerate(doc.get("area", []), 1):
        name, tables = area.get("name"), area.get("tables")
        if not isinstance(name, str) or not isinstance(tables, list):
            raise ConfigError(f"--floor {path}: area {number} needs a name and a tables list")
        for table in tables:
            if not isinstance(table, str) or table in areas:
                raise ConfigError(f"--floor {path}: area {name!r}: table {table!r} is not a "
                                  "table id, or is in two areas")  # fmt: skip
            areas[table] = name
    return areas


KEEP_NAMES_MAX = 3650  # days: ten years is no retention at all


def load_keep_names_days(path: Path | None) -> int:
    """``--floor FILE``'s ``[ratings] keep_names_days``: how many days after a rating
    ended the pit keeps its player's card number or name (then erased, the figures kept);
    `KEEP_NAMES_DAYS` when not set. A whole number of days from 1 to `KEEP_NAMES_MAX`."""
    if path is None:
        return KEEP_NAMES_DAYS
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--floor {path}: {exc}") from exc
    section = doc.get("ratings", {})
    if not isinstance(section, dict) or set(section) - {"keep_names_days"}:
        raise ConfigError(f"--floor {path}: [ratings] has one key, keep_names_days")
    days = section.get("keep_names_days", KEEP_NAMES_DAYS)
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= KEEP_NAMES_MAX:
        raise ConfigError(
            f"--floor {path}: ratings.keep_names_days must be whole days from 1 to "
            f"{KEEP_NAMES_MAX}, not {days!r}"
        )
    return days


def area_order(path: Path | None) -> list[dict[str, Any]]:
    if path is None:
        return []
    doc = tomllib.loads(path.read_text())
    return [{"name": a["name"], "tables": list(a["tables"])} for a in doc.get("area", [])]


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
    parser.add_argument(
        "--store",
        default="tablectl-pit.sqlite",
        metavar="PATH",
        help="the pit's own SQLite file: the shift, its rows, acknowledgements "
        "(default ./tablectl-pit.sqlite)",
    )
    parser.add_argument("--floor", default=None, metavar="FILE", help="the floor plan (TOML)")
    add_key_arguments(parser)  # --signing-key, --public-key; the tables' keys: --floor
    parser.add_argument(
        "--staff",
        default=None,
        metavar="FILE",
        help="who may sign in (TOML [[staff]], roles pit_manager and surveillance); "
        "without it nobody can acknowledge an alarm or start a shift",
    )
    parser.add_argument(
        "--server-name",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name or address browsers use to reach the view, besides localhost "
        "and --host (repeat for more); a request naming any other Host is refused",
    )
    parser.add_argument(
        "--import-journal",
        action="append",
        default=[],
        metavar="TABLE=FILE",
        help="put a table's `tablectl journal export` (JSON lines) into the store and exit: "
        "the figures after a lost store (repeat for more tables)",
    )
    parser.add_argument("--site", default="", help="the tables' site, for --import-journal")
    parser.add_argument(
        "--outage-grace",
        type=seconds,
        default=20.0,
        metavar="SECONDS",
        help="after a broker outage, a table is unknown, not offline, this long (default 20)",
    )


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
        store: Path | str | None = None,
        floor_file: Path | None = None,
        outage_grace: float = 20.0,
        staff: PitStaff | None = None,
        server_names: tuple[str, ...] = (),
        table_keys: Mapping[str, str] | None = None,
        signing_key: SigningKey = None,
    ) -> None:
        """``table_keys``: table id -> public key, beside those of the floor file's
        [keys]; ``signing_key``: the pit's key, or its file (default beside the store;
        a view with no store signs with a key of its own life only)."""
        super().__init__(host, port)
        parse_broker(broker)  # a bad URL or floor file is refused before any file is made
        areas = load_floor_file(floor_file) if floor_file is not None else {}
        keep_names_days = load_keep_names_days(floor_file)
        keys = view_keys(floor_file, table_keys)
        self.areas = area_order(floor_file)
        self.store = PitStore(store if store is not None else ":memory:")
        try:
            signing = view_signing_key(signing_key, store)
        except (TableError, OSError):
            self.store.close()
            raise
        self.floor = Floor(
            store=self.store,
            areas=areas,
            outage_grace=outage_grace,
            keep_names_days=keep_names_days,
        )
        self.prefix = prefix
        self.quiet_after = quiet_after
        pit = PitConfig(
            broker=broker, prefix=prefix, username=username, password=password, ca_file=ca_file
        )
        persistent = store is not None  # a session the broker keeps while the view is away
        client_id = self.store.client_id() if persistent else f"tablectl-pit-{os.getpid()}"
        if not persistent:
            client_id += f"-{id(self):x}"
        if username:  # the broker binds each login to its own id (deploy/mosquitto)
            client_id = username
        self.client, self.broker_host, self.broker_port = make_client(
            pit, client_id, clean_session=not persistent
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.boards = GameViews()  # a picked table's view, for its game's own drawing
        self.client.on_message = lambda client, userdata, msg: self._message(msg)
        self.trust = Trust(self.floor, keys, signing, prefix, self.client.publish)
        self.floor.listeners.append(self._wake)
        self._figures: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self.door = FloorDoor(
            self,
            staff if staff is not None else PitStaff(),
            self.store,
            names=server_names,
            max_body=MANAGER_BODY_MAX,
        )

    def _message(self, msg: Any) -> None:
        """A table's message, taken only if its table signed it (`pit_verify.Gate`)."""
        payload = self.trust.check(msg.topic, bytes(msg.payload))
        if payload is None:
            return
        named = table_topic(msg.topic)
        if named is not None and named[2] == "rating":
            self.floor.take_rating(named[0], named[1], payload)
            self.trust.witnessed(msg.topic)
            return
        self.boards.take(msg.topic, payload)
        self.floor.take(msg.topic, payload, bool(msg.retain))
        self.trust.witnessed(msg.topic)  # the head the view now holds, signed

    @property
    def broker_connected(self) -> bool:
        return self.floor.broker_up

    # --- MQTT ---------------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            log.error("the broker refused the pit view: %s", reason)
            return
        self.floor.link(True)
        topics = [f"{self.prefix}/+/table/+/{kind}" for kind in ("status", "state", "event")]
        topics.append(f"{self.prefix}/+/table/+/{RATING_LEAF}")
        client.subscribe([(topic, 1) for topic in topics])
        self._wake()

    def _on_disconnect(
        self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any
    ) -> None:
        """Without the broker every table's status is unknown: the page says so."""
        self.floor.link(False)
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
        self.store.close()

    def _wake(self) -> None:
        """From the MQTT thread: wake every page's stream."""
        self.call(self.wake)

    def build_app(self) -> web.Application:
        app = web.Application(client_max_size=MANAGER_BODY_MAX)
        self.door.install(app)  # the Host check, the headers, /api/session, /signin, /signout
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/api/tables", self._tables),
                web.get("/api/events", self._events),
                web.get("/api/figures", self._figures_json),
                web.get("/api/figures.csv", self._figures_csv),
                web.get("/chart/{kind}.svg", self._chart),
                web.get("/ratings", self._ratings_page),
                web.get("/api/ratings", self.door.reading(RATINGS, self._ratings)),
                web.get("/api/ratings.csv", self.door.reading(RATINGS, self._ratings_csv)),
                web.post("/api/ack", self.door.guarded("ack", frozenset({"id"}), self._ack)),
                web.post(
                    "/api/shift", self.door.guarded("shift", frozenset({"start"}), self._shift)
                ),
                web.static("/static", STATIC),
                *self.boards.routes(),  # /game/<name>.js, /api/view?table=
            ]
        )
        return app

    # --- what the page is sent ----------------------------------------------------------

    def figures(self) -> dict[str, Any]:
        """The shift's figures, worked out again when a row arrives or every few seconds."""
        floor = self.floor
        now = floor.wall()
        key = (floor.rows_version, floor.shift_start, int(now / FIGURES_SECONDS))
        if self._figures is not None and self._figures[0] == key:
            return self._figures[1]
        start = when(floor.shift_start) or now
        tables = floor.snapshot(self.quiet_after)
        games = {t["table"]: t["game"] for t in tables if t["game"]}
        duty = {
            t["table"]: str(t["dealer"]["id"])
            for t in tables
            if isinstance(t.get("dealer"), dict) and t["dealer"].get("id")
        }
        rows = self.store.rows(floor.shift_start)
        signed = {r["table"] for r in rows if r["kind"] in ("DealerSignedIn", "DealerSignedOut")}
        duty = {t: d for t, d in duty.items() if t not in signed}  # already on at the start
        names = {
            str(t["dealer"]["id"]): str(t["dealer"].get("name") or "")
            for t in tables
            if isinstance(t.get("dealer"), dict) and t["dealer"].get("id")
        }
        figures = shift_figures(
            rows, start, now, games=games, on_duty_at_start=duty, dealer_names=names
        )
        body = {**figures, "start": floor.shift_start, "end": iso(now), "rows": rows}
        self._figures = (key, body)
        return body

    def body(self) -> dict[str, Any]:
        floor = self.floor
        figures = self.figures()
        per_table = {f["key"]: f for f in figures["tables"]}
        tables = floor.snapshot(self.quiet_after)
        for table in tables:
            table["figures"] = per_table.get(table["table"])
        alarms = floor.alarms()
        return {
            "broker": floor.broker_up,
            "broker_down_since": None if floor.broker_up else floor.broker_down_since,
            "now": iso(floor.wall()),
            "shift": {"start": floor.shift_start, "by": self.store.get("shift_by") or ""},
            "areas": self.areas,
            "tables": tables,
            "alarms": alarms,
            "figures": {k: figures[k] for k in ("games", "dealers", "floor")},
            "chart_version": floor.rows_version,
        }

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html")

    async def _tables(self, request: web.Request) -> web.Response:
        return web.json_response(self.body())

    async def _figures_json(self, request: web.Request) -> web.Response:
        body = dict(self.figures())
        body.pop("rows")
        return web.json_response(body)

    async def _figures_csv(self, request: web.Request) -> web.Response:
        figures = self.figures()
        stamp = figures["start"][:16].replace(":", "").replace("-", "")
        return web.Response(
            text=figures_csv(figures, figures["start"], figures["end"]),
            content_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="shift-{stamp}.csv"'},
        )

    async def _chart(self, request: web.Request) -> web.Response:
        """``/chart/win.svg`` or ``/chart/rounds.svg``, ``?table=ID`` (else the floor's),
        ``&w=&h=`` pixels."""
        kind = request.match_info["kind"]
        if kind not in ("win", "rounds"):
            raise web.HTTPNotFound()
        try:
            width = min(max(int(request.query.get("w", "160")), 40), 1200)
            height = min(max(int(request.query.get("h", "36")), 16), 600)
        except ValueError as exc:
            raise web.HTTPBadRequest(text="w and h are whole pixels") from exc
        table = request.query.get("table") or None
        figures = self.figures()
        start = when(figures["start"]) or 0.0
        win, rounds = series(figures["rows"], start, when(figures["end"]) or start, table)
        name = table or "the floor"
        title = (
            f"{name}: win/loss over the shift, {int(win[-1]) if win else 0}"
            if kind == "win"
            else f"{name}: rounds per hour over the shift"
        )
        text = svg_chart(kind, win if kind == "win" else rounds, width, height, title)
        return web.Response(
            text=text, content_type="image/svg+xml", headers={"Cache-Control": "no-cache"}
        )

    # --- the players' ratings (staff granted them only: `FloorDoor.reading`) -------------

    def ratings(self, query: Mapping[str, str]) -> dict[str, Any]:
        """The Ratings view (`rating_board.board`) for the query's filters: ``table``,
        ``player``, ``state`` (open or closed); the closed ratings are the shift's."""
        state = query.get("state", "")
        table, player = query.get("table", "")[:64], query.get("player", "")[:128]
        if state not in STATES:
            raise web.HTTPBadRequest(text="state is open, closed or left out")
        self.floor.erase_rating_names()
        now = iso(self.floor.wall())
        rows = self.store.ratings.ratings(self.floor.shift_start)
        body = board(rows, now, table=table, player=player, state=state)
        return {
            **body,
            "shift": self.floor.shift_start,
            "keep_names_days": self.floor.keep_names_days,
        }

    async def _ratings_page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "ratings.html")

    async def _ratings(self, request: web.Request, member: StaffMember) -> web.Response:
        return web.json_response(self.ratings(request.query), headers={"Cache-Control": "no-store"})

    async def _ratings_csv(self, request: web.Request, member: StaffMember) -> web.Response:
        """The shift's closed ratings as CSV (docs/ratings-csv.md), journaled in the pit's
        store with who exported them and how many (never which players)."""
        body = self.ratings(request.query)
        text = ratings_csv(body["closed"])
        filters = {k: bool(request.query.get(k)) for k in ("table", "player", "state")}
        what = {"ratings": len(body["closed"]), "shift": body["shift"], "filters": filters}
        self.store.journal(iso(self.floor.wall()), "RatingsExported", member.id, what)
        log.info("%s exported %d rating(s) as CSV", member.id, len(body["closed"]))
        stamp = body["shift"][:16].replace(":", "").replace("-", "")
        return web.Response(
            text=text,
            content_type="text/csv",
            headers={
                "Content-Disposition": f'attachment; filename="ratings-{stamp}.csv"',
                "Cache-Control": "no-store",
            },
        )

    async def _ack(
        self, request: web.Request, member: StaffMember, body: dict[str, Any]
    ) -> web.Response:
        """A pit manager acknowledges one alarm; the pit's journal names them."""
        alarm = body.get("id")
        if not isinstance(alarm, str) or not self.floor.acknowledge(alarm, member.id):
            raise web.HTTPConflict(text="no such alarm, or already acknowledged")
        return web.json_response({"ok": True})

    async def _shift(
        self, request: web.Request, member: StaffMember, body: dict[str, Any]
    ) -> web.Response:
        """A pit manager starts the shift now, or at ``start`` (`shift_time`)."""
        now = self.floor.wall()
        stamp = shift_time(body.get("start", "now"), now)
        if stamp is None:
            return web.json_response({"ok": False, "error": SHIFT_TIME_WORDS}, status=400)
        self.floor.set_shift(iso(stamp), member.id)
        self._figures = None
        return web.json_response({"ok": True, "start": self.floor.shift_start})

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
                text = json.dumps(self.body())
                await response.write(f"event: floor\ndata: {text}\n\n".encode())
                try:
                    await asyncio.wait_for(changed.wait(), timeout=1.0)
                except TimeoutError:
                    continue
                await asyncio.sleep(0.25)  # coalesce a burst of messages into one update
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        return response


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.import_journal:
        return import_journals(args, out)
    if args.public_key:
        return print_public_key(args, out)
    try:
        password = broker_password(args)
        floor_file = Path(args.floor) if args.floor else None
        staff = load_pit_staff(Path(args.staff)) if args.staff else PitStaff()
        view = PitView(
            args.broker,
            host=args.host,
            port=args.port,
            prefix=args.prefix,
            username=args.username,
            password=password,
            ca_file=args.ca_file,
            quiet_after=args.quiet_after,
            store=Path(args.store),
            floor_file=floor_file,
            outage_grace=args.outage_grace,
            staff=staff,
            server_names=tuple(args.server_name),
            signing_key=key_path(args),
        ).start()
    except (TableError, OSError, PitStoreError) as exc:
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
