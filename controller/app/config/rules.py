"""``[<game>]`` (``[blackjack]``, ``[poker]``...): a game's rules, its `GameSpec`'s ``rules`` type.

The config names no game: the registry (`controller.game`) says which games exist and
what type holds each one's rules; the keys of a section are that dataclass's fields, typed
by its hints, and any field left out keeps that dataclass's default. The wager limits come
from ``[limits]`` (the table notice, rule 11.5), never from the game's own section, so the
two can never disagree.
"""

from __future__ import annotations

import dataclasses
import enum
import typing
from typing import Any

from controller import game as games
from controller.app.config.checker import Checker
from controller.errors import ConfigError

__all__ = ["parse_rules", "rules_from_dict"]


def parse_rules(check: Checker, doc: dict[str, Any], game: str, limits: dict[str, Any]) -> Any:
    """The table's game's rules; every other game's section that is given is checked too
    (a typo there is still a typo), but only the table's is kept."""
    unit = min(limits["denominations"])
    rules = None
    for name in games.names():
        if name == game or name in doc:
            spec = games.spec(name)
            extra = spec.from_limits(limits["minimum"], limits["maximum"], unit)
            checked = _rules(check, doc, name, extra)
            rules = checked if name == game else rules
    return rules


def _rules(check: Checker, doc: dict[str, Any], game: str, extra: dict[str, Any]) -> Any:
    cls = games.spec(game).rules
    from_limits = set(extra)  # set from [limits], never in the game's own section
    given = doc.get(game, {})
    if not isinstance(given, dict):
        raise check.error("must be a [section]", game)
    hints = typing.get_type_hints(cls)
    fields = {f.name for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in given.items():
        if key not in fields or key in from_limits:
            known = ", ".join(sorted(fields - from_limits))
            raise check.error(f"unknown rule option (known: {known})", game, key)
        values[key] = rule_value(check, value, hints[key], game, key)
    values.update(extra)
    try:
        return cls(**values)
    except ConfigError as exc:
        raise check.error(str(exc), game) from None
    except (TypeError, ValueError) as exc:
        raise check.error(str(exc), game) from None


def rule_value(check: Checker, value: Any, hint: Any, *path: str) -> Any:
    """One rule option as its field's type: an Enum by value, a tuple of whole numbers,
    an optional number (``"none"`` for None), a bool, or a plain type."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in hint)
            raise check.error(f"{value!r} is not one of {choices}", *path) from None
    if origin is tuple:
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise check.error(f"must be a list of whole numbers, not {value!r}", *path)
        return tuple(value)
    if type(None) in args:  # Optional[int]
        if value == "none":
            return None
        inner = next(a for a in args if a is not type(None))
        return check.typed(value, inner, *path)
    if hint is bool:
        if not isinstance(value, bool):
            raise check.error(f"must be true or false, not {value!r}", *path)
        return value
    return check.typed(value, hint, *path)


def rules_from_dict(game: str, values: dict[str, Any]) -> Any:
    """Rebuild a game's rules from their JSON form (a journal's TableStarted row)."""
    cls = games.spec(game).rules  # UnknownGame (a ConfigError) names the known ones
    text = f"[{game}]\n"
    check = Checker(text, "<journal>")
    hints = typing.get_type_hints(cls)
    converted = {
        key: None if value is None else rule_value(check, value, hints[key], game, key)
        for key, value in values.items()
    }
    return cls(**converted)
