"""Privacy is marked on the records' fields (rule 11.3(a): poker cards are dealt
face down and are exposed only at the showdown, 11.4(c)).

The pit withholds a field from its public topics because the field is marked
(``field(metadata=CARD_MARK)``), not because of what its record is called. A card field
someone forgot to mark would be published wherever the regex walk does not recognise its
value (an RFID tag, a card written another way), so these tests walk every record and
event class of every registered game and fail on a field whose type or name says it holds
cards and which carries no mark, saying exactly what to write.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import types
import typing
from typing import Any

import pytest

from controller.cards import Card
from controller.game import registry
from controller.game.contract import GameSpec
from controller.game.records import (
    CARD,
    CARD_MARK,
    MARKS,
    PRIVATE,
    PUBLIC,
    ActionRefused,
    HoldCleared,
    Violation,
    defined_in,
    names_cards,
    privacy,
    public_mark,
)
from controller.journal.rows import EVENT_TYPES
from controller.shoe_audit import ShoeReport

NUMBERS = (int, float, bool, type(None))

HOW = (
    "mark it private: `{name}: {hint} = field(metadata=CARD_MARK)` "
    "(`from dataclasses import field`; `from controller.game.records import CARD_MARK`; "
    'below controller.game, as in controller/ports.py, `metadata={{"private": "card"}}`); '
    "or, if it can never hold a card, say why: "
    '`field(metadata=public_mark("what it holds instead"))`'
)


def _leaves(hint: Any) -> list[Any]:
    """The plain types a type hint is made of (``tuple[str, ...] | None`` -> str, None)."""
    args = typing.get_args(hint)
    if not args:
        return [hint]
    return [leaf for arg in args if arg is not Ellipsis for leaf in _leaves(arg)]


def _is_number(leaf: Any) -> bool:
    return leaf in NUMBERS or (isinstance(leaf, type) and issubclass(leaf, enum.Enum))


def says_card(name: str, hint: Any) -> bool:
    """A field holds cards when its type names `Card`, or when its name says so and its
    type is not a number (``hand: int`` is a hand's index, ``cards_removed: bool`` a
    flag)."""
    leaves = _leaves(hint)
    if any(leaf is Card for leaf in leaves):
        return True
    return names_cards(name) and not all(_is_number(leaf) for leaf in leaves)


def _records_module(spec: GameSpec) -> types.ModuleType | None:
    """``controller.<game>.records`` (the package of the game's ``make``), if it has one."""
    package = spec.make.__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.records") if package else None
    except ModuleNotFoundError:
        return None


def _actions(spec: GameSpec) -> dict[str, Any]:
    """The console actions and supervisor decisions: rules-API calls, journaled."""
    return {**spec.console, **spec.decisions}


def _returned(spec: GameSpec) -> list[type]:
    """The record classes the game's console actions and decisions say they return."""
    found: list[type] = []
    for method in _actions(spec).values():
        hint = typing.get_type_hints(method).get("return")
        found.extend(
            leaf
            for leaf in _leaves(hint)
            if isinstance(leaf, type) and dataclasses.is_dataclass(leaf)
        )
    return found


def journaled_classes(spec: GameSpec) -> list[type]:
    """Every record and event class a table of ``spec``'s game journals (its spec's
    records, its records module, what its actions return, its shoe audit's report if it
    keeps one, every game's, the ports' events), with the records nested in their fields
    (``HoldCleared.violations``)."""
    module = _records_module(spec)
    todo: list[type] = [
        *spec.records,
        *(defined_in(module) if module else ()),
        *_returned(spec),
        *((ShoeReport,) if spec.foreign_card_rule is not None else ()),  # its shoe audit's
        ActionRefused,
        Violation,
        HoldCleared,
        *EVENT_TYPES.values(),
    ]
    found: dict[type, None] = {}
    while todo:
        cls = todo.pop()
        if cls in found or not dataclasses.is_dataclass(cls):
            continue
        found[cls] = None
        for hint in typing.get_type_hints(cls).values():
            todo.extend(
                leaf
                for leaf in _leaves(hint)
                if isinstance(leaf, type) and dataclasses.is_dataclass(leaf)
            )
    return list(found)


def unmarked_card_fields(classes: list[type]) -> list[str]:
    """One line per field that looks like cards and has no privacy mark."""
    problems = []
    for cls in classes:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            if PRIVATE not in f.metadata and says_card(f.name, hint):
                shown = getattr(hint, "__name__", None) or str(hint).replace("typing.", "")
                problems.append(
                    f"{cls.__module__}.{cls.__qualname__}.{f.name} can carry a player's card "
                    f"and is not marked: " + HOW.format(name=f.name, hint=shown)
                )
    return problems


def _games() -> list[str]:
    return list(registry.names())


@pytest.mark.parametrize("game", _games())
def test_rule_11_3_a_every_card_field_a_game_journals_is_marked(game: str) -> None:
    spec = registry.spec(game)
    problems = unmarked_card_fields(journaled_classes(spec))
    assert not problems, f"game {game!r}:\n" + "\n".join(problems)


@pytest.mark.parametrize("game", _games())
def test_every_privacy_mark_is_one_the_pit_knows(game: str) -> None:
    """A typo (``{"private": "cards"}``) would mark nothing the pit acts on."""
    for cls in journaled_classes(registry.spec(game)):
        for name, mark in privacy(cls).items():
            assert mark in MARKS, (
                f"{cls.__module__}.{cls.__qualname__}.{name}: privacy mark {mark!r} is none "
                f"of {sorted(MARKS)} (controller.game.records)"
            )
        for f in dataclasses.fields(cls):
            if f.metadata.get(PRIVATE) == PUBLIC:
                assert str(f.metadata.get("why", "")).strip(), f"{cls.__name__}.{f.name}: why?"


@pytest.mark.parametrize("game", _games())
def test_the_pit_knows_every_record_of_a_games_records_module(game: str) -> None:
    """The pit reads a record's marks from ``spec.records``: one missing there would be
    filtered by the walk alone."""
    spec = registry.spec(game)
    module = _records_module(spec)
    missing = [c.__name__ for c in defined_in(module) if c not in spec.records] if module else []
    assert not missing, (
        f"game {game!r}: {module.__name__ if module else ''} defines {missing}, which its "
        f"GameSpec does not list: set `records=(*defined_in(records), ...)` in its SPEC "
        f"(`from controller.game.records import defined_in`)"
    )


@pytest.mark.parametrize("game", _games())
def test_rule_11_3_a_the_pit_reads_the_marks_of_every_marked_record(game: str) -> None:
    """A record with a marked field that the pit does not know (not in ``spec.records``,
    nor every game's, nor an event) would be filtered by the walk alone."""
    unknown = unknown_to_the_pit(registry.spec(game))
    assert not unknown, (
        f"game {game!r}: the pit does not know {unknown}, which mark cards: add them to "
        f"its SPEC's records=(...) in its game.py"
    )


def unknown_to_the_pit(spec: GameSpec) -> list[str]:
    from controller.app.pit.privacy import Marks

    marks = Marks.for_game(spec)
    return [
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in journaled_classes(spec)
        if any(m != PUBLIC for m in privacy(cls).values()) and not marks.marked(cls.__name__)
    ]


def test_the_pit_check_finds_a_marked_record_left_out_of_the_spec() -> None:
    spec = dataclasses.replace(registry.spec("poker"), records=())
    assert sorted(unknown_to_the_pit(spec)) == [
        "controller.poker.records.CardSetAside",
        "controller.poker.records.DrawTaken",
        "controller.poker.records.ReshuffleAllowed",
        "controller.shoe_audit.ShoeReport",
    ]


@pytest.mark.parametrize("game", _games())
def test_rule_11_3_a_a_console_argument_holding_cards_is_named_for_them(game: str) -> None:
    """A console action's ``args`` are withheld by name (``"card-keys"``: an entry whose
    name says cards); an argument typed as cards under another name would be published."""
    problems = console_problems(registry.spec(game))
    assert not problems, "\n".join(problems)


def console_problems(spec: GameSpec) -> list[str]:
    problems = []
    for action, method in _actions(spec).items():
        for name, hint in typing.get_type_hints(method).items():
            if name != "return" and says_card(name, hint) and not names_cards(name):
                problems.append(
                    f"{method.__qualname__}({name}): the console action {action!r} takes "
                    f"cards under a name the pit does not withhold: call it 'cards' or "
                    f"'<something>_cards' (controller.game.records.names_cards)"
                )
    return problems


def test_the_console_check_finds_cards_under_another_name() -> None:
    class Table:
        def throw(self, seat: int, thrown: list[Card]) -> None: ...
        def show(self, seat: int, player_cards: list[Card]) -> None: ...

    spec = dataclasses.replace(
        registry.spec("poker"), console={"throw": Table.throw, "show": Table.show}, decisions={}
    )
    [problem] = console_problems(spec)
    assert problem.startswith("test_the_console_check_finds_cards_under_another_name.")
    assert "throw(thrown)" in problem and "'cards'" in problem


def test_the_check_finds_an_unmarked_card_field() -> None:
    """The check itself bites: a record with an unmarked card, cards, hand or Card field
    is named, with what to write; marked or numeric fields are not."""

    @dataclasses.dataclass(frozen=True)
    class Dealt:
        card: str
        player_cards: tuple[str, ...]
        drawn: Card | None
        hand: str
        hand_no: int
        cards_removed: bool
        seen: str = dataclasses.field(default="", metadata=CARD_MARK)
        winning_hand: str = dataclasses.field(default="", metadata=public_mark("a category"))

    problems = unmarked_card_fields([Dealt])
    named = sorted(line.split(" can carry")[0].rpartition(".")[2] for line in problems)
    assert named == ["card", "drawn", "hand", "player_cards"]
    assert all("field(metadata=CARD_MARK)" in line for line in problems)


def test_the_marks_on_the_records_that_carry_cards() -> None:
    """The fields known to carry cards today are marked as cards (not public, not
    unmarked): the ground floor's events, every game's HOLD, poker's draw and reshuffle."""
    from controller.poker.records import CardSetAside, DrawTaken, ReshuffleAllowed
    from controller.ports import CardDrawn, ConsoleAction, SupervisorAction
    from controller.shoe_audit import ShoeReport

    assert privacy(CardDrawn) == {"card": CARD, "tag": CARD}
    assert privacy(ConsoleAction)["args"] == "card-keys"
    assert privacy(SupervisorAction)["args"] == "card-keys"
    assert privacy(Violation) == {"card": CARD}
    assert privacy(DrawTaken) == {"discards": CARD}
    assert privacy(ReshuffleAllowed) == {"cards": CARD}
    assert privacy(CardSetAside) == {"card": CARD}
    assert privacy(ShoeReport) == {"extra": CARD, "unseen": CARD}


def test_a_public_mark_must_say_why() -> None:
    with pytest.raises(ValueError, match="why"):
        public_mark(" ")
