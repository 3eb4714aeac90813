"""What a pit topic other than the ratings topic may not carry: a rated player's identity.

A player's card number or name is personal data. The rating rows (`RATING_KINDS`) carry it,
so they go to ``restricted/rating`` only, in full, and to no public topic in any form: not
with the player nulled, not as a "box 3 is rated" fact (docs/mqtt.md, "Player ratings").

Defence in depth, as the card walk is for cards (`pit.privacy`): a player's identity can be
quoted by a row that is no rating row (the console action that started the rating, a
refusal naming a card already rated at another box). `PlayerNames` learns every identity
the table's rating rows name and withholds, on every other topic, each string that names
one as a whole word (in any case), naming its path under ``redacted``.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

__all__ = ["RATING_KINDS", "RATING_TOPIC", "PlayerNames"]

RATING_KINDS = frozenset(
    {
        "RatingStarted",
        "RatingNamed",
        "RatingRound",
        "RatingAdjusted",
        "RatingEnded",
        "RatingMoved",
    }
)
RATING_TOPIC = "restricted/rating"
KEPT = 500  # identities remembered: more players than a table rates in a long day
SHORTEST = 2  # an identity of one character names nobody in text (and would match anything)


_WORD = re.compile(r"\w+")


class PlayerNames:
    """The player identities a table's rating rows have named (the newest `KEPT`), and the
    walk that withholds them from a payload. A string names a player when the player's
    card number or name, casefolded, begins at the start of one of its words and ends at
    the end of one; a whole number names one when its digits are a card number. Each
    string is looked up by its words (a dictionary of the names' first words), so the
    walk costs a few microseconds a row however many players are known."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._names: OrderedDict[str, str] = OrderedDict()  # casefolded -> its first word
        self._first: dict[str, set[str]] = {}  # a first word -> the names it begins

    def __len__(self) -> int:
        return len(self._names)

    def learn(self, kind: str, payload: Any) -> None:
        """Remember the player a rating row names (any other row: nothing)."""
        if kind not in RATING_KINDS or not isinstance(payload, dict):
            return
        player = payload.get("player")
        if not isinstance(player, str) or len(player.strip()) < SHORTEST:
            return
        name = player.strip().casefold()
        first = _WORD.search(name)
        if first is None:
            return  # no word in it: no text could name it by its words
        name = name[first.start() :]
        self._forget(name)
        self._names[name] = first.group()
        self._first.setdefault(first.group(), set()).add(name)
        while len(self._names) > self.kept:
            self._forget(next(iter(self._names)))

    def _forget(self, name: str) -> None:
        first = self._names.pop(name, None)
        if first is not None:
            self._first[first].discard(name)
            if not self._first[first]:
                del self._first[first]

    def learn_rows(self, rows: Iterable[tuple[str, str]]) -> None:
        """``(kind, payload JSON)`` of rating rows (a journal's, at the publisher's start)."""
        for kind, text in rows:
            try:
                self.learn(kind, json.loads(text))
            except ValueError:
                continue

    def names(self, text: str) -> bool:
        """Whether ``text`` names a known player, as a whole word or words, in any case."""
        folded = text.casefold()
        for word in _WORD.finditer(folded):
            for name in self._first.get(word.group(), ()):
                end = word.start() + len(name)
                if folded.startswith(name, word.start()) and (
                    end == len(folded) or _WORD.match(folded, end) is None
                ):
                    return True
        return False

    def withhold(self, value: Any, withheld: dict[str, Any], text: str | None = None) -> Any:
        """``value`` (parsed JSON) with every string or whole number naming a known player
        set to null, each named in ``withheld`` by its path (keys and list indexes joined
        by dots); a mapping with a player for a key is withheld whole (a payload: emptied).
        ``text``: the value's JSON, whose words tell most rows apart without a walk."""
        if not self._names:
            return value
        if text is None:
            text = json.dumps(value, ensure_ascii=False)
        if "\\" not in text and self._first.keys().isdisjoint(_WORD.findall(text.casefold())):
            return value  # no escape to hide a word, and no word that begins a name
        return self._walk(value, withheld, "")

    def _walk(self, value: Any, withheld: dict[str, Any], path: str) -> Any:
        if isinstance(value, str):
            if self.names(value):
                withheld[path] = value
                return None
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            if str(value) in self._names:
                withheld[path] = value
                return None
            return value
        if isinstance(value, list):
            return [self._walk(v, withheld, f"{path}.{i}") for i, v in enumerate(value)]
        if isinstance(value, dict):
            if any(isinstance(key, str) and self.names(key) for key in value):
                withheld[path] = value
                return None if path else {}
            return {
                k: self._walk(v, withheld, f"{path}.{k}" if path else k) for k, v in value.items()
            }
        return value
