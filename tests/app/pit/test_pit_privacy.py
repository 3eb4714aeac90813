"""No poker card on a public pit topic, whichever row or field carries it.

The leak: a `ConsoleAction` "discard" row carries ``args.cards`` (the cards thrown in), and
the public ``event`` topic published them, while ``DrawTaken.discards`` was withheld. The
publisher now walks every public payload (`controller.app.pit.publisher.withhold`) instead of
naming fields per row kind.

The property test plays random poker hands through the real game, loop and journal (with
the mistakes a real table sees: stray cards, wrong discards keyed in any case, exposed
hands, unreadable cards) and passes every row and every published state through the
publisher's transform: no card may be named on a public topic, and every withheld row
goes in full to the restricted topic.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.app.pit.publisher import PitPublisher, names_a_card, pit_publisher, withhold
from controller.journal.store import as_row
from controller.ports import ConsoleAction
from tests.support.pit import Broker, Recorder, make_config, schema_validator
from tests.support.poker_play import MISCHIEF, cards_named, open_journal, play

BASE = "casino/demo-casino/table"
PUBLIC = ("event", "alarm")
NOWHERE = "mqtt://127.0.0.1:1"  # the transform needs no broker


def rows(path: Path) -> list[tuple[Any, ...]]:
    """The journal's rows as the publisher reads them."""
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True) as db:
        return db.execute(
            "SELECT seq, wall, round, source, kind, payload, actor, hash FROM journal ORDER BY seq"
        ).fetchall()


def discard_row(folder: Path, game: str) -> tuple[PitPublisher, tuple[Any, ...]]:
    """The row the console's discard becomes, journaled by the real loop's journal."""
    config = make_config(folder, game, "t-01", NOWHERE)
    discard = ConsoleAction(
        source="console",
        action="discard",
        args={"seat": 5, "count": 3, "cards": ["Qc", "2s", "Qs"]},
        actor="dealer",
    )
    with open_journal(config.journal_path) as journal:
        journal.append_many([as_row(discard, source="console", round=7, actor="dealer")])
    return PitPublisher(config), rows(config.journal_path)[0]


def test_the_discard_keyed_on_the_console_is_withheld_from_the_public_topics(
    tmp_path: Path,
) -> None:
    publisher, row = discard_row(tmp_path, "poker")
    messages = publisher.row_messages(row)
    assert [topic for topic, _ in messages] == ["restricted/event", "event"]
    restricted, public = messages[0][1], messages[1][1]
    assert public["payload"]["args"] == {"seat": 5, "count": 3, "cards": None}
    assert public["redacted"] == ["args.cards"]
    assert cards_named(public) == []
    assert restricted["payload"]["args"]["cards"] == ["Qc", "2s", "Qs"]  # surveillance's
    assert restricted["redacted"] == []
    schema_validator("event")(public)
    schema_validator("event")(restricted)


def test_delayed_the_discard_goes_nowhere_but_the_hand_end_reveal(tmp_path: Path) -> None:
    config = make_config(tmp_path, "poker", "t-01", NOWHERE, private_cards="delayed")
    publisher = PitPublisher(config)
    _, row = discard_row(tmp_path / "other", "poker")
    assert [topic for topic, _ in publisher.row_messages(row)] == ["event"]


def test_a_blackjack_table_is_dealt_face_up_and_withholds_nothing(tmp_path: Path) -> None:
    publisher, row = discard_row(tmp_path, "blackjack")
    [(topic, public)] = publisher.row_messages(row)
    assert topic == "event" and public["redacted"] == []
    assert public["payload"]["args"]["cards"] == ["Qc", "2s", "Qs"]


@pytest.mark.parametrize(
    ("payload", "public", "redacted"),
    [
        ({"card": "Qc", "seq": 3}, {"card": None, "seq": 3}, ["card"]),
        ({"cards": ["qc", "QS", "10h"]}, {"cards": None}, ["cards"]),
        ({"cards": "Qc 2s"}, {"cards": None}, ["cards"]),
        (
            {"rule": "11.3", "message": "Qc drawn while the table is on HOLD", "card": "Qc"},
            {"rule": "11.3", "message": None, "card": None},
            ["message", "card"],
        ),
        (
            {"reason": "discard: bad arguments {'cards': [Card.parse('Td')]}"},
            {"reason": None},
            ["reason"],
        ),
        ({"hands": [["As", "Kd"], [1, "x"]]}, {"hands": [None, [1, "x"]]}, ["hands.0"]),
        ({"by_card": {"Qc": 5}}, {"by_card": None}, ["by_card"]),
        (
            {"message": "counted as a fold", "url": "sim://", "hash": "ab12" * 16},
            {"message": "counted as a fold", "url": "sim://", "hash": "ab12" * 16},
            [],
        ),
    ],
    ids=[
        "a-card",
        "cards-in-any-case",
        "cards-as-text",
        "a-message-quoting-a-card",
        "a-refusal-quoting-args",
        "nested",
        "a-card-as-a-key",
        "no-card",
    ],
)
def test_every_card_anywhere_is_withheld_and_nothing_else(
    payload: dict[str, Any], public: dict[str, Any], redacted: list[str]
) -> None:
    withheld: dict[str, Any] = {}
    assert withhold(payload, withheld) == public
    assert list(withheld) == redacted
    assert cards_named(public) == []


def test_the_published_poker_state_shows_card_counts_never_cards(tmp_path: Path) -> None:
    config = make_config(tmp_path, "poker", "t-01", NOWHERE)
    state = {
        "table": "t-01",
        "notices": [{"action": "discard", "rule": "11.3", "reason": "Qc is not seat 5's"}],
        "view": {
            "state": "hold",
            "seats": [{"seat": 5, "cards": 5}],
            "hold": {"rule": "11.3", "message": "9d drawn when no card is due", "card": "9d"},
        },
    }
    body = PitPublisher(config).state_message(state)
    assert body["state"]["view"]["seats"] == [{"seat": 5, "cards": 5}]
    assert body["state"]["view"]["hold"] == {"rule": "11.3", "message": None, "card": None}
    assert body["redacted"] == [
        "notices.0.reason",
        "view.hold.message",
        "view.hold.card",
    ]
    assert cards_named(body) == []


def test_names_a_card() -> None:
    for text in ("Qc", "QC", "qc", "as", "10h", "Td", " Ks, Kd ", "drew 7h", "(Ac)"):
        assert names_a_card(text), text  # alone, in any case; in text, as the rules write it
    for text in ("treated as a fold", "ad hoc", "8080", "bj-01", "Kings", "2026-12-01T00:00"):
        assert not names_a_card(text), text


# --- the property: every payload the game can produce -------------------------------------


def check_public(publisher: PitPublisher, journal_rows: list[tuple[Any, ...]]) -> None:
    for row in journal_rows:
        messages = publisher.row_messages(row)
        topics = [topic for topic, _ in messages]
        for topic, body in messages:
            if topic in PUBLIC:
                assert cards_named(body) == [], (topic, body)
        public = dict(messages)["event"]
        if public["redacted"]:  # withheld here, in full on the restricted topic first
            assert topics[0] == "restricted/event"
            assert messages[0][1]["payload"] == json.loads(row[5])
        else:
            assert "restricted/event" not in topics
            assert public["payload"] == json.loads(row[5])


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    hands=st.integers(1, 3),
    mischief=st.dictionaries(st.integers(0, 600), st.sampled_from(MISCHIEF), max_size=25),
)
def test_no_card_on_a_public_topic_in_any_hand(
    seed: int, hands: int, mischief: dict[int, str]
) -> None:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        config = make_config(Path(folder), "poker", "dp-01", NOWHERE)
        with open_journal(config.journal_path) as journal:
            states = play(config, journal, seed, hands_to_play=hands, mischief_steps=mischief)
        publisher = PitPublisher(config)
        check_public(publisher, rows(config.journal_path))
        for state in states:
            assert cards_named(publisher.state_message(state)) == [], state
        for status in ("online", "offline"):
            assert cards_named(json.loads(publisher._status(status, "connected"))) == []


# --- against a real broker ----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["restricted", "delayed"])
def test_11_3_a_a_played_hand_shows_no_card_on_the_broker_s_public_topics(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder], mode: str
) -> None:
    """The discard leak reproduced with a real hand (the scripted dealer keys each seat's
    discards on the console) and a real mosquitto: the public topics name no card; the
    restricted topic (or the reveal at the hand's end) has them."""
    config = make_config(tmp_path, "poker", "dp-01", broker.url, private_cards=mode)
    recorder = recorders(broker.port, f"{BASE}/dp-01/#")
    with open_journal(config.journal_path) as journal:
        states = play(config, journal, 20261201, hands_to_play=2)
    journal_rows = rows(config.journal_path)
    discards = [r for r in journal_rows if r[4] == "ConsoleAction" and '"discard"' in r[5]]
    assert any(json.loads(r[5])["args"]["cards"] for r in discards)  # the leak's row is there
    last = journal_rows[-1][0]
    publisher = pit_publisher(config).start()
    try:
        limits = {"minimum": config.minimum, "maximum": config.maximum}
        table = {"table": "dp-01", "site": config.site, "simulated": "all", "limits": limits}
        publisher.publish({**table, **states[-1]})  # as RunningTable publishes it
        assert publisher.wait_acknowledged(last, 20)
        assert recorder.wait_for(lambda r: len(r.on("/event")) >= last)
        assert recorder.wait_for(lambda r: len(r.on("/state")) >= 1)
    finally:
        publisher.close()
    public = [
        (t, b) for t, b, _ in recorder.messages if not t.endswith(("/restricted/event", "/reveal"))
    ]
    assert public and all(cards_named(body) == [] for _, body in public)
    for body in recorder.on("/event"):
        schema_validator("event")(body)
    for body in recorder.on("/state"):
        schema_validator("state")(body)
    withheld = {b["seq"] for b in recorder.on("/event") if b["redacted"]}
    discard_seqs = {r[0] for r in discards if json.loads(r[5])["args"]["cards"]}
    assert discard_seqs <= withheld
    if mode == "restricted":
        full = {b["seq"]: b for b in recorder.on("/restricted/event")}
        assert set(full) == withheld
        assert all(full[seq]["payload"]["args"]["cards"] for seq in discard_seqs)
    else:
        assert recorder.on("/restricted/event") == []
        reveals = recorder.on("/reveal")
        assert len(reveals) == 2  # one per hand, at its end (11.4(c))
        for reveal in reveals:
            schema_validator("reveal")(reveal)
        shown = {row["seq"]: row["fields"] for reveal in reveals for row in reveal["rows"]}
        assert set(shown) == withheld
        assert all(shown[seq]["args.cards"] for seq in discard_seqs)
