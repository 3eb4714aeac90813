"""The status display's model: a frozen, JSON-serialisable snapshot of the table.

Built on demand (not on every card) by `snapshot`, which the status page renders. It says
what the dealer must do next in words that cite the rule, what each box is owed, and
every open violation.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from controller.blackjack.hand import Box, Hand
from controller.blackjack.rules import OddStakes
from controller.blackjack.settlement import Kind, Outcome, blackjack_exact
from controller.cards import ACE
from controller.game.chips import money
from controller.game.records import cite

if TYPE_CHECKING:
    from controller.blackjack.table import BlackjackTable

__all__ = ["BoxView", "HandView", "PersonView", "TableView", "snapshot"]


@dataclass(frozen=True, slots=True)
class HandView:
    cards: tuple[str, ...]
    total: str  # "soft 17", "20", "bust 24", "blackjack"
    doubled: bool
    acting: bool


@dataclass(frozen=True, slots=True)
class PersonView:
    """One person's money on a box, as the dealer handles it. A stake stays on the layout
    when it is not lost: ``pay`` is the winnings the dealer adds to it (never the stake),
    ``take`` what the dealer collects, ``push`` a stand-off (4.1: neither wins nor loses)."""

    person: str  # "p1" holds the box
    wager: int  # the initial wager, in chip units
    insurance: int
    insurance_state: str  # "", "collected", "off the layout", "void"
    pay: int
    take: int
    push: bool
    void: bool  # the stake comes back: the hand was voided (9.6)
    paid_at_once: int  # already paid at once (10.1 3 to 2, 10.3a 1 to 1): marked PAID
    paid_rule: str  # "10.1" or "10.3(a)"
    note: str  # the exact 3 to 2 beside a casino's rounding; extra wagers returned


@dataclass(frozen=True, slots=True)
class BoxView:
    number: int
    wagers: dict[str, int]  # person ("p1" holds the box) -> initial wager in chip units
    insurance: dict[str, int]
    hands: tuple[HandView, ...]
    owed: int  # winnings the dealer adds to the stakes left on the layout (PAY)
    collect: int  # chips the dealer takes from this box (TAKE)
    people: tuple[PersonView, ...]
    void: bool  # a supervisor voided this box's hand (9.6)
    mismatch: str = ""  # the chips disagree with the payout (4.1), in words


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
    hold_text: str  # the HOLD banner: what, which rule, who raised it; each once
    burns_due: int  # cards still to burn after the shuffle
    refused_wagers: dict[str, str]  # spot -> why the chips on it are not a wager
    payout_check: tuple[dict[str, Any], ...] = ()  # each spot checked by the chips
    # the last rounds settled, for the players' board (controller/blackjack/board.py)
    results: tuple[dict[str, Any], ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _hand_view(hand: Hand, acting: bool) -> HandView:
    total = hand.describe() if hand.cards else ""
    return HandView(tuple(str(c) for c in hand.cards), total, hand.doubled, acting)


def _boxes(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def _cards(n: int) -> str:
    return f"{n} card{'' if n == 1 else 's'}"


def hold_text(table: BlackjackTable) -> str:
    """The HOLD banner: each distinct violation once, with who raised it and the cards."""
    groups: dict[tuple[str, str, str], list[str]] = {}
    for v in table.violations:
        cards = groups.setdefault((v.rule, v.message, v.by), [])
        if v.card:
            cards.append(v.card)
    parts = []
    for (rule, message, by), cards in groups.items():
        text = f"{cite(rule)}: {message}"
        if by:
            text += f" (raised by {by}"
            text += f": {', '.join(cards)})" if cards else ")"
        parts.append(text)
    if not parts:
        return "the table is on hold" if table.state == "hold" else ""
    return "; ".join(parts)


def _play_options(table: BlackjackTable, box: int) -> str:
    options = ["draw"]
    if table.can_stand(box):
        options.append("stand (NEXT)")
    if table.can_double(box):
        options.append("double")
    if table.can_split(box):
        options.append("split")
    if len(options) == 1:
        return options[0]
    return ", ".join(options[:-1]) + " or " + options[-1]


def next_action(table: BlackjackTable) -> str:
    """What the dealer must do next, citing the rule."""
    state = table.state
    burns = table.shuffle.burns_due
    if state == "hold":
        return (
            "A supervisor must clear the HOLD: keep the card(s), void the round, or void "
            "one box's hand (rule 9.6)"
        )
    if table.awaiting_removal:
        paid, rule = table.removals[0]
        won = sum(p.won for p in table.payouts if p.at_once and p.box == paid.number)
        return (
            f"Pay box {paid.number}: {won} won at once (rule {rule}), then remove its cards "
            "to the discard rack"
        )
    if state == "round_over":
        if table.shuffle.due:
            return (
                f"Shuffle the shoe (rule {table.shuffle.due}), then confirm SHUFFLED "
                "(NEXT does not)"
            )
        if burns:
            return f"Burn {_cards(burns)} (a burn after the shuffle), then press NEXT"
        return "Press NEXT to open betting"
    if state == "betting":
        text = "Take wagers, then press NO MORE BETS (rule 4.2)"
        if burns:
            text = f"Burn {_cards(burns)} (after the shuffle); " + text[0].lower() + text[1:]
        refused = "; ".join(f"{spot}: {why}" for spot, why in table.refused_wagers.items())
        return f"{text}. REFUSED {refused}" if refused else text
    if state in ("no_more_bets", "initial_deal"):
        if burns and state == "no_more_bets":
            return f"Burn {_cards(burns)} (a burn after the shuffle), then deal"
        order = table.deal_order
        pos = table.deal_position if state == "initial_deal" else 0
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
        if hand.doubled:
            return f"Box {box.number}: doubled: deal it one card"
        return f"Box {box.number}: {hand.describe()}: {_play_options(table, box.number)}"
    if state == "dealer_second":
        return "Draw the dealer's second card (no hole card: after every box has acted)"
    if state == "insurance_settlement":
        waiting = [b for b in table.boxes_in_play if b.insurance.keys() - b.insurance_collected]
        text = f"Collect losing insurance: boxes {_boxes([b.number for b in waiting])} (rule 9.5)"
        off = [b.number for b in waiting if b.insurance_off - b.insurance_collected]
        if off:
            text += (
                f"; box {_boxes(off)}'s insurance was taken off the layout: collect it from "
                "the player, then press INSURANCE CLOSED"
            )
        return text
    if state == "dealer_drawing":
        return f"Dealer draws: {table.dealer.describe()} (dealer draws to 17)"
    if state == "settlement":
        wrong = [m.text for m in table.payout_check.open.values()]
        if wrong:
            return (
                f"PAYOUT MISMATCH: {'; '.join(wrong)}: correct the spot, or a supervisor "
                "accepts the difference with a reason; NEXT is refused (rule 4.1)"
            )
        return "Pay and collect as shown (rule 4.1), then press NEXT"
    return state


def _rounding(stake: int, won: int, chip: int, odd: OddStakes) -> list[str]:
    """The exact 3 to 2 beside the casino's rounding, when they differ (never silent)."""
    if blackjack_exact(stake, chip):
        return []
    way = "down" if odd is OddStakes.ROUND_DOWN else "up"
    exact = money(stake * 3 // 2) + (".50" if stake % 2 else "")  # whole, or a half more
    return [
        f"3 to 2 of {money(stake)} is {exact}: paid {money(won)} "
        f"(rounded {way} to chips of {money(chip)})"
    ]


def _people(table: BlackjackTable, box: Box, void_round: bool) -> tuple[PersonView, ...]:
    v = table.variants
    people = []
    for person in sorted(box.stakes):
        pay = take = at_once = 0
        push = void = False
        rule = ""
        notes = []
        for p in table.payouts:
            if p.box != box.number or p.person != person:
                continue
            if p.at_once and p.kind is Kind.WAGER:
                at_once += p.won
                rule = p.rule
                continue
            if p.at_once:  # losing insurance already collected (9.5)
                continue
            pay += p.won
            take += p.lost
            push = push or p.outcome is Outcome.PUSH
            void = void or (p.outcome is Outcome.VOID and p.kind is Kind.WAGER)
            if p.outcome is Outcome.RETURNED:
                notes.append(f"{p.returned} of the extra wager returned (dealer blackjack)")
            if p.outcome is Outcome.BLACKJACK:
                notes += _rounding(p.stake, p.won, v.smallest_chip, v.odd_stakes)
        if rule == "10.1":
            notes += _rounding(box.stakes[person], at_once, v.smallest_chip, v.odd_stakes)
        insurance = box.insurance.get(person, 0)
        ins_state = ""
        if insurance:
            if box.void or void_round:
                ins_state = "void"
            elif person in box.insurance_collected:
                ins_state = "collected"
            elif person in box.insurance_off:
                ins_state = "off the layout"
        people.append(
            PersonView(
                f"p{person}", box.stakes[person], insurance, ins_state, pay, take,
                push and not pay and not take, void, at_once, rule, "; ".join(notes),
            )
        )  # fmt: skip
    return tuple(people)


def snapshot(table: BlackjackTable) -> TableView:
    """The table as the status page shows it."""
    current = table.current_hand
    void_round = table.settled is not None and table.settled.void
    boxes = []
    check = table.payout_check
    for b in table.boxes:
        if not b.stakes:
            continue
        people = _people(table, b, void_round)
        wrong = "; ".join(m.text for m in check.open.values() if m.box == b.number)
        boxes.append(
            BoxView(
                b.number,
                {f"p{k}": v for k, v in sorted(b.stakes.items())},
                {f"p{k}": v for k, v in sorted(b.insurance.items())},
                tuple(_hand_view(h, h is current) for h in b.hands),
                sum(p.pay for p in people),
                sum(p.take for p in people),
                people,
                b.void,
                wrong,
            )
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
        "shuffled": table.can_shuffled(),
        "next": not (table.state == "settlement" and bool(check.open)),  # dark: 4.1
    }
    return TableView(
        table.round,
        table.state,
        _hand_view(table.dealer, False),
        tuple(boxes),
        next_action(table),
        buttons,
        bool(table.gate_locked),
        table.shuffle.due,
        tuple(asdict(v) for v in table.violations),
        hold_text(table),
        table.shuffle.burns_due,
        dict(table.refused_wagers),
        tuple(check.spots()),
    )
