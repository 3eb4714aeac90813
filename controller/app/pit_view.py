"""`tablectl pit --broker URL`: the floor view a pit manager runs a shift from (issues 8, 19).

It subscribes to every table's ``status``, ``state`` and ``event`` topics (docs/mqtt.md;
never to ``restricted``: the floor needs no player's cards) and serves one page (aiohttp,
the same stack as the table's status display; its files in ``pit_static/``, nothing from
the internet), updated over Server-Sent Events:

- the floor as a map of tables by pit or area (``--floor FILE``, TOML), coloured by state;
- per table (`pit_floor`): game and limits, who is dealing, the state in words, the time
  since the last card, a HOLD with its rule and since when, a restart or recovery, online,
  offline (red: its Last Will, since when and why), closed (a clean stop) or unknown (the
  broker out of reach);
- the alarm log (`pit_alarms`) with times, who cleared each HOLD and how, the manager's
  acknowledgements, a sound and a flash for a new HOLD or a table lost;
- the shift's figures per table, game and dealer (`pit_figures`), small SVG charts, and
  their CSV export.

The shift's start, the rows its figures come from, the tables' statuses and the manager's
acknowledgements are kept in the pit's own SQLite file (``--store``, `pit_store`), so a
restart of the view loses none of them; the view's MQTT session is persistent, so the rows
published while it was down come to it when it is back (as long as the broker kept them).
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
import tomllib
from pathlib import Path
from typing import Any, Self, TextIO

from aiohttp import web

from controller.app.cli import seconds, tcp_port
from controller.app.config import PitConfig
from controller.app.pit_boards import GameViews
from controller.app.pit_figures import figures_csv, series, shift_figures, svg_chart, when
from controller.app.pit_floor import Floor, TableSeen, iso
from controller.app.pit_import import import_journals
from controller.app.pit_link import make_client, parse_broker
from controller.app.pit_store import PitStore, PitStoreError
from controller.app.webthread import WebThread
from controller.errors import ConfigError, TableError

log = logging.getLogger(__name__)

__all__ = ["Floor", "PitView", "TableSeen", "add_arguments", "run"]

STATIC = Path(__file__).parent / "pit_static"
PASSWORD_ENV = "TABLECTL_PIT_PASSWORD"
FIGURES_SECONDS = 5.0  # the figures are worked out again at most this often without news
NAME_MAX = 40  # a manager's name as typed for an acknowledgement or a shift start
MANAGER_BODY_MAX = 1024  # the largest body a pit manager's POST has any need for


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


def load_floor_file(path: Path) -> dict[str, str]:
    """``--floor FILE``: ``[[area]]`` tables, each with ``name`` and ``tables`` (ids, in
    the order they stand) -> {table id: area}. A table in no area is drawn apart."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
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
    ) -> None:
        super().__init__(host, port)
        parse_broker(broker)  # a bad URL or floor file is refused before any file is made
        areas = load_floor_file(floor_file) if floor_file is not None else {}
        self.areas = area_order(floor_file)
        self.store = PitStore(store if store is not None else ":memory:")
        self.floor = Floor(store=self.store, areas=areas, outage_grace=outage_grace)
        self.prefix = prefix
        self.quiet_after = quiet_after
        pit = PitConfig(
            broker=broker, prefix=prefix, username=username, password=password, ca_file=ca_file
        )
        persistent = store is not None  # a session the broker keeps while the view is away
        client_id = self.store.client_id() if persistent else f"tablectl-pit-{os.getpid()}"
        if not persistent:
            client_id += f"-{id(self):x}"
        self.client, self.broker_host, self.broker_port = make_client(
            pit, client_id, clean_session=not persistent
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.boards = GameViews()  # a picked table's view, for its game's own drawing
        self.client.on_message = lambda client, userdata, msg: self._message(msg)
        self.floor.listeners.append(self._wake)
        self._figures: tuple[tuple[Any, ...], dict[str, Any]] | None = None

    def _message(self, msg: Any) -> None:
        payload = bytes(msg.payload)
        self.boards.take(msg.topic, payload)
        self.floor.take(msg.topic, payload, bool(msg.retain))

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
        app.add_routes(
            [
                web.get("/", self._index),
                web.get("/api/tables", self._tables),
                web.get("/api/events", self._events),
                web.get("/api/figures", self._figures_json),
                web.get("/api/figures.csv", self._figures_csv),
                web.get("/chart/{kind}.svg", self._chart),
                web.post("/api/ack", self._ack),
                web.post("/api/shift", self._shift),
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

    async def _manager_json(self, request: web.Request, fields: set[str]) -> dict[str, Any]:
        """A pit manager's POST: JSON only (a cross-site form cannot send it without a
        preflight this server never answers), from this page's own origin, small (the
        app's ``client_max_size``), with a name and no field but ``fields``."""
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="not from the floor view's own page")
        if request.content_type != "application/json":
            raise web.HTTPUnsupportedMediaType(text="JSON only")
        try:
            body = await request.json()
        except ValueError as exc:
            raise web.HTTPBadRequest(text="not JSON") from exc
        if not isinstance(body, dict):
            raise web.HTTPBadRequest(text="a JSON object")
        unknown = set(body) - fields - {"by"}
        if unknown:
            raise web.HTTPBadRequest(text=f"unknown fields: {', '.join(sorted(unknown))}")
        by = str(body.get("by") or "").strip()
        if not by or len(by) > NAME_MAX:
            raise web.HTTPBadRequest(text="say who you are (your name or initials)")
        return {**body, "by": by}

    async def _ack(self, request: web.Request) -> web.Response:
        body = await self._manager_json(request, {"id"})
        if not self.floor.acknowledge(str(body.get("id", "")), body["by"]):
            raise web.HTTPConflict(text="no such alarm, or already acknowledged")
        return web.json_response({"ok": True})

    async def _shift(self, request: web.Request) -> web.Response:
        """Start the shift now, or at ``start`` (ISO 8601 with its offset, not in the
        future)."""
        body = await self._manager_json(request, {"start"})
        now = self.floor.wall()
        start = body.get("start") or "now"
        stamp = now if start == "now" else _aware(start)
        if stamp is None or stamp > now + 60:
            raise web.HTTPBadRequest(text="start: 'now' or an ISO 8601 time, not in the future")
        self.floor.set_shift(iso(stamp), body["by"])
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


def _aware(text: Any) -> float | None:
    """An ISO 8601 time with its offset (``Z``, ``+13:00``) as a POSIX time, else None."""
    try:
        stamp = datetime.datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return None if stamp.tzinfo is None else stamp.timestamp()


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.import_journal:
        return import_journals(args, out)
    try:
        password = broker_password(args)
        floor_file = Path(args.floor) if args.floor else None
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
