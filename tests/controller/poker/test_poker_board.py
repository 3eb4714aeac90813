"""Draw poker's players' board (controller/poker/board.py): the table notice of 11.5(a),
the blinds, the button, the pot and how many cards each seat holds, never a card (11.3(a),
11.4(c)), not even at the showdown."""

from __future__ import annotations

from typing import Any

from controller.poker.board import board_facts
from tests.support.poker_play import cards_named
from tests.support.poker_scenes import poker_first_round, poker_showdown, poker_state


def test_rule_11_5_a_the_board_shows_the_table_notice_the_blinds_and_the_button() -> None:
    view = poker_state(poker_first_round())["view"]
    facts = board_facts(view)
    assert facts["limits"] == {"minimum": view["limits"][0], "maximum": view["limits"][1]}
    assert facts["stakes"] == [1, 2]  # poker_scenes' blinds, not the seats posting them
    assert [s["seat"] for s in facts["seats"] if s["blind"]] == list(view["blinds"])
    assert facts["button"] == view["button"]
    assert facts["phase"] == "first_round"
    assert facts["to_act"] == view["action"]["seat"]
    assert facts["pot"] == sum(s["contributed"] for s in view["seats"]) > 0
    assert [s["cards"] for s in facts["seats"]] == [s["cards"] for s in view["seats"]]


def test_rule_11_3_a_a_view_full_of_hole_cards_yields_a_board_naming_none() -> None:
    view: dict[str, Any] = poker_state(poker_showdown())["view"]
    view["showdown"] = {"order": [2, 3], "hands": {"2": ["As", "Ad", "Ah", "Ks", "Kd"]}}
    for seat in view["seats"]:  # and a view that names every seat's hole cards
        seat["hole_cards"] = ["As", "Kd", "Qh", "Jc", "Ts"]
        seat["name"] = "Aroha Ngata"
    view["hold"] = {"rule": "11.3", "message": "9d drawn when no card is due", "card": "9d"}
    assert cards_named(view)  # the view as a careless game might give it
    facts = board_facts(view)
    assert cards_named(facts) == []
    assert "Aroha" not in str(facts)
    assert set(facts["seats"][0]) == {"seat", "in_hand", "folded", "all_in", "cards", "blind"}


def test_an_unknown_state_reads_as_waiting_and_odd_values_are_dropped() -> None:
    facts = board_facts({"state": "<script>", "limits": ["2", 10], "stakes": [1, "x", True]})
    assert facts["phase"] == "waiting"
    assert facts["limits"] == {"minimum": None, "maximum": 10}
    assert facts["stakes"] == [1]
