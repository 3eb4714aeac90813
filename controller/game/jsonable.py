"""Events, records and views as plain JSON values, the one form every game's output takes
outside the controller thread: the journal's rows (`controller.journal.rows`), the views the
status page and the pit read, the MQTT payloads.

It lives in the kernel, not the journal: a game builds its ``view()`` with it and imports
nothing of the journal, and the journal's rows and the published views cannot drift apart.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from controller.cards import Card

__all__ = ["to_jsonable"]

_PLAIN = frozenset({str, int, float, bool, type(None)})  # exactly these types: as they are
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass met before: its fields' names


def to_jsonable(value: Any) -> Any:
    """Events and records as plain JSON values: dataclasses become objects (with their
    class name under ``"type"``), cards their text, enums their value.

    It runs on every journal row and every published view (a view is hundreds of values),
    so the common types are told by their exact type first and a dataclass's fields are
    looked up once per class; anything else (a card, an enum, a subclass of a plain type)
    takes the general path (`_general`), which decides exactly as before."""
    cls = type(value)
    if cls in _PLAIN:
        return value
    if cls is list or cls is tuple:
        return [to_jsonable(v) for v in value]
    if cls is dict:
        return {str(k): to_jsonable(v) for k, v in value.items()}
    names = _FIELDS.get(cls)
    if names is not None:
        out = {"type": cls.__name__}
        for name in names:
            out[name] = to_jsonable(getattr(value, name))
        return out
    return _general(value)


def _general(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[type(value)] = tuple(f.name for f in dataclasses.fields(value))
        out = {"type": type(value).__name__}
        for name in names:
            out[name] = to_jsonable(getattr(value, name))
        return out
    if isinstance(value, list | tuple | frozenset | set):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    return value
