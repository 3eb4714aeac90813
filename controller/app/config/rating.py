"""``[rating]`` (optional): player rating at this table (docs/ratings.md).

- ``enabled``: whether the table rates players (default false: a player's identity is
  personal data, kept only where the casino turns rating on);
- ``empty_rounds``: the rounds in a row a rated box may sit out before its rating ends;
- ``reinvestment``: the share of the theoretical win given back as comps, an exact
  fraction written ``"25%"``, ``"1/4"`` or ``"0.25"`` (0 to 1);
- ``blackjack_edge``: the house edge of blackjack's main wager, written the same way
  (``"0.5%"``); left out (``""``), the blackjack edge calculator's exact figure for the
  table's variants (`controller.blackjack.expectation.house_edge`);
- ``card_pattern``: the player card's format, a regular expression the whole number read
  must match (default 6 to 20 digits);
- ``show_names``: the dealer's page shows a name keyed on the console beside a rated
  box's mark (default false: a mark only; a card's number is never shown).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from controller.app.config.checker import Checker, Schema, defaults
from controller.rating import RatingSettings

__all__ = ["SCHEMA", "parse_fraction", "parse_rating"]

SCHEMA: Schema = {
    "enabled": (bool, False),
    "empty_rounds": (int, 3),
    "reinvestment": (str, "20%"),
    "blackjack_edge": (str, ""),
    "card_pattern": (str, "[0-9]{6,20}"),
    "show_names": (bool, False),
}
_FRACTION = re.compile(r"\s*(?:[0-9]+(?:\.[0-9]+)?%|[0-9]+(?:\.[0-9]+)?|[0-9]+/[0-9]+)\s*")


def parse_fraction(text: str) -> Fraction:
    """``"25%"``, ``"1/4"`` or ``"0.25"`` as the exact fraction 1/4; a value that is none
    of these, or over 1, raises `ValueError` saying what is expected."""
    if _FRACTION.fullmatch(text) is None:
        raise ValueError(f"must be a percentage or a fraction ('25%', '1/4', '0.25'), not {text!r}")
    text = text.strip()
    try:
        value = Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)
    except ZeroDivisionError:
        raise ValueError(f"must be a percentage or a fraction, not {text!r}") from None
    if value > 1:
        raise ValueError(f"must be at most 100%, not {text!r}")
    return value


def parse_rating(check: Checker, doc: dict[str, Any]) -> RatingSettings:
    """The checked ``[rating]``; left out, ratings are off."""
    section = check.section(doc, "rating", SCHEMA) if "rating" in doc else defaults(SCHEMA)
    if section["empty_rounds"] < 1:
        raise check.error("must be 1 or more (rounds)", "rating", "empty_rounds")
    fractions: dict[str, Fraction | None] = {"blackjack_edge": None}
    for key in ("reinvestment", "blackjack_edge"):
        if key == "blackjack_edge" and not section[key].strip():
            continue  # the calculator's, for the table's variants
        try:
            fractions[key] = parse_fraction(section[key])
        except ValueError as exc:
            raise check.error(str(exc), "rating", key) from None
    try:
        re.compile(section["card_pattern"])
    except re.error as exc:
        raise check.error(f"not a regular expression: {exc}", "rating", "card_pattern") from None
    if not section["card_pattern"]:
        raise check.error("must say the player card's format", "rating", "card_pattern")
    return RatingSettings(
        enabled=section["enabled"],
        empty_rounds=section["empty_rounds"],
        reinvestment=fractions["reinvestment"] or Fraction(0),
        blackjack_edge=fractions["blackjack_edge"],
        card_pattern=section["card_pattern"],
        show_names=section["show_names"],
    )
