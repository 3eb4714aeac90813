"""``[table]`` and ``[limits]``, and `TableConfig`: the whole checked config of one table.

- ``[table]``: ``id``, ``game`` (a registered game: `controller.game.names`), ``site``.
- ``[limits]``: ``minimum`` and ``maximum`` wager (the table notice, rule 11.5),
  ``denominations`` (chip values; the lowest is the unit pots are split to, 11.4(d)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller import game as games
from controller.app.config.board import BoardConfig
from controller.app.config.checker import REQUIRED, Checker, Schema
from controller.app.config.journal import JournalKeeping
from controller.app.config.pit import PitConfig
from controller.app.config.player_cards import PlayerCardReader
from controller.app.config.shoe import ShoeConfig
from controller.app.config.staff import StaffMember, SupervisorConfig
from controller.rating import RatingSettings
from drivers.pinmap import PinMap

__all__ = ["LIMITS_SCHEMA", "TABLE_SCHEMA", "TableConfig", "parse_limits", "parse_table"]

TABLE_SCHEMA: Schema = {"id": (str, REQUIRED), "game": (str, REQUIRED), "site": (str, "site")}
LIMITS_SCHEMA: Schema = {
    "minimum": (int, REQUIRED),
    "maximum": (int, REQUIRED),
    "denominations": (list, [1]),
}


@dataclass(frozen=True)
class TableConfig:
    source: str
    table_id: str
    game: str
    site: str
    minimum: int
    maximum: int
    denominations: tuple[int, ...]
    rules: Any  # the game's rules config (its GameSpec's ``rules`` type)
    shoe: ShoeConfig
    pins: PinMap
    display_host: str
    display_port: int
    journal_path: Path
    journal_key: Path | None = None  # [journal] key_file; None: the journal's path + ".key"
    journal_keeping: JournalKeeping = field(default_factory=JournalKeeping)  # [journal] keeping
    supervisor: SupervisorConfig | None = None
    pit: PitConfig | None = None
    staff: tuple[StaffMember, ...] = ()
    console_secret: Path | None = None  # None: console.secret beside the journal
    view_host: str = ""  # "": no read-only address
    view_port: int = 0
    tls_cert_file: str = ""
    tls_key_file: str = ""
    chip_reader: str = ""  # [chips] reader: the chip readers' line; "": none
    rating: RatingSettings = field(default_factory=RatingSettings)  # [rating]: off by default
    board: BoardConfig = field(default_factory=BoardConfig)  # [board]: the players' board
    player_cards: tuple[PlayerCardReader, ...] = ()  # [[player_cards]]: a reader a box

    @property
    def console_secret_file(self) -> Path:
        """The console's secret (docs/security.md): ``[display] console_secret_file``, or
        ``console.secret`` in the journal's folder."""
        if self.console_secret is not None:
            return self.console_secret
        return self.journal_path.parent / "console.secret"

    @property
    def dealers(self) -> tuple[StaffMember, ...]:
        """Who may sign in to deal: every staff member (a supervisor may deal too)."""
        return self.staff

    def staff_member(self, staff_id: str) -> StaffMember | None:
        return next((m for m in self.staff if m.id == staff_id), None)


def parse_table(check: Checker, doc: dict[str, Any]) -> dict[str, Any]:
    """``[table]``, its game one the registry knows (the config names no game itself)."""
    table = check.section(doc, "table", TABLE_SCHEMA)
    if table["game"] not in games.names():
        raise check.error(f"must be one of {', '.join(games.names())}", "table", "game")
    return table


def parse_limits(check: Checker, doc: dict[str, Any]) -> dict[str, Any]:
    """``[limits]``: the table notice (rule 11.5) and the chips, in whole chip units."""
    limits = check.section(doc, "limits", LIMITS_SCHEMA)
    denominations = limits["denominations"]
    if not denominations or not all(
        isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in denominations
    ):
        raise check.error("must be a list of positive whole numbers", "limits", "denominations")
    if limits["minimum"] <= 0:
        raise check.error("must be positive", "limits", "minimum")
    if limits["minimum"] > limits["maximum"]:
        raise check.error(
            f"the minimum {limits['minimum']} is above the maximum {limits['maximum']} "
            "(rule 11.5: the table notice)",
            "limits",
            "minimum",
        )
    return limits
