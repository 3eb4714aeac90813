"""What the floor's Ratings view shows, and the CSV a loyalty system imports.

From the ratings the store keeps (`floor.ratings.RatingBook.ratings`): the open ratings per
table, the shift's closed ones, each player's totals across tables, with filters (table,
player, open or closed); and a player rated at two tables at the same time flagged (two
ratings of one player at different tables whose times overlap, an open one lasting
until now).

The CSV (`ratings_csv`, docs/ratings-csv.md) has one row per closed rating, its
``RatingEnded`` figures: money in whole chip units, theo and comp in chip units with two
decimals written exactly from the hundredths the table journaled (1234 -> ``12.34``), never
through a float. A text cell that a spreadsheet would read as a formula (it starts with
``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a leading ``'``.
"""

from __future__ import annotations

import csv
import io
from typing import Any

__all__ = ["CSV_COLUMNS", "board", "hundredths", "overlapping", "ratings_csv", "text_cell"]

CSV_COLUMNS = (
    "site",
    "table",
    "rating",
    "player",
    "box",
    "start",
    "end",
    "seconds",
    "rounds",
    "handle",
    "average_bet",
    "measured_average_bet",
    "largest_bet",
    "win_loss",
    "theo",
    "comp",
    "source",
    "wager_source",
    "adjusted",
    "skill_theo",
    "departures",
    "decisions_per_hour",
    "game",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
STATES = ("", "open", "closed")


def hundredths(value: int | None) -> str:
    """Hundredths of a chip unit as chip units, exactly: 1234 -> ``12.34``, -5 ->
    ``-0.05``; None -> ``""``."""
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    whole, cents = divmod(abs(value), 100)
    return f"{sign}{whole}.{cents:02d}"


def text_cell(value: str | None) -> str:
    """A text cell no spreadsheet runs as a formula (OWASP's CSV injection advice)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _key(rating: dict[str, Any]) -> tuple[str, str, str]:
    return (rating["site"], rating["table"], rating["rating"])


def overlapping(ratings: list[dict[str, Any]], now: str) -> set[tuple[str, str, str]]:
    """The ratings of a player who was rated at another table at the same time."""
    by_player: dict[str, list[dict[str, Any]]] = {}
    for rating in ratings:
        if rating["player"]:
            by_player.setdefault(rating["player"], []).append(rating)
    flagged: set[tuple[str, str, str]] = set()
    for same in by_player.values():
        for i, one in enumerate(same):
            for other in same[i + 1 :]:
                if (one["site"], one["table"]) == (other["site"], other["table"]):
                    continue
                one_end, other_end = one["end"] or now, other["end"] or now
                if one["start"] < other_end and other["start"] < one_end:
                    flagged |= {_key(one), _key(other)}
    return flagged


def _shown(rating: dict[str, Any], flagged: set[tuple[str, str, str]]) -> dict[str, Any]:
    figures = rating["figures"]
    return {
        "site": rating["site"],
        "table": rating["table"],
        "rating": rating["rating"],
        "box": rating["box"],
        "player": rating["player"],
        "erased": rating["erased"],
        "source": rating["source"],
        "start": rating["start"],
        "end": rating["end"],
        "open": rating["open"],
        "reason": rating["reason"],
        "moved_to": rating["moved_to"],
        "seconds": figures.get("seconds", 0),
        "rounds": figures.get("rounds", 0),
        "handle": figures.get("handle", 0),
        "handle_by_bet": figures.get("handle_by_bet", {}),
        "average_bet": figures.get("average_bet", 0),
        "measured_average_bet": figures.get("measured_average_bet", 0),
        "adjusted": bool(figures.get("adjusted")),
        "adjusted_by": figures.get("adjusted_by"),
        "adjusted_reason": figures.get("adjusted_reason"),
        "largest_bet": figures.get("largest_bet", 0),
        "win_loss": figures.get("win_loss", 0),
        "theo_hundredths": figures.get("theo_hundredths", 0),
        "theo": hundredths(figures.get("theo_hundredths", 0)),
        "comp_hundredths": figures.get("comp_hundredths"),
        "comp": hundredths(figures.get("comp_hundredths")),
        "skill_theo": hundredths(figures.get("skill_theo_hundredths")),
        "departures": figures.get("departures"),
        "decisions_per_hour": figures.get("decisions_per_hour"),
        "wager_source": figures.get("wager_source"),
        "game": figures.get("game"),
        "flagged": _key(rating) in flagged,
    }


def _wanted(rating: dict[str, Any], table: str, player: str, state: str) -> bool:
    if table and rating["table"] != table:
        return False
    if player and player.casefold() not in (rating["player"] or "").casefold():
        return False
    return not state or rating["open"] == (state == "open")


def _totals(shown: list[dict[str, Any]]) -> list[dict[str, Any]]:
    players: dict[str, dict[str, Any]] = {}
    for rating in shown:
        name = rating["player"]
        if not name:
            continue  # anonymous, or its name erased: nobody's totals
        total = players.setdefault(
            name,
            {"player": name, "ratings": 0, "open": 0, "tables": [], "seconds": 0, "rounds": 0,
             "handle": 0, "win_loss": 0, "theo_hundredths": 0, "comp_hundredths": 0,
             "flagged": False},
        )  # fmt: skip
        total["ratings"] += 1
        total["open"] += rating["open"]
        if rating["table"] not in total["tables"]:
            total["tables"].append(rating["table"])
        for figure in ("seconds", "rounds", "handle", "win_loss", "theo_hundredths"):
            total[figure] += rating[figure]
        total["comp_hundredths"] += rating["comp_hundredths"] or 0
        total["flagged"] = total["flagged"] or rating["flagged"]
    for total in players.values():
        total["tables"].sort()
        total["average_bet"] = total["handle"] // total["rounds"] if total["rounds"] else 0
        total["theo"] = hundredths(total["theo_hundredths"])
        total["comp"] = hundredths(total["comp_hundredths"])
    return sorted(players.values(), key=lambda t: (-t["theo_hundredths"], t["player"]))


def board(
    ratings: list[dict[str, Any]], now: str, *, table: str = "", player: str = "", state: str = ""
) -> dict[str, Any]:
    """The Ratings view: ``open`` (by table, then box), ``closed`` (newest end first),
    ``players`` (totals, highest theo first), ``flagged`` (how many ratings are), and the
    tables there are ratings of (the filter's choices). Filters: ``table`` (its id),
    ``player`` (part of a card number or name, any case), ``state`` (open or closed)."""
    flagged = overlapping(ratings, now)
    shown = [_shown(r, flagged) for r in ratings if _wanted(r, table, player, state)]
    return {
        "now": now,
        "open": sorted((r for r in shown if r["open"]), key=lambda r: (r["table"], r["box"])),
        "closed": sorted((r for r in shown if not r["open"]), key=lambda r: r["end"], reverse=True),
        "players": _totals(shown),
        "flagged": sum(1 for r in shown if r["flagged"]),
        "tables": sorted({r["table"] for r in ratings}),
    }


def ratings_csv(shown: list[dict[str, Any]]) -> str:
    """One row per closed rating (`board`'s ``closed``), in `CSV_COLUMNS`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r in shown:
        if r["open"]:
            continue
        writer.writerow(
            [
                text_cell(r["site"]),
                text_cell(r["table"]),
                text_cell(r["rating"]),
                text_cell(r["player"]),
                r["box"],
                r["start"],
                r["end"],
                r["seconds"],
                r["rounds"],
                r["handle"],
                r["average_bet"],
                r["measured_average_bet"],
                r["largest_bet"],
                r["win_loss"],
                r["theo"],
                r["comp"],
                text_cell(r["source"]),
                text_cell(r["wager_source"]),
                "true" if r["adjusted"] else "false",
                r["skill_theo"],
                "" if r["departures"] is None else r["departures"],
                "" if r["decisions_per_hour"] is None else r["decisions_per_hour"],
                text_cell(r["game"]),
            ]
        )
    return out.getvalue()
