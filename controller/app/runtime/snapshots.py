"""Snapshots: the game and the loop's own state, journaled every few rounds, so a
restart replays only the rows after the last one instead of the whole journal.

**What is kept.** The game object itself, pickled (so every game, baccarat included, gets
snapshots without a line of its own: the game contract is unchanged), and the loop's own
state (`LoopState`: the dealer signed in, the last command on each output channel (gate,
lamps, displays), and where each device's sequence stood, the shoe's resume point). The
pickle is compressed (zlib) and carried as base64 in a ``Snapshot`` row's payload, in the
same keyed chain as every other row, with:

- ``format``: this module's `FORMAT`;
- ``code`` and ``modules``: a digest of the code that wrote it (`code_version`: the
  Python version, the ``transitions`` version and the source of every module that
  defines a class the pickle holds or one of their base classes, listed in ``modules``).
  A pickle holds the objects' data, not their classes: after an upgrade that touched any
  of those modules the classes may have other fields, so the snapshot is not loaded. (A
  change elsewhere, in a module of functions, leaves the state's shape as it was.);
- ``game`` and ``rules``: the game's name and its rules config as canonical JSON. A table
  whose config now names other rules (8 decks instead of 6) must not come back with the
  old ones inside the restored game.

Whenever any of these differs, or the pickle does not load (`SnapshotUnusable`), the loop
logs one line saying why and replays the whole journal instead, as a table without snapshots does.

**Why a pickle is safe here** (docs/security.md, "Snapshots"). Unpickling runs code named
in the data, so the data must come from us. A snapshot is read only from a journal row
whose HMAC under the table's journal key is checked at the moment it is read
(`controller.journal.store.Journal.last_authentic`), so a pickle that loads was written by a
process holding the key: the table's own service (the key file is readable by that user
only). Whoever holds the key can already rewrite the whole journal; being able to run code
in the table's process as the table's user gives them nothing they did not have. As a
second fence against an accident (a row from a foreign tool, a bug), the unpickler only
resolves classes from an allow-list of packages (`_Unpickler`): the controller, the game's
package, ``transitions`` and a handful of standard containers. A fence, not a lock: the
game's bound methods need ``getattr``, through which a pickle made on purpose could reach
further; the HMAC is what keeps such a pickle out.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import functools
import hashlib
import importlib.metadata
import io
import pickle
import sys
import zlib
from pathlib import Path
from typing import Any

from controller.game import Game
from controller.game.jsonable import to_jsonable
from controller.journal.store import canonical
from controller.ports import Command, DealerSignedIn
from controller.rating import RatingSettings, settings_json

FORMAT = 1
KIND = "Snapshot"

Channel = tuple[str, ...]
Resume = tuple[int | None, int | None]  # a device's boot id and its last seq journaled


WrongPins = tuple[int, str]  # wrong PINs in a row at the console, and the wall clock its wait ends


@dataclasses.dataclass(frozen=True)
class LoopState:
    """What the loop knows beyond the game: who is signed in, the last command on every
    output channel (told to the devices after a restart), each device's sequence, and the
    console's wrong-PIN count (a restart must not reset a lockout)."""

    dealer: DealerSignedIn | None
    channels: dict[Channel, Command]
    resume: dict[str, Resume]
    wrong_pins: WrongPins | None = None


@dataclasses.dataclass(frozen=True)
class Restored:
    game: Game
    loop: LoopState
    seq: int  # the snapshot's row: replay the rows after it


class SnapshotUnusable(Exception):
    """This snapshot cannot be loaded (why is the message): replay the whole journal."""


def taken_under(rules: Any, rating: RatingSettings) -> Any:
    """What a snapshot must have been taken under: the rules, and ``[rating]`` when the
    table rates players (a snapshot's open ratings were worked out under it)."""
    return (rules, settings_json(rating)) if rating.enabled else rules


def rules_id(rules: Any) -> str:
    """The rules config as canonical JSON: what a snapshot must have been taken under."""
    return "" if rules is None else canonical(to_jsonable(rules))


def _package_root(module: str) -> str:
    return module.split(".", 1)[0]


@functools.cache
def _module_digest(module: str) -> str:
    """The digest of a module's source, as this process imported it (once per process)."""
    path = getattr(importlib.import_module(module), "__file__", None)
    if not path:
        return "?"
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def code_version(modules: list[str]) -> str:
    """The code a snapshot depends on (module docstring): the Python and ``transitions``
    versions and the source of every module that defines a class the snapshot holds, or
    one of its base classes."""
    parts = [_runtime(), *(f"{m}:{_module_digest(m)}" for m in sorted(modules))]
    return hashlib.sha256(" ".join(parts).encode()).hexdigest()


@functools.cache
def _runtime() -> str:
    """The Python and ``transitions`` versions, read once per process (the package
    metadata lookup costs about a millisecond: not on the controller thread every time)."""
    try:
        transitions = importlib.metadata.version("transitions")
    except importlib.metadata.PackageNotFoundError:
        transitions = "?"
    return f"py{sys.version_info[0]}.{sys.version_info[1]} transitions {transitions}"


def _modules_of(data: bytes, game_package: str) -> list[str]:
    """The modules of our own (the controller's, the game's package's) that define the
    classes in a pickle, and their base classes."""
    unpickler = _Unpickler(io.BytesIO(data), game_package)
    unpickler.load()
    ours = {"controller", game_package}
    found: set[str] = set()
    for cls in unpickler.classes:
        for base in cls.__mro__ if isinstance(cls, type) else (cls,):
            module = getattr(base, "__module__", "") or ""
            if _package_root(module) in ours:
                found.add(module)
    return sorted(found)


def read_sources(game: Game) -> None:
    """Digest now, at the start, the source of every module of the controller and the
    game's package already imported, and read the versions: a snapshot written later on
    the controller thread opens no file (none to spare in a process short of them)."""
    ours = {"controller", _package_root(type(game).__module__)}
    _runtime()
    for module in [name for name in list(sys.modules) if _package_root(name) in ours]:
        with contextlib.suppress(OSError, ImportError):  # then read when first needed
            _module_digest(module)


def encode(game: Game, loop: LoopState, *, rules: str) -> dict[str, Any]:
    """A snapshot row's payload."""
    data = pickle.dumps((game, loop), protocol=pickle.HIGHEST_PROTOCOL)
    modules = _modules_of(data, _package_root(type(game).__module__))
    return {
        "format": FORMAT,
        "code": code_version(modules),
        "modules": modules,
        "game": game.name,
        "rules": rules,
        "round": game.round_no,
        "state": base64.b64encode(zlib.compress(data, 6)).decode("ascii"),
    }


def decode(payload: dict[str, Any], game: Game, *, rules: str, seq: int) -> Restored:
    """The game and loop state of a snapshot row that was written by this code, for this
    game and these rules; `SnapshotUnusable` saying why not."""
    if payload.get("format") != FORMAT:
        raise SnapshotUnusable(f"format {payload.get('format')!r}, this code reads {FORMAT}")
    if payload.get("game") != game.name:
        raise SnapshotUnusable(f"it is of the game {payload.get('game')!r}, not {game.name!r}")
    if payload.get("rules") != rules:
        raise SnapshotUnusable("the rules config changed since it was taken")
    modules = payload.get("modules")
    ours = {"controller", _package_root(type(game).__module__)}
    if not isinstance(modules, list) or not all(
        isinstance(m, str) and _package_root(m) in ours for m in modules
    ):
        raise SnapshotUnusable("its list of modules is not one this code wrote")
    try:
        current = code_version(modules)
    except ImportError as exc:
        raise SnapshotUnusable(f"a module it needs is gone: {exc}") from exc
    if payload.get("code") != current:
        raise SnapshotUnusable("written by another version of the code")
    try:
        data = zlib.decompress(base64.b64decode(str(payload["state"]), validate=True))
        restored = _Unpickler(io.BytesIO(data), _package_root(type(game).__module__)).load()
        found, loop = restored
    except Exception as exc:  # anything a bad pickle raises: the whole journal instead
        raise SnapshotUnusable(f"it does not load: {type(exc).__name__}: {exc}") from exc
    if type(found) is not type(game) or not isinstance(loop, LoopState):
        raise SnapshotUnusable(f"it holds a {type(found).__name__}, not a {type(game).__name__}")
    return Restored(found, loop, seq)


_STDLIB = {
    "builtins": {"getattr", "list", "dict", "set", "frozenset", "tuple", "object"},
    "collections": {"Counter", "OrderedDict", "defaultdict", "deque"},
    "functools": {"partial"},
    "copyreg": {"_reconstructor"},
    "random": {"Random"},
    "datetime": {"datetime", "date", "timedelta", "timezone"},
    "enum": {"Enum", "IntEnum"},
    "fractions": {"Fraction"},  # the player ratings' exact theo and rates
}


class _Unpickler(pickle.Unpickler):
    """Resolves only the controller's classes, the game's package's, ``transitions``' and
    the standard containers in `_STDLIB` (an accident fence; the HMAC is the lock)."""

    def __init__(self, file: io.BytesIO, game_package: str) -> None:
        super().__init__(file)
        self._allowed = {"controller", "transitions", game_package}
        self.classes: list[Any] = []  # what it resolved (`_modules_of`)

    def find_class(self, module: str, name: str) -> Any:
        if _package_root(module) in self._allowed or name in _STDLIB.get(module, ()):
            found = super().find_class(module, name)
            self.classes.append(found)
            return found
        raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a snapshot")
