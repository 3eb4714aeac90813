"""Blackjack's players' board (controller/blackjack/board.py): the round in play (every
card face up, no hole card) and the last rounds' results per box, which the game keeps in
its state so the journal's replay rebuilds them."""

from __future__ import annotations

import json
from pathlib import Path

from controller.blackjack.board import LAST, board_facts
from controller.journal.store import Journal
from tests.support.loop_play import KEY, new_loop, play


def test_the_last_rounds_per_box_come_from_the_game_newest_first(tmp_path: Path) -> None:
    played = play("blackjack", tmp_path / "j.sqlite", rounds=LAST + 2, seed=11)
    view = played.states[-1]["view"]
    facts = board_facts(view)
    assert len(facts["results"]) == LAST
    rounds = [r["round"] for r in facts["results"]]
    assert rounds == sorted(rounds, reverse=True)
    for result in facts["results"]:
        assert result["dealer"]  # every settled round has the dealer's total
        for box in result["boxes"]:
            for hand in box["hands"]:
                assert hand["outcome"] in {
                    "win",
                    "blackjack",
                    "even_money",
                    "lose",
                    "push",
                    "returned",
                    "void",
                }
    assert any(
        h["outcome"] in {"win", "blackjack"}
        for r in facts["results"]
        for b in r["boxes"]
        for h in b["hands"]
    )
    assert any(
        h["outcome"] == "lose" for r in facts["results"] for b in r["boxes"] for h in b["hands"]
    )


def test_a_result_agrees_with_the_hand_it_came_from(tmp_path: Path) -> None:
    """The outcome beside each total is the one the settlement paid: a bust loses, a box
    over a busted dealer wins."""
    played = play("blackjack", tmp_path / "j.sqlite", rounds=LAST, seed=5)
    for result in board_facts(played.states[-1]["view"])["results"]:
        for box in result["boxes"]:
            for hand in box["hands"]:
                if hand["total"].startswith("bust"):
                    assert hand["outcome"] == "lose", result
                elif result["dealer"].startswith("bust") and hand["outcome"] != "void":
                    assert hand["outcome"] in {"win", "blackjack", "even_money"}, result


def test_the_results_survive_a_restart_by_replay(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    played = play("blackjack", path, rounds=3, seed=2)
    before = board_facts(played.states[-1]["view"])["results"]
    assert len(before) == 3
    for full in (True, False):  # every event again, or from the last snapshot on
        with Journal(path, key=KEY) as journal:
            loop = new_loop("blackjack", journal, events=None, publish=None)
            loop.replay(full=full)
            assert board_facts(loop.game.view())["results"] == before


def test_the_round_in_play_only_never_a_wager_a_person_or_the_hold() -> None:
    view = {
        "round": 4,
        "dealer": {"cards": ["5c", "7h"], "total": "12"},
        "boxes": [
            {"number": 1, "wagers": {"p1": 20}, "people": [{"person": "p1", "pay": 20}],
             "hands": [{"cards": ["7c", "Ts"], "total": "17", "acting": True}]},
            {"number": 2, "wagers": {}, "hands": []},
        ],
        "hold": [{"rule": "3.3", "card": "9d"}],
        "hold_text": "rule 3.3: a foreign card (9d)",
        "decisions": [{"decision": "keep_card"}],
        "results": [
            {"round": 3, "dealer": "bust 24", "staff": "d07",
             "boxes": [{"box": 1, "hands": [{"total": "20", "outcome": "win", "paid": 20}]}]}
        ],
    }  # fmt: skip
    facts = board_facts(view)
    assert facts["dealer"] == {"cards": ["5c", "7h"], "total": "12"}
    assert facts["boxes"] == [{"number": 1, "hands": [{"cards": ["7c", "Ts"], "total": "17"}]}]
    assert facts["results"] == [
        {"round": 3, "dealer": "bust 24", "void": False,
         "boxes": [{"box": 1, "hands": [{"total": "20", "outcome": "win"}]}]}
    ]  # fmt: skip
    text = json.dumps(facts)
    for private in ("9d", "d07", "wagers", "people", "pay", "keep_card", "acting"):
        assert private not in text, private
