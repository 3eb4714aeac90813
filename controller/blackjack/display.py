"""The status display's model: a frozen, JSON-serialisable snapshot of the table.

Built on demand (not on every card) by `snapshot`, which the status page renders. It says
what the dealer must do next in words that cite the rule, what each box is owed, and
every open violation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from controller.blackjack.hand import Hand
from controller.cards import ACE

if TYPE_CHECKING:
    from controller.blackjack.machine import BlackjackTable

__all__ = ["BoxView", "HandView", "TableView", "snapshot"]


@dataclass(frozen=True, slots=True)
class HandView:
    cards: tuple[str, ...]
    total: str  # "soft 17", "20", "bust 24", "blackjack"
    doubled: bool
    acting: bool


@dataclass(frozen=True, slots=True)
class BoxView:
    number: int
    wagers: dict[str, int]  # person ("p1" holds the box) -> initial wager in chip units
    insurance: dict[str, int]
    hands: tuple[HandView, ...]
    owed: int  # chips the dealer must hand to this box (stakes returned + winnings)
    collect: int  # chips the dealer takes from this box


@dataclass(frozen=True, slots=True)
class TableView:
    round: int
    state: str
    dealer: HandView
    boxes: tuple[BoxView, ...]
    next_action: str
    buttons: dict[str, bool]
    gate_locked: bool
    shuffle_due: str | None
    hold: tuple[dict[str, Any], ...]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _hand_view(hand: Hand, acting: bool) -> HandView:
    total = hand.describe() if hand.cards else ""
    return HandView(tuple(str(c) for c in hand.cards), total, hand.doubled, acting)


def _boxes(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def next_action(table: BlackjackTable) -> str:
    """What the dealer must do next, citing the rule."""
    state = table.state
    if state == "hold":
        last = table.violations[-1] if table.violations else None
        why = f"rule {last.rule}: {last.message}" if last else "on hold"
        return f"HOLD ({why}): a supervisor must clear the table"
    if table.awaiting_removal:
        paid, rule = table._removals[0]
        won = sum(p.won for p in table.payouts if p.at_once and p.box == paid.number)
        return (
            f"Pay box {paid.number}: {won} won at once (rule {rule}), then remove its cards "
            "to the discard rack"
        )
    if state == "round_over":
        if table.shuffle.due:
            return f"Shuffle the shoe (rule {table.shuffle.due}), then press NEXT"
        return "Press NEXT to open betting"
    if state == "betting":
        return "Take wagers, then press NO MORE BETS (rule 4.2)"
    if state in ("no_more_bets", "initial_deal"):
        order = table._deal_order
        pos = table._deal_pos if state == "initial_deal" else 0
        target = order[pos] if pos < len(order) else None
        if target is None:
            return "Deal the dealer's first card"
        return f"Deal a card to box {target.number}"
    if state == "insurance":
        return (
            "Insurance open on the dealer's ace: up to half the wager (rules 9.2, 9.3); "
            "even money on blackjacks (10.3); press NEXT to close"
        )
    if state == "boxes_acting":
        box, hand = table.current_box, table.current_hand
        if box is None or hand is None:
            return "Boxes acting"
        if len(hand.cards) < 2:
            return f"Deal box {box.number}'s split hand its second card"
        return f"Box {box.number}: {hand.describe()}: draw, stand (NEXT), double or split"
    if state == "dealer_second":
        return "Draw the dealer's second card (no hole card: after every box has acted)"
    if state == "insurance_settlement":
        boxes = [
            b.number for b in table._boxes_in_play if b.insurance.keys() - b.insurance_collected
        ]
        return f"Collect losing insurance: boxes {_boxes(boxes)} (rule 9.5)"
    if state == "dealer_drawing":
        return f"Dealer draws: {table.dealer.describe()} (dealer draws to 17)"
    if state == "settlement":
        return "Pay and collect as shown (rule 4.1), then press NEXT"
    return state


def snapshot(table: BlackjackTable) -> TableView:
    """The table as the status page shows it."""
    owed: dict[int, int] = {}
    collect: dict[int, int] = {}
    for p in table.payouts:
        if not p.at_once:
            owed[p.box] = owed.get(p.box, 0) + p.returned + p.won
            collect[p.box] = collect.get(p.box, 0) + p.lost
    current = table.current_hand
    boxes = tuple(
        BoxView(
            b.number,
            {f"p{k}": v for k, v in sorted(b.stakes.items())},
            {f"p{k}": v for k, v in sorted(b.insurance.items())},
            tuple(_hand_view(h, h is current) for h in b.hands),
            owed.get(b.number, 0),
            collect.get(b.number, 0),
        )
        for b in table.boxes
        if b.stakes
    )
    acting = table.current_box
    n = 0 if acting is None else acting.number
    buttons = {
        "double": bool(n) and table.can_double(n),
        "split": bool(n) and table.can_split(n),
        "stand": bool(n) and table.can_stand(n),
        "no_more_bets": table.state == "betting" and any(b.stakes for b in table.boxes),
        "insurance_open": table.state == "insurance"
        and bool(table.dealer.cards)
        and table.dealer.cards[0].rank == ACE,
    }
    return TableView(
        table.round,
        table.state,
        _hand_view(table.dealer, False),
        boxes,
        next_action(table),
        buttons,
        bool(table._gate_locked),
        table.shuffle.due,
        tuple(asdict(v) for v in table.violations),
    )
