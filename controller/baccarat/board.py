"""Baccarat's players' board: what the results board facing the players shows, picked
from the game's published view by whitelist (docs/display.md, "The players' board").

- the five roads (`controller.baccarat.roads`: bead plate, big road, big eye boy, small
  road, cockroach pig), each cell copied field by field;
- the derived roads' next-coup predictions ("ask Banker", "ask Player"): the mark each
  would add were the next win the Banker's, or the Player's;
- the shoe's counts of Banker, Player and Tie wins and of pairs, and the last `LAST` coups;
- the coup in play: the Player's and the Banker's cards and totals (every baccarat card is
  dealt face up) and its result, so the board follows the deal card by card.

Nothing else reaches the board: no box, wager, commission account, button, HOLD or
dealer, and no card that is not in a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.baccarat.roads import DERIVED, FLAGS, TOTALS

LAST = 10  # the coups listed beside the roads
ROADS = ("bead_plate", "big_road", *DERIVED)
CELL_KEYS = ("winner", "total", "ties", *FLAGS)  # what a road's cell may say
RESULT_KEYS = ("winner", *TOTALS, *FLAGS)
COUNTS = ("banker", "player", "tie", "player_pair", "banker_pair")
SIDES = ("player", "banker")
MARKS = ("red", "blue")


def _object(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _cell(cell: Any) -> Any:
    if isinstance(cell, str):  # a derived road's mark
        return cell if cell in MARKS else None
    if not isinstance(cell, Mapping):
        return None
    return {key: cell[key] for key in CELL_KEYS if key in cell}


def _road(road: Any) -> dict[str, Any]:
    grid = road.get("grid", []) if isinstance(road, Mapping) else []
    columns = [[_cell(cell) for cell in column] for column in grid if isinstance(column, list)]
    return {"columns": len(columns), "grid": columns}


def _result(result: Any) -> dict[str, Any] | None:
    if not isinstance(result, Mapping):
        return None
    return {key: result[key] for key in RESULT_KEYS if key in result}


def _hand(hand: Any) -> dict[str, Any]:
    if not isinstance(hand, Mapping):
        return {"cards": [], "total": None}
    cards = [str(card) for card in hand.get("cards") or []]
    return {"cards": cards, "total": hand.get("total")}


def board_facts(view: dict[str, Any]) -> dict[str, Any]:
    """The players' board of a baccarat table, from its view (pure; whitelist only)."""
    roads = _object(view.get("roads"))
    ask = _object(roads.get("ask"))
    counts = _object(roads.get("counts"))
    shoe = _object(view.get("shoe"))
    results = [r for r in (view.get("results") or []) if isinstance(r, Mapping)]
    return {
        "coup": view.get("coup"),
        "wagers_open": bool(view.get("wagers_open")),
        "shoe": {"number": shoe.get("number"), "coups": shoe.get("coups")},
        "hands": {side: _hand(view.get(side)) for side in SIDES},
        "result": _result(view.get("result")),
        "roads": {name: _road(roads.get(name)) for name in ROADS},
        "ask": {
            side: {
                name: mark if (mark := _object(ask.get(side)).get(name)) in MARKS else None
                for name in DERIVED
            }
            for side in ("banker", "player")
        },
        "counts": {key: int(counts.get(key) or 0) for key in COUNTS},
        "last": [_result(r) for r in results[-LAST:]][::-1],  # the newest first
    }
