"""The table config: one TOML file per table, checked whole before anything starts.

Sections (examples/blackjack-table.toml and examples/poker-table.toml are complete ones):

- ``[table]``: ``id``, ``game`` (a registered game: `controller.game.names`), ``site``.
- ``[limits]``: ``minimum`` and ``maximum`` wager (the table notice, rule 11.5),
  ``denominations`` (chip values; the lowest is the unit pots are split to, 11.4(d)).
- ``[<game>]`` (``[blackjack]``, ``[poker]``...): the game's rules, its `GameSpec`'s
  ``rules`` type; any field left out keeps its DESIGN.md default.
- ``[shoe]``: ``url`` (a serial port, ``socket://``, ``usb://VVVV:PPPP`` for a USB reader,
  or ``"sim://"`` for the built-in simulated shoe), ``protocol`` (a card source of
  `drivers.registry`: ``"tablectl"``, docs/protocol.md; ``"rdm6300"`` or ``"hid"``, an
  RFID reader, docs/rfid.md), ``baud``; an RFID shoe also ``decks`` (its deck enrolment
  files, one per deck, relative to the config) and ``repeat_window_ms`` (reads of a tag
  within this long of its last read are one pass of one card).
- ``[pins]``: the GPIO pin map (drivers/pinmap.py, docs/wiring.md). ``tablectl run --sim``
  puts it, and the shoe, on the simulators instead (DESIGN: a simulator is chosen
  explicitly, never as a fallback).
- ``[display]``: ``host`` and ``port`` of the status page and its console (loopback
  only, unless ``tls_cert_file`` and ``tls_key_file`` are set), ``console_secret_file``
  (default ``console.secret`` beside the journal), and ``view_host``/``view_port``: an
  optional second address serving only the read-only views (docs/security.md).
- ``[journal]``: ``path`` of the journal file (on a writable partition), ``key_file``: its
  HMAC key (default: the journal's path + ``.key``; `controller.app.journal_files`).
- ``[[staff]]`` (any number): ``id``, ``name``, ``role`` (``"dealer"`` or
  ``"supervisor"``) and ``pin_hash`` (from `tablectl pin-hash`) of each person who may
  sign in at the console or clear a HOLD.
- ``[supervisor]`` (optional): the PIN lockout: ``lockout_tries`` wrong PINs in a row
  are free, then each one more waits ``lockout_first_seconds``, doubling, at most
  ``lockout_seconds``.
- ``[pit]`` (optional): the MQTT broker the table reports to.

Every error names the key and its line, and `load_config` raises one `ConfigError` for
the first problem found: a wrong type, an unknown key, a missing section, a limit whose
minimum is above its maximum, a pin used twice.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import tomllib
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller import game as games
from controller.app.pin_hashes import parse_hash
from controller.errors import ConfigError
from drivers.pinmap import ConfigLines, PinMap, parse_pinmap
from drivers.registry import CARD_SOURCES, RFID_PROTOCOLS

STAFF_ID = re.compile(r"[A-Za-z0-9._-]{1,32}")


@dataclass(frozen=True)
class ShoeConfig:
    url: str
    protocol: str = "tablectl"
    baud: int = 115200
    decks: tuple[Path, ...] = ()  # an RFID shoe's deck enrolment files
    repeat_window_ms: int = 1000

    @property
    def rfid(self) -> bool:
        return self.protocol in RFID_PROTOCOLS

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
    rules: Any  # the game's rules config (its GameSpec's ``rules`` type)
    shoe: ShoeConfig
    pins: PinMap
    display_host: str
    display_port: int
    journal_path: Path
    journal_key: Path | None = None  # [journal] key_file; None: the journal's path + ".key"
    supervisor: SupervisorConfig | None = None
    pit: PitConfig | None = None
    staff: tuple[StaffMember, ...] = ()
    console_secret: Path | None = None  # None: console.secret beside the journal
    view_host: str = ""  # "": no read-only address
    view_port: int = 0
    tls_cert_file: str = ""
    tls_key_file: str = ""

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


@dataclass(frozen=True)
class SupervisorConfig:
    """``[supervisor]``: the lockout after repeated wrong PINs at the console (dealer
    sign-in and supervisor PINs count together): ``lockout_tries`` wrong PINs in a row are
    free, then each further one makes the console wait ``lockout_first_seconds``, doubled
    each time, at most ``lockout_seconds``. The PINs themselves are in ``[[staff]]``."""

    lockout_tries: int = 5
    lockout_seconds: int = 300
    lockout_first_seconds: int = 5


ROLES = ("dealer", "supervisor")


@dataclass(frozen=True)
class StaffMember:
    """A ``[[staff]]`` entry: who may sign in at the console to deal (any role) or take a
    supervisor's decision (``role = "supervisor"``). The journal names them by ``id``."""

    id: str
    name: str
    role: str
    pin_hash: str = dataclasses.field(repr=False)


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
    "shoe": {
        "url": (str, ...),
        "protocol": (str, "tablectl"),
        "baud": (int, 115200),
        "decks": (list, []),
        "repeat_window_ms": (int, 1000),
    },
    "display": {
        "host": (str, "127.0.0.1"),
        "port": (int, 8080),
        "console_secret_file": (str, ""),
        "view_host": (str, ""),
        "view_port": (int, 8081),
        "tls_cert_file": (str, ""),
        "tls_key_file": (str, ""),
    },
    "journal": {"path": (str, ...), "key_file": (str, "")},
    "supervisor": {
        "lockout_tries": (int, 5),
        "lockout_seconds": (int, 300),
        "lockout_first_seconds": (int, 5),
    },
    "staff": {"id": (str, ...), "name": (str, ...), "role": (str, ...), "pin_hash": (str, ...)},
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


class _Checker:
    def __init__(self, text: str, source: str) -> None:
        self.where = ConfigLines(text)
        self.source = source
        self.text = text

    def entry_error(self, message: str, array: str, index: int, key: str) -> ConfigError:
        """An error in the ``index``-th ``[[array]]`` entry, at the line of its ``key``
        (ConfigLines knows only plain tables)."""
        header = re.compile(rf"^\s*\[\[\s*{re.escape(array)}\s*\]\]")
        setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
        seen, line = -1, 0
        for number, raw in enumerate(self.text.splitlines(), start=1):
            if header.match(raw):
                seen += 1
                if seen == index:
                    line = number
            elif seen == index and raw.lstrip().startswith("["):
                break
            elif seen == index and setting.match(raw):
                line = number
                break
        at = f"{self.source}:{line}" if line else self.source
        return ConfigError(f"{at}: {array}[{index}].{key}: {message}")

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
        return self.entries(value, name, _SCHEMA[name])

    def entries(
        self, value: dict[str, Any], name: str, schema: dict[str, tuple[type, Any]]
    ) -> dict[str, Any]:
        out: dict[str, Any] = {}
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
        cls = games.spec(game).rules
        from_limits = set(extra)  # set from [limits], never in the game's own section
        given = doc.get(game, {})
        if not isinstance(given, dict):
            raise self.error("must be a [section]", game)
        hints = typing.get_type_hints(cls)
        fields = {f.name for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, value in given.items():
            if key not in fields or key in from_limits:
                known = ", ".join(sorted(fields - from_limits))
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
    check = _Checker(text, source)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML: {exc}") from None
    known = {*_SCHEMA, *games.names(), "pins"}
    for name in doc:
        if name not in known:
            raise check.error(f"unknown section (known: {', '.join(sorted(known))})", name)
    table = check.section(doc, "table")
    if table["game"] not in games.names():
        raise check.error(f"must be one of {', '.join(games.names())}", "table", "game")
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
    rules = None
    for name in games.names():  # every game's section given is checked, the table's kept
        if name == game or name in doc:
            spec = games.spec(name)
            extra = spec.from_limits(limits["minimum"], limits["maximum"], unit)
            checked = check.rules(doc, name, extra)
            rules = checked if name == game else rules
    shoe = check.section(doc, "shoe")
    shoe_config = _shoe(check, shoe, base)
    display = check.section(doc, "display") if "display" in doc else _defaults("display")
    journal = check.section(doc, "journal")
    if not isinstance(doc.get("pins"), dict):
        raise check.error("the [pins] section is missing (docs/wiring.md)")
    pins = parse_pinmap(text, source=source, games={game: games.spec(game).devices})
    supervisor_doc = doc.get("supervisor")
    if isinstance(supervisor_doc, dict) and "pin_hash" in supervisor_doc:
        raise check.error(
            "the shared supervisor PIN is gone: give each supervisor a [[staff]] entry "
            'with role = "supervisor" and their own pin_hash (docs/security.md)',
            "supervisor",
            "pin_hash",
        )
    supervisor = (
        SupervisorConfig(**check.section(doc, "supervisor")) if "supervisor" in doc else None
    )
    if supervisor is not None:
        for key in ("lockout_tries", "lockout_seconds", "lockout_first_seconds"):
            if getattr(supervisor, key) < 1:
                raise check.error("must be at least 1", "supervisor", key)
    staff = _staff(check, doc)
    _check_display(check, display)
    pit = PitConfig(**check.section(doc, "pit")) if "pit" in doc else None
    if pit is not None and pit.private_cards not in ("restricted", "delayed"):
        raise check.error("must be 'restricted' or 'delayed'", "pit", "private_cards")
    journal_path = Path(journal["path"]).expanduser()
    if base is not None and not journal_path.is_absolute():
        journal_path = base / journal_path
    journal_key = Path(journal["key_file"]).expanduser() if journal["key_file"] else None
    if journal_key is not None and base is not None and not journal_key.is_absolute():
        journal_key = base / journal_key
    secret_path: Path | None = None
    if display["console_secret_file"]:
        secret_path = Path(display["console_secret_file"]).expanduser()
        if base is not None and not secret_path.is_absolute():
            secret_path = base / secret_path
    return TableConfig(
        source=source,
        table_id=table["id"],
        game=game,
        site=table["site"],
        minimum=limits["minimum"],
        maximum=limits["maximum"],
        denominations=tuple(sorted(denominations)),
        rules=rules,
        shoe=shoe_config,
        pins=pins,
        display_host=display["host"],
        display_port=display["port"],
        journal_path=journal_path,
        journal_key=journal_key,
        supervisor=supervisor,
        pit=pit,
        staff=staff,
        console_secret=secret_path,
        view_host=display["view_host"],
        view_port=display["view_port"],
        tls_cert_file=display["tls_cert_file"],
        tls_key_file=display["tls_key_file"],
    )


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _check_display(check: _Checker, display: dict[str, Any]) -> None:
    """The console (the write API) listens beyond loopback only when the config says so
    and only over TLS; the read-only views may go on a second address (docs/security.md)."""
    if bool(display["tls_cert_file"]) != bool(display["tls_key_file"]):
        key = "tls_key_file" if display["tls_cert_file"] else "tls_cert_file"
        raise check.error("TLS needs both tls_cert_file and tls_key_file", "display", key)
    if display["host"] not in LOOPBACK and not display["tls_cert_file"]:
        raise check.error(
            f"{display['host']!r} is beyond loopback: the console (which moves money) is "
            "served there only over TLS (set tls_cert_file and tls_key_file); for "
            "read-only views elsewhere use view_host and view_port",
            "display",
            "host",
        )
    for key in ("port", "view_port"):
        if not 0 <= display[key] <= 65535:
            raise check.error("must be a port number (0 to 65535)", "display", key)
    if display["view_host"] and display["view_port"] == display["port"]:
        raise check.error("must differ from [display] port", "display", "view_port")


def _staff(check: _Checker, doc: dict[str, Any]) -> tuple[StaffMember, ...]:
    """The ``[[staff]]`` entries: unique ids, a known role, a well-formed PIN hash."""
    given = doc.get("staff", [])
    if not isinstance(given, list) or not all(isinstance(e, dict) for e in given):
        raise check.error("must be [[staff]] entries (an array of tables)", "staff")
    members: list[StaffMember] = []
    schema = _SCHEMA["staff"]
    for index, entry in enumerate(given):

        def error(message: str, key: str, index: int = index) -> ConfigError:
            return check.entry_error(message, "staff", index, key)

        for key in entry:
            if key not in schema:
                raise error(f"unknown key (known: {', '.join(schema)})", key)
        for key, (kind, _) in schema.items():
            if key not in entry:
                raise error("is missing", key)
            if not isinstance(entry[key], kind):
                raise error(f"must be a {kind.__name__}, not {entry[key]!r}", key)
        member = StaffMember(**entry)
        if not STAFF_ID.fullmatch(member.id):
            raise error(f"{member.id!r}: letters, digits, '.', '-' and '_' only, 1 to 32", "id")
        if any(m.id == member.id for m in members):
            raise error(f"{member.id!r} is listed twice", "id")
        if member.role not in ROLES:
            raise error(f"must be one of {', '.join(ROLES)}, not {member.role!r}", "role")
        if not member.name.strip() or len(member.name) > 64 or not member.name.isprintable():
            raise error("must be a printable name of 1 to 64 characters", "name")
        try:
            parse_hash(member.pin_hash)
        except ConfigError as exc:
            raise error(f"{exc} (make one with tablectl pin-hash)", "pin_hash") from None
        members.append(member)
    return tuple(members)


def _defaults(section: str) -> dict[str, Any]:
    return {key: default for key, (_, default) in _SCHEMA[section].items()}


def rules_from_dict(game: str, values: dict[str, Any]) -> Any:
    """Rebuild a game's rules from their JSON form (a journal's TableStarted row)."""
    cls = games.spec(game).rules  # UnknownGame (a ConfigError) names the known ones
    text = f"[{game}]\n"
    check = _Checker(text, "<journal>")
    hints = typing.get_type_hints(cls)
    converted = {
        key: None if value is None else check.rule_value(value, hints[key], game, key)
        for key, value in values.items()
    }
    return cls(**converted)


def _shoe(check: _Checker, shoe: dict[str, Any], base: Path | None) -> ShoeConfig:
    """The ``[shoe]``: a known card source; an RFID one with its deck files."""
    protocol = shoe["protocol"]
    if protocol not in CARD_SOURCES:
        known = ", ".join(repr(name) for name in CARD_SOURCES)
        raise check.error(f"unknown card source (known: {known})", "shoe", "protocol")
    decks: list[Path] = []
    for entry in shoe["decks"]:
        if not isinstance(entry, str) or not entry:
            raise check.error(f"must be a list of deck file paths, not {entry!r}", "shoe", "decks")
        path = Path(entry)
        decks.append(base / path if base is not None and not path.is_absolute() else path)
    if protocol in RFID_PROTOCOLS and not decks and shoe["url"] != "sim://":
        raise check.error(
            f"an {protocol} shoe reads tags: list its enrolled deck files, "
            'decks = ["deck1.txt", ...] (docs/rfid.md)',
            "shoe",
            "decks",
        )
    if protocol not in RFID_PROTOCOLS and decks:
        raise check.error(f"the {protocol} protocol sends cards, not tags: no decks", "shoe")
    if shoe["repeat_window_ms"] < 50:
        raise check.error("must be at least 50 ms", "shoe", "repeat_window_ms")
    return ShoeConfig(shoe["url"], protocol, shoe["baud"], tuple(decks), shoe["repeat_window_ms"])
