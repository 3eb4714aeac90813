"""A player's identity leaves the table on ``restricted/rating`` only.

The rating rows (RatingStarted, RatingNamed, RatingRound, RatingAdjusted, RatingEnded,
RatingMoved) go to that topic in full and to no other in any form; a row that is no rating
row but quotes a rated player (the console action that started the rating, a refusal
naming a card) carries the player on no topic but that one either, nor does the state.
The property test journals random rating rows among such rows and reads what every row
becomes, as the publisher's thread does.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.app.pit.players import RATING_KINDS, PlayerNames
from controller.app.pit.publisher import PitPublisher, pit_publisher
from controller.app.runtime.journal_files import open_journal
from controller.journal.store import Journal
from tests.support.pit import Broker, Recorder, make_config, schema_validator
from tests.support.rating_rows import RatedPlayer, stamp

NOWHERE = "mqtt://127.0.0.1:1"  # what a row becomes needs no broker
BASE = "casino/demo-casino/table"
RATING = "restricted/rating"


def journal_rows(journal: Journal, rows: list[tuple[str, dict[str, Any]]]) -> None:
    for kind, payload in rows:
        journal.append(kind, payload, source="controller", round=1)


def every_message(publisher: PitPublisher) -> list[tuple[str, dict[str, Any]]]:
    """What each row of the journal becomes, in order, read as the publisher's thread
    reads it (`PitPublisher.rows_after`: the players of the rating rows learned first)."""
    publisher.open_journal()
    out: list[tuple[str, dict[str, Any]]] = []
    for row in publisher.rows_after(0, 100_000):
        out += publisher.row_messages(row)
    return out


def names(body: Any, players: set[str]) -> list[str]:
    """The players a message names anywhere (a key or a value, in any case)."""
    text = json.dumps(body, ensure_ascii=False).casefold()
    return sorted(p for p in players if p.casefold() in text)


def a_rating() -> tuple[RatedPlayer, list[tuple[str, dict[str, Any]]]]:
    player = RatedPlayer("r1", 3, "4000123412341234")
    rows = [
        player.started(),
        player.round({"main": 50, "insurance": 25}, -75, 83),
        player.adjust(60),
        player.ended(stamp(120)),
        player.moved("r2", 5),
    ]
    return player, rows


def test_rating_rows_go_to_the_restricted_rating_topic_only_and_in_full(tmp_path: Path) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", NOWHERE)
    _, rows = a_rating()
    with open_journal(config.journal_path, create=True) as journal:
        journal_rows(journal, rows)
    messages = every_message(PitPublisher(config))
    assert [topic for topic, _ in messages] == [RATING] * len(rows)
    assert [body["payload"] for _, body in messages] == [payload for _, payload in rows]
    assert {body["kind"] for _, body in messages} == {kind for kind, _ in rows}
    for _, body in messages:
        schema_validator("rating")(body)
        assert body["redacted"] == []


def test_a_poker_table_s_ratings_go_nowhere_else_either(tmp_path: Path) -> None:
    config = make_config(tmp_path, "poker", "dp-01", NOWHERE)
    player = RatedPlayer("r1", 5, "Mere Tāne", game="poker")
    rows = [player.started(), player.round({"ante": 10}, -10, 50, departures=None)]
    with open_journal(config.journal_path, create=True) as journal:
        journal_rows(journal, rows)
    assert [topic for topic, _ in every_message(PitPublisher(config))] == [RATING, RATING]


def test_the_console_action_that_starts_a_rating_does_not_carry_the_player_out(
    tmp_path: Path,
) -> None:
    """The console action is journaled just before the rating it starts, so the player is
    learned from the rows ahead of it: nulled in the public row, named under redacted."""
    config = make_config(tmp_path, "blackjack", "bj-01", NOWHERE)
    player = RatedPlayer("r1", 3, "Mere Tāne", source="console")
    action = {"action": "start_rating", "args": {"box": 3, "player": "Mere Tāne"}}
    refused = {"action": "start_rating", "rule": "", "reason": "MERE TĀNE is rated at box 3"}
    with open_journal(config.journal_path, create=True) as journal:
        journal.append("ConsoleAction", action, source="console", round=1)
        journal_rows(journal, [player.started()])
        journal.append("ActionRefused", refused, source="controller", round=1)
    messages = every_message(PitPublisher(config))
    assert [topic for topic, _ in messages] == ["event", RATING, "event"]
    public_action, public_refusal = messages[0][1], messages[2][1]
    assert public_action["payload"] == {
        "action": "start_rating",
        "args": {"box": 3, "player": None},
    }
    assert public_action["redacted"] == ["args.player"]
    assert public_refusal["payload"]["reason"] is None
    assert public_refusal["redacted"] == ["reason"]
    for _, body in messages:
        schema_validator("rating" if body["kind"] in RATING_KINDS else "event")(body)


def test_the_state_never_names_a_rated_player(tmp_path: Path) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", NOWHERE)
    publisher = PitPublisher(config)
    publisher.players.learn("RatingNamed", {"player": "4000123412341234"})
    state = {"view": {"boxes": [{"box": 3, "rated": True, "player": "4000123412341234"}]}}
    body = publisher.state_message(state)
    assert body["state"]["view"]["boxes"] == [{"box": 3, "rated": True, "player": None}]
    assert body["redacted"] == ["view.boxes.0.player"]


def test_a_name_is_withheld_as_a_whole_word_only() -> None:
    players = PlayerNames()
    players.learn("RatingStarted", {"player": "Ana"})
    withheld: dict[str, Any] = {}
    kept = {"message": "banana split", "who": "ana", "note": "Ana's box"}
    assert players.withhold(kept, withheld) == {
        "message": "banana split",
        "who": None,
        "note": None,
    }
    assert list(withheld) == ["who", "note"]


# --- the property: no public message ever names a rated player ----------------------------

PLAYERS = ["4000123412341234", "Mere Tāne", "O'Brien, Sean", "M77001", "ana"]
OTHER_ROWS = st.sampled_from(["action", "refusal", "message", "card"])


@st.composite
def ratings_among_rows(draw: st.DrawFn) -> list[tuple[str, dict[str, Any]]]:
    """Rating rows of up to four ratings, at random points between other rows, some of which
    quote a player (a console action keyed before its rating, a refusal, a message)."""
    rows: list[tuple[str, dict[str, Any]]] = []
    rated: list[RatedPlayer] = []
    for step in range(draw(st.integers(1, 30))):
        choice = draw(st.integers(0, 5))
        if choice == 0 or not rated:
            player = draw(st.sampled_from([*PLAYERS, None]))
            rating = RatedPlayer(f"r{step}", draw(st.integers(1, 7)), player)
            if player is not None and draw(st.booleans()):
                args = {"box": rating.box, "player": player}
                rows.append(("ConsoleAction", {"action": "rate", "args": args}))
            rated.append(rating)
            rows.append(rating.started())
            continue
        rating = draw(st.sampled_from(rated))
        if choice == 1:
            wagers = draw(st.dictionaries(st.sampled_from(["main", "insurance", "split"]),
                                          st.integers(0, 500), min_size=1))  # fmt: skip
            rows.append(
                rating.round(wagers, draw(st.integers(-500, 500)), draw(st.integers(0, 999)))
            )
        elif choice == 2:
            rows.append(rating.named(draw(st.sampled_from(PLAYERS))))
        elif choice == 3:
            rows.append(rating.ended(stamp(step * 60), draw(st.sampled_from(["card", "empty"]))))
        elif choice == 4:
            rows.append(rating.adjust(draw(st.integers(0, 500))))
        else:
            other = draw(OTHER_ROWS)
            who = rating.player or draw(st.sampled_from(PLAYERS))
            quoted = who.upper() if draw(st.booleans()) else who
            if other == "action":
                rows.append(("ConsoleAction", {"action": "end_rating", "args": {"card": quoted}}))
            elif other == "refusal":
                reason = f"card {quoted} is already rated at another box"
                rows.append(("ActionRefused", {"action": "rate", "rule": "", "reason": reason}))
            elif other == "message":
                rows.append(("DeviceFault", {"source": "reader", "reason": f"read {quoted}"}))
            else:
                rows.append(("CardDrawn", {"card": "QH", "seq": None, "device_ms": None}))
    return rows


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=ratings_among_rows(), game=st.sampled_from(["blackjack", "poker"]))
def test_no_public_message_ever_carries_a_rated_player(
    rows: list[tuple[str, dict[str, Any]]], game: str
) -> None:
    shm = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
        config = make_config(Path(folder), game, "t-01", NOWHERE)
        with open_journal(config.journal_path, create=True) as journal:
            journal_rows(journal, rows)
        publisher = PitPublisher(config)
        messages = every_message(publisher)
        state = publisher.state_message({"notices": [{"reason": json.dumps(rows)[-300:]}]})
    rated = {p["player"] for k, p in rows if k in RATING_KINDS and p.get("player")}
    rating_rows = [(k, p) for k, p in rows if k in RATING_KINDS]
    for topic, body in messages:
        if topic == RATING:
            continue
        assert body["kind"] not in RATING_KINDS, (topic, body)
        assert names(body, rated) == [], (topic, body)
    assert names(state, rated) == []
    assert [(b["kind"], b["payload"]) for t, b in messages if t == RATING] == rating_rows


def test_on_a_real_broker_a_subscriber_to_every_topic_but_the_rating_one_meets_no_player(
    tmp_path: Path, broker: Broker, recorders: Callable[..., Recorder]
) -> None:
    config = make_config(tmp_path, "blackjack", "bj-01", broker.url)
    everything = recorders(broker.port, "casino/#")
    player, rows = a_rating()
    with open_journal(config.journal_path, create=True) as journal:
        journal.append("ConsoleAction", {"action": "rate", "args": {"box": 3, "player":
                       player.player}}, source="console", round=1)  # fmt: skip
        journal_rows(journal, rows)
        last = journal.last_seq
    publisher = pit_publisher(config).start()
    try:
        publisher.publish({"view": {"boxes": [{"box": 3, "player": player.player}]}})
        assert publisher.wait_acknowledged(last, 10)
        assert everything.wait_for(lambda r: len(r.on(f"/{RATING}")) == len(rows))
        assert everything.wait_for(lambda r: len(r.on("/state")) >= 1)
    finally:
        publisher.close()
    assert [b["seq"] for b in everything.on("/event")] == [1]  # the action; no rating row
    for topic, body, _ in everything.messages:
        if not topic.endswith(f"/{RATING}"):
            assert names(body, {str(player.player)}) == [], (topic, body)
    for body in everything.on(f"/{RATING}"):
        schema_validator("rating")(body)
