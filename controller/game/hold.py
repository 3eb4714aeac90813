"""The HOLD, a part every game shares (docs/architecture.md).

A card leaves the shoe whether or not the rules allow it, so a card (or anything else) the
rules cannot take is recorded as a `Violation` citing the rule; the table holds: the shoe's
gate locks, the red lamp flashes, and nothing is dealt or bet until a supervisor, named,
clears it with a decision (`HoldCleared`). The game decides what the decision does to the
card that came out under the HOLD; this part keeps the violations and those cards.

Poker holds on its first violation and one card (`raise_`, `clear`). A game whose machine
has a ``hold`` state (blackjack, baccarat: `controller.game.machine.HOLD_FACTS`) holds
through `violate`, which moves its machine there; it shows every violation raised while
held and routes every card that came out under the HOLD, each with the state it was judged
in, once the supervisor keeps them (`note`, `take_violations`). Every game lets a
supervisor clear only through `verify_clear`.
"""

from __future__ import annotations

import logging
from typing import Protocol

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.records import HOLD_PROCEDURE, HoldCleared, Violation
from controller.ports import Command, Lamp, LampPattern, LockShoe, SetLamp

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
    ) -> Violation:
        """Hold the table on a broken ``rule`` (docs/architecture.md, "The runtime model"):
        the `Violation` for the journal, naming the state it was judged in and ``by`` whom it
        was raised (the shoe's card, a button, a sensor: the HOLD banner says it); kept with
        ``card`` (`note`); the machine moves to its ``hold`` state, where its facts lock the
        gate and flash the red lamp. Already held, the HOLD stays as it is and this one is kept."""
        state = phases.state
        violation = Violation(
            rule, message, None if card is None else str(card), state=state, by=by
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

    def raise_(
        self, violation: Violation, card: Card | None, *, keep_first: bool = False
    ) -> list[Violation | Command]:
        """Hold the table on ``violation`` (``keep_first``: a HOLD already up keeps its own
        violation and card; this one is journaled all the same)."""
        log.warning("HOLD: rule %s: %s", violation.rule, violation.message)
        if not keep_first:
            self.violation, self.card = violation, card
        self.violations.append(violation)
        return [violation, LockShoe(), SetLamp(Lamp.HOLD, LampPattern.FLASH)]

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

    def clear(
        self, who: str, decision: str, box: int | None = None
    ) -> tuple[HoldCleared, Card | None]:
        """Clear it: the record (who, what they decided, the violation cleared) and the
        card that came out under it, for the game to route as the decision says."""
        held, card = self.verify_clear(who), self.card
        self.violation, self.card = None, None
        self.violations.clear()
        self.cards.clear()
        return HoldCleared(who, decision, (held,), box), card
