"""The games this controller can run, by name, the way python-can finds its bus back-ends.

A game is a folder (a package) whose module holds a `GameSpec`; the registry holds one
entry per game, ``name -> "module:attribute"``, and imports the module only when the game
is asked for, so a table loads the rules it deals and no other. Games come from three
places, looked up in this order:

1. `register(spec)`: a spec made in this process (tests, embedding);
2. the ``tablectl.games`` entry points of installed distributions (a game shipped as its
   own package: ``[project.entry-points."tablectl.games"] toy = "toygame.game:SPEC"``);
3. `BUILTIN`: the games in this repository.

An unknown name is a `ConfigError` listing the known ones; an entry that does not import
or does not hold a `GameSpec` of that name is one too, naming the entry.
"""

from __future__ import annotations

import functools
import importlib
from importlib import metadata

from controller.errors import ConfigError
from controller.game.contract import GameSpec
from controller.ports import DeviceNeeds

ENTRY_POINTS = "tablectl.games"

# One entry per game in this repository: the game's folder says the rest.
BUILTIN: dict[str, str] = {
    "baccarat": "controller.baccarat.game:SPEC",
    "blackjack": "controller.blackjack.game:SPEC",
    "poker": "controller.poker.game:SPEC",
}
DEFAULT = "blackjack"  # what `tablectl demo` deals unless told

_registered: dict[str, GameSpec] = {}
_loaded: dict[str, GameSpec] = {}


class UnknownGame(ConfigError):
    """No game of that name is registered."""


def register(spec: GameSpec) -> GameSpec:
    """Make ``spec`` known by its name in this process (it replaces one of that name)."""
    _registered[spec.name] = spec
    _loaded.pop(spec.name, None)
    return spec


def unregister(name: str) -> None:
    _registered.pop(name, None)
    _loaded.pop(name, None)


@functools.cache
def _entry_points() -> dict[str, str]:
    return {ep.name: ep.value for ep in metadata.entry_points(group=ENTRY_POINTS)}


def _entries() -> dict[str, str]:
    return {**BUILTIN, **_entry_points()}


def names() -> tuple[str, ...]:
    """Every game this controller can run, sorted."""
    return tuple(sorted({*_entries(), *_registered}))


def spec(name: str) -> GameSpec:
    """The `GameSpec` of ``name``; raises `UnknownGame` (a `ConfigError`)."""
    found = _registered.get(name) or _loaded.get(name)
    if found is not None:
        return found
    where = _entries().get(name)
    if where is None:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(names())})")
    module_name, _, attribute = where.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(f"the game {name!r} ({where}) does not import: {exc}") from exc
    loaded = getattr(module, attribute or "SPEC", None)
    if not isinstance(loaded, GameSpec) or loaded.name != name:
        raise ConfigError(f"the game {name!r}: {where} is not a GameSpec named {name!r}")
    _loaded[name] = loaded
    return loaded


def device_needs() -> dict[str, DeviceNeeds]:
    """What each known game needs wired (controller/app/config/pins.py checks a pin map
    against it)."""
    return {name: spec(name).devices for name in names()}
