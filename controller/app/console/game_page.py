"""A game's own drawing for the status page, served at one fixed path for the game that runs.

The page (``static/index.html``, ``surveillance.html``) always loads ``/game.js`` before
``app.js``. What it gets is the script the running game's `GameSpec` names in
``page_script`` (``"package:path/in/it.js"``, read from the installed package with
`importlib.resources`, so a game shipped as its own distribution brings its drawing with
it); the script registers ``window.tablectl.renderers[<its renderer>]`` and app.js draws the
view with it. A game that names none gets an empty script and is shown as its view's
facts. So the app never names a game (docs/architecture.md: a game is one folder and one
registry entry): every game's drawing is a file in the game's folder.

Read-only, and under the server's security headers like every other response (the
Content-Security-Policy allows scripts from this server only, which this is).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from importlib import resources
from pathlib import PurePosixPath

from aiohttp import web

from controller.errors import ConfigError
from controller.game import registry

log = logging.getLogger(__name__)

PATH = "/game.js"  # where the running game's drawing is, whatever the game
NONE = "// this game has no drawing of its own: the page shows its view's facts\n"


def script_text(game: str) -> str | None:
    """The text of ``game``'s page script, or None when its spec names none. Raises
    `ConfigError` naming the spec's entry when it names a file that is not there."""
    named = registry.spec(game).page_script
    if named is None:
        return None
    package, _, inside = named.partition(":")
    where = f"the game {game!r}: page_script {named!r}"
    parts = PurePosixPath(inside).parts
    if not package or not inside.endswith(".js") or inside.startswith("/") or ".." in parts:
        raise ConfigError(f"{where} is not 'package:relative/path.js'")
    try:
        found = resources.files(package).joinpath(*parts)
        return found.read_text(encoding="utf-8")
    except (ImportError, OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where} cannot be read: {exc}") from exc


def handler(game: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    """The route's handler for ``game``: its script, or an empty one; a broken entry is
    logged and answered 500 (the page then shows the view's facts)."""

    async def serve(request: web.Request) -> web.Response:
        try:
            text = script_text(game)
        except ConfigError as exc:
            log.error("%s", exc)
            return web.Response(status=500, text=f"// {exc}\n", content_type="text/javascript")
        return web.Response(
            text=NONE if text is None else text,
            content_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    return serve
