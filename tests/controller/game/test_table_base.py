"""The table mechanics every game takes from the kernel rather than copying: a violation
holds the table through `Hold.violate` (every game: its machine's ``hold`` state), a
supervisor clears a HOLD only past `Hold.verify_clear` (every game); the tests of those
replace the kernel's part with a spy, so a game with its own copy fails them. The shoe
audit cites the rule the game gives it, the one its spec names."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from controller.baccarat.rules import SHUFFLE_RULE
from controller.baccarat.table import BaccaratTable
from controller.blackjack.records import HoldDecision as BlackjackDecision
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import spec
from controller.game.hold import Hold
from controller.game.records import HOLD_PROCEDURE, Violation
from controller.poker.table import PokerTable
from controller.ports import CardDrawn, DeviceFault, Fault
from controller.shoe_audit import ShoeAudit


class Spy:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, ...]] = []


@pytest.fixture
def spied(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], Spy]]:
    def spy(name: str) -> Spy:
        real = getattr(Hold, name)
        seen = Spy()

        def wrapper(self: Hold, *args: Any, **kwargs: Any) -> Any:
            seen.calls.append(args)
            return real(self, *args, **kwargs)

        monkeypatch.setattr(Hold, name, wrapper)
        return seen

    yield spy


def _card(text: str) -> CardDrawn:
    return CardDrawn(source="shoe", card=Card.parse(text), seq=1)


@pytest.mark.parametrize(
    ("make", "rule"),
    [(BlackjackTable, "7.1"), (BaccaratTable, SHUFFLE_RULE), (PokerTable, "11.2")],
    ids=["blackjack", "baccarat", "poker"],
)
def test_a_card_before_the_shuffle_holds_the_table_through_the_kernels_violate(
    spied: Callable[[str], Spy], make: Callable[[], Any], rule: str
) -> None:
    violate = spied("violate")
    table = make()
    out = table.handle(_card("9s"))
    violations = [o for o in [*out, *table.take_outputs()] if isinstance(o, Violation)]
    assert len(violate.calls) == 1 and len(violations) == 1
    assert (violations[0].rule, violations[0].card) == (rule, "9s")
    assert table.state == "hold"


@pytest.mark.parametrize(
    "clear",
    [
        lambda: BlackjackTable().supervisor_clear("Ana", BlackjackDecision.KEEP_CARD),
        lambda: BaccaratTable().supervisor_clear("Ana", "burn_card"),
        lambda: PokerTable().supervisor_clear("Ana", "accept"),
    ],
    ids=["blackjack", "baccarat", "poker"],
)
def test_hold_procedure_every_game_clears_only_past_the_kernels_verify_clear(
    spied: Callable[[str], Spy], clear: Callable[[], Any]
) -> None:
    verify = spied("verify_clear")
    with pytest.raises(IllegalAction) as refused:
        clear()
    assert (refused.value.rule, refused.value.reason) == (
        HOLD_PROCEDURE,
        "the table is not on hold",
    )
    assert verify.calls == [("Ana",)]


def _audits(thing: object, depth: int = 3) -> list[ShoeAudit]:
    """The shoe audits a game holds, wherever among its parts."""
    if isinstance(thing, ShoeAudit):
        return [thing]
    if depth == 0 or not hasattr(thing, "__dict__"):
        return []
    return [audit for part in vars(thing).values() for audit in _audits(part, depth - 1)]


@pytest.mark.parametrize("name", ["blackjack", "poker", "baccarat"])
def test_each_games_shoe_audit_cites_the_rule_its_spec_names(name: str) -> None:
    """The shoe audit holds no game's rule: the game gives it, and says which in its spec
    (the rule a foreign card breaks, and an unknown tag or a reader lost mid-deal)."""
    game = spec(name)
    audits = {id(audit): audit for audit in _audits(game.make(game.rules()))}  # one shoe
    assert game.foreign_card_rule is not None
    assert [audit.rule for audit in audits.values()] == [game.foreign_card_rule]


@pytest.mark.parametrize("game", ["blackjack", "baccarat", "poker"])
def test_a_tag_at_a_player_card_reader_is_never_a_foreign_card_in_the_shoe(game: str) -> None:
    """A tag in no enrolled deck holds the table whatever the gate (an unknown card left
    the shoe: `controller.shoe_audit.reader_hold`). A box's player-card reader reads
    players' cards, never playing cards: its tags and its losses are never the shoe's."""
    table = spec(game).make(spec(game).rules())
    table.pending()
    at_the_box = DeviceFault(source="player-cards-3", fault=Fault.UNKNOWN_TAG, detail="0F00A1B2C3")
    assert not [o for o in table.handle(at_the_box) if isinstance(o, Violation)]
    assert not table.view()["hold"]
    at_the_shoe = DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="0F00A1B2C3")
    assert [o for o in table.handle(at_the_shoe) if isinstance(o, Violation)]
