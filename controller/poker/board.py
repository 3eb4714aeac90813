"""Draw poker's players' board: the table notice of rule 11.5(a) (the minimum and
maximum wagers), the stakes (the blinds' amounts), the button, and the hand in play as
the players see it across the table (the chips put in, whose turn), picked from the
game's published view by whitelist (docs/display.md, "The players' board").

A poker card is never on it: a player's hand is dealt face down and is his own until the
showdown (11.3(a), 11.4(c)), so the board shows how many cards each seat holds and no
card at all, not even at the showdown. No stack, request, HOLD or dealer's control either.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.poker.phases import STATES


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat(seat: Any) -> dict[str, Any] | None:
    if not isinstance(seat, Mapping) or _whole(seat.get("seat")) is None:
        return None
    return {
        "seat": seat["seat"],
        "in_hand": bool(seat.get("in_hand")),
        "folded": bool(seat.get("folded")),
        "all_in": bool(seat.get("all_in")),
        "cards": _whole(seat.get("cards")) or 0,  # how many, never which
        "blind": _whole(seat.get("blind")),
    }


def seats_in(view: dict[str, Any]) -> list[Mapping[str, Any]]:
    return [s for s in view.get("seats") or () if isinstance(s, Mapping)]


def board_facts(view: dict[str, Any]) -> dict[str, Any]:
    """The players' board of a draw poker table, from its view (pure; whitelist only)."""
    limits: list[Any] = list(view.get("limits") or ())
    stakes = [b for b in view.get("stakes") or () if _whole(b) is not None]
    state = view.get("state")
    action: Mapping[str, Any] = view["action"] if isinstance(view.get("action"), Mapping) else {}
    seats = [s for s in map(_seat, seats_in(view)) if s is not None]
    return {
        "hand": _whole(view.get("hand")),
        "phase": state if state in STATES else "waiting",
        "limits": {
            "minimum": _whole(limits[0]) if len(limits) > 1 else None,
            "maximum": _whole(limits[1]) if len(limits) > 1 else None,
        },
        "stakes": stakes,  # the blinds' amounts; each seat says which blind it posts
        "button": _whole(view.get("button")),
        "to_act": _whole(action.get("seat")),
        "pot": sum(_whole(s.get("contributed")) or 0 for s in seats_in(view)),  # in the middle
        "seats": seats,
    }
