"""The HOLD, a part every game shares (docs/architecture.md).

A card leaves the shoe whether or not the rules allow it, so a card (or anything else) the
rules cannot take is recorded as a `Violation` citing the rule; the table holds: the shoe's
gate locks, the red lamp flashes, and nothing is dealt or bet until a supervisor, named,
clears it with a decision (`HoldCleared`). The game decides what the decision does to the
card that came out under the HOLD; this part keeps the violations and those cards.

One API for every game: its machine has a ``hold`` state (facts:
`controller.game.machine.HOLD_FACTS`), and `violate` moves it there. The first violation
holds the table with the card it came with; every violation raised while held is kept and
every card out under the HOLD is kept, each with the state it was judged in (`note`), until
a supervisor, past `verify_clear`, takes the violations (`take_violations`) and the game
routes the cards as the decision says (`controller.game.table.GameTable.begin_clear`).
"""

from __future__ import annotations

import logging
from typing import Protocol

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import HOLD_PROCEDURE, Violation

__all__ = ["HOLD_STATE", "Hold", "HoldingPhases"]

log = logging.getLogger(__name__)

HOLD_STATE = "hold"  # the state a game's machine holds in (its facts: HOLD_FACTS)


class HoldingPhases(Protocol):
    """A game's machine with a ``hold`` state: its state, and ``fire("raise_hold")`` that
    moves every other state there (`controller.game.machine.fire`)."""

    state: str

    def fire(self, trigger: str) -> None: ...


class Hold:
    """The violation holding the table (the first one raised) and the card it came with;
    every violation raised while held, and every card out under it."""

    __slots__ = ("card", "cards", "held_from", "violation", "violations")

    def __init__(self, held_from: str = "") -> None:
        self.violation: Violation | None = None
        self.card: Card | None = None
        self.violations: list[Violation] = []  # in the order raised
        self.cards: list[tuple[Card, str]] = []  # each with the state it was judged in
        self.held_from = held_from  # the game's state when the HOLD went up

    def note(self, violation: Violation, card: Card | None, judged_in: str) -> None:
        """Keep ``violation`` (the first one holds the table) and the ``card`` out with it,
        judged in the game's state ``judged_in``. The game says which lamps and gate."""
        if self.violation is None:
            self.violation, self.card = violation, card
        self.violations.append(violation)
        if card is not None:
            self.cards.append((card, judged_in))

    def violate(
        self,
        phases: HoldingPhases,
        rule: str,
        message: str,
        card: Card | None = None,
        by: str = "the shoe",
        seat: int | None = None,
    ) -> Violation:
        """Hold the table on a broken ``rule`` (docs/architecture.md, "The runtime model"):
        the `Violation` for the journal, naming the ``seat`` it concerns (if any), the state
        it was judged in and ``by`` whom it was raised (the shoe's card, a button, a sensor:
        the HOLD banner says it); kept with
        ``card`` (`note`); the machine moves to its ``hold`` state, where its facts lock the
        gate and flash the red lamp. Already held, the HOLD stays as it is and this one is kept."""
        state = phases.state
        violation = Violation(
            rule, message, None if card is None else str(card), seat, state=state, by=by
        )
        log.warning("HOLD: rule %s: %s (card %s)", rule, message, violation.card)
        self.note(violation, card, state)
        if state != HOLD_STATE:
            self.held_from = state
            phases.fire("raise_hold")
        return violation

    def take_violations(self) -> tuple[Violation, ...]:
        """The violations a supervisor clears; the HOLD keeps the cards for the game."""
        held = tuple(self.violations)
        self.violations.clear()
        self.violation, self.card = None, None
        return held

    def verify_not_held(self) -> None:
        """Nothing is dealt or bet on HOLD: `IllegalAction` citing the held rule."""
        if self.violation is not None:
            raise IllegalAction(
                self.violation.rule,
                f"the table is on HOLD ({self.violation.message}): supervisor",
            )

    def verify_clear(self, who: str) -> Violation:
        """The violation a supervisor named ``who`` may clear: `IllegalAction` when the table
        is not held, or when ``who`` names nobody (the journal names who cleared it)."""
        if self.violation is None:
            raise IllegalAction(HOLD_PROCEDURE, "the table is not on hold")
        if not who.strip():
            raise IllegalAction(HOLD_PROCEDURE, "a supervisor clearing a hold must be named")
        return self.violation
