"""Baccarat's players' board (controller/baccarat/board.py): the roads, asks, counts, the
last ten coups and the coup in play, picked by whitelist from the view; nothing of the
boxes, wagers, HOLD or dealer. The view is the hand-worked shoe of test_roads.py."""

from __future__ import annotations

import json

from controller.baccarat.board import board_facts
from tests.support.baccarat_view import known_view, results


def test_the_roads_counts_and_asks_of_a_known_shoe() -> None:
    facts = board_facts(known_view())
    # bead plate: ten coups, six down then the next column (B B T P P P | B P B B)
    bead = facts["roads"]["bead_plate"]["grid"]
    assert [c["winner"] for c in bead[0]] == [
        "banker",
        "banker",
        "tie",
        "player",
        "player",
        "player",
    ]
    assert [c and c["winner"] for c in bead[1]] == [
        "banker",
        "player",
        "banker",
        "banker",
        None,
        None,
    ]
    assert facts["roads"]["big_road"]["columns"] == 5
    assert facts["roads"]["big_road"]["grid"][0][1]["ties"] == 1
    assert facts["counts"] == {
        "banker": 5,
        "player": 4,
        "tie": 1,
        "player_pair": 0,
        "banker_pair": 1,
    }
    # derived roads as worked by hand: r b b b r b / b b b / b r
    assert sum(row.count("red") for row in facts["roads"]["big_eye_boy"]["grid"]) == 2
    assert sum(row.count("blue") for row in facts["roads"]["small_road"]["grid"]) == 3
    assert set(facts["ask"]) == {"banker", "player"}
    assert set(facts["ask"]["banker"]) == {"big_eye_boy", "small_road", "cockroach_pig"}
    assert {facts["ask"]["banker"]["big_eye_boy"], facts["ask"]["player"]["big_eye_boy"]} == {
        "red",
        "blue",
    }  # the next win on one side repeats the pattern, on the other it breaks it


def test_the_last_ten_coups_newest_first() -> None:
    view = known_view("BBTPPPBPBBPPB")  # 13 coups
    facts = board_facts(view)
    assert len(facts["last"]) == 10
    assert [r["winner"] for r in facts["last"][:3]] == ["banker", "player", "player"]
    assert set(facts["last"][0]) == {
        "winner", "player_total", "banker_total", "natural", "player_pair", "banker_pair",
    }  # fmt: skip


def test_the_coup_in_play_shows_its_face_up_cards_and_result() -> None:
    facts = board_facts(known_view())
    assert facts["hands"] == {
        "player": {"cards": ["3h", "2c"], "total": 5},
        "banker": {"cards": ["Kd", "7s"], "total": 7},
    }
    assert facts["result"]["winner"] == "banker"
    assert "coup" not in facts["result"]


def test_nothing_of_the_boxes_the_hold_or_the_dealer_reaches_the_board() -> None:
    view = known_view(
        hold={"rule": "3.1", "message": "9d is not from this shoe", "card": "9d"},
        violations=[{"rule": "3.1", "card": "9d"}],
        dealer={"id": "d07", "name": "Tane Rewi"},
    )
    facts = board_facts(view)
    assert set(facts) == {
        "coup", "wagers_open", "shoe", "hands", "result", "roads", "ask", "counts", "last",
    }  # fmt: skip
    text = json.dumps(facts)
    for private in ("9d", "Tane", "d07", "commission", "bets", "payouts", "decisions", "next"):
        assert private not in text, private


def test_a_cell_carrying_more_than_a_road_says_is_cut_to_the_road_s_fields() -> None:
    view = known_view()
    view["roads"]["bead_plate"]["grid"][0][0]["card"] = "As"
    view["roads"]["big_eye_boy"]["grid"][0][0] = "Qh"
    facts = board_facts(view)
    assert "card" not in facts["roads"]["bead_plate"]["grid"][0][0]
    assert facts["roads"]["big_eye_boy"]["grid"][0][0] is None


def test_an_empty_view_gives_an_empty_board() -> None:
    facts = board_facts({})
    assert facts["last"] == [] and facts["counts"]["banker"] == 0
    assert facts["hands"]["player"] == {"cards": [], "total": None}
    assert results("") == []
