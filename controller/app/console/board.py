"""The players' board: the document ``/api/board`` serves, decided here on the server.

The board faces the players, so what it may show is decided before anything leaves the
table, never by hiding things in a browser: the document is built from the published
state by whitelist, each game choosing its own facts from its view (`GameSpec.board`,
e.g. controller/baccarat/board.py), and it carries only `FIELDS`:

- ``table``, ``casino``, ``colours``, ``language``, ``closed_after``: ``[board]``
  (controller/app/config/board.py; ``table`` defaults to ``[table] id``);
- ``limits``: ``[limits]``'s minimum and maximum (the table notice, rule 11.5(a));
- ``game``, ``title``, ``renderer``: which game, its name for people, and the drawing its
  page script registers (``window.tablectl.renderers[renderer].players``);
- ``closed``: the table is not open: it has published nothing yet, or it is stopping;
- ``facts``: the game's ``board(view)``, or {} for a game without one (the frame alone).

Never the full state: no dealer, staff, notice, HOLD, journal head or device.
"""

from __future__ import annotations

import logging
from typing import Any

from controller.app.config.board import BoardConfig
from controller.errors import ConfigError
from controller.game import registry

log = logging.getLogger(__name__)

FIELDS = frozenset(
    {
        "table",
        "casino",
        "colours",
        "language",
        "closed_after",
        "limits",
        "game",
        "title",
        "renderer",
        "closed",
        "facts",
    }
)


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def board_document(
    state: dict[str, Any], settings: BoardConfig, game: str, *, closed: bool
) -> dict[str, Any]:
    """The board for the published ``state`` of a table of ``game``. ``closed``: the
    table says it is closing. A game whose board function fails shows the frame alone
    (logged): the players never see an error, and nothing unchecked reaches them."""
    limits: dict[str, Any] = state["limits"] if isinstance(state.get("limits"), dict) else {}
    view: dict[str, Any] = state["view"] if isinstance(state.get("view"), dict) else {}
    title, renderer, facts = game.capitalize(), "", {}
    try:
        spec = registry.spec(game)
        title, renderer = spec.words, spec.renderer
        if spec.board is not None and view:
            facts = spec.board(view)
    except ConfigError as exc:
        log.error("the players' board: %s", exc)
    except Exception:  # a game's bug: the frame still shows
        log.exception("the players' board of %s failed", game)
        facts = {}
    return {
        "table": settings.name or str(state.get("table") or ""),
        "casino": settings.casino,
        "colours": settings.colours,
        "language": settings.language,
        "closed_after": settings.closed_after,
        "limits": {
            "minimum": _whole(limits.get("minimum")),
            "maximum": _whole(limits.get("maximum")),
        },
        "game": game,
        "title": title,
        "renderer": renderer,
        "closed": closed or not state,
        "facts": facts,
    }
