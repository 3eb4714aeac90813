"""The floor view's player ratings (controller/app/floor/ratings.py, rating_board.py): the
figures from the rating rows, a player at two tables at once, the retention, hostile rows,
the CSV, and who may see any of it."""

from __future__ import annotations

import csv
import io
import json
import logging
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from controller.app.config import StaffMember
from controller.app.floor.rating_board import CSV_COLUMNS, board, hundredths, ratings_csv
from controller.app.floor.staff import PitStaff, load_pit_staff
from controller.app.floor.store import PitStore
from controller.app.floor.tables import Floor
from controller.app.floor.view import PitView, load_keep_names_days
from controller.errors import ConfigError
from tests.support.floor import MANAGER, SURVEILLANCE, StaffClient, pit_staff, request
from tests.support.pit import ROOT, Broker
from tests.support.rating_rows import RatedPlayer, message, stamp

START = 1_800_000_000.0
DAY = 86400.0


class Clock:
    def __init__(self, at: float = START) -> None:
        self.at = at

    def __call__(self) -> float:
        return self.at


def take(floor: Floor, table: str, seq: int, row: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    body = message(table, seq, *row)
    floor.take_rating("s", table, json.dumps(body).encode())
    return body


def shown(floor: Floor, **filters: str) -> dict[str, Any]:
    rows = floor.store.ratings.ratings("")
    return board(rows, stamp(10_000), **filters)


def test_an_open_rating_s_figures_are_summed_from_its_rounds_each_row_once() -> None:
    floor = Floor(wall=Clock())
    player = RatedPlayer("r1", 3, "4000123412341234")
    take(floor, "bj-01", 1, player.started())
    take(floor, "bj-01", 2, player.round({"main": 50, "insurance": 25}, -75, 83, departures=1))
    again = take(floor, "bj-01", 3, player.round({"main": 40}, 40, 21, seconds=45))
    floor.take_rating("s", "bj-01", json.dumps(again).encode())  # sent twice after a cut
    take(floor, "bj-01", 4, player.round({"main": 60, "double": 60}, 120, 63, departures=None))
    [live] = shown(floor)["open"]
    assert (live["player"], live["box"], live["source"]) == ("4000123412341234", 3, "card")
    assert (live["rounds"], live["handle"], live["largest_bet"]) == (3, 235, 120)
    assert live["handle_by_bet"] == {"main": 150, "insurance": 25, "double": 60}
    assert (live["win_loss"], live["theo_hundredths"], live["theo"]) == (85, 167, "1.67")
    assert (live["seconds"], live["departures"], live["average_bet"]) == (165, 1, 78)
    take(floor, "bj-01", 5, player.adjust(100, reason="watched the stacks"))
    [live] = shown(floor)["open"]
    assert (live["average_bet"], live["measured_average_bet"], live["adjusted"]) == (100, 78, True)
    ended = player.ended(stamp(600))
    take(floor, "bj-01", 6, ended)
    closed = shown(floor)
    assert closed["open"] == []
    [done] = closed["closed"]
    assert (done["rounds"], done["handle"], done["average_bet"]) == (3, 235, 100)
    assert (done["comp"], done["skill_theo"], done["reason"]) == ("0.41", "1.70", "card")
    assert done["end"] == "2027-01-15T08:10:00+00:00"


def test_a_move_and_a_rating_named_later() -> None:
    floor = Floor(wall=Clock())
    first = RatedPlayer("r1", 2, None)
    take(floor, "bj-01", 1, first.started())
    assert shown(floor)["open"][0]["player"] is None
    take(floor, "bj-01", 2, first.named("Mere Tāne"))
    take(floor, "bj-01", 3, first.round({"main": 10}, 10, 5))
    take(floor, "bj-01", 4, first.ended(stamp(60), "moved"))
    take(floor, "bj-01", 5, first.moved("r2", 5))
    second = RatedPlayer("r2", 5, "Mere Tāne", start=stamp(61))
    take(floor, "bj-01", 6, second.started())
    view = shown(floor)
    assert view["closed"][0]["player"] == "Mere Tāne"
    assert view["closed"][0]["moved_to"] == "r2 (box 5)"
    assert [r["box"] for r in view["open"]] == [5]
    [total] = view["players"]
    assert (total["player"], total["ratings"], total["tables"], total["flagged"]) == (
        "Mere Tāne", 2, ["bj-01"], False
    )  # fmt: skip


def test_a_player_rated_at_two_tables_at_once_is_flagged_and_alarmed_without_the_name() -> None:
    floor = Floor(wall=Clock())
    take(floor, "bj-01", 1, RatedPlayer("r1", 3, "4000123412341234").started())
    take(floor, "bj-01", 2, RatedPlayer("r2", 4, None).started())  # anonymous: nobody
    take(floor, "bj-02", 1, RatedPlayer("r9", 1, "Sam Wu", start=stamp(5)).started())
    assert [a for a in floor.alarms() if a["kind"] == "RatingConflict"] == []
    take(floor, "bj-02", 2, RatedPlayer("r7", 6, "4000123412341234", start=stamp(30)).started())
    [alarm] = [a for a in floor.alarms() if a["kind"] == "RatingConflict"]
    assert alarm["alert"] and alarm["table"] == "bj-02"
    assert alarm["message"] == (
        "the player of bj-02 box 6 (rating r7) is also rated at bj-01 box 3 (rating r1): "
        "see Ratings"
    )
    assert "4000123412341234" not in json.dumps(floor.alarms())
    assert "4000123412341234" not in json.dumps(floor.store.journal_entries())
    view = shown(floor)
    assert {(r["table"], r["box"]) for r in view["open"] if r["flagged"]} == {
        ("bj-01", 3),
        ("bj-02", 6),
    }
    assert view["flagged"] == 2
    assert [t["player"] for t in view["players"] if t["flagged"]] == ["4000123412341234"]
    # the alarm is the pit's own journal's: a restarted view shows it again
    again = Floor(store=floor.store, wall=Clock())
    assert [a["kind"] for a in again.alarms()] == ["RatingConflict"]


def test_one_player_at_two_tables_one_after_the_other_is_not_flagged() -> None:
    floor = Floor(wall=Clock())
    first = RatedPlayer("r1", 3, "Sam Wu")
    take(floor, "bj-01", 1, first.started())
    take(floor, "bj-01", 2, first.round({"main": 10}, 10, 5))
    take(floor, "bj-01", 3, first.ended(stamp(100)))
    take(floor, "bj-02", 1, RatedPlayer("r5", 1, "Sam Wu", start=stamp(200)).started())
    assert shown(floor)["flagged"] == 0
    assert [a for a in floor.alarms() if a["kind"] == "RatingConflict"] == []


def test_the_retention_erases_a_closed_rating_s_player_and_keeps_its_figures(
    tmp_path: Path,
) -> None:
    clock = Clock()
    path = tmp_path / "pit.sqlite"
    floor = Floor(wall=clock, store=PitStore(path), keep_names_days=30)
    gone = RatedPlayer("r1", 3, "4000123412341234")
    take(floor, "bj-01", 1, gone.started())
    take(floor, "bj-01", 2, gone.round({"main": 50}, -50, 70))
    take(floor, "bj-01", 3, gone.ended(stamp(600)))
    still = RatedPlayer("r2", 4, "Mere Tāne", start=stamp(700))
    take(floor, "bj-01", 4, still.started())
    clock.at = START + 600 + 30 * DAY - 1  # a second short of the 30 days
    assert floor.erase_rating_names() == 0
    clock.at = START + 600 + 30 * DAY + 1
    assert floor.erase_rating_names() == 1
    [closed] = floor.store.ratings.ratings("")[:1]
    assert (closed["player"], closed["erased"], closed["figures"]["handle"]) == (None, True, 50)
    assert sorted(floor.store.ratings.players()) == ["Mere Tāne"]  # open: kept
    floor.store.close()
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert b"4000123412341234" not in on_disk  # overwritten, not only unlinked
    assert "Mere Tāne".encode() in on_disk


def test_the_retention_is_a_validated_key_of_the_floor_file(tmp_path: Path) -> None:
    floor_file = tmp_path / "floor.toml"
    assert load_keep_names_days(None) == 30
    floor_file.write_text("[ratings]\nkeep_names_days = 7\n")
    assert load_keep_names_days(floor_file) == 7
    for bad in ("0", "3651", "true", '"30"', "1.5"):
        floor_file.write_text(f"[ratings]\nkeep_names_days = {bad}\n")
        with pytest.raises(ConfigError, match="keep_names_days must be whole days from 1 to"):
            load_keep_names_days(floor_file)
    floor_file.write_text("[ratings]\nkeep_days = 7\n")
    with pytest.raises(ConfigError, match=r"\[ratings\] has one key, keep_names_days"):
        load_keep_names_days(floor_file)


# --- hostile rows ---------------------------------------------------------------------------


def good_start() -> dict[str, Any]:
    return message("bj-01", 7, *RatedPlayer("r3", 2, "Sam Wu").started())


def _with(path: str, value: Any, drop: bool = False) -> dict[str, Any]:
    body = good_start()
    *outer, last = path.split(".")
    target = body
    for key in outer:
        target = target[key]
    if drop:
        del target[last]
    else:
        target[last] = value
    return body


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"{not json", "it is not JSON"),
        (b"[1, 2]", "it is not a JSON object"),
        (b"[" * 100_000 + b"]" * 100_000, "refused a rating message: 200000 bytes, more than"),
        (b'{"v": 1, "payload": {"wagers": {"main": [[[1]]]}}}',
         "refused a rating message: the JSON nests deeper than 4 levels"),
        (_with("payload.nickname", "Sammy"),
         "unknown field(s) 'nickname' in the RatingStarted payload"),
        (_with("secret", 1), "unknown field(s) 'secret' in the message"),
        (_with("payload.box", "3"),
         "the RatingStarted payload's 'box' must be a whole number from 1 to 100, not '3'"),
        (_with("payload.box", True), "'box' must be a whole number from 1 to 100, not True"),
        (_with("payload.player", 4000123412341234), "'player' must be text of 1 to 128 characters"),
        (_with("payload.source", "guess"), "'source' must be 'card' or 'console', not 'guess'"),
        (_with("payload.start", "yesterday"), "'start' must be an ISO 8601 time with its offset"),
        (_with("payload.round", None, drop=True), "the RatingStarted payload has no 'round'"),
        (_with("kind", "RatingDeleted"), "the message's 'kind' must be a rating row's kind"),
        (_with("redacted", ["payload.player"]), "the message's 'redacted' must be an empty list"),
        (_with("v", 2), "the message's 'v' must be 1, not 2"),
    ],
    ids=[
        "not-json", "not-an-object", "too-big", "too-deep", "unknown-field",
        "unknown-envelope-field", "box-as-text",
        "box-as-bool", "player-as-number", "unknown-source", "not-a-time", "missing-field",
        "unknown-kind", "redacted", "version",
    ],
)  # fmt: skip
def test_a_hostile_rating_row_is_refused_in_one_line_and_nothing_else_is_lost(
    caplog: pytest.LogCaptureFixture, body: Any, problem: str
) -> None:
    floor = Floor(wall=Clock())
    take(floor, "bj-01", 1, RatedPlayer("r1", 3, "Mere Tāne").started())
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    with caplog.at_level(logging.WARNING, logger="controller.app.floor.tables"):
        floor.take_rating("s", "bj-01", raw)
    [line] = [r for r in caplog.records if r.name == "controller.app.floor.tables"]
    assert line.getMessage().startswith("table s/bj-01: refused")
    assert problem in line.getMessage()
    assert line.exc_info is None and "\n" not in line.getMessage()
    take(floor, "bj-01", 8, RatedPlayer("r4", 5, "Sam Wu").started())  # the next row is taken
    assert [(r["rating"], r["player"]) for r in shown(floor)["open"]] == [
        ("r1", "Mere Tāne"),
        ("r4", "Sam Wu"),
    ]


def test_the_floor_s_checks_and_the_topic_s_json_schema_agree_on_every_kind() -> None:
    import jsonschema

    from controller.app.floor.ratings import RATING_FIELDS

    schema = json.loads((ROOT / "docs" / "mqtt-schema" / "rating.json").read_text())
    for kind, fields in RATING_FIELDS.items():
        assert set(schema["$defs"][kind]["properties"]) == set(fields), kind
        assert schema["$defs"][kind]["additionalProperties"] is False
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate(good_start())
    for bad in (_with("payload.nickname", "x"), _with("payload.box", "3"), _with("kind", "X")):
        assert not validator.is_valid(bad)


# --- the CSV ---------------------------------------------------------------------------------


def documented_columns() -> list[str]:
    """The column names of docs/ratings-csv.md's table, in order."""
    text = (ROOT / "docs" / "ratings-csv.md").read_text()
    return re.findall(r"^\| `([a-z_]+)` \|", text, re.MULTILINE)


def test_the_csv_header_is_the_documented_one_exactly() -> None:
    assert documented_columns() == list(CSV_COLUMNS)
    header = ratings_csv([]).splitlines()[0]
    assert header == ",".join(documented_columns())


def test_the_csv_values_are_exact_and_a_formula_is_never_run() -> None:
    floor = Floor(wall=Clock())
    player = RatedPlayer("r1", 3, '=HYPERLINK("http://x","win")')
    take(floor, "bj-01", 1, player.started())
    take(floor, "bj-01", 2, player.round({"main": 100, "insurance": 50}, -150, 1234))
    take(floor, "bj-01", 3, player.round({"main": 99}, 99, -5, seconds=30))
    take(floor, "bj-01", 4, player.adjust(130))
    take(floor, "bj-01", 5, player.ended(stamp(95), "dealer"))
    other = RatedPlayer("r2", 4, "-1+2", start=stamp(100))
    take(floor, "bj-02", 1, other.started())
    take(floor, "bj-02", 2, other.round({"main": 25}, 25, 9, departures=2, seconds=3600))
    take(floor, "bj-02", 3, other.ended(stamp(3700)))
    anonymous = RatedPlayer("r3", 1, None, start=stamp(100))
    take(floor, "bj-02", 4, anonymous.started())  # open: not exported
    text = ratings_csv(shown(floor)["closed"])
    assert text.endswith("\r\n")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["rating"] for r in rows] == ["r2", "r1"]  # newest end first
    second, first = rows
    assert first == {
        "site": "s", "table": "bj-01", "rating": "r1",
        "player": "'=HYPERLINK(\"http://x\",\"win\")", "box": "3",
        "start": "2027-01-15T08:00:00+00:00", "end": "2027-01-15T08:01:35+00:00",
        "seconds": "90", "rounds": "2", "handle": "249", "average_bet": "130",
        "measured_average_bet": "124", "largest_bet": "150", "win_loss": "-51",
        "theo": "12.29", "comp": "3.07", "source": "card", "wager_source": "chips",
        "adjusted": "true", "skill_theo": "12.29", "departures": "0",
        "decisions_per_hour": "80", "game": "blackjack",
    }  # fmt: skip
    assert (second["player"], second["theo"], second["skill_theo"]) == ("'-1+2", "0.09", "0.15")
    assert (second["departures"], second["adjusted"]) == ("2", "false")


def test_hundredths_are_written_exactly() -> None:
    cases = {1234: "12.34", 5: "0.05", -5: "-0.05", -1234: "-12.34", 0: "0.00", 100: "1.00"}
    assert {n: hundredths(n) for n in cases} == cases
    assert hundredths(2**53 - 1) == "90071992547409.91"
    assert hundredths(None) == ""


# --- who may see them ------------------------------------------------------------------------

READER = ("host1", "5566", "Tui Kereama")


def staff_with_reader() -> PitStaff:
    from controller.app.pin_hashes import hash_pin

    base = pit_staff()
    host = StaffMember(READER[0], READER[2], "pit_manager", hash_pin(READER[1], log2_n=10))
    return PitStaff((*base.members, host), base.lockout, frozenset({READER[0], SURVEILLANCE[0]}))


def get(url: str, client: StaffClient | None = None) -> tuple[int, dict[str, str], bytes]:
    headers = {"Cookie": client.cookie} if client is not None and client.cookie else {}
    return request(url, None, headers, method="GET")


def test_only_staff_granted_the_ratings_see_them_and_an_export_is_audited(broker: Broker) -> None:
    view = PitView(broker.url, port=0, staff=staff_with_reader()).start()
    try:
        player = RatedPlayer("r1", 3, "4000123412341234")
        take(view.floor, "bj-01", 1, player.started())
        take(view.floor, "bj-01", 2, player.round({"main": 50}, 50, 70))
        take(view.floor, "bj-01", 3, player.ended(stamp(60)))
        status, _, _ = get(view.url + "/api/ratings")
        assert status == 401
        manager = StaffClient(view.url)
        assert manager.sign_in(MANAGER[0], MANAGER[1]) == 200
        for path in ("/api/ratings", "/api/ratings.csv"):
            status, _, text = get(view.url + path, manager)
            assert status == 403 and b"4000" not in text
        host = StaffClient(view.url)
        assert host.sign_in(READER[0], READER[1]) == 200
        status, _, text = get(view.url + "/api/ratings?state=closed&table=bj-01", host)
        assert status == 200
        assert [r["player"] for r in json.loads(text)["closed"]] == ["4000123412341234"]
        status, headers, text = get(view.url + "/api/ratings.csv", host)
        assert status == 200 and headers["Content-Type"].startswith("text/csv")
        assert text.decode().splitlines()[1].startswith("s,bj-01,r1,4000123412341234,3,")
        [audit] = view.store.journal_entries("RatingsExported")
        assert audit["who"] == READER[0] and audit["what"]["ratings"] == 1
        assert "4000" not in json.dumps(audit)
        status, _, _ = get(view.url + "/api/ratings?state=everything", host)
        assert status == 400
        # the floor itself, which needs no sign-in, names no player anywhere
        status, _, text = get(view.url + "/api/tables")
        assert status == 200 and b"4000123412341234" not in text
    finally:
        view.close()


def test_the_staff_file_grants_the_ratings_to_named_staff_only(tmp_path: Path) -> None:
    from tests.support.floor import write_staff_file

    path = write_staff_file(tmp_path / "staff.toml")
    base = path.read_text()
    assert load_pit_staff(path).rating_readers == frozenset()
    path.write_text(base + '\n[ratings]\nreaders = ["sv01"]\n')
    assert load_pit_staff(path).rating_readers == frozenset({"sv01"})
    path.write_text(base + '\n[ratings]\nreaders = ["nobody"]\n')
    with pytest.raises(ConfigError, match=r"ratings\.readers: 'nobody' is no \[\[staff\]\] id"):
        load_pit_staff(path)
    path.write_text(base + '\n[ratings]\nreaders = "pm01"\n')
    with pytest.raises(ConfigError, match="must be a list of staff ids"):
        load_pit_staff(path)


def test_a_lost_store_gets_its_ratings_back_from_the_tables_journal_exports(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from controller.app.floor.imports import import_journal
    from controller.app.runtime.journal_files import open_journal
    from tests.support.pit import make_config

    config = make_config(tmp_path, "blackjack", "bj-01", "mqtt://127.0.0.1:1")
    player = RatedPlayer("r1", 3, "Mere Tāne")
    with open_journal(config.journal_path, create=True) as journal:
        for kind, payload in [player.started(), player.round({"main": 40}, 40, 21)]:
            journal.append(kind, payload, source="controller", round=1)
        journal.append("RatingRound", {"rating": "r1", "box": "3"}, source="controller", round=1)
        journal.append(*player.ended(stamp(90)), source="controller", round=1)
        lines = [json.dumps(entry.as_dict(), sort_keys=True) for entry in journal.entries()]
    store = PitStore(tmp_path / "pit.sqlite")
    with caplog.at_level(logging.WARNING, logger="controller.app.floor.imports"):
        assert import_journal(store, "s", "bj-01", lines) == 3
    [refused] = [r.getMessage() for r in caplog.records]
    assert import_journal(store, "s", "bj-01", lines) == 0  # each row once
    assert refused.startswith("table s/bj-01: refused rating row 3 of the export: ")
    [rating] = store.ratings.ratings("")
    assert (rating["player"], rating["open"], rating["figures"]["handle"]) == (
        "Mere Tāne",
        False,
        40,
    )
    store.close()


# --- the gate: a rating message is believed only as its table signed it -----------------------


def test_a_rating_message_passes_the_signature_gate_only_as_its_table_signed_it() -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from controller.app.pit.signing import public_text, sign

    keys = {t: Ed25519PrivateKey.generate() for t in ("bj-01", "bj-02")}
    public = {t: public_text(k) for t, k in keys.items()}
    view = PitView("mqtt://127.0.0.1:1", port=0, prefix="casino", table_keys=public)
    try:
        topic = "casino/s/table/bj-01/restricted/rating"
        row = message("bj-01", 5, *RatedPlayer("r1", 3, "Sam Wu").started())
        text = json.dumps(row, separators=(",", ":")).encode()

        def arriving(topic: str, payload: bytes) -> SimpleNamespace:
            return SimpleNamespace(topic=topic, payload=payload, retain=False)

        view._message(arriving(topic, text))  # not signed
        view._message(arriving(topic, sign(keys["bj-02"], topic, text)))  # another table's key
        event_topic = "casino/s/table/bj-01/event"
        view._message(arriving(topic, sign(keys["bj-01"], event_topic, text)))  # another topic
        assert view.store.ratings.ratings("") == []
        refused = [a["message"] for a in view.floor.alarms() if a["kind"] == "MessageRefused"]
        assert len(refused) == 3 and all("bj-01's rating topic" in m for m in refused)
        view._message(arriving(topic, sign(keys["bj-01"], topic, text)))
        assert [r["player"] for r in view.store.ratings.ratings("")] == ["Sam Wu"]
    finally:
        view.store.close()
