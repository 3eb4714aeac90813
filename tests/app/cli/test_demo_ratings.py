"""`tablectl demo --rated-players N --rounds R --json`: scripted players come and go with
their cards, bet flat, in a progression or wonging in and out; every rating is printed,
and recomputed here from the demo's journal outside the rating code it agrees exactly
(docs/ratings.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from controller.app.runtime.journal_files import open_journal

ROOT = Path(__file__).resolve().parents[3]
FIELDS = {"player", "table", "box", "start", "end", "seconds", "rounds", "handle",
          "average_bet", "largest_bet", "win_loss", "theo", "comp", "source"}  # fmt: skip


@pytest.mark.timeout(300)
def test_rated_players_every_rating_printed_and_agreeing_with_the_journal(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "journal.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "demo", "--port", "0", "--rated-players",
         "4", "--rounds", "30", "--json", "--seed", "11", "--journal", str(journal)],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    (line,) = done.stdout.strip().splitlines()
    result = json.loads(line)
    rated = result["ratings"]
    assert result["rounds"] == 30 and len(rated) >= 4
    assert all(set(r) == FIELDS and r["source"] == "chips" for r in rated)
    assert len({r["player"] for r in rated}) <= 4
    with open_journal(journal, readonly=True) as reader:
        rows = list(reader.entries())
    started = {r.payload["rating"]: r.payload for r in rows if r.kind == "RatingStarted"}
    assert len(started) == len(rated)  # the orderly stop closed every rating
    by_rating: dict[str, list[dict]] = defaultdict(list)  # type: ignore[type-arg]
    for row in rows:
        if row.kind == "RatingRound":
            by_rating[row.payload["rating"]].append(row.payload)
    printed = {(r["player"], r["box"], r["start"]): r for r in rated}
    for rating, start in started.items():
        counted = by_rating[rating]
        figures = printed[(start["player"], start["box"], start["start"])]
        handle = sum(sum(c["wagers"].values()) for c in counted)
        assert figures["rounds"] == len(counted)
        assert figures["handle"] == handle
        assert figures["average_bet"] == (handle // len(counted) if counted else 0)
        assert figures["largest_bet"] == max((sum(c["wagers"].values()) for c in counted),
                                             default=0)  # fmt: skip
        assert figures["win_loss"] == sum(c["win_loss"] for c in counted)
        assert figures["seconds"] == sum(c["seconds"] for c in counted)
        assert round(figures["theo"] * 100) == sum(c["theo_hundredths"] for c in counted)
    # the patterns: a flat player's wager never changes, a progression's climbs
    assert any(r["largest_bet"] > r["average_bet"] for r in rated if r["rounds"] > 2)
