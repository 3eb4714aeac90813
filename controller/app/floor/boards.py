"""The games' own drawings in the pit view, for the table a pit manager picks.

A game whose `GameSpec` names a ``page_script`` (controller/app/console/game_page.py) can show the
pit more than the floor's words: a shoe game's scoreboards, say, which players and managers
read at a glance. The floor view (floor/view.py) keeps, for each table whose game has a
drawing, the last ``view`` its public ``state`` topic carried (never the restricted topic:
what a game keeps private is already withheld there), and serves:

- ``GET /game/<name>.js``: that game's drawing (it registers
  ``window.tablectl.renderers[<renderer>]``; the pit calls its ``board(view)``);
- ``GET /api/view?table=<id>``: ``{"game", "view"}`` of that table, 404 if none is kept.

Nothing here names a game: what can be drawn is what the registry says has a script.
"""

from __future__ import annotations

import threading
from typing import Any

from aiohttp import web

from controller.app.console.game_page import script_text
from controller.app.console.json_bounded import loads_bounded
from controller.errors import ConfigError
from controller.game import registry


class GameViews:
    """The last drawable view of each table, by table id (from the MQTT thread; read on
    the web thread: a lock around the dict)."""

    def __init__(self) -> None:
        self._views: dict[str, dict[str, Any]] = {}
        self._drawable: dict[str, bool] = {}
        self._lock = threading.Lock()

    def drawable(self, game: str) -> bool:
        """Whether ``game`` is registered here and names a page script (asked once per
        registered game: a name off the registry is never kept, so a message naming made-up
        games cannot grow the cache)."""
        if game not in registry.names():
            return False
        known = self._drawable.get(game)
        if known is None:
            try:
                known = registry.spec(game).page_script is not None
            except ConfigError:  # registered, but its entry does not import
                known = False
            self._drawable[game] = known
        return known

    def take(self, topic: str, payload: bytes) -> None:
        """One MQTT message; only a table's ``state`` of a drawable game is kept."""
        parts = topic.split("/")
        if len(parts) < 5 or parts[-3] != "table" or parts[-1] != "state" or not payload:
            return
        try:
            body = loads_bounded(payload)
        except ValueError:
            return  # the floor logs it
        state = body.get("state") if isinstance(body, dict) else None
        if not isinstance(state, dict):
            return
        game, view = state.get("game"), state.get("view")
        if isinstance(game, str) and isinstance(view, dict) and self.drawable(game):
            with self._lock:
                self._views[parts[-2]] = {"game": game, "view": view}

    def get(self, table: str) -> dict[str, Any] | None:
        with self._lock:
            return self._views.get(table)

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/game/{name}.js", self._script), web.get("/api/view", self._view)]

    async def _script(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in registry.names() or not self.drawable(name):
            raise web.HTTPNotFound(text=f"no drawing for the game {name!r}")
        return web.Response(
            text=script_text(name) or "",
            content_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    async def _view(self, request: web.Request) -> web.Response:
        kept = self.get(request.query.get("table", ""))
        if kept is None:
            raise web.HTTPNotFound(text="no drawable view of that table")
        return web.json_response(kept)
