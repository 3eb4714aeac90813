"""What a public pit topic may not carry: a player's card (rule 11.3(a): poker cards are
dealt face down and are exposed only at the showdown, 11.4(c)).

`withhold` walks a parsed JSON payload and sets every value that names a card to null,
naming its path; it reads text, so it also catches a card quoted in a violation's message
or a refusal's reason. It is the pit's last line: the publisher first drops the fields a
record marks as private (`controller.app.pit_marks`), then walks what is left with this.
"""

from __future__ import annotations

import re
from typing import Any

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
