"""What the touch console may send, derived from the games' own code.

A console action (``{"action": "double", "args": {"box": 3}}``) names a rules-API call.
Each game lists the calls it takes from the console in its `GameSpec` (``console``: name
-> rules-API method; ``decisions``: a supervisor's, name -> method); the arguments each
takes are read here from the method's signature and type hints, so a new action or a new
argument needs no second list. The status server checks every request against this
before anything reaches the controller's queue: an unknown action, an unknown or missing
argument, or a value of the wrong type is refused with 400 and never journaled.

Only plain types are offered: whole numbers (a bool is not one), text, true/false, a
card or a list of cards (as text: ``"As"``, ``"Td"``), each optionally ``None``. A call
whose signature needs anything else is not offered on the console.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import logging
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller import game as games
from controller.cards import Card
from controller.game.table import RATING_CONSOLE, RATING_DECISIONS

log = logging.getLogger(__name__)

MAX_INT = 10**9  # far above any wager, seat or count; keeps absurd numbers out of the rules
MAX_TEXT = 64
MAX_CARDS = 10


class BadArguments(ValueError):
    """A console request that does not fit the action's signature."""


@dataclasses.dataclass(frozen=True, slots=True)
class Param:
    name: str
    kind: str  # "int", "str", "bool", "card", "cards"
    required: bool
    optional: bool  # None is allowed


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    name: str
    params: tuple[Param, ...]

    def check(self, args: Mapping[str, Any]) -> None:
        """Raise `BadArguments` unless ``args`` fit this action exactly."""
        known = {p.name: p for p in self.params}
        for name in args:
            if name not in known:
                raise BadArguments(f"{self.name} takes no argument {name!r}")
        for p in self.params:
            if p.name not in args:
                if p.required:
                    raise BadArguments(f"{self.name} needs {p.name!r}")
                continue
            value = args[p.name]
            if value is None and p.optional:
                continue
            if not _fits(p.kind, value):
                raise BadArguments(f"{self.name}: {p.name!r} must be {_WORDS[p.kind]}")


_WORDS = {
    "int": f"a whole number (at most {MAX_INT})",
    "str": f"text of at most {MAX_TEXT} characters",
    "bool": "true or false",
    "card": "a card such as 'As'",
    "cards": f"a list of at most {MAX_CARDS} cards such as ['As', 'Td']",
}


def _fits(kind: str, value: Any) -> bool:
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT
    if kind == "str":
        return isinstance(value, str) and len(value) <= MAX_TEXT
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "card":
        return _is_card(value)
    if kind == "cards":
        return isinstance(value, list) and len(value) <= MAX_CARDS and all(map(_is_card, value))
    return False


def _is_card(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > 3:
        return False
    try:
        Card.parse(value)
    except ValueError:
        return False
    return True


def _kind(hint: Any) -> tuple[str, bool] | None:
    """(kind, None allowed) for a type hint, or None when it is not a plain type."""
    optional = False
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) != 1:
            return None
        hint = args[0]
    if hint is bool:
        return "bool", optional
    if hint is int:
        return "int", optional
    if hint is str:
        return "str", optional
    if hint is Card:
        return "card", optional
    origin = typing.get_origin(hint)
    if origin in (list, Sequence, tuple) and typing.get_args(hint)[:1] == (Card,):
        return "cards", optional
    return None


def action_of(
    name: str, method: Callable[..., Any], skip: frozenset[str] = frozenset()
) -> Action | None:
    """The console schema of one rules-API call, or None if it takes other than plain
    arguments (it is then not offered on the console). ``skip``: parameters the server
    fills in itself (who the supervisor is, the decision)."""
    try:
        hints = typing.get_type_hints(method)
        signature = inspect.signature(method)
    except (NameError, TypeError, ValueError) as exc:
        log.warning("console action %s is not offered: %s", name, exc)
        return None
    params = []
    for p in signature.parameters.values():
        if p.name == "self" or p.name in skip:
            continue
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
            return None
        kind = _kind(hints.get(p.name))
        if kind is None:
            log.warning("console action %s is not offered: %s is not a plain type", name, p)
            return None
        params.append(Param(p.name, kind[0], p.default is p.empty, kind[1]))
    return Action(name, tuple(params))


@functools.cache
def console_actions(game: str) -> dict[str, Action]:
    """Every action the touch console may send to ``game``, with its arguments."""
    # the game's own, and the player-rating actions every table's console has
    methods: Mapping[str, Callable[..., Any]] = {**RATING_CONSOLE, **games.spec(game).console}
    actions = {}
    for name, method in methods.items():
        action = action_of(name, method)
        if action is not None:
            actions[name] = action
    return actions


SERVER_FILLS = frozenset({"who", "decision"})


@functools.cache
def supervisor_decisions(game: str) -> dict[str, Action]:
    """The decisions a supervisor may send for ``game``, each with the arguments it takes
    (``SupervisorAction.args``): every HOLD decision, with the clearing call's own
    arguments (blackjack's ``void_box`` names the box), and any other decision the game
    offers (blackjack's ``change_wager``, a wager other than the sensor's)."""
    methods: Mapping[str, Callable[..., Any]] = {
        **RATING_DECISIONS,
        **games.spec(game).decisions,
    }
    decisions = {}
    for name, method in methods.items():
        action = action_of(name, method, SERVER_FILLS)
        if action is not None:
            decisions[name] = action
    return decisions
