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


class PlayerNames:
    """The player identities a table's rating rows have named (the newest `KEPT`), and the
    walk that withholds them from a payload."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        # casefolded identity -> the forms its JSON text can take (plain, \\u-escaped)
        self._names: OrderedDict[str, tuple[str, ...]] = OrderedDict()

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
        self._names.pop(name, None)
        forms = {name, json.dumps(name)[1:-1].casefold()}
        self._names[name] = tuple(forms)
        while len(self._names) > self.kept:
            self._names.popitem(last=False)

    def learn_rows(self, rows: Iterable[tuple[str, str]]) -> None:
        """``(kind, payload JSON)`` of rating rows (a journal's, at the publisher's start)."""
        for kind, text in rows:
            try:
                self.learn(kind, json.loads(text))
            except ValueError:
                continue

    def named_in(self, text: str) -> list[str]:
        """The known identities ``text`` (a payload's JSON, or any text) may name."""
        folded = text.casefold()
        return [name for name, forms in self._names.items() if any(f in folded for f in forms)]

    def withhold(self, value: Any, withheld: dict[str, Any], text: str | None = None) -> Any:
        """``value`` (parsed JSON) with every string naming a known player set to null,
        each named in ``withheld`` by its path. ``text``: the value's JSON, to skip the
        walk when it names nobody (most rows)."""
        if not self._names:
            return value
        names = self.named_in(text if text is not None else json.dumps(value, ensure_ascii=False))
        if not names:
            return value
        words = re.compile(
            "|".join(rf"(?<!\w){re.escape(name)}(?!\w)" for name in names), re.IGNORECASE
        )
        return _walk(value, words, withheld, "")


def _walk(value: Any, words: re.Pattern[str], withheld: dict[str, Any], path: str) -> Any:
    if isinstance(value, str):
        if words.search(value.casefold()):
            withheld[path] = value
            return None
        return value
    if isinstance(value, list):
        return [_walk(v, words, withheld, f"{path}.{i}") for i, v in enumerate(value)]
    if isinstance(value, dict):
        if any(isinstance(key, str) and words.search(key.casefold()) for key in value):
            withheld[path] = value  # an identity as a key: the whole mapping
            return None if path else {}  # (a payload stays an object, emptied)
        return {
            k: _walk(v, words, withheld, f"{path}.{k}" if path else k) for k, v in value.items()
        }
    return value
