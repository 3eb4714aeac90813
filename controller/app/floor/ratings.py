"""The player ratings the floor view keeps, from the tables' ``restricted/rating`` topic.

Each rating row (docs/mqtt.md, "Player ratings"; docs/mqtt-schema/rating.json) is checked
whole before anything is taken (`refusal`): a kind the floor does not know, a field
missing or unknown, a value of the wrong type or out of bounds is refused with one log
line naming the table, the row and the field, and nothing else is lost.

Per rating (table and rating id) the store keeps who (``player``: a card number or name,
or none for an anonymous rating), where (box or seat), how they were identified, and
its figures: while it is open, summed from its ``RatingRound`` rows (rounds, handle per
bet type, largest round's wagers, win/loss, theo, decision departures, seconds played);
once ``RatingEnded`` comes, that row's own figures, which are the table's account of the
rating. A supervisor's ``RatingAdjusted`` average bet is shown as adjusted, the measured
one kept.

A player rated at two tables at the same time is flagged (`conflicts`): on the Ratings
view, and as an alarm in the floor's alarm log, which names the tables and boxes but
never the player (the floor's alarm log needs no sign-in).

Retention (`erase_names`): a closed rating's player is erased from the store
``keep_names_days`` after the rating ended; its figures stay. Money is whole chip units;
theo and comp are hundredths of a chip unit (expected values, not payments).
"""

from __future__ import annotations

import datetime
import json
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator
from typing import Any

from controller.app.pit.players import RATING_KINDS

log = logging.getLogger(__name__)

__all__ = ["RATING_DEPTH", "RATING_FIELDS", "RATING_MESSAGE_MAX", "RatingBook", "refusal"]

TEXT_MAX = 64  # a rating id, a bet type, a staff id, a game
PLAYER_MAX = 128  # a card number or a player's name
REASON_MAX = 500  # a supervisor's reason
BOX_MAX = 100  # boxes and seats are numbered from 1; no table has this many
AMOUNT_MAX = 2**53 - 1  # chip units (and hundredths): exact in JSON
BETS_MAX = 32  # bet types in one round or one rating
SECONDS_MAX = 7 * 24 * 3600  # a week: no rating is longer
ROUNDS_MAX = 10**7
RATING_MESSAGE_MAX = 16 * 1024  # bytes: a RatingEnded with every bet type is about 2 KB
RATING_DEPTH = 4  # levels of JSON: the message, its payload, a bets object

# the field types a rating row's payload may have: each is a checker's name (`_CHECKS`)
RATING_FIELDS: dict[str, dict[str, str]] = {
    "RatingStarted": {
        "rating": "id",
        "box": "box",
        "player": "player?",
        "source": "source",
        "start": "time",
        "round": "count",
    },
    "RatingNamed": {"rating": "id", "box": "box", "player": "player", "who": "id"},
    "RatingRound": {
        "rating": "id",
        "box": "box",
        "round": "count",
        "wagers": "bets",
        "win_loss": "money",
        "theo_hundredths": "money",
        "departures": "count?",
        "seconds": "seconds",
    },
    "RatingAdjusted": {
        "rating": "id",
        "box": "box",
        "average_bet": "amount",
        "measured_average_bet": "amount",
        "who": "id",
        "reason": "reason",
    },
    "RatingEnded": {
        "rating": "id",
        "box": "box",
        "player": "player?",
        "reason": "ended",
        "start": "time",
        "end": "time",
        "seconds": "seconds",
        "rounds": "count",
        "handle": "amount",
        "handle_by_bet": "bets",
        "average_bet": "amount",
        "measured_average_bet": "amount",
        "adjusted": "bool",
        "largest_bet": "amount",
        "win_loss": "money",
        "theo_hundredths": "money",
        "skill_theo_hundredths": "money?",
        "departures": "count?",
        "decisions_per_hour": "count",
        "comp_hundredths": "money",
        "wager_source": "wager_source",
        "game": "id",
    },
    "RatingMoved": {"rating": "id", "box": "box", "to_rating": "id", "to_box": "box"},
}
ENVELOPE = {
    "v": "version",
    "table": "id",
    "site": "id",
    "seq": "seq",
    "wall": "time",
    "round": "count?",
    "source": "id",
    "kind": "kind",
    "payload": "object",
    "actor": "id?",
    "hash": "hash",
    "redacted": "empty",
}


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _text(value: Any, high: int) -> bool:
    return isinstance(value, str) and 0 < len(value) <= high and value.isprintable()


def _time(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 40:
        return False
    try:
        return datetime.datetime.fromisoformat(value).tzinfo is not None
    except ValueError:
        return False


def _bets(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and len(value) <= BETS_MAX
        and all(_text(k, TEXT_MAX) and _whole(v, 0, AMOUNT_MAX) for k, v in value.items())
    )


_CHECKS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "id": (f"text of 1 to {TEXT_MAX} characters", lambda v: _text(v, TEXT_MAX)),
    "player": (f"text of 1 to {PLAYER_MAX} characters", lambda v: _text(v, PLAYER_MAX)),
    "reason": (f"text of 1 to {REASON_MAX} characters", lambda v: _text(v, REASON_MAX)),
    "box": (f"a whole number from 1 to {BOX_MAX}", lambda v: _whole(v, 1, BOX_MAX)),
    "count": (f"a whole number from 0 to {ROUNDS_MAX}", lambda v: _whole(v, 0, ROUNDS_MAX)),
    "seconds": (f"whole seconds from 0 to {SECONDS_MAX}", lambda v: _whole(v, 0, SECONDS_MAX)),
    "amount": ("whole chip units, not negative", lambda v: _whole(v, 0, AMOUNT_MAX)),
    "money": ("a whole number", lambda v: _whole(v, -AMOUNT_MAX, AMOUNT_MAX)),
    "bets": (
        f"an object of at most {BETS_MAX} bet types, each whole chip units",
        _bets,
    ),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "time": ("an ISO 8601 time with its offset", _time),
    "source": ("'card' or 'console'", lambda v: v in ("card", "console")),
    "wager_source": ("'chips' or 'console'", lambda v: v in ("chips", "console")),
    "ended": (
        "'card', 'dealer', 'empty', 'closed' or 'moved'",
        lambda v: v in ("card", "dealer", "empty", "closed", "moved"),
    ),
    "version": ("1", lambda v: v == 1 and not isinstance(v, bool)),
    "seq": ("a journal seq", lambda v: _whole(v, 1, AMOUNT_MAX)),
    "kind": ("a rating row's kind", lambda v: v in RATING_KINDS),
    "object": ("an object", lambda v: isinstance(v, dict)),
    "hash": (
        "64 hexadecimal digits",
        lambda v: isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v),
    ),
    "empty": ("an empty list", lambda v: v == []),
}


def _fields(given: dict[str, Any], wanted: dict[str, str], where: str) -> str:
    unknown = sorted(set(given) - set(wanted))
    if unknown:
        return f"unknown field(s) {', '.join(repr(k)[:40] for k in unknown[:5])} in {where}"
    for name, check in wanted.items():
        if name not in given:
            return f"{where} has no {name!r}"
        value = given[name]
        if check.endswith("?"):
            if value is None:
                continue
            check = check[:-1]
        words, ok = _CHECKS[check]
        if not ok(value):
            return f"{where}'s {name!r} must be {words}, not {repr(value)[:40]}"
    return ""


def refusal(body: Any) -> str:
    """Why a message on a ratings topic cannot be taken ('' if it can): its envelope and
    its payload are checked field by field against `RATING_FIELDS` (exactly those
    fields, each of its type and bounds)."""
    if not isinstance(body, dict):
        return "it is not a JSON object"
    problem = _fields(body, ENVELOPE, "the message")
    if problem:
        return problem
    return _fields(body["payload"], RATING_FIELDS[body["kind"]], f"the {body['kind']} payload")


SCHEMA = """
CREATE TABLE IF NOT EXISTS rating_rows (hash TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ratings (
    site TEXT NOT NULL, tbl TEXT NOT NULL, rating TEXT NOT NULL, box INTEGER NOT NULL,
    player TEXT, erased INTEGER NOT NULL DEFAULT 0, source TEXT NOT NULL,
    start TEXT NOT NULL, end TEXT, open INTEGER NOT NULL, reason TEXT,
    figures TEXT NOT NULL, moved_to TEXT, updated TEXT NOT NULL,
    PRIMARY KEY (site, tbl, rating)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_open ON ratings (open, end);
"""


def utc(text: str) -> str:
    """A checked ISO time in UTC, so that the store's times compare as text."""
    return datetime.datetime.fromisoformat(text).astimezone(datetime.UTC).isoformat()


def _live_figures() -> dict[str, Any]:
    return {
        "rounds": 0,
        "handle": 0,
        "handle_by_bet": {},
        "largest_bet": 0,
        "win_loss": 0,
        "theo_hundredths": 0,
        "departures": None,
        "seconds": 0,
        "adjusted": False,
        "average_bet": 0,
        "measured_average_bet": 0,
    }


def _add_round(figures: dict[str, Any], payload: dict[str, Any]) -> None:
    """One ``RatingRound`` into an open rating's figures (average bet: handle // rounds,
    floor, as the table's rating code documents it; a supervisor's adjusted one stands)."""
    wagers: dict[str, int] = payload["wagers"]
    total = sum(wagers.values())
    figures["rounds"] += 1
    figures["handle"] += total
    by_bet = figures["handle_by_bet"]
    for bet, chips in wagers.items():
        by_bet[bet] = by_bet.get(bet, 0) + chips
    figures["largest_bet"] = max(figures["largest_bet"], total)
    figures["win_loss"] += payload["win_loss"]
    figures["theo_hundredths"] += payload["theo_hundredths"]
    if payload["departures"] is not None:
        figures["departures"] = (figures["departures"] or 0) + payload["departures"]
    figures["seconds"] += payload["seconds"]
    figures["measured_average_bet"] = figures["handle"] // figures["rounds"]
    if not figures["adjusted"]:
        figures["average_bet"] = figures["measured_average_bet"]


class RatingBook:
    """The ratings in the pit's store (its connection and lock, `floor.store.PitStore`)."""

    def __init__(self, db: sqlite3.Connection, lock: threading.Lock) -> None:
        self._db = db
        self._lock = lock
        self._db.executescript(SCHEMA)

    @staticmethod
    def _figures(row: tuple[Any, ...]) -> dict[str, Any]:
        figures: dict[str, Any] = json.loads(row[0])
        return figures

    def take(self, site: str, table: str, body: dict[str, Any]) -> list[dict[str, Any]]:
        """One checked rating row (`refusal` found nothing), each row once (by its hash).
        Returns the ratings of the same player open at another table now (the flag)."""
        kind, payload, wall = body["kind"], body["payload"], body["wall"]
        rating = payload["rating"]
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                new = self._db.execute(
                    "INSERT OR IGNORE INTO rating_rows VALUES (?)", (body["hash"],)
                ).rowcount
                if new:
                    self._take(site, table, rating, kind, payload, wall, body)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        if not new or kind not in ("RatingStarted", "RatingNamed"):
            return []
        return self.conflicts(site, table, rating)

    def _take(
        self,
        site: str,
        table: str,
        rating: str,
        kind: str,
        payload: dict[str, Any],
        wall: str,
        body: dict[str, Any],
    ) -> None:
        key = (site, table, rating)
        found = self._db.execute(
            "SELECT figures, open FROM ratings WHERE site = ? AND tbl = ? AND rating = ?", key
        ).fetchone()
        if kind == "RatingStarted":
            if found is not None:
                log.warning(
                    "table %s/%s: rating row %s (RatingStarted) starts rating %s again: "
                    "refused, the rating the pit has is kept", site, table, body["seq"], rating
                )  # fmt: skip
                return
            self._db.execute(
                "INSERT INTO ratings (site, tbl, rating, box, player, source, start, open, "
                "figures, updated) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (*key, payload["box"], payload["player"], payload["source"], utc(payload["start"]),
                 json.dumps(_live_figures()), wall),
            )  # fmt: skip
            return
        if found is None:  # its start was not seen (the view started after it)
            log.warning(
                "table %s/%s: rating row %s (%s) is of rating %s, whose start the pit has "
                "not seen: kept from here on", site, table, body["seq"], kind, rating
            )  # fmt: skip
            self._db.execute(
                "INSERT INTO ratings (site, tbl, rating, box, player, source, start, open, "
                "figures, updated) VALUES (?, ?, ?, ?, NULL, '', ?, 1, ?, ?)",
                (*key, payload["box"], utc(wall), json.dumps(_live_figures()), wall),
            )
            found = (json.dumps(_live_figures()), 1)
        figures = self._figures(found)
        where = "WHERE site = ? AND tbl = ? AND rating = ?"
        if kind == "RatingNamed":
            self._db.execute(
                f"UPDATE ratings SET player = ?, updated = ? {where}",
                (payload["player"], wall, *key),
            )
        elif kind == "RatingRound" and found[1]:
            _add_round(figures, payload)
            self._db.execute(
                f"UPDATE ratings SET figures = ?, box = ?, updated = ? {where}",
                (json.dumps(figures), payload["box"], wall, *key),
            )
        elif kind == "RatingAdjusted":
            figures["adjusted"] = True
            figures["average_bet"] = payload["average_bet"]
            figures["measured_average_bet"] = payload["measured_average_bet"]
            figures["adjusted_by"] = payload["who"]
            figures["adjusted_reason"] = payload["reason"]
            self._db.execute(
                f"UPDATE ratings SET figures = ?, updated = ? {where}",
                (json.dumps(figures), wall, *key),
            )
        elif kind == "RatingEnded":
            ended = {k: v for k, v in payload.items() if k not in ("rating", "box", "player")}
            ended = {**ended, **{k: figures[k] for k in ("adjusted_by", "adjusted_reason")
                                 if k in figures}}  # fmt: skip
            player = payload["player"]
            self._db.execute(
                "UPDATE ratings SET open = 0, end = ?, reason = ?, figures = ?, box = ?, "
                f"start = ?, player = COALESCE(?, player), updated = ? {where}",
                (utc(payload["end"]), payload["reason"], json.dumps(ended), payload["box"],
                 utc(payload["start"]), player, wall, *key),
            )  # fmt: skip
        elif kind == "RatingMoved":
            self._db.execute(
                f"UPDATE ratings SET moved_to = ?, updated = ? {where}",
                (f"{payload['to_rating']} (box {payload['to_box']})", wall, *key),
            )

    def conflicts(self, site: str, table: str, rating: str) -> list[dict[str, Any]]:
        """The other tables' open ratings of the player this rating names (none: anonymous)."""
        with self._lock:
            mine = self._db.execute(
                "SELECT player, box FROM ratings WHERE site = ? AND tbl = ? AND rating = ? "
                "AND open = 1",
                (site, table, rating),
            ).fetchone()
            if mine is None or mine[0] is None:
                return []
            others = self._db.execute(
                "SELECT site, tbl, rating, box FROM ratings WHERE open = 1 AND player = ? "
                "AND NOT (site = ? AND tbl = ?)",
                (mine[0], site, table),
            ).fetchall()
        return [
            {"site": s, "table": t, "rating": r, "box": b, "at": (site, table, rating, mine[1])}
            for s, t, r, b in others
        ]

    def ratings(self, closed_since: str) -> list[dict[str, Any]]:
        """Every open rating, and the ones closed at or after ``closed_since`` (ISO),
        oldest start first."""
        with self._lock:
            found = self._db.execute(
                "SELECT site, tbl, rating, box, player, erased, source, start, end, open, "
                "reason, figures, moved_to, updated FROM ratings "
                "WHERE open = 1 OR end >= ? ORDER BY start, tbl, rating",
                (closed_since,),
            ).fetchall()
        return [
            {
                "site": site, "table": tbl, "rating": rating, "box": box, "player": player,
                "erased": bool(erased), "source": source, "start": start, "end": end,
                "open": bool(open_), "reason": reason, "figures": json.loads(figures),
                "moved_to": moved_to, "updated": updated,
            }
            for (site, tbl, rating, box, player, erased, source, start, end, open_, reason,
                 figures, moved_to, updated) in found
        ]  # fmt: skip

    def erase_names(self, ended_before: str) -> int:
        """Erase the player of every rating that ended before ``ended_before`` (ISO): the
        retention. Its figures stay. Returns how many were erased; the erased names are
        overwritten on disk (``secure_delete``, and the WAL checkpointed)."""
        with self._lock:
            erased = self._db.execute(
                "UPDATE ratings SET player = NULL, erased = 1 "
                "WHERE open = 0 AND end < ? AND player IS NOT NULL",
                (ended_before,),
            ).rowcount
            if erased:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        if erased:
            log.info("erased the player of %d rating(s) that ended before %s", erased, ended_before)
        return erased

    def taken(self) -> int:
        """How many rating rows the store has taken (each once)."""
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM rating_rows").fetchone()[0])

    def players(self) -> Iterator[str]:
        """Every player the store still names (the tests of the retention)."""
        with self._lock:
            rows = self._db.execute("SELECT player FROM ratings WHERE player IS NOT NULL")
            yield from (str(r[0]) for r in rows.fetchall())
