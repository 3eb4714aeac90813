"""The table config: one TOML file per table, checked whole before anything starts.

Sections (examples/blackjack-table.toml and examples/poker-table.toml are complete ones):

- ``[table]``: ``id``, ``game`` (``"blackjack"`` or ``"poker"``), ``site``.
- ``[limits]``: ``minimum`` and ``maximum`` wager (the table notice, rule 11.5),
  ``denominations`` (chip values; the lowest is the unit pots are split to, 11.4(d)).
- ``[blackjack]`` / ``[poker]``: the rule variants (`controller.blackjack.rules.Variants`,
  `controller.poker.rules.PokerRules`); any field left out keeps its DESIGN.md default.
- ``[shoe]``: ``url`` (a serial port, ``socket://``, or ``"sim://"`` for the built-in
  simulated shoe), ``protocol`` (``"tablectl"``: docs/protocol.md), ``baud``.
- ``[pins]``: the GPIO pin map (drivers/pinmap.py, docs/wiring.md). ``tablectl run --sim``
  puts it, and the shoe, on the simulators instead (DESIGN: a simulator is chosen
  explicitly, never as a fallback).
- ``[display]``: ``host`` and ``port`` of the status page.
- ``[journal]``: ``path`` of the journal file (on a writable partition).
- ``[supervisor]`` (optional): ``pin_hash`` of the supervisor PIN, lockout settings.
- ``[pit]`` (optional): the MQTT broker the table reports to.

Every error names the key and its line, and `load_config` raises one `ConfigError` for
the first problem found: a wrong type, an unknown key, a missing section, a limit whose
minimum is above its maximum, a pin used twice.
"""

from __future__ import annotations

import dataclasses
import enum
import tomllib
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.blackjack.rules import Variants
from controller.errors import ConfigError
from controller.poker.rules import PokerRules
from drivers.pinmap import ConfigLines, PinMap, parse_pinmap

GAMES = ("blackjack", "poker")


@dataclass(frozen=True)
class ShoeConfig:
    url: str
    protocol: str = "tablectl"
    baud: int = 115200

    @property
    def simulated(self) -> bool:
        return self.url == "sim://"


@dataclass(frozen=True)
class TableConfig:
    source: str
    table_id: str
    game: str
    site: str
    minimum: int
    maximum: int
    denominations: tuple[int, ...]
    blackjack: Variants
    poker: PokerRules
    shoe: ShoeConfig
    pins: PinMap
    display_host: str
    display_port: int
    journal_path: Path
    supervisor: SupervisorConfig | None = None
    pit: PitConfig | None = None


@dataclass(frozen=True)
class SupervisorConfig:
    """``[supervisor]``: the supervisor PIN, stored only as a hash (docs/display.md), and
    the lockout after repeated wrong PINs."""

    pin_hash: str
    lockout_tries: int = 5
    lockout_seconds: int = 300


@dataclass(frozen=True)
class PitConfig:
    """``[pit]``: the MQTT broker the table reports to (docs/mqtt.md)."""

    broker: str  # mqtt://host:1883 or mqtts://host:8883
    prefix: str = "casino"
    username: str = ""
    password: str = ""
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    keepalive: int = 10
    private_cards: str = "restricted"  # "restricted" topic, or "delayed" to hand end


# section -> key -> (type, default); a default of ... means required
_SCHEMA: dict[str, dict[str, tuple[type, Any]]] = {
    "table": {"id": (str, ...), "game": (str, ...), "site": (str, "site")},
    "limits": {"minimum": (int, ...), "maximum": (int, ...), "denominations": (list, [1])},
    "shoe": {"url": (str, ...), "protocol": (str, "tablectl"), "baud": (int, 115200)},
    "display": {"host": (str, "127.0.0.1"), "port": (int, 8080)},
    "journal": {"path": (str, ...)},
    "supervisor": {
        "pin_hash": (str, ...),
        "lockout_tries": (int, 5),
        "lockout_seconds": (int, 300),
    },
    "pit": {
        "broker": (str, ...),
        "prefix": (str, "casino"),
        "username": (str, ""),
        "password": (str, ""),
        "ca_file": (str, ""),
        "cert_file": (str, ""),
        "key_file": (str, ""),
        "keepalive": (int, 10),
        "private_cards": (str, "restricted"),
    },
}
_RULES: dict[str, type] = {"blackjack": Variants, "poker": PokerRules}
_FROM_LIMITS = {"minimum_wager", "maximum_wager", "chip_unit"}  # poker: set from [limits]


class _Checker:
    def __init__(self, text: str, source: str) -> None:
        self.where = ConfigLines(text)
        self.source = source

    def error(self, message: str, *path: str) -> ConfigError:
        line = self.where.line(*path)
        at = f"{self.source}:{line}" if line else self.source
        return ConfigError(f"{at}: {'.'.join(path)}: {message}" if path else f"{at}: {message}")

    def section(self, doc: dict[str, Any], name: str) -> dict[str, Any]:
        value = doc.get(name)
        if value is None:
            raise self.error(f"the [{name}] section is missing")
        if not isinstance(value, dict):
            raise self.error("must be a [section]", name)
        out: dict[str, Any] = {}
        schema = _SCHEMA[name]
        for key in value:
            if key not in schema:
                known = ", ".join(schema)
                raise self.error(f"unknown key (known: {known})", name, key)
        for key, (kind, default) in schema.items():
            if key not in value:
                if default is ...:
                    raise self.error(f"the key {key!r} is missing", name)
                out[key] = default
                continue
            out[key] = self.typed(value[key], kind, name, key)
        return out

    def typed(self, value: Any, kind: type, *path: str) -> Any:
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(f"must be a whole number, not {value!r}", *path)
        if not isinstance(value, kind):
            raise self.error(f"must be a {kind.__name__}, not {value!r}", *path)
        return value

    def rules(self, doc: dict[str, Any], game: str, extra: dict[str, Any]) -> Any:
        cls = _RULES[game]
        given = doc.get(game, {})
        if not isinstance(given, dict):
            raise self.error("must be a [section]", game)
        hints = typing.get_type_hints(cls)
        fields = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in given.items():
            if key not in fields or key in _FROM_LIMITS:
                known = ", ".join(sorted(fields - _FROM_LIMITS))
                raise self.error(f"unknown rule option (known: {known})", game, key)
            values[key] = self.rule_value(value, hints[key], game, key)
        values.update(extra)
        try:
            return cls(**values)
        except ConfigError as exc:
            raise self.error(str(exc), game) from None
        except (TypeError, ValueError) as exc:
            raise self.error(str(exc), game) from None

    def rule_value(self, value: Any, hint: Any, *path: str) -> Any:
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            try:
                return hint(value)
            except ValueError:
                choices = ", ".join(repr(m.value) for m in hint)
                raise self.error(f"{value!r} is not one of {choices}", *path) from None
        if origin is tuple:
            if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value
            ):
                raise self.error(f"must be a list of whole numbers, not {value!r}", *path)
            return tuple(value)
        if type(None) in args:  # Optional[int]
            if value == "none":
                return None
            inner = next(a for a in args if a is not type(None))
            return self.typed(value, inner, *path)
        if hint is bool:
            if not isinstance(value, bool):
                raise self.error(f"must be true or false, not {value!r}", *path)
            return value
        return self.typed(value, hint, *path)


def load_config(path: str | Path) -> TableConfig:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read the config: {exc.strerror}") from exc
    return parse_config(text, source=str(p), base=p.parent)


def parse_config(text: str, *, source: str = "<config>", base: Path | None = None) -> TableConfig:
    check = _Checker(text, source)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    known = {*_SCHEMA, *_RULES, "pins"}
    for name in doc:
        if name not in known:
            raise check.error(f"unknown section (known: {', '.join(sorted(known))})", name)
    table = check.section(doc, "table")
    if table["game"] not in GAMES:
        raise check.error(f"must be one of {', '.join(GAMES)}", "table", "game")
    limits = check.section(doc, "limits")
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
    unit = min(denominations)
    game = table["game"]
    poker_limits = {
        "minimum_wager": limits["minimum"],
        "maximum_wager": limits["maximum"],
        "chip_unit": unit,
    }
    blackjack = check.rules(doc, "blackjack", {"smallest_chip": unit})
    poker = check.rules(doc, "poker", poker_limits)
    shoe = check.section(doc, "shoe")
    if shoe["protocol"] != "tablectl":
        raise check.error("only 'tablectl' (docs/protocol.md) is supported", "shoe", "protocol")
    display = check.section(doc, "display") if "display" in doc else _defaults("display")
    journal = check.section(doc, "journal")
    if not isinstance(doc.get("pins"), dict):
        raise check.error("the [pins] section is missing (docs/wiring.md)")
    pins = parse_pinmap(text, source=source)
    supervisor = (
        SupervisorConfig(**check.section(doc, "supervisor")) if "supervisor" in doc else None
    )
    pit = PitConfig(**check.section(doc, "pit")) if "pit" in doc else None
    if pit is not None and pit.private_cards not in ("restricted", "delayed"):
        raise check.error("must be 'restricted' or 'delayed'", "pit", "private_cards")
    journal_path = Path(journal["path"]).expanduser()
    if base is not None and not journal_path.is_absolute():
        journal_path = base / journal_path
    return TableConfig(
        source=source,
        table_id=table["id"],
        game=game,
        site=table["site"],
        minimum=limits["minimum"],
        maximum=limits["maximum"],
        denominations=tuple(sorted(denominations)),
        blackjack=blackjack,
        poker=poker,
        shoe=ShoeConfig(**shoe),
        pins=pins,
        display_host=display["host"],
        display_port=display["port"],
        journal_path=journal_path,
        supervisor=supervisor,
        pit=pit,
    )


def _defaults(section: str) -> dict[str, Any]:
    return {key: default for key, (_, default) in _SCHEMA[section].items()}


def rules_from_dict(game: str, values: dict[str, Any]) -> Variants | PokerRules:
    """Rebuild a game's rules from their JSON form (a journal's TableStarted row)."""
    if game not in _RULES:
        raise ConfigError(f"unknown game {game!r}")
    text = f"[{game}]\n"
    check = _Checker(text, "<journal>")
    cls = _RULES[game]
    hints = typing.get_type_hints(cls)
    converted = {
        key: None if value is None else check.rule_value(value, hints[key], game, key)
        for key, value in values.items()
    }
    rules: Variants | PokerRules = cls(**converted)
    return rules
