"""The toy game takes the table mechanics from the kernel and copies none: a card outside
a round, or one its one-deck shoe cannot hold, holds the table through `Hold.violate`;
a supervisor clears it past `Hold.verify_clear`; the gate and the HOLD lamp follow its
states' facts, told by the kernel's `GameTable` after the step's records; the shoe audit
cites the rule the toy brings, the one its spec names. A game that brings its own rule
needs no change to the kernel's shoe audit."""

from __future__ import annotations

from typing import Any

import pytest

from controller.cards import Card
from controller.errors import IllegalAction
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE, HoldCleared, Violation
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleButton,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    SupervisorAction,
    UnlockShoe,
)
from toygame.game import FOREIGN_CARD_RULE, OUTSIDE_RULE, SPEC, ToyGame, ToyRules

NEXT = ButtonPressed(source="console", button=ConsoleButton.NEXT)


def card(text: str) -> CardDrawn:
    return CardDrawn(source="shoe", card=Card.parse(text))


def toy_audit_rule() -> str:
    return ToyGame(ToyRules()).table.audit.rule


def accept(toy: ToyGame, who: str) -> list[Any]:
    """A supervisor's decision, as the loop hands it to the game."""
    return list(toy.handle(SupervisorAction(source="console", who=who, decision="accept")))


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kernel's HOLD parts the game called, by name (each still does its work)."""
    seen: list[str] = []
    for name in ("violate", "verify_clear"):
        real = getattr(Hold, name)

        def spy(self: Hold, *args: Any, _real: Any = real, _name: str = name) -> Any:
            seen.append(_name)
            return _real(self, *args)

        monkeypatch.setattr(Hold, name, spy)
    return seen


def test_a_card_outside_a_round_holds_through_the_kernel_and_a_supervisor_clears_it(
    calls: list[str],
) -> None:
    toy = ToyGame(ToyRules())
    out = toy.handle(card("2c"))
    violation = Violation(OUTSIDE_RULE, "a card outside a round", "2c", state="idle", by="the shoe")
    assert out == [violation, LockShoe(), SetLamp(Lamp.HOLD, LampPattern.FLASH)]
    assert toy.view()["state"] == "hold" and toy.view()["hold"]["rule"] == OUTSIDE_RULE
    with pytest.raises(IllegalAction) as held:
        toy.handle(NEXT)
    assert held.value.rule == "toy 1"
    assert accept(toy, "Pat") == [
        HoldCleared("Pat", "accept", (violation,)),
        SetLamp(Lamp.HOLD, LampPattern.OFF),
    ]
    assert toy.view()["state"] == "idle" and toy.view()["hold"] is None
    assert calls == ["violate", "verify_clear"]


def test_a_card_the_shoe_cannot_hold_cites_the_rule_the_toys_spec_names(
    calls: list[str],
) -> None:
    assert SPEC.foreign_card_rule == FOREIGN_CARD_RULE == toy_audit_rule()
    toy = ToyGame(ToyRules(cards_per_round=3))
    toy.handle(NEXT)
    toy.handle(card("Kd"))
    out = toy.handle(card("Kd"))  # a second king of diamonds from one deck
    assert [(v.rule, v.card, v.state) for v in out if isinstance(v, Violation)] == [
        (SPEC.foreign_card_rule, "Kd", "dealing")
    ]
    assert "foreign card" in out[0].message  # type: ignore[union-attr]
    # back to the round: the gate opens (told after the record, with the lamp going off:
    # the kernel tells the gate, then the lamps, of the state reached)
    assert accept(toy, "Pat")[1:] == [UnlockShoe(), SetLamp(Lamp.HOLD, LampPattern.OFF)]
    toy.handle(card("2s"))
    toy.handle(card("Ah"))
    assert toy.round_no == 1 and toy.view()["cards"] == ["Kd", "2s", "Ah"]
    assert calls == ["violate", "verify_clear"]


def test_nothing_to_clear_is_refused_by_the_kernels_words() -> None:
    with pytest.raises(IllegalAction) as idle:
        accept(ToyGame(ToyRules()), "Pat")
    assert (idle.value.rule, idle.value.reason) == (HOLD_PROCEDURE, "the table is not on hold")
