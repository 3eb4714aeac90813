"""The independent check of player rating (docs/ratings.md, "How the figures are checked").

A demo with rated players (`tablectl demo --rated-players`: cards tapped on the simulated
readers at the boxes, wagers on the chip readers), its journal exported by `tablectl
journal export`, and every rating recomputed here from the game's own rows, by code that
shares nothing with the rating book: the box holder's payouts (stake, won, lost, per bet
type) between the round ends, the rounds settled between the rating's start and end rows
in which the box had a wager, the time from the round ends' wall times. The figures must
agree exactly with the ratings the demo printed and with the floor's CSV export of the same
journal (imported as the pit would take it), and each theo must be the handle of each bet
type times its documented edge, rounded half up once.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli.demo import demo_config
from controller.app.floor.imports import import_journal
from controller.app.floor.rating_board import board, ratings_csv
from controller.app.floor.store import PitStore
from controller.blackjack import expectation
from controller.game import registry

ROOT = Path(__file__).resolve().parents[2]
SEED = "20261202"


def tablectl(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=400,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def documented_edges(decks: int, main: Fraction) -> dict[str, Fraction]:
    """docs/ratings.md, "The edges": the main wager and even money at basic strategy's
    edge for the table's variants (docs/blackjack.md, "Edges for rating"), insurance
    (4d - 1) / (52d - 1)."""
    return {"main": main, "even_money": main, "insurance": Fraction(4 * decks - 1, 52 * decks - 1)}


def _at(wall: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(wall)


def recompute(rows: list[dict[str, Any]], edges: dict[str, Fraction]) -> dict[str, dict[str, Any]]:
    """Every rating's figures from the game's rows, by rating id."""
    figures: dict[str, dict[str, Any]] = {}
    for started in (r for r in rows if r["kind"] == "RatingStarted"):
        rating, box = started["payload"]["rating"], started["payload"]["box"]
        ended = next(
            r for r in rows if r["kind"] == "RatingEnded" and r["payload"]["rating"] == rating
        )
        handle: dict[str, int] = {}
        stakes: dict[str, int] = {}
        won = win_loss = rounds = largest = micros = 0
        last_end = started["wall"]
        for row in rows:
            kind, payload = row["kind"], row["payload"]
            if kind == "Payout" and payload["box"] == box and payload["person"] == 1:
                bet = "insurance" if payload["kind"] == "insurance" else "main"
                if payload["outcome"] == "even_money":
                    bet = "even_money"
                stakes[bet] = stakes.get(bet, 0) + payload["stake"]
                won += payload["won"] - payload["lost"]
            elif kind == "RoundSettled":
                inside = started["seq"] < row["seq"] < ended["seq"]
                if inside and stakes and not payload["void"]:
                    rounds += 1
                    for bet, chips in stakes.items():
                        handle[bet] = handle.get(bet, 0) + chips
                    largest = max(largest, sum(stakes.values()))
                    win_loss += won
                    since = max(_at(last_end), _at(started["wall"]))
                    micros += (_at(row["wall"]) - since) // datetime.timedelta(microseconds=1)
                stakes, won = {}, 0
                last_end = row["wall"]
        total = sum(handle.values())
        theo = sum(chips * edges[bet] for bet, chips in handle.items())
        figures[rating] = {
            "player": started["payload"]["player"],
            "box": box,
            "start": started["payload"]["start"],
            "rounds": rounds,
            "handle": total,
            "average_bet": total // rounds if rounds else 0,
            "largest_bet": largest,
            "win_loss": win_loss,
            "seconds": micros // 1_000_000,
            "theo_hundredths": int(theo * 100 + Fraction(1, 2)),
        }
    return figures


@pytest.mark.timeout(600)
def test_every_rating_recomputed_from_the_export_agrees_with_the_demo_and_the_floors_csv(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    line = tablectl("demo", "--port", "0", "--rated-players", "4", "--rounds", "40", "--json",
                    "--seed", SEED, "--journal", str(journal))  # fmt: skip
    printed = json.loads(line)["ratings"]
    export = tablectl("journal", "export", str(journal)).splitlines()
    rows = [json.loads(text) for text in export if text.strip()]

    rules = demo_config("blackjack", None, 0).rules
    variants = registry.spec("blackjack").make(rules).table.variants
    edges = documented_edges(variants.decks, expectation.house_edge(variants).value)
    expected = recompute(rows, edges)
    assert len(expected) == len(printed) >= 4
    assert sum(f["rounds"] for f in expected.values()) > 40  # several boxes rated at once

    keys = ("rounds", "handle", "average_bet", "largest_bet", "win_loss", "seconds")
    demo = {(r["player"], r["box"], r["start"]): r for r in printed}
    for figures in expected.values():
        shown = demo[(figures["player"], figures["box"], figures["start"])]
        assert {k: shown[k] for k in keys} == {k: figures[k] for k in keys}, (figures, shown)
        assert round(shown["theo"] * 100) == figures["theo_hundredths"], (figures, shown)

    store = PitStore(tmp_path / "pit.sqlite")
    try:
        import_journal(store, "demo", "bj-01", export)
        now = datetime.datetime.now(datetime.UTC).isoformat()
        closed = board(store.ratings.ratings(""), now)["closed"]
    finally:
        store.close()
    exported = list(csv.DictReader(io.StringIO(ratings_csv(closed))))
    assert len(exported) == len(expected)
    for row in exported:
        figures = expected[row["rating"]]
        assert (row["player"], int(row["box"])) == (figures["player"], figures["box"])
        for key in keys:
            assert int(row[key]) == figures[key], (key, row, figures)
        assert Fraction(row["theo"]) * 100 == figures["theo_hundredths"], (row, figures)
