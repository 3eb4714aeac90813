"""Reading a table's TOML file and checking it whole, section by section, before anything
starts: `load_config` (a file) and `parse_config` (its text).

Each section is checked by its own module (see the package's docstring for the list); this
one only knows their order. Every mistake is reported, one line each, in that order (a
section that needs another's result, such as the rules needing the game and the limits, is
skipped while that one is wrong), so a config with two mistakes always names the same one
first.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from controller import game as games
from controller.app.config import (
    board,
    chips,
    display,
    journal,
    pit,
    player_cards,
    rating,
    shoe,
    staff,
    table,
)
from controller.app.config.checker import Checker, Schema
from controller.app.config.pins import read_pins
from controller.app.config.rules import parse_rules
from controller.app.config.table import TableConfig
from controller.errors import ConfigError

__all__ = ["SECTIONS", "load_config", "parse_config"]

# The plain sections and their keys; the games' own sections come from the registry.
SECTIONS: dict[str, Schema] = {
    "table": table.TABLE_SCHEMA,
    "limits": table.LIMITS_SCHEMA,
    "shoe": shoe.SCHEMA,
    "display": display.SCHEMA,
    "journal": journal.SCHEMA,
    "supervisor": staff.SUPERVISOR_SCHEMA,
    "staff": staff.STAFF_SCHEMA,
    "pit": pit.SCHEMA,
    "chips": chips.SCHEMA,
    "rating": rating.SCHEMA,
    "board": board.SCHEMA,
    "player_cards": player_cards.SCHEMA,
}


def load_config(path: str | Path) -> TableConfig:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(
            f"{p}:{line}: not UTF-8 text (byte {data[exc.start]:#04x}); a TOML file is UTF-8"
        ) from None
    return parse_config(text, source=str(p), base=p.parent)


def parse_config(text: str, *, source: str = "<config>", base: Path | None = None) -> TableConfig:
    check = Checker(text, source)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(
            f"{source}: not a table config: arrays or tables nested too deeply"
        ) from None
    known = {*SECTIONS, *games.names(), "pins"}
    for name in doc:
        if name not in known:
            unknown = check.error(f"unknown section (known: {', '.join(sorted(known))})", name)
            check.mistakes.append(unknown)
    table_doc = check.step(lambda: table.parse_table(check, doc))
    limits = check.step(lambda: table.parse_limits(check, doc))
    game: str = table_doc["game"] if table_doc is not None else ""
    rules = chip_reader = pins = None
    if game and limits is not None:  # the rules are the game's, inside the limits
        rules = check.step(lambda: parse_rules(check, doc, game, limits))
    if rules is not None:
        rules = check.step(lambda: chips.apply_chips(check, doc, base, game, rules))
    if rules is not None:
        chip_reader = check.step(lambda: chips.reader_url(check, doc, rules))
    shoe_config = check.step(lambda: shoe.parse_shoe(check, doc, base))
    display_doc = check.step(lambda: display.read_display(check, doc))
    journal_config = check.step(lambda: journal.read_journal(check, doc, base))
    if game:
        pins = check.step(lambda: read_pins(check, doc, game))
    supervisor = check.step(lambda: staff.parse_supervisor(check, doc))
    members = check.step(lambda: staff.parse_staff(check, doc))
    display_config = None
    if display_doc is not None:
        display_config = check.step(lambda: display.check_display(check, display_doc, base))
    pit_config = check.step(lambda: pit.parse_pit(check, doc))
    rating_config = check.step(lambda: rating.parse_rating(check, doc))
    board_config = check.step(lambda: board.parse_board(check, doc))
    card_readers = check.step(lambda: player_cards.parse_player_cards(check, doc))
    check.finish()  # every step above succeeded unless this raises
    if (
        table_doc is None
        or limits is None
        or rules is None
        or chip_reader is None
        or shoe_config is None
        or journal_config is None
        or pins is None
        or members is None
        or display_config is None
        or rating_config is None
        or board_config is None
        or card_readers is None
    ):
        raise ConfigError(f"{source}: cannot be read")  # a step refused without saying why
    return TableConfig(
        source=source,
        table_id=table_doc["id"],
        game=table_doc["game"],
        site=table_doc["site"],
        minimum=limits["minimum"],
        maximum=limits["maximum"],
        denominations=tuple(sorted(limits["denominations"])),
        rules=rules,
        shoe=shoe_config,
        pins=pins,
        display_host=display_config.host,
        display_port=display_config.port,
        journal_path=journal_config.path,
        journal_key=journal_config.key,
        journal_keeping=journal_config.keeping,
        supervisor=supervisor,
        pit=pit_config,
        staff=members,
        console_secret=display_config.console_secret,
        view_host=display_config.view_host,
        view_port=display_config.view_port,
        tls_cert_file=display_config.tls_cert_file,
        tls_key_file=display_config.tls_key_file,
        chip_reader=chip_reader,
        rating=rating_config,
        board=board_config,
        player_cards=card_readers,
    )
