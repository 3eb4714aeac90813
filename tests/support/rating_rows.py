"""Player rating rows as a table journals them (the kinds and fields the pit reads: docs/mqtt.md,
"Player ratings"), written here without the rating code: a `RatedPlayer` plays rounds and
ends, and its rows carry figures that agree with each other (handle, rounds, average bet
floor, largest, theo and comp in hundredths), as the table's own rows would.
"""

from __future__ import annotations

import datetime
import hashlib
from dataclasses import dataclass, field
from typing import Any

Row = tuple[str, dict[str, Any]]  # (kind, payload)


def stamp(seconds: float, start: float = 1_800_000_000.0) -> str:
    return datetime.datetime.fromtimestamp(start + seconds, datetime.UTC).isoformat()


@dataclass
class RatedPlayer:
    """One rating at one box: its rows, in the order the table journals them."""

    rating: str
    box: int
    player: str | None
    source: str = "card"
    start: str = field(default_factory=lambda: stamp(0))
    first_round: int = 1
    game: str = "blackjack"
    rounds: list[dict[str, Any]] = field(default_factory=list)
    adjusted: int | None = None

    def started(self) -> Row:
        return "RatingStarted", {
            "rating": self.rating, "box": self.box, "player": self.player,
            "source": self.source, "start": self.start, "round": self.first_round,
        }  # fmt: skip

    def named(self, player: str, who: str = "pm01") -> Row:
        self.player = player
        return "RatingNamed", {"rating": self.rating, "box": self.box, "player": player, "who": who}

    def round(
        self,
        wagers: dict[str, int],
        win_loss: int,
        theo_hundredths: int,
        *,
        departures: int | None = 0,
        seconds: int = 60,
    ) -> Row:
        payload = {
            "rating": self.rating, "box": self.box, "round": self.first_round + len(self.rounds),
            "wagers": dict(wagers), "win_loss": win_loss, "theo_hundredths": theo_hundredths,
            "departures": departures, "seconds": seconds,
        }  # fmt: skip
        self.rounds.append(payload)
        return "RatingRound", payload

    def adjust(self, average_bet: int, who: str = "pm01", reason: str = "watched") -> Row:
        self.adjusted = average_bet
        return "RatingAdjusted", {
            "rating": self.rating, "box": self.box, "average_bet": average_bet,
            "measured_average_bet": self.measured(), "who": who, "reason": reason,
        }  # fmt: skip

    def handle(self) -> int:
        return sum(sum(r["wagers"].values()) for r in self.rounds)

    def measured(self) -> int:
        return self.handle() // len(self.rounds) if self.rounds else 0

    def ended(self, end: str, reason: str = "card", comp_rate_pct: int = 25) -> Row:
        by_bet: dict[str, int] = {}
        for r in self.rounds:
            for bet, chips in r["wagers"].items():
                by_bet[bet] = by_bet.get(bet, 0) + chips
        theo = sum(r["theo_hundredths"] for r in self.rounds)
        seconds = sum(r["seconds"] for r in self.rounds)
        departures = [r["departures"] for r in self.rounds if r["departures"] is not None]
        return "RatingEnded", {
            "rating": self.rating, "box": self.box, "player": self.player, "reason": reason,
            "start": self.start, "end": end, "seconds": seconds, "rounds": len(self.rounds),
            "handle": self.handle(), "handle_by_bet": by_bet,
            "average_bet": self.adjusted if self.adjusted is not None else self.measured(),
            "measured_average_bet": self.measured(), "adjusted": self.adjusted is not None,
            "largest_bet": max((sum(r["wagers"].values()) for r in self.rounds), default=0),
            "win_loss": sum(r["win_loss"] for r in self.rounds), "theo_hundredths": theo,
            "skill_theo_hundredths": theo + 3 * sum(departures) if self.game == "blackjack"
            else None,
            "departures": sum(departures) if self.game == "blackjack" else None,
            "decisions_per_hour": len(self.rounds) * 3600 // seconds if seconds else 0,
            "comp_hundredths": theo * comp_rate_pct // 100,
            "wager_source": "chips", "game": self.game,
        }  # fmt: skip

    def moved(self, to_rating: str, to_box: int) -> Row:
        return "RatingMoved", {
            "rating": self.rating, "box": self.box, "to_rating": to_rating, "to_box": to_box
        }  # fmt: skip


def message(
    table: str, seq: int, kind: str, payload: dict[str, Any], *, site: str = "s", wall: str = ""
) -> dict[str, Any]:
    """A row as the table's publisher sends it on ``restricted/rating`` (its body, signed
    apart): the envelope of docs/mqtt-schema/rating.json."""
    digest = hashlib.sha256(f"{site}/{table}/{seq}/{kind}".encode()).hexdigest()
    return {
        "v": 1, "table": table, "site": site, "seq": seq, "wall": wall or stamp(seq),
        "round": None, "source": "controller", "kind": kind, "payload": payload,
        "actor": None, "hash": digest, "redacted": [],
    }  # fmt: skip
