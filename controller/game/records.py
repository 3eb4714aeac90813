"""Records every game shares: the HOLD (its `Violation` and its clearing), the refusal,
and the supervisor's decisions on offer.

A card leaves the shoe whether or not the rules allow it (DESIGN.md): an out-of-order card,
or anything else the controller cannot undo, is a `Violation` citing the rule; the table
is on HOLD until a supervisor clears it (`HoldCleared`, naming who and what they decided).
An input the rules refuse changes nothing: `ActionRefused`, which the dealer sees. The
journal's kind of each is its class name: ``Violation``, ``HoldCleared``, ``ActionRefused``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = [
    "HOLD_PROCEDURE",
    "NOT_ON_CONSOLE",
    "TABLE_VARIANT",
    "ActionRefused",
    "DecisionOffer",
    "HoldCleared",
    "Violation",
    "cite",
    "offers",
]

# Citations that are not clauses of the Gazette rules, named so that nobody reads one as a
# rule number (`cite` writes "rule 9.5" for a clause and these as they are).
TABLE_VARIANT = "table variant"  # the casino's own variants (DESIGN.md: doubles, must draw)
HOLD_PROCEDURE = "hold procedure"  # the controller's HOLD, cleared only by a supervisor
NOT_ON_CONSOLE = "not on the console"  # an action the touch console does not offer


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
class Violation:
    """Something was done out of order. The table is on HOLD until a supervisor clears it.

    ``card``: the card concerned, if any; ``seat``: the seat it concerns (poker), if any;
    ``state``: what the table was doing; ``by``: who raised it ("the shoe", "the VOID HAND
    button", "the sensor box2"...)."""

    rule: str
    message: str
    card: str | None = None
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
