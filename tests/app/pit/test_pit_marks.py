"""The pit withholds a field because its record marks it private, not because of the
record's name or because the walk recognises the value (rule 11.3(a)).

The walk (`withhold`) only sees what looks like a card code. An RFID tag names its card
as surely as the code does (the deck enrolment pairs them, and a hand's reveal shows the
pairs), but looks like nothing; a record renamed, or a card written another way, is
invisible to it too. These tests fail if the publisher stops filtering by the marks.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path
from typing import Any

from controller.app.floor.imports import import_journal
from controller.app.floor.store import PitStore
from controller.app.pit.privacy import Marks, public_payload
from controller.app.pit.publisher import PitPublisher
from controller.cards import Card
from controller.game.records import CARD_MARK, Violation, public_mark
from controller.journal.store import as_row
from controller.ports import CardDrawn, ConsoleAction, PlayerCardPresented
from tests.support.pit import make_config
from tests.support.poker_play import open_journal

NOWHERE = "mqtt://127.0.0.1:1"  # the transform needs no broker
TAG = "0A1B2C3D4E"  # what an RDM6300 reads: ten hex digits, no card code in it
DRAWN = CardDrawn(source="shoe", card=Card.parse("Qc"), tag=TAG)


def journal_rows(path: Path, *items: Any) -> list[tuple[Any, ...]]:
    with open_journal(path) as journal:
        journal.append_many([as_row(item, source="shoe", round=3) for item in items])
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
        return db.execute(
            "SELECT seq, wall, round, source, kind, payload, actor, hash FROM journal ORDER BY seq"
        ).fetchall()


def test_rule_11_3_a_a_cards_rfid_tag_is_withheld_by_its_mark(tmp_path: Path) -> None:
    config = make_config(tmp_path, "poker", "t-01", NOWHERE)
    publisher = PitPublisher(config)
    [row] = journal_rows(
        config.journal_path, CardDrawn(source="shoe", card=Card.parse("Qc"), tag=TAG)
    )
    topics = dict(publisher.row_messages(row))
    public = topics["event"]
    assert public["payload"]["card"] is None and public["payload"]["tag"] is None
    assert sorted(public["redacted"]) == ["card", "tag"]
    assert topics["restricted/event"]["payload"]["tag"] == TAG  # surveillance's copy
    # the walk alone would have published the tag: the mark is what withholds it
    assert public_payload(Marks([]), "CardDrawn", {"tag": TAG}, json.dumps({"tag": TAG}), {}) == {
        "tag": TAG
    }


def test_a_blackjack_table_keeps_the_tag_it_deals_face_up(tmp_path: Path) -> None:
    config = make_config(tmp_path, "blackjack", "t-01", NOWHERE)
    [row] = journal_rows(
        config.journal_path, CardDrawn(source="shoe", card=Card.parse("Qc"), tag=TAG)
    )
    [(topic, public)] = PitPublisher(config).row_messages(row)
    assert topic == "event" and public["payload"]["tag"] == TAG and public["redacted"] == []


def test_rule_11_3_a_a_marked_field_is_withheld_whatever_the_record_is_called() -> None:
    """A record the walk has never seen, with a card written in words: withheld by its
    mark; its public field (a hand's category) and its plain fields kept."""

    @dataclasses.dataclass(frozen=True)
    class ShownDown:  # any name: the pit reads the marks, not the name
        seat: int
        hole: str = dataclasses.field(metadata=CARD_MARK)
        hand: str = dataclasses.field(metadata=public_mark("the category announced"))

    marks = Marks([ShownDown])
    payload = {"seat": 4, "hole": "queen of clubs", "hand": "flush"}
    withheld: dict[str, Any] = {}
    public = public_payload(marks, "ShownDown", payload, json.dumps(payload), withheld)
    assert public == {"seat": 4, "hole": None, "hand": "flush"}
    assert withheld == {"hole": "queen of clubs"}
    assert payload["hole"] == "queen of clubs"  # the full row is not touched


def test_rule_11_3_a_nested_records_and_console_arguments_by_their_marks() -> None:
    """``HoldCleared.violations[i].card`` and ``ConsoleAction.args.cards``: the card in
    each is written so that the walk cannot see it; the marks find it."""
    from controller.game.records import HoldCleared

    marks = Marks([HoldCleared, Violation, ConsoleAction])
    cleared = {
        "who": "sup",
        "decision": "accept",
        "violations": [{"type": "Violation", "rule": "11.3", "message": "x", "card": "Q-c"}],
        "box": None,
    }
    withheld: dict[str, Any] = {}
    public = marks.withhold("HoldCleared", cleared, withheld)
    assert public["violations"][0]["card"] is None and public["violations"][0]["rule"] == "11.3"
    assert withheld == {"violations.0.card": "Q-c"}
    action = {"action": "discard", "args": {"seat": 5, "count": 1, "cards": ["queen-c"], "hand": 0}}
    withheld = {}
    public = marks.withhold("ConsoleAction", action, withheld)
    assert public["args"] == {"seat": 5, "count": 1, "cards": None, "hand": 0}
    assert withheld == {"args.cards": ["queen-c"]}


def test_an_imported_journal_is_filtered_by_the_marks_too(tmp_path: Path) -> None:
    """`tablectl pit --import-journal`: a poker violation's card, written so that the walk
    cannot see it, is not kept in the pit's store; a blackjack one is."""
    for game, kept in (("poker", False), ("blackjack", True)):
        started = {"kind": "TableStarted", "payload": {"game": game}}
        hold = {"kind": "Violation", "payload": {"rule": "11.3", "message": "x", "card": "Q-c"}}
        lines = [
            json.dumps(
                {**row, "seq": n, "wall": "2026-01-01T00:00:00+00:00", "round": 1}
                | {"source": "shoe", "actor": None, "hash": f"{game}{n:060x}"}
            )
            for n, row in enumerate((started, hold), 1)
        ]
        store = PitStore(tmp_path / f"{game}.sqlite")
        try:
            assert import_journal(store, "site", "t-01", lines) == 2
            [violation] = [r for r in store.rows("") if r["kind"] == "Violation"]
        finally:
            store.close()
        assert (violation["payload"]["card"] == "Q-c") is kept, (game, violation)


def test_a_players_identity_is_withheld_on_a_table_that_deals_face_up(tmp_path: Path) -> None:
    """A player's card is personal data: on a table whose cards are public, a card no
    rating row named (refused: not this casino's format) is still withheld from the public
    topic by its mark; a rating row goes to the ratings' own topic only."""
    from controller.rating import RatingStarted

    config = make_config(tmp_path, "blackjack", "t-01", NOWHERE)
    tapped = PlayerCardPresented(source="reader3", box=3, number="ABC-99")
    started = RatingStarted("r1", 3, "40001234", "card", "2026-01-01T10:00:00+00:00", 1)
    card_row, rating_row = journal_rows(config.journal_path, tapped, started)
    publisher = PitPublisher(config)
    topics = dict(publisher.row_messages(card_row))
    public = topics["event"]
    assert public["payload"]["number"] is None and public["redacted"] == ["number"]
    assert "ABC-99" not in json.dumps(public) and public["payload"]["box"] == 3
    assert topics["restricted/event"]["payload"]["number"] == "ABC-99"  # surveillance's
    assert [topic for topic, _ in publisher.row_messages(rating_row)] == ["restricted/rating"]


def test_a_players_identity_is_not_revealed_at_the_hands_end(tmp_path: Path) -> None:
    """On a poker table whose cards wait for the hand's end (``delayed``), the reveal
    carries the hand's cards but never a player's card number."""
    from controller.app.pit.reader import JournalReader
    from controller.poker.records import HandSettled

    config = make_config(tmp_path, "poker", "t-01", NOWHERE, private_cards="delayed")
    tapped = PlayerCardPresented(source="reader3", box=3, number="40001234")
    settled = HandSettled(1, 0, (), (), 0)
    rows = journal_rows(config.journal_path, tapped, DRAWN, settled)
    publisher = PitPublisher(config)
    publisher._journal = JournalReader(config.journal_path)
    try:
        reveal = dict(publisher.row_messages(rows[-1]))["reveal"]
    finally:
        publisher._journal.close()
    assert [row["kind"] for row in reveal["rows"]] == ["CardDrawn"]  # the card, not the player
    assert "40001234" not in json.dumps(reveal)


def test_a_rated_players_name_shown_on_the_dealers_page_is_not_in_the_pits_state(
    tmp_path: Path,
) -> None:
    """``[rating] show_names`` puts a name beside a rated box's mark on the dealer's page;
    the state the pit retains on its public topic keeps the mark, never the name."""
    config = make_config(tmp_path, "blackjack", "t-01", NOWHERE)
    marks = [{"box": 2, "anonymous": False, "name": "Ann Lee"}, {"box": 4, "anonymous": True}]
    body = PitPublisher(config).state_message({"round": 3, "view": {"rated": marks}})
    assert body["state"]["view"]["rated"] == [
        {"box": 2, "anonymous": False},
        {"box": 4, "anonymous": True},
    ]
    assert body["redacted"] == ["view.rated.0.name"] and "Ann Lee" not in json.dumps(body)
