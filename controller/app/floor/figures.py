"""Shift figures from the journaled rows the tables published, their CSV, and
small server-rendered SVG charts (no chart library, nothing from the internet).

Per table, per game and per dealer since the shift's start:

- ``rounds``: settled rounds (each game's ``round_end`` row: blackjack ``RoundSettled``,
  poker ``HandSettled``), voided ones left out;
- ``rounds_per_hour``: rounds over the hours of the shift so far (a dealer: over the hours
  they were signed in at a table during the shift);
- ``drop``: the wagers the table journaled (blackjack ``wagers_in``; poker ``chips_in``,
  every chip that went into the pots). It is the table's handle as the controller counted
  it, not the drop box's count;
- ``win``: the house's result (blackjack ``house_result``, negative when the players won;
  poker the ``rake``, the house's only take at a poker table). Which fields a game's
  round-end row holds them in is its spec's ``settlement_figures`` (`floor.games`);
- ``hold_pct``: win over drop, in per cent;
- ``holds`` and ``holds_by_rule``: the violations (HOLDs), by the rule they cite;
- ``payout_mismatches`` (only where there were any): the payouts the chips
  disagreed with (``PayoutMismatch``), by kind (over, under, uncollected): how many, and
  the amounts in question (each the difference between paid and owed). Each mismatch is
  counted once over its life (`MismatchLives`), however often its spot was read wrong.

Money is whole chip units (docs/architecture.md), never floats; only the rates are.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape

from controller.app.floor.games import game_words, round_ends

BUCKETS = 24  # points on a chart over the shift


def when(text: Any) -> float | None:
    """An ISO wall clock as a POSIX time, or None."""
    try:
        return datetime.datetime.fromisoformat(str(text)).timestamp()
    except ValueError:
        return None


def settlement(row: dict[str, Any]) -> tuple[int, int] | None:
    """(drop, win) of one settled round or hand, or None (not a settlement, or void): the
    game whose round the row ends says which fields hold them."""
    spec = round_ends().get(row["kind"])
    if spec is None or spec.settlement_figures is None:
        return None
    return spec.settlement_figures(row["payload"])


@dataclass
class Figures:
    """The figures of one table, game or dealer."""

    key: str
    game: str = ""
    name: str = ""  # a dealer's name, as they signed in
    rounds: int = 0
    drop: int = 0
    win: int = 0
    holds: int = 0
    holds_by_rule: dict[str, int] = field(default_factory=dict)
    mismatches: dict[str, list[int]] = field(default_factory=dict)  # kind -> [count, amount]
    hours: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "game": self.game,
            "rounds": self.rounds,
            "rounds_per_hour": round(self.rounds / self.hours, 1) if self.hours > 0 else None,
            "drop": self.drop,
            "win": self.win,
            "hold_pct": round(100.0 * self.win / self.drop, 1) if self.drop else None,
            "holds": self.holds,
            "holds_by_rule": dict(sorted(self.holds_by_rule.items())),
        } | self._mismatches()

    def _mismatches(self) -> dict[str, Any]:
        if not self.mismatches:
            return {}
        return {
            "payout_mismatches": {
                kind: {"count": n, "amount": amount}
                for kind, (n, amount) in sorted(self.mismatches.items())
            }
        }


# the rows that end a mismatch's life: the spot read right, or a supervisor accepted it
MISMATCH_CLOSED = frozenset({"MismatchCorrected", "MismatchAccepted"})


class MismatchLives:
    """Payout mismatches counted once each, from the rows that open and close them.

    A spot read wrong journals a ``PayoutMismatch`` at every wrong reading (paid 25 on a
    20 win, then 30 as the dealer stacks more): one mistake, several rows. A mismatch
    lives from its first row on a table's spot in a round until the spot reads right
    (``MismatchCorrected``) or a supervisor accepts it (``MismatchAccepted``); the kernel
    judges a spot no more after that (controller/game/chips.py), so a later row on the
    same spot, or one in another round, is a new mismatch.

    A life counts under the kind and amount of its last row: the difference as it stood
    when the dealer put it right or the supervisor accepted it (or stands still), which is
    the money in question; the dealer is the one signed in at its first row, who paid it.
    """

    def __init__(self) -> None:
        self.open: dict[tuple[str, Any, str], int] = {}  # (table, round, spot) -> life
        self.lives: list[tuple[tuple[Figures, ...], dict[str, Any]]] = []

    @staticmethod
    def key(row: dict[str, Any]) -> tuple[str, Any, str]:
        payload = row["payload"]
        return (row["table"], row.get("round"), str(payload.get("spot") or payload.get("box")))

    def take(self, row: dict[str, Any], targets: tuple[Figures, ...]) -> None:
        """One ``PayoutMismatch`` or closing row, with the figures it counts in."""
        key = self.key(row)
        if row["kind"] in MISMATCH_CLOSED:
            self.open.pop(key, None)
        elif key in self.open:  # the same mismatch read again: its latest difference
            life = self.open[key]
            self.lives[life] = (self.lives[life][0], row["payload"])
        else:
            self.open[key] = len(self.lives)
            self.lives.append((targets, row["payload"]))

    def count(self) -> None:
        """Add each life once to the figures it counts in."""
        for targets, payload in self.lives:
            kind = str(payload.get("kind") or "?")
            amount = abs(int(payload.get("paid") or 0) - int(payload.get("owed") or 0))
            for figures in targets:
                counts = figures.mismatches.setdefault(kind, [0, 0])
                counts[0] += 1
                counts[1] += amount


def _games(rows: Iterable[dict[str, Any]]) -> dict[str, str]:
    games: dict[str, str] = {}
    ends = {kind: spec.name for kind, spec in round_ends().items()}
    for row in rows:
        if row["kind"] in ends:
            games[row["table"]] = ends[row["kind"]]
        elif row["kind"] == "TableStarted":
            games[row["table"]] = str(row["payload"].get("game", ""))
    return games


def _dealer_hours(
    rows: list[dict[str, Any]], on_duty_at_start: dict[str, str], start: float, now: float
) -> dict[str, float]:
    """Hours each dealer was signed in at a table during the shift: from a sign-in (or the
    shift's start, for who was already dealing) to a sign-out, the next sign-in or now."""
    hours: dict[str, float] = {}
    duty: dict[str, tuple[str, float]] = {t: (d, start) for t, d in on_duty_at_start.items()}

    def end(table: str, at: float) -> None:
        if table in duty:
            dealer, since = duty.pop(table)
            hours[dealer] = hours.get(dealer, 0.0) + max(0.0, at - since) / 3600

    for row in rows:
        at = when(row["wall"])
        if at is None or row["kind"] not in ("DealerSignedIn", "DealerSignedOut"):
            continue
        end(row["table"], at)
        if row["kind"] == "DealerSignedIn":
            duty[row["table"]] = (str(row["payload"].get("staff_id") or row["actor"]), at)
    for table in list(duty):
        end(table, now)
    return hours


def shift_figures(
    rows: list[dict[str, Any]],
    start: float,
    now: float,
    *,
    games: dict[str, str] | None = None,
    on_duty_at_start: dict[str, str] | None = None,
    dealer_names: dict[str, str] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Figures per table, per game and per dealer, and the floor's, from the rows of the
    shift (oldest first). ``games`` names the game of a table with no row yet."""
    known = {**(games or {}), **_games(rows)}
    tables: dict[str, Figures] = {t: Figures(t, g) for t, g in sorted(known.items())}
    by_game: dict[str, Figures] = {}
    dealers: dict[str, Figures] = {}
    floor = Figures("floor")
    hours = max(0.0, now - start) / 3600
    mismatches = MismatchLives()
    for row in rows:
        table = tables.setdefault(row["table"], Figures(row["table"], known.get(row["table"], "")))
        game = by_game.setdefault(table.game, Figures(table.game, table.game))
        dealer = dealers.setdefault(row["actor"] or "(nobody signed in)", Figures("", ""))
        money = settlement(row)
        targets = (table, game, dealer, floor)
        if money is not None:
            for figures in targets:
                figures.rounds += 1
                figures.drop += money[0]
                figures.win += money[1]
        elif row["kind"] == "Violation":
            rule = str(row["payload"].get("rule") or "?")
            for figures in targets:
                figures.holds += 1
                figures.holds_by_rule[rule] = figures.holds_by_rule.get(rule, 0) + 1
        elif row["kind"] == "PayoutMismatch" or row["kind"] in MISMATCH_CLOSED:
            mismatches.take(row, targets)  # counted against the dealer signed in
    mismatches.count()
    names = {**(dealer_names or {})}
    for row in rows:
        if row["kind"] == "DealerSignedIn":
            names[str(row["payload"].get("staff_id"))] = str(row["payload"].get("name") or "")
    for key, figures in dealers.items():
        figures.key, figures.name = key, names.get(key, "")
    for figures in [*tables.values(), *by_game.values(), floor]:
        figures.hours = hours
    duty = _dealer_hours(rows, on_duty_at_start or {}, start, now)
    for name, figures in dealers.items():
        figures.hours = duty.get(name, 0.0)
    return {
        "tables": [f.as_dict() for f in tables.values()],
        "games": [f.as_dict() | {"words": game_words(g)} for g, f in sorted(by_game.items())],
        "dealers": [
            f.as_dict()
            for _, f in sorted(dealers.items())
            if f.rounds or f.holds or f.hours or f.mismatches
        ],
        "floor": [floor.as_dict()],
    }


CSV_COLUMNS = [
    "shift_start",
    "shift_end",
    "scope",
    "id",
    "dealer_name",
    "game",
    "rounds",
    "rounds_per_hour",
    "drop",
    "win",
    "hold_pct",
    "holds",
    "holds_by_rule",
    "payout_mismatches",
]


def figures_csv(figures: dict[str, list[dict[str, Any]]], start: str, end: str) -> str:
    """One row per table, game, dealer and the floor (``scope``; ``id`` the table id, the
    game, the dealer's staff id, or ``floor``); money in whole chip units; the holds by rule
    as ``rule:count`` joined by ``;``, the payout mismatches as ``kind:count:amount``;
    times in ISO 8601 UTC."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for scope, singular in (("tables", "table"), ("games", "game"), ("dealers", "dealer")):
        for item in figures[scope]:
            writer.writerow(_csv_row(start, end, singular, item))
    for item in figures["floor"]:
        writer.writerow(_csv_row(start, end, "floor", item))
    return out.getvalue()


def _csv_row(start: str, end: str, scope: str, item: dict[str, Any]) -> list[Any]:
    by_rule = ";".join(f"{rule}:{n}" for rule, n in item["holds_by_rule"].items())
    rate = item["rounds_per_hour"]
    pct = item["hold_pct"]
    return [
        start,
        end,
        scope,
        item["key"],
        item["name"],
        item["game"],
        item["rounds"],
        "" if rate is None else rate,
        item["drop"],
        item["win"],
        "" if pct is None else pct,
        item["holds"],
        by_rule,
        ";".join(
            f"{kind}:{m['count']}:{m['amount']}"
            for kind, m in item.get("payout_mismatches", {}).items()
        ),
    ]


def series(
    rows: list[dict[str, Any]], start: float, now: float, table: str | None
) -> tuple[list[float], list[float]]:
    """The shift in `BUCKETS` slices: the cumulative win at the end of each, and the rounds
    per hour within each (one table's, or the floor's with ``table`` None)."""
    span = max(now - start, 1.0)
    width = span / BUCKETS
    wins = [0] * BUCKETS
    rounds = [0] * BUCKETS
    for row in rows:
        if table is not None and row["table"] != table:
            continue
        money = settlement(row)
        at = when(row["wall"])
        if money is None or at is None or at < start:
            continue
        slot = min(BUCKETS - 1, int((at - start) / width))
        wins[slot] += money[1]
        rounds[slot] += 1
    total = 0
    cumulative: list[float] = []
    for win in wins:
        total += win
        cumulative.append(float(total))
    per_hour = [n * 3600 / width for n in rounds]
    return cumulative, per_hour


def svg_chart(kind: str, values: list[float], width: int, height: int, title: str) -> str:
    """A small chart as SVG text: ``win`` a line of the cumulative win/loss about a zero
    line (green above, red below); ``rounds`` bars of rounds per hour."""
    pad = 3
    inner_w, inner_h = width - 2 * pad, height - 2 * pad
    n = max(len(values), 1)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" rx="3" fill="#17202a"/>',
    ]
    if kind == "rounds":
        top = max([*values, 1.0])
        bar = inner_w / n
        for i, value in enumerate(values):
            h = inner_h * value / top
            parts.append(
                f'<rect x="{pad + i * bar + 0.5:.1f}" y="{pad + inner_h - h:.1f}" '
                f'width="{max(bar - 1, 1):.1f}" height="{h:.1f}" fill="#5aa0f0"/>'
            )
    else:
        low, high = min([*values, 0.0]), max([*values, 0.0])
        scale = inner_h / (high - low) if high > low else 0.0
        zero = pad + (high * scale if scale else inner_h / 2)
        parts.append(
            f'<line x1="{pad}" y1="{zero:.1f}" x2="{width - pad}" y2="{zero:.1f}" '
            'stroke="#5d6b78" stroke-width="1" stroke-dasharray="3 2"/>'
        )
        step = inner_w / max(n - 1, 1)
        points = " ".join(
            f"{pad + i * step:.1f},{zero - v * scale:.1f}" for i, v in enumerate(values)
        )
        last = values[-1] if values else 0.0
        colour = "#6fdc8c" if last >= 0 else "#ff6b6b"
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2" '
            'stroke-linejoin="round"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
