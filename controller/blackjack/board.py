"""Blackjack's players' board: the round in play and the last results per box, picked
from the game's published view by whitelist (docs/display.md, "The players' board").

Every blackjack card here is dealt face up and there is no hole card, so the board shows
the dealer's and each box's cards and totals as the deal goes, and `LAST` finished rounds:
each box's total and outcome (win, blackjack, push, lose...) against the dealer's total.
No wager, person, payout, HOLD, button or dealer's name reaches it.

The view carries the finished rounds because the game keeps them (`round_result`, kept
by `controller.blackjack.game.BlackjackGame`): rebuilt by the journal's replay like the
rest of the game's state, so the board's history survives a restart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from controller.blackjack.settlement import Kind

if TYPE_CHECKING:
    from controller.blackjack.table import BlackjackTable

LAST = 8  # finished rounds kept for the board (and in the game's state)
OUTCOMES = ("win", "blackjack", "even_money", "lose", "push", "returned", "void")


def round_result(table: BlackjackTable) -> dict[str, Any]:
    """A settled round as the board lists it: the dealer's total, and for each box in play
    each hand's total and the box holder's outcome (person 1 decides play)."""
    outcome: dict[tuple[int, int], str] = {}
    for payout in table.payouts:
        if payout.kind is Kind.WAGER and payout.person == 1:
            outcome[(payout.box, payout.hand)] = str(payout.outcome)
    settled = table.settled
    boxes = [
        {
            "box": box.number,
            "hands": [
                {
                    "total": hand.describe() if hand.cards else "",
                    "outcome": outcome.get((box.number, index + 1), "void"),
                }
                for index, hand in enumerate(box.hands)
            ],
        }
        for box in table.boxes_in_play
    ]
    dealer = table.dealer
    return {
        "round": table.round,
        "dealer": dealer.describe() if dealer.cards else "",
        "void": bool(settled is not None and settled.void),
        "boxes": boxes,
    }


def _hand(hand: Any) -> dict[str, Any]:
    if not isinstance(hand, Mapping):
        return {"cards": [], "total": ""}
    return {
        "cards": [str(c) for c in hand.get("cards") or []],
        "total": str(hand.get("total") or ""),
    }


def _result(result: Any) -> dict[str, Any] | None:
    if not isinstance(result, Mapping):
        return None
    boxes = []
    for box in result.get("boxes") or []:
        if not isinstance(box, Mapping):
            continue
        hands = [
            {
                "total": str(h.get("total") or ""),
                "outcome": h.get("outcome") if h.get("outcome") in OUTCOMES else "void",
            }
            for h in box.get("hands") or []
            if isinstance(h, Mapping)
        ]
        boxes.append({"box": box.get("box"), "hands": hands})
    return {
        "round": result.get("round"),
        "dealer": str(result.get("dealer") or ""),
        "void": bool(result.get("void")),
        "boxes": boxes,
    }


def board_facts(view: dict[str, Any]) -> dict[str, Any]:
    """The players' board of a blackjack table, from its view (pure; whitelist only)."""
    boxes = [
        {"number": box.get("number"), "hands": [_hand(h) for h in box.get("hands") or []]}
        for box in view.get("boxes") or []
        if isinstance(box, Mapping) and box.get("hands")
    ]
    results = [r for r in map(_result, view.get("results") or []) if r is not None]
    return {
        "round": view.get("round"),
        "dealer": _hand(view.get("dealer")),
        "boxes": boxes,
        "results": results[-LAST:][::-1],  # the newest first
    }
