"""The baccarat table as the status display and the pit see it: plain JSON from the
table's read-only state (nothing here changes the table).

The view carries the coup's hands and totals, each box's wagers and commission account,
the result and payouts, the dealer's NEXT line (the card due, for which hand, and the
rule), the HOLD, and the shoe: its results since the new shoe (``results``, one entry per
coup) and the five scoreboards drawn from them (``roads``, `controller.baccarat.roads`).
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from controller.baccarat import roads
from controller.baccarat.phases import DEALING
from controller.baccarat.rules import (
    COMMISSION_ACCOUNT_RULE,
    COMMISSION_RULE,
    DEALING_STYLE_TERMS,
    Bet,
)
from controller.baccarat.settlement import collect
from controller.game.records import cite

if TYPE_CHECKING:
    from controller.baccarat.table import BaccaratTable

__all__ = ["next_action", "snapshot"]

_ROADS_CACHE: dict[int, tuple[tuple[Any, ...], dict[str, Any]]] = {}


def next_action(table: BaccaratTable) -> str:
    """What the dealer must do next, in the dealer's words, with the rule."""
    state = table.state
    if state == "hold":
        first = table.violations[0] if table.violations else None
        why = f": {first.message} ({cite(first.rule)})" if first else ""
        return f"HOLD{why}: a supervisor decides"
    due = table.due()
    if due is not None:
        return due[2]
    if state == "shuffle":
        return "New shoe: shuffle the cards and confirm SHUFFLED"
    if state == "betting":
        return "Place your bets: then NO MORE BETS"
    if state == "settlement":
        settled = table.settled
        if settled is not None and settled.void:
            return "Coup void: return every wager, then NEXT"
        result = table.result
        if result is None:
            return "NEXT"
        if result.winner == "tie":
            words = f"Tie {result.player_total} to {result.banker_total}"
        else:
            high = max(result.player_total, result.banker_total)
            low = min(result.player_total, result.banker_total)
            words = f"{result.winner.capitalize()} wins {high} to {low}"
        wrong = [m.text for m in table.payout_check.open.values()]
        if wrong:  # what the chips show against what the rules pay, box by box
            return f"{words}: {'; '.join(wrong)}: correct the spot, or a supervisor accepts"
        if not table.shoe.is_last(table.coup):
            return f"{words}: pay and collect, then NEXT"
        unsettled = _commission_unsettled(table)
        if unsettled:
            owing = ", ".join(f"box {b['box']}: {b['to_collect']}" for b in unsettled)
            return (
                f"{words}: pay and collect, collect the commission ({owing}; "
                f"{COMMISSION_ACCOUNT_RULE}), then NEXT ends the shoe"
            )
        return f"{words}: pay and collect, NEXT ends the shoe"
    return state


def _hand(cards: list[Any], total: int, due: bool) -> dict[str, Any]:
    return {"cards": [str(c) for c in cards], "total": total if cards else None, "due": due}


def _boxes(table: BaccaratTable) -> list[dict[str, Any]]:
    unit = table.rules.chip_unit
    boxes = []
    for number, (bets, owed) in enumerate(zip(table.bets, table.commission_owed, strict=True), 1):
        if not bets and not owed:
            continue
        to_collect, _ = collect(owed, unit)
        payouts = [dataclasses.asdict(p) for p in table.payouts if p.box == number]
        wrong = [m.text for m in table.payout_check.open.values() if m.box == number]
        boxes.append(
            {
                "number": number,
                "bets": {bet.value: bets[bet] for bet in Bet if bet in bets},
                "commission_owed": owed,  # hundredths of a chip unit, exact
                "commission_to_collect": to_collect,  # whole chips, rounded up (COMMISSION_RULE)
                "commission_accepted": table.commission_accepted[number - 1],  # by a supervisor
                "payouts": payouts,
                "mismatch": "; ".join(wrong),  # the chips disagree with the payout, in words
            }
        )
    return boxes


def _commission_unsettled(table: BaccaratTable) -> list[dict[str, int]]:
    """The boxes whose commission must be collected (or accepted owed by a supervisor)
    before the shoe ends: what each owes (hundredths) and the chips to collect."""
    unit = table.rules.chip_unit
    return [
        {"box": box, "owed": owed, "to_collect": collect(owed, unit)[0]}
        for box, owed in table.commission_unsettled()
    ]


def _roads(table: BaccaratTable) -> dict[str, Any]:
    """The five roads, recomputed only when the shoe's history changed."""
    key = (table.shoe.number, len(table.shoe.results))
    cached = _ROADS_CACHE.get(id(table))
    if cached is not None and cached[0] == key:
        return cached[1]
    drawn = roads.compute(table.shoe.results)
    _ROADS_CACHE.clear()  # one table per process: keep the last only
    _ROADS_CACHE[id(table)] = (key, drawn)
    return drawn


def snapshot(table: BaccaratTable) -> dict[str, Any]:
    """The whole view (the game adds its decisions and the renderer's name)."""
    rules = table.rules
    shoe = table.shoe
    due = table.due()
    whom = due[0] if due is not None else ""
    settled = table.settled
    result = table.result
    return {
        "state": table.state,
        "coup": table.coup,
        "next_action": next_action(table),
        "due": None if due is None else {"hand": due[0], "rule": due[1], "text": due[2]},
        "player": _hand(table.player, table.player_total, whom == "player"),
        "banker": _hand(table.banker, table.banker_total, whom == "banker"),
        "boxes": _boxes(table),
        "wagers_open": table.state == "betting",
        "dealing": table.state in DEALING,
        "result": None if result is None else {**result.as_result(), "coup": result.coup},
        "settled": None if settled is None else dataclasses.asdict(settled),
        # each sensed spot after the result: what it should hold, what it reads, its state
        "payout_check": table.payout_check.spots(),
        "results": list(shoe.results),
        "roads": _roads(table),
        "shoe": {
            "number": shoe.number,
            "decks": rules.decks,
            "coups": shoe.coups,
            "cards_seen": table.audit.cards_seen,
            "cut_card_out": shoe.cut_card_out,
            "last_coup": shoe.last_coup,
            "burn_first": shoe.burn_first,
            "burns_due": shoe.burns_due,
            "shuffle_due": table.state == "shuffle",
            # to collect (or a supervisor accepts owed) before the shoe may end
            "commission_before_end": _commission_unsettled(table),
        },
        "hold": _hold(table),
        "violations": [v.as_dict() for v in table.violations],
        "gate_locked": table.gate_locked,
        "buttons": {
            "next": table.state == "settlement",
            "no_more_bets": table.state == "betting",
            "shuffled": table.state == "shuffle",
        },
        "rules": {
            "variant": rules.variant.value,
            "dealing_style": rules.dealing_style.value,  # A, or B: seated players handle
            "dealing_style_terms": DEALING_STYLE_TERMS,
            "commission_percent": rules.commission_percent,
            "commission_rule": COMMISSION_RULE,
            "chip_unit": rules.chip_unit,
            "tie_odds": rules.tie_odds,
            "pair_odds": rules.pair_odds,
            "minimum": rules.minimum_wager,
            "maximum": rules.maximum_wager,
            "table_differential": rules.table_differential,
            "boxes": rules.boxes,
        },
    }


def _hold(table: BaccaratTable) -> dict[str, Any] | None:
    """The HOLD as the page and the pit read it: the violation holding the table (its
    rule, message, card, who raised it, the state it was judged in) and the state the
    table resumes to; None when the table is not held."""
    if table.state != "hold":
        return None
    first = table.violations[0].as_dict() if table.violations else {}
    return {**first, "held_from": table.held_from}
