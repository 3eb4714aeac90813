"""A baccarat view known by hand, for the pages that draw it (the status page's and the pit
floor's board): a coup settled mid-shoe on the worked shoe of tests/controller/baccarat/
test_roads.py (B B T P P P B P B B), so every count and place a test reads is the
hand-drawn one, not read back from the code under test; and the script that draws it."""

from __future__ import annotations

from typing import Any

from controller.baccarat.roads import compute

PAGE_SCRIPT = "controller.baccarat:static/baccarat.js"
WORKED = "BBTPPPBPBB"
TOTALS = {"B": ("banker", 3, 5), "P": ("player", 6, 2), "T": ("tie", 4, 4)}


def results(letters: str) -> list[dict[str, Any]]:
    out = []
    for c in letters:
        winner, player, banker = TOTALS[c]
        out.append(
            {
                "winner": winner,
                "player_total": player,
                "banker_total": banker,
                "natural": False,
                "player_pair": False,
                "banker_pair": False,
            }
        )
    return out


def known_view(letters: str = WORKED, **more: Any) -> dict[str, Any]:
    """A coup settled mid-shoe: Banker 7 beats Player 5; box 1 won on Banker (commission
    owed 0.50, collected as 1), box 3 lost on Player and has a Tie wager."""
    shoe = results(letters)
    shoe[1]["banker_pair"] = True  # the second coup: a Banker pair (a red dot, top left)
    view: dict[str, Any] = {
        "renderer": "baccarat",
        "round_word": "coup",
        "state": "settlement",
        "coup": len(shoe),
        "next_action": "Banker wins 7 to 5: pay and collect, then NEXT",
        "player": {"cards": ["3h", "2c"], "total": 5, "due": False},
        "banker": {"cards": ["Kd", "7s"], "total": 7, "due": False},
        "result": {**shoe[-1], "player_total": 5, "banker_total": 7, "coup": len(shoe)},
        "boxes": [
            {
                "number": 1,
                "bets": {"banker": 10},
                "commission_owed": 50,
                "commission_to_collect": 1,
                "payouts": [
                    {"bet": "banker", "outcome": "win", "won": 10, "lost": 0, "returned": 10}
                ],
            },
            {
                "number": 3,
                "bets": {"player": 5, "tie": 2},
                "commission_owed": 0,
                "commission_to_collect": 0,
                "payouts": [
                    {"bet": "player", "outcome": "lose", "won": 0, "lost": 5, "returned": 0},
                    {"bet": "tie", "outcome": "lose", "won": 0, "lost": 2, "returned": 0},
                ],
            },
        ],
        "results": shoe,
        "roads": compute(shoe),
        "shoe": {"number": 1, "decks": 8, "coups": len(shoe), "cut_card_out": False},
        "rules": {"commission_rule": "5.10(b)"},
        "buttons": {"next": True, "no_more_bets": False, "shuffled": False},
        "violations": [],
        "hold": None,
        "decisions": [],
    }
    view.update(more)
    return view
