"""Records every game shares: the HOLD (its `Violation` and its clearing), the refusal,
and the supervisor's decisions on offer.

A card leaves the shoe whether or not the rules allow it (docs/architecture.md): an
out-of-order card, or anything else the controller cannot undo, is a `Violation` citing the
rule; the table is on HOLD until a supervisor clears it (`HoldCleared`, naming who and what
they decided). An input the rules refuse changes nothing: `ActionRefused`, which the dealer
sees. The journal's kind of each is its class name: ``Violation``, ``HoldCleared``,
``ActionRefused``.

Privacy is marked on the fields, so the pit keeps no list per game: a field that can carry a
player's card is declared ``field(metadata=CARD_MARK)`` (``{"private": "card"}``), and the
pit withholds it from its public topics on a game whose spec says its cards are private
(rule 11.3(a)), whatever the record is called; a mapping whose entries are named by the
caller (a console action's ``args``) is marked ``"card-keys"``: its entries whose name says
cards (`names_cards`) are withheld. A field whose name sounds like cards but holds none (a
hand's category, "flush") says so with ``metadata=public_mark(why)``. ``controller.ports``
and ``controller.shoe_audit``, below this package, write the same metadata literally.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from types import MappingProxyType, ModuleType
from typing import Any

__all__ = [
    "CARD",
    "CARD_KEYS",
    "CARD_MARK",
    "HOLD_PROCEDURE",
    "NOT_ON_CONSOLE",
    "PLAYER_MARK",
    "PRIVATE",
    "PUBLIC",
    "TABLE_LIMITS",
    "TABLE_VARIANT",
    "ActionRefused",
    "DecisionOffer",
    "HoldCleared",
    "LimitOverridden",
    "Violation",
    "cite",
    "defined_in",
    "names_cards",
    "offers",
    "privacy",
    "public_mark",
]

PRIVATE = "private"  # the metadata key of a field's privacy mark
CARD = "card"  # the value is a card or cards (a code, a list of codes, an RFID tag)
CARD_KEYS = "card-keys"  # a mapping: its entries whose name says cards hold cards
PUBLIC = "public"  # named like cards but holds none; ``why`` says what it holds
PLAYER = "player"  # the value names a person (a player's card number, a name): personal data
MARKS = frozenset({CARD, CARD_KEYS, PUBLIC, PLAYER})

# The words of a name that say it holds cards ("card", "discards", "player_hand"...).
_CARD_WORDS = frozenset({"card", "cards", "discard", "discards", "hand", "hands", "tag"})


CARD_MARK: Mapping[str, str] = MappingProxyType({PRIVATE: CARD})
"""``field(metadata=CARD_MARK)``: the field can carry a player's card; the pit withholds
it from its public topics on a table whose cards are private (rule 11.3(a)). A mark is
metadata on a plain `dataclasses.field`, so type checkers still see which fields have
defaults."""


PLAYER_MARK: Mapping[str, str] = MappingProxyType({PRIVATE: PLAYER})
"""``field(metadata=PLAYER_MARK)``: the field names a player (personal data): the pit never
puts it on a public topic, whatever the game, and the dealer's read-only view never shows
it (docs/ratings.md)."""


def public_mark(why: str) -> Mapping[str, str]:
    """``field(metadata=public_mark(why))``: the field's name sounds like cards but it holds
    none (``hand``: the winning category the dealer announces, 11.4(c)); ``why`` says what
    it holds, for the reader and the privacy test."""
    if not why.strip():
        raise ValueError("public_mark: say why the field carries no card")
    return MappingProxyType({PRIVATE: PUBLIC, "why": why})


def names_cards(name: str) -> bool:
    """Whether a field's or an argument's name says it holds cards: one of its words is
    card(s), discard(s), hand(s) or tag (``cards``, ``winning_hand``, ``player_cards``)."""
    return any(word in _CARD_WORDS for word in re.split(r"[_\W]+", name.lower()))


def defined_in(module: ModuleType) -> tuple[type, ...]:
    """The dataclasses a records module defines (not those it imports), for a spec's
    ``records``: a record added to the module is known to the pit without a second list."""
    return tuple(
        value
        for value in vars(module).values()
        if isinstance(value, type)
        and dataclasses.is_dataclass(value)
        and value.__module__ == module.__name__
    )


def privacy(cls: type) -> dict[str, str]:
    """The privacy marks of a dataclass's fields, name -> mark (unmarked fields left out)."""
    return {
        f.name: str(f.metadata[PRIVATE]) for f in dataclasses.fields(cls) if PRIVATE in f.metadata
    }


# Citations that are not clauses of the Gazette rules, named so that nobody reads one as a
# rule number (`cite` writes "rule 9.5" for a clause and these as they are).
TABLE_VARIANT = "table variant"  # the casino's own variants (doubles, must draw)
HOLD_PROCEDURE = "hold procedure"  # the controller's HOLD, cleared only by a supervisor
NOT_ON_CONSOLE = "not on the console"  # an action the touch console does not offer
TABLE_LIMITS = "table limits"  # the minimum and maximum on the table's limit sign ([limits])


def cite(rule: str) -> str:
    """``"rule 9.5"`` for a clause; a named non-rule reason as it is."""
    return f"rule {rule}" if rule[:1].isdigit() else rule


@dataclasses.dataclass(frozen=True, slots=True)
class ActionRefused:
    """An input the rules refused (a console or supervisor action, a physical button, a
    sensor); nothing changed. ``action`` names it, ``rule`` the clause, ``reason`` why."""

    action: str
    rule: str
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class LimitOverridden:
    """A supervisor let a wager outside the table's limits stand, saying why: who, the
    wager's ``spot`` (``box3.p2``) and amount, the limits it is outside, and the reason.
    Journaled beside the wager it let stand, and an alarm to the pit: the limits bind
    everyone, and only this record says when they did not."""

    who: str
    spot: str
    amount: int
    minimum: int
    maximum: int | None  # None: the rules alone, no maximum
    reason: str


@dataclasses.dataclass(frozen=True, slots=True)
class Violation:
    """Something was done out of order. The table is on HOLD until a supervisor clears it.

    ``card``: the card concerned, if any; ``seat``: the seat it concerns (poker), if any;
    ``state``: what the table was doing; ``by``: who raised it ("the shoe", "the VOID HAND
    button", "the sensor box2"...)."""

    rule: str
    message: str
    card: str | None = dataclasses.field(default=None, metadata=CARD_MARK)
    seat: int | None = None
    state: str = ""
    by: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"record": "Violation", **dataclasses.asdict(self)}


@dataclasses.dataclass(frozen=True, slots=True)
class HoldCleared:
    """A supervisor cleared the HOLD: who, what they decided (a value of the game's
    ``HoldDecision``), the violations it cleared, and the box a ``void_box`` named."""

    who: str
    decision: str
    violations: tuple[Violation, ...]
    box: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class DecisionOffer:
    """A decision a supervisor may take on a HOLD, as the console offers it: its value,
    what it does in the dealer's words, and the argument it needs ("box": which box)."""

    decision: str
    text: str
    needs: str = ""


def offers(*decisions: DecisionOffer) -> list[dict[str, str]]:
    """The decisions on offer as the view carries them (the page lists them as given)."""
    return [dataclasses.asdict(d) for d in decisions]
