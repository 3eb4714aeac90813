"""What a public pit topic may not carry: a player's card (rule 11.3(a): poker cards are
dealt face down and are exposed only at the showdown, 11.4(c)).

Two filters, in this order (`public_payload`):

1. `Marks`: the fields a record or event marks as private (``field(metadata=CARD_MARK)``,
   controller.game.records) are set to null, whatever the record is called and whatever
   the card looks like (a code, a list of them, an RFID tag, a console action's
   ``args.cards``). A record renamed, or a card written in a new way, stays withheld.
2. `withhold`: the walk, defence in depth. It sets every value that names a card to null;
   it reads text, so it also catches a card quoted in a violation's message or a
   refusal's reason, which no mark can, and a field someone forgot to mark.

Each value set to null is named by its path (``"card"``, ``"args.cards"``: keys and list
indexes joined by dots) in the message's ``redacted`` list.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Iterable
from typing import Any

from controller.game import GameSpec
from controller.game.records import (
    CARD,
    CARD_KEYS,
    PLAYER,
    ActionRefused,
    HoldCleared,
    Violation,
    names_cards,
    privacy,
)
from controller.journal.rows import EVENT_TYPES

# A card code as the shoe, the console and the rules write it (controller/cards.py): a rank
# 2-9, T or 10, J, Q, K, A, then a suit s h d c. A value that is nothing but card codes is
# one in any case ("Qc", "QC", "qc 2s"); in other text, a code as the rules write it
# ("drew Qc"; not the words "as" and "ad"). _MAYBE, on the row's raw JSON, finds every row
# either could match in (and more): the rows it passes are not walked at all.
_CODE = r"(?:10|[2-9TJQKAtjqka])[shdcSHDC]"
_ONLY_CARDS = re.compile(rf"\s*{_CODE}(?:[\s,;]+{_CODE})*\s*")
_CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9TJQKA])[shdc](?![0-9A-Za-z])")
_MAYBE = re.compile(r"(?:10|[2-9TJQKA])[SHDC](?![0-9A-Z])", re.IGNORECASE)


def names_a_card(text: str) -> bool:
    """Whether a string names a card: it is card codes only, or text quoting one."""
    return _ONLY_CARDS.fullmatch(text) is not None or _CARD_IN_TEXT.search(text) is not None


def withhold(value: Any, withheld: dict[str, Any], path: str = "") -> Any:
    """``value`` (parsed JSON) with every card in it set to null. Each value set to null is
    added to ``withheld`` under its path (``"card"``, ``"args.cards"``, ``"view.hold"``:
    keys and list indexes joined by dots). A list of nothing but cards is withheld whole;
    so is an object with a card for a key. Rule 11.3(a)."""
    if isinstance(value, str):
        if names_a_card(value):
            withheld[path] = value
            return None
        return value
    if isinstance(value, list):
        if value and all(isinstance(v, str) and _ONLY_CARDS.fullmatch(v) for v in value):
            withheld[path] = value
            return None
        return [withhold(v, withheld, f"{path}.{i}") for i, v in enumerate(value)]
    if isinstance(value, dict):
        if any(_ONLY_CARDS.fullmatch(key) for key in value):
            withheld[path] = value
            return None
        return {k: withhold(v, withheld, f"{path}.{k}" if path else k) for k, v in value.items()}
    return value


def withhold_text(text: str, value: Any, withheld: dict[str, Any]) -> Any:
    """`withhold` for a value parsed from the JSON ``text``, skipping the walk when the
    text holds nothing that could be a card (most rows: bets, folds, buttons)."""
    if _MAYBE.search(text) is None:
        return value
    return withhold(value, withheld)


def _nested_records(cls: type) -> list[type]:
    """The dataclasses a record's field types name (``tuple[Violation, ...]``)."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # a forward reference it cannot resolve: only the walk
        return []
    found: list[type] = []
    todo: list[Any] = list(hints.values())
    while todo:
        hint = todo.pop()
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            found.append(hint)
        todo.extend(typing.get_args(hint))
    return found


class Marks:
    """The privacy marks of the records and events a table journals, by kind (class
    name), and the filter that sets the marked values of a row's payload to null."""

    def __init__(self, classes: Iterable[type]) -> None:
        found: dict[str, type] = {}
        todo = list(classes)
        while todo:  # the classes and the records nested in their fields
            cls = todo.pop()
            if cls.__name__ not in found and dataclasses.is_dataclass(cls):
                found[cls.__name__] = cls
                todo.extend(_nested_records(cls))
        self._fields: dict[str, dict[str, str]] = {
            name: {f: m for f, m in privacy(cls).items() if m in (CARD, CARD_KEYS, PLAYER)}
            for name, cls in found.items()
        }
        # the kinds with a mark anywhere in them (in a nested record too): only these are
        # filtered; the rest (bets, buttons) pass as they are
        nested = {name: {n.__name__ for n in _nested_records(cls)} for name, cls in found.items()}
        self._marked = {name for name, marks in self._fields.items() if marks}
        grew = True
        while grew:
            more = {name for name, inner in nested.items() if inner & self._marked}
            grew = not more <= self._marked
            self._marked |= more

    @classmethod
    def for_game(cls, spec: GameSpec) -> Marks:
        """The marks of everything a table of ``spec``'s game journals: its own records
        (``spec.records``), every game's (HOLD, refusal) and the events of
        controller.ports."""
        return cls([*spec.records, ActionRefused, Violation, HoldCleared, *EVENT_TYPES.values()])

    def names_players(self, kind: str) -> frozenset[str]:
        """The fields of ``kind`` that name a player (``PLAYER_MARK``): never public, on
        any table, and never revealed at a hand's end."""
        return frozenset(f for f, m in self._fields.get(kind, {}).items() if m == PLAYER)

    def marked(self, kind: str) -> dict[str, str]:
        """The marked fields of ``kind`` (field -> mark); {} for a kind it does not know."""
        return dict(self._fields.get(kind, {}))

    def withhold(self, kind: str, payload: Any, withheld: dict[str, Any]) -> Any:
        """``payload`` (a ``kind`` row's, parsed JSON) with its marked values set to null,
        each named in ``withheld`` by its path. The payload itself is not changed."""
        if kind not in self._marked or not isinstance(payload, dict):
            return payload
        return self._record(kind, payload, withheld, "")

    def _record(self, kind: str, value: dict[str, Any], withheld: dict[str, Any], path: str) -> Any:
        marks = self._fields.get(kind, {})
        out: dict[str, Any] = {}
        for key, item in value.items():
            here = f"{path}.{key}" if path else key
            mark = marks.get(key)
            if mark in (CARD, PLAYER) and item not in (None, "", []):
                withheld[here] = item
                item = None
            elif mark == CARD_KEYS and isinstance(item, dict):
                item = self._card_keys(item, withheld, here)
            else:
                item = self._nested(item, withheld, here)
            out[key] = item
        return out

    def _card_keys(self, args: dict[str, Any], withheld: dict[str, Any], path: str) -> Any:
        """A mapping named by its caller: an entry whose name says cards is withheld (a
        number never is: ``hand`` may be a hand's index)."""
        out: dict[str, Any] = {}
        for key, item in args.items():
            here = f"{path}.{key}"
            if names_cards(key) and item not in (None, "", []) and not _number(item):
                withheld[here] = item
                item = None
            out[key] = item
        return out

    def _nested(self, item: Any, withheld: dict[str, Any], path: str) -> Any:
        if isinstance(item, dict):
            kind = item.get("type")
            if isinstance(kind, str) and kind in self._marked:
                return self._record(kind, item, withheld, path)
            return item
        if isinstance(item, list) and any(isinstance(v, dict) for v in item):
            return [self._nested(v, withheld, f"{path}.{i}") for i, v in enumerate(item)]
        return item


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def public_payload(
    marks: Marks, kind: str, payload: Any, text: str, withheld: dict[str, Any]
) -> Any:
    """A row's payload as a public topic may carry it: the marked fields withheld
    (`Marks`), then every card the walk still finds (`withhold_text`; ``text`` is the
    payload's JSON, which tells most rows apart without a walk). Rule 11.3(a)."""
    return withhold_text(text, marks.withhold(kind, payload, withheld), withheld)
