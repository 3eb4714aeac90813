"""`tablectl demo --rated-players N`: scripted players who come and go, each tapping a
player card at a box, and betting in a pattern the rating then measures (docs/ratings.md).

- ``flat``: the same stake every round;
- ``progression``: a ladder of one, two, three base stakes, round after round, again;
- ``wonging``: short stays (a few rounds), then away, then back at another box: several
  ratings for one card.

The table runs with chip readers (the wagers are the chips: a rating's source says so),
`[rating]` on and a simulated player-card reader at every box (`[[player_cards]]`: an
RDM6300 module on its own pty, read by the real driver). The scripted dealer wagers on the
boxes the players sit at; between rounds some players leave (their card again at their
box's reader) and others arrive at a free box and tap theirs. At the end the
orderly stop closes every rating, and `ratings` reads the `RatingEnded` rows back from the
journal: the figures as the table journaled them.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.app.config import TableConfig
from controller.app.config.player_cards import PlayerCardReader
from controller.app.runtime.journal_files import open_journal
from controller.app.runtime.table import RunningTable

__all__ = [
    "PATTERNS",
    "Player",
    "Regulars",
    "SeatingDealer",
    "rated_config",
    "ratings",
    "summary",
]

PATTERNS = ("flat", "progression", "wonging")
WAIT = 10.0  # seconds for a tapped card to reach the table


@dataclasses.dataclass
class Player:
    """One scripted player: a card (ten digits, as an RDM6300 frame carries), a pattern, a
    base stake (even: a blackjack's 3 to 2 must be whole chips, rule 10.1), where they sit
    (None: away) and for how many more rounds."""

    card: str
    pattern: str
    base: int
    box: int | None = None
    stay: int = 0
    played: int = 0

    def stake(self) -> int:
        """This round's wager, by the player's pattern."""
        self.played += 1
        if self.pattern == "progression":
            return self.base * (1 + (self.played - 1) % 3)
        return self.base


class Regulars:
    """The scripted players at one table: who sits where, who comes and who goes."""

    def __init__(self, count: int, boxes: int, rng: random.Random) -> None:
        self.rng = rng
        self.boxes = boxes
        self.players = [
            Player(
                f"{70_0000_0000 + n * 37:010d}",
                PATTERNS[n % len(PATTERNS)],
                rng.choice((4, 10, 20)),
            )
            for n in range(count)
        ]

    def at(self, box: int) -> Player | None:
        return next((p for p in self.players if p.box == box), None)

    def stake(self, box: int) -> int | None:
        """What the player at ``box`` stacks this round (None: no rated player there)."""
        player = self.at(box)
        return None if player is None else player.stake()

    def seated(self) -> tuple[int, ...]:
        return tuple(sorted(p.box for p in self.players if p.box is not None))

    def between_rounds(self) -> list[tuple[int, str]]:
        """The cards tapped before the next round, (box, card): each seated player's stay
        counts down and ends with their card again; an away player may come to a free box."""
        taps: list[tuple[int, str]] = []
        for player in self.players:
            if player.box is not None:
                player.stay -= 1
                if player.stay <= 0:
                    taps.append((player.box, player.card))
                    player.box = None
            elif self.rng.random() < 0.5:
                free = [b for b in range(1, self.boxes + 1) if self.at(b) is None]
                if free:
                    player.box = self.rng.choice(free)
                    short = player.pattern == "wonging"
                    player.stay = self.rng.randint(2, 5) if short else self.rng.randint(8, 30)
                    taps.append((player.box, player.card))
        return taps


class SeatingDealer:
    """The scripted dealer, with the players coming and going between rounds: their
    cards are tapped before betting opens, and the dealer takes wagers on their boxes
    (on ``unrated`` when nobody rated sits)."""

    def __init__(self, dealer: Any, table: RunningTable, regulars: Regulars, unrated: int):
        self.dealer = dealer
        self.table = table
        self.regulars = regulars
        self.unrated = unrated
        self._seated_for: int | None = None

    @property
    def rounds_finished(self) -> int:
        finished: int = self.dealer.rounds_finished
        return finished

    @rounds_finished.setter
    def rounds_finished(self, value: int) -> None:
        self.dealer.rounds_finished = value

    def step(self) -> str:
        state = self.table.state
        view = state.get("view") or {}
        round_no = state.get("round")
        if view.get("state") == "round_over" and round_no != self._seated_for:
            self._seated_for = round_no
            taps = self.regulars.between_rounds()
            if taps:
                self._tap(taps)
            self.dealer.seat(self.regulars.seated() or (self.unrated,))
            if taps:
                return f"player cards tapped at boxes {sorted(box for box, _ in taps)}"
        done: str = self.dealer.step()
        return done

    def _tap(self, taps: list[tuple[int, str]]) -> None:
        """Each card held to its box's simulated reader, then wait until the table has
        them all: the rated boxes are the seated ones (a wager must not come first)."""
        devices = self.table.devices
        if devices is None:
            raise RuntimeError("the demo's table has no devices")
        for box, card in taps:
            devices.sim_player_cards[box].present(card)
        seated = set(self.regulars.seated())
        deadline = time.monotonic() + WAIT
        while _rated(self.table.state) != seated:
            seen = self.table.loop.processed
            left = deadline - time.monotonic()
            if left <= 0 or not self.table.loop.wait_processed(seen, left):
                raise RuntimeError(f"the player cards tapped at {taps} did not reach the table")


def _rated(state: dict[str, Any]) -> set[int]:
    return {mark["box"] for mark in (state.get("view") or {}).get("rated") or ()}


def rated_config(config: TableConfig, empty_rounds: int = 100) -> TableConfig:
    """``config`` with ratings on (the demo's players are scripted: nobody real is rated)
    and a simulated player-card reader at every box. The demo deals a round in
    milliseconds, so a reader's pass window is the shortest allowed (50 ms): a player who
    left may be back at the same box a round later."""
    rating = dataclasses.replace(config.rating, enabled=True, empty_rounds=empty_rounds)
    boxes = range(1, getattr(config.rules, "boxes", 1) + 1)
    readers = tuple(PlayerCardReader(box, "rdm6300", "sim://", 50) for box in boxes)
    return dataclasses.replace(config, rating=rating, player_cards=readers)


def _chips(hundredths: int) -> float:
    return round(hundredths / 100, 2)


def ratings(journal: Path, table_id: str) -> list[dict[str, Any]]:
    """Every closed rating in ``journal``, in the ``--json`` form: money in chip units
    (theo and comp to the hundredth), ``source`` chips or console."""
    with open_journal(journal, readonly=True) as reader:
        ended = [e.payload for e in reader.entries() if e.kind == "RatingEnded"]
    return [
        {
            "player": r["player"],
            "table": table_id,
            "box": r["box"],
            "start": r["start"],
            "end": r["end"],
            "seconds": r["seconds"],
            "rounds": r["rounds"],
            "handle": r["handle"],
            "average_bet": r["average_bet"],
            "largest_bet": r["largest_bet"],
            "win_loss": r["win_loss"],
            "theo": _chips(r["theo_hundredths"]),
            "comp": _chips(r["comp_hundredths"]),
            "source": r["wager_source"],
        }
        for r in ended
    ]


def summary(rated: Sequence[dict[str, Any]]) -> str:
    """One line per rating, for the demo's terminal."""
    return "\n".join(
        f"{r['player']} box {r['box']}: {r['rounds']} rounds, {r['seconds']} s, handle "
        f"{r['handle']}, average {r['average_bet']}, win/loss {r['win_loss']:+}, theo "
        f"{r['theo']:.2f}, comp {r['comp']:.2f} ({r['source']})"
        for r in rated
    )
