"""``[pins]``: the pin map of a table's TOML config, checked before any pin moves.

A table engineer wires sensors, console buttons, lamps, the shoe gate, the poker
dealer-button display and the limit sign (rule 11.5) to the Pi's GPIO header, then writes
down which BCM pin went where in ``[pins.spots]``, ``[pins.buttons]``, ``[pins.lamps]``,
``[pins.gate]``, ``[pins.position]`` and ``[pins.limit_sign]`` (reference and examples:
docs/wiring.md, examples/pins-*.toml).

Everything wrong with it is refused up front with a `PinMapError` that names the problem
and the config line: a pin used twice, an unknown spot, button or lamp name, a device the
game needs that is missing, a pull that the header cannot give. The controller then never
starts half-wired (missing hardware is an error, never a silent fallback: README).

This is config parsing, so it lives with the config; the drivers take only the typed specs
it builds (`drivers.pinmap`: `PinMap`, `SpotInput`, ...). What a game needs wired is its
`GameSpec`'s ``devices`` (`controller.game.device_needs`), passed in by the caller: the
pin map knows no game by name.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller import game as games_registry
from controller.app.config.checker import Checker
from controller.app.config.lines import ConfigLines
from controller.errors import ConfigError
from controller.ports import ConsoleButton, DeviceNeeds, Lamp
from drivers.pinmap import (
    ButtonInput,
    GateOutput,
    GateState,
    LampOutput,
    LimitSign,
    PinMap,
    PositionDisplay,
    SpotInput,
)

__all__ = ["PinMapError", "load_pinmap", "parse_pinmap", "read_pins"]

MAX_BOXES = 7  # a table layout has at most 7 boxes
MAX_SEATS = 10  # draw poker: seats around the table
HEADER_GPIOS = range(2, 28)  # BCM 2-27 on the 40-pin header; 0 and 1 belong to the HAT EEPROM
FIXED_PULL_UP = frozenset({2, 3})  # I2C pins carry 1.8 kOhm pull-ups on the board

_DOTTED = re.compile(r"^\s*(box|insurance)\d+\.p\d+\s*=")
_SPOT = re.compile(
    r"^(box|insurance)([1-9][0-9]*)(?:\.p([1-9][0-9]*))?$|^(double|split)([1-9][0-9]*)$"
)
# a punto banco layout's betting areas, one spot each a box (docs/baccarat.md), boxes 1-14
_BETTING_AREA = re.compile(r"^(player_pair|banker_pair|player|banker|tie)([1-9][0-9]*)$")
MAX_AREA_BOXES = 14


class PinMapError(ConfigError):
    """The pin map is wrong. ``line`` is the 1-based config line (None if it has none)."""

    def __init__(self, message: str, *, line: int | None, source: str) -> None:
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.line = line
        self.source = source
        self.reason = message


def _line_of_decode_error(message: str) -> int | None:
    m = re.search(r"line (\d+)", message)
    return int(m.group(1)) if m else None


def load_pinmap(path: str | Path, *, games: Mapping[str, DeviceNeeds] | None = None) -> PinMap:
    """Read a table config file and return its checked pin map (``games``: as for
    `parse_pinmap`)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise PinMapError(f"cannot read the config: {exc}", line=None, source=str(p)) from exc
    return parse_pinmap(text, source=str(p), games=games)


def parse_pinmap(
    text: str, *, source: str = "<config>", games: Mapping[str, DeviceNeeds] | None = None
) -> PinMap:
    """Parse TOML text holding ``[table] game`` and ``[pins...]``; raise `PinMapError`.

    ``games``: what each game the table may deal needs wired (its `GameSpec`'s
    ``devices``, given by the app, which knows the games): the game must be one of them
    and the map must wire everything it needs. None checks the pins alone."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = _line_of_decode_error(str(exc))
        hint = ""
        for number, raw in enumerate(text.splitlines(), start=1):
            if _DOTTED.match(raw):  # box3.p2 = 6 makes a table box3 that clashes with box3
                hint = ' (a spot name with a dot must be quoted: "box3.p2" = 6)'
                line = number
                break
        raise PinMapError(f"not valid TOML: {exc}{hint}", line=line, source=source) from exc
    return _Parser(doc, ConfigLines(text), source, games).parse()


def read_pins(check: Checker, doc: Mapping[str, Any], game: str) -> PinMap:
    """The table's ``[pins]`` (part of its whole config, already parsed), checked against
    what its game's `GameSpec` says must be wired."""
    if not isinstance(doc.get("pins"), dict):
        raise check.error("the [pins] section is missing (docs/wiring.md)")
    needs = {game: games_registry.spec(game).devices}
    return _Parser(doc, check.where, check.source, needs).parse()


# --- the parser ----------------------------------------------------------------------------


class _Parser:
    def __init__(
        self,
        doc: Mapping[str, Any],
        where: ConfigLines,
        source: str,
        games: Mapping[str, DeviceNeeds] | None,
    ) -> None:
        self.doc = doc
        self.games = games
        self.where = where
        self.source = source
        self.used: dict[int, tuple[str, int | None]] = {}  # BCM pin -> (what, line)

    def error(self, message: str, *path: str) -> PinMapError:
        return PinMapError(message, line=self.where.line(*path), source=self.source)

    def parse(self) -> PinMap:
        table = self.doc.get("table")
        game = table.get("game") if isinstance(table, Mapping) else None
        if not isinstance(game, str) or (self.games is not None and game not in self.games):
            raise self.error(
                f"[table] game must be one of {sorted(self.games or ())}, got {game!r}",
                "table",
                "game",
            )
        pins = self.doc.get("pins")
        if not isinstance(pins, Mapping):
            raise self.error("the config has no [pins] section", "pins")
        known = {"debounce_ms", "hold_ms", "spots", "buttons", "lamps", "gate", "position"}
        known.add("limit_sign")
        self.unknown_keys(pins, known, ("pins",))
        debounce = self.millis(pins.get("debounce_ms", 20), ("pins", "debounce_ms"))
        hold = self.millis(pins.get("hold_ms", 2000), ("pins", "hold_ms"))
        spots = self.spots(pins.get("spots", {}), debounce)
        buttons = self.buttons(pins.get("buttons", {}), debounce, hold)
        lamps = self.lamps(pins.get("lamps", {}))
        gate = self.gate(pins["gate"]) if "gate" in pins else None
        position = self.position(pins["position"]) if "position" in pins else None
        sign = self.limit_sign(pins["limit_sign"]) if "limit_sign" in pins else None
        pinmap = PinMap(game, spots, buttons, lamps, gate, position, sign, self.source)
        if self.games is not None:
            self.required(pinmap, self.games[game])
        return pinmap

    # -- pieces --

    def table_at(self, value: object, path: tuple[str, ...]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.error(f"[{'.'.join(path)}] must be a table", *path)
        return value

    def unknown_keys(
        self, table: Mapping[str, Any], known: set[str], path: tuple[str, ...]
    ) -> None:
        for key in table:
            if key not in known:
                raise self.error(
                    f"unknown key {key!r} in [{'.'.join(path)}] (expected one of "
                    f"{', '.join(sorted(known))})",
                    *path,
                    key,
                )

    def millis(self, value: object, path: tuple[str, ...]) -> float:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 60_000:
            raise self.error(f"{'.'.join(path)} must be whole milliseconds 0-60000", *path)
        return value / 1000

    def pin(self, value: object, what: str, path: tuple[str, ...]) -> int:
        """A BCM number, as ``17`` or ``"GPIO17"`` / ``"BCM17"``; each may be used once."""
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and (m := re.fullmatch(r"(?:GPIO|BCM)(\d+)", value.upper())):
            number = int(m.group(1))
        if number is None:
            raise self.error(
                f'{what}: pin must be a BCM number such as 17 or "GPIO17", got {value!r}',
                *path,
            )
        if number not in HEADER_GPIOS:
            raise self.error(
                f"{what}: GPIO{number} is not a usable header pin (BCM 2-27; 0 and 1 are "
                "reserved for the HAT EEPROM)",
                *path,
            )
        line = self.where.line(*path)
        if number in self.used:
            other, other_line = self.used[number]
            raise self.error(
                f"pin GPIO{number} is used twice: by {other} (line {other_line}) and by {what}",
                *path,
            )
        self.used[number] = (what, line)
        return number

    def input_options(
        self, value: object, what: str, path: tuple[str, ...], extra: set[str]
    ) -> tuple[int, str, bool, Mapping[str, Any]]:
        """An input is ``17`` or ``{pin = 17, pull = "up"|"down"|"none", active = ...}``.

        With a pull resistor the idle level is fixed, so the active level is its opposite
        (a switch to ground with a pull-up is active low); only an unpulled input (a sensor
        that drives its own output) says which level is active.
        """
        if isinstance(value, Mapping):
            if "pin" not in value:
                hint = ""
                if what.startswith("spot") and all(k.startswith("p") for k in value):
                    hint = ' (a spot name with a dot must be quoted: "box3.p2" = 6)'
                raise self.error(f"{what} has no pin{hint}", *path)
            self.unknown_keys(value, {"pin", "pull", "active"} | extra, path)
            options: Mapping[str, Any] = value
        else:
            options = {"pin": value}
        number = self.pin(options["pin"], what, path)
        pull = options.get("pull", "up")
        if pull not in ("up", "down", "none"):
            raise self.error(f'{what}: pull must be "up", "down" or "none", got {pull!r}', *path)
        active = options.get("active")
        if active not in (None, "low", "high"):
            raise self.error(f'{what}: active must be "low" or "high", got {active!r}', *path)
        implied = {"up": "low", "down": "high"}.get(pull)
        if pull == "none" and active is None:
            raise self.error(f'{what}: an input with pull = "none" must say active = ...', *path)
        if implied and active not in (None, implied):
            raise self.error(
                f"{what}: pull = {pull!r} idles {'high' if pull == 'up' else 'low'}, so it "
                f'must be active {implied}; use pull = "none" for an actively driven sensor',
                *path,
            )
        if number in FIXED_PULL_UP and pull != "up":
            raise self.error(
                f'{what}: GPIO{number} has a fixed pull-up on the board; pull must be "up"',
                *path,
            )
        return number, pull, (active or implied) == "high", options

    def _verify_spot_name(self, name: str, path: tuple[str, ...]) -> None:
        """A spot name the layouts have (blackjack's boxN, boxN.p2, insuranceN, doubleN,
        splitN...; baccarat's betting areas bankerN, tieN...), else the error naming them."""
        area = _BETTING_AREA.match(name)
        if area and int(area.group(2)) <= MAX_AREA_BOXES:
            return
        m = _SPOT.match(name)
        number = int(m.group(2) or m.group(5)) if m else 0
        person = int(m.group(3)) if m and m.group(3) else None
        if not m or not 1 <= number <= MAX_BOXES or person not in (None, 2, 3):
            hint = ""
            if m and person == 1:
                hint = f" (the box holder's own spot is {m.group(1)}{number})"
            raise self.error(
                f"unknown spot name {name!r}{hint}: spots are boxN, boxN.p2, boxN.p3, "
                f"insuranceN, insuranceN.p2, insuranceN.p3, doubleN and splitN, with N "
                f"1-{MAX_BOXES}; the betting areas playerN, bankerN, tieN, player_pairN and "
                f"banker_pairN, with N 1-{MAX_AREA_BOXES}",
                *path,
            )

    def spots(self, value: object, debounce: float) -> tuple[SpotInput, ...]:
        table = self.table_at(value, ("pins", "spots"))
        spots: list[SpotInput] = []
        for name, entry in table.items():
            path = ("pins", "spots", name)
            self._verify_spot_name(name, path)
            pin, pull, active_high, opts = self.input_options(
                entry, f"spot {name}", path, {"debounce_ms"}
            )
            own = self.millis(opts["debounce_ms"], path) if "debounce_ms" in opts else debounce
            spots.append(SpotInput(name, pin, pull, active_high, own, self.where.line(*path)))
        names = {s.name for s in spots}
        for spot in spots:
            base = re.sub(r"^(insurance|double|split)", "box", spot.name)
            if base != spot.name and base not in names:
                raise self.error(
                    f"spot {spot.name} belongs to {base}, which has no sensor",
                    "pins",
                    "spots",
                    spot.name,
                )
            owner = spot.name.split(".")[0]
            if owner != spot.name and owner not in names:
                raise self.error(
                    f"spot {spot.name} is a second wager on {owner}, which has no sensor",
                    "pins",
                    "spots",
                    spot.name,
                )
        return tuple(spots)

    def buttons(self, value: object, debounce: float, hold: float) -> tuple[ButtonInput, ...]:
        table = self.table_at(value, ("pins", "buttons"))
        names = {b.value for b in ConsoleButton}
        result: list[ButtonInput] = []
        for name, entry in table.items():
            path = ("pins", "buttons", name)
            if name not in names:
                raise self.error(
                    f"unknown button {name!r}: buttons are {', '.join(sorted(names))}", *path
                )
            button = ConsoleButton(name)
            pin, pull, active_high, opts = self.input_options(
                entry, f"button {name}", path, {"debounce_ms", "hold_ms"}
            )
            own = self.millis(opts["debounce_ms"], path) if "debounce_ms" in opts else debounce
            # The supervisor key is a long press by default; others only if they ask for it.
            held: float | None = hold if button is ConsoleButton.SUPERVISOR else None
            if "hold_ms" in opts:
                held = self.millis(opts["hold_ms"], path) or None
            if held is not None and held <= own:
                raise self.error(f"button {name}: hold_ms must be longer than debounce_ms", *path)
            result.append(
                ButtonInput(button, pin, pull, active_high, own, held, self.where.line(*path))
            )
        return tuple(result)

    def lamps(self, value: object) -> tuple[LampOutput, ...]:
        table = self.table_at(value, ("pins", "lamps"))
        names = {lamp.value for lamp in Lamp}
        result: list[LampOutput] = []
        for name, entry in table.items():
            path = ("pins", "lamps", name)
            if name not in names:
                raise self.error(
                    f"unknown lamp {name!r}: lamps are {', '.join(sorted(names))}", *path
                )
            opts: Mapping[str, Any] = entry if isinstance(entry, Mapping) else {"pin": entry}
            self.unknown_keys(opts, {"pin", "pwm", "active"}, path)
            pin = self.pin(opts.get("pin"), f"lamp {name}", path)
            pwm = opts.get("pwm", False)
            if not isinstance(pwm, bool):
                raise self.error(f"lamp {name}: pwm must be true or false", *path)
            high = self.active(opts, f"lamp {name}", path)
            result.append(LampOutput(Lamp(name), pin, pwm, high, self.where.line(*path)))
        return tuple(result)

    def active(self, opts: Mapping[str, Any], what: str, path: tuple[str, ...]) -> bool:
        active = opts.get("active", "high")
        if active not in ("low", "high"):
            raise self.error(f'{what}: active must be "low" or "high", got {active!r}', *path)
        return bool(active == "high")

    def gate(self, value: object) -> GateOutput:
        path = ("pins", "gate")
        opts = self.table_at(value, path)
        self.unknown_keys(opts, {"pin", "active", "fail_safe"}, path)
        pin = self.pin(opts.get("pin"), "the shoe gate", (*path, "pin"))
        fail_safe = opts.get("fail_safe")
        if fail_safe not in ("locked", "unlocked"):
            raise self.error(
                'the shoe gate needs fail_safe = "locked" or "unlocked": the state of the '
                "de-energised solenoid, which is also the state on power-up (see "
                "docs/wiring.md)",
                *path,
                "fail_safe",
            )
        high = self.active(opts, "the shoe gate", path)
        return GateOutput(pin, high, GateState(fail_safe), self.where.line(*path))

    def position(self, value: object) -> PositionDisplay:
        path = ("pins", "position")
        opts = self.table_at(value, path)
        self.unknown_keys(opts, {"seats", "active"}, path)
        seats = opts.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= MAX_SEATS:
            raise self.error(
                f"[pins.position] seats must list 2-{MAX_SEATS} pins, seat 1 first",
                *path,
                "seats",
            )
        pins = tuple(
            self.pin(p, f"position lamp seat {i}", (*path, "seats"))
            for i, p in enumerate(seats, start=1)
        )
        high = self.active(opts, "the position display", path)
        return PositionDisplay(pins, high, self.where.line(*path))

    def limit_sign(self, value: object) -> LimitSign:
        path = ("pins", "limit_sign")
        opts = self.table_at(value, path)
        self.unknown_keys(opts, {"kind", "rs", "e", "data", "columns", "rows", "currency"}, path)
        if opts.get("kind", "hd44780") != "hd44780":
            raise self.error('the limit sign kind must be "hd44780"', *path, "kind")
        rs = self.pin(opts.get("rs"), "limit sign RS", (*path, "rs"))
        e = self.pin(opts.get("e"), "limit sign E", (*path, "e"))
        data = opts.get("data")
        if not isinstance(data, list) or len(data) != 4:
            raise self.error("limit sign data must list the four pins D4, D5, D6, D7", *path)
        d4, d5, d6, d7 = (
            self.pin(p, f"limit sign D{i}", (*path, "data")) for i, p in enumerate(data, start=4)
        )
        columns, rows = opts.get("columns", 16), opts.get("rows", 2)
        if columns not in (8, 16, 20, 40) or rows not in (1, 2, 4):
            raise self.error("limit sign columns must be 8/16/20/40 and rows 1/2/4", *path)
        currency = opts.get("currency", "")
        if not isinstance(currency, str) or len(currency) > 3 or not currency.isascii():
            raise self.error("limit sign currency must be up to 3 ASCII characters", *path)
        return LimitSign(rs, e, (d4, d5, d6, d7), columns, rows, currency, self.where.line(*path))

    def required(self, pinmap: PinMap, needs: DeviceNeeds) -> None:
        game = pinmap.game
        have = {b.button for b in pinmap.buttons} | {lo.lamp for lo in pinmap.lamps}
        for device in (*needs.buttons, *needs.lamps):
            if device not in have:
                section = "buttons" if isinstance(device, ConsoleButton) else "lamps"
                what = "console button" if section == "buttons" else "lamp"
                raise self.error(
                    f"{game} needs the {what} {device.value!r}, and [pins.{section}] has no "
                    "pin for it",
                    "pins",
                    section,
                )
        if needs.box_spot and not any(s.name.startswith("box") for s in pinmap.spots):
            raise self.error(f"{game} needs at least one box sensor in [pins.spots]", "pins")
        if needs.position_display and pinmap.position is None:
            raise self.error(
                f"{game} needs the dealer-button display [pins.position] (one lamp per seat)",
                "pins",
            )
