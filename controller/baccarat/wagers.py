"""The wagers' rules as pure checks over a table's settings and boxes: what a box may
wager (limits, chips, the wager's name, never the Player and the Banker together), the
table differential at NO MORE BETS, and a commission account's collection. Each raises
`IllegalAction` naming the rule; the table calls them before it changes anything."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from controller.baccarat.rules import (
    COMMISSION_RULE,
    DIFFERENTIAL_RULE,
    PAIR_RULE,
    WAGERS_RULE,
    BaccaratRules,
    Bet,
)
from controller.errors import IllegalAction

__all__ = [
    "check_commission",
    "check_differential",
    "check_pairs",
    "check_wager",
    "differential",
    "refuse",
]

Boxes = Sequence[dict[Bet, int]]
_BETS: dict[object, Bet] = {bet.value: bet for bet in Bet}
_OTHER = {Bet.PLAYER: Bet.BANKER, Bet.BANKER: Bet.PLAYER}
_PAIRS = (Bet.PLAYER_PAIR, Bet.BANKER_PAIR)
_MAIN = (Bet.BANKER, Bet.PLAYER, Bet.TIE)


def refuse(rule: str, message: str) -> NoReturn:
    raise IllegalAction(rule, message)


def check_wager(rules: BaccaratRules, boxes: Boxes, box: int, bet: str, amount: int) -> Bet:
    """The wager ``bet`` of ``amount`` on ``box`` (0 withdraws it) fits the table: its
    limits (``[limits]``) in whole chips, on one of the layout's five wagers, and never
    on the Player and the Banker together (NSW Mini Baccarat 5) unless the casino allows."""
    if not 1 <= box <= rules.boxes:
        refuse(WAGERS_RULE, f"no box {box}: this table has boxes 1 to {rules.boxes}")
    chosen = _BETS.get(bet)
    if chosen is None:
        refuse(WAGERS_RULE, f"no wager {bet!r}: one of {', '.join(Bet)}")
    if amount < 0 or amount % rules.chip_unit:
        refuse(WAGERS_RULE, f"a wager of {amount} is not in chips of {rules.chip_unit}")
    if amount and not rules.minimum_wager <= amount <= rules.maximum_wager:
        refuse(
            WAGERS_RULE,
            f"a wager of {amount} is outside the table's limits "
            f"{rules.minimum_wager} to {rules.maximum_wager}",
        )
    other = _OTHER.get(chosen)
    if amount and other in boxes[box - 1] and not rules.player_and_banker_together:
        refuse(
            WAGERS_RULE,
            f"box {box} already wagers on the {other}: never on the Player and the Banker together",
        )
    return chosen


def differential(boxes: Boxes) -> int:
    """Banker stakes less Player stakes ("Table Differential", G98-260: the difference)."""
    return sum(b.get(Bet.BANKER, 0) - b.get(Bet.PLAYER, 0) for b in boxes)


def check_differential(rules: BaccaratRules, boxes: Boxes) -> int:
    """The coup's differential, refused over the casino's limit (the NZ text defines the
    term; the limit, as in the NSW-style rules, is the casino's setting)."""
    diff = differential(boxes)
    limit = rules.table_differential
    if limit is not None and abs(diff) > limit:
        refuse(
            DIFFERENTIAL_RULE,
            f"the Banker and Player stakes differ by {abs(diff)}, over the table "
            f"differential of {limit}: a wager must come off or be matched before NO MORE BETS",
        )
    return diff


def check_pairs(rules: BaccaratRules, boxes: Boxes) -> None:
    """With ``pair_needs_main_wager``, no box's pair wager stands alone at NO MORE BETS: the
    casino page's pair wager requires a Banker, Player or Tie wager beside it (PAIR_RULE;
    the NZ text we have is silent). Checked when the coup's stakes are fixed, not as each
    chip goes down: until NO MORE BETS a box may place its wagers in any order and take any
    of them back (NSW Mini Baccarat 5), so only the wagers standing then say whether a
    pair stands alone."""
    if not rules.pair_needs_main_wager:
        return
    alone = [
        n
        for n, box in enumerate(boxes, 1)
        if any(box.get(p) for p in _PAIRS) and not any(box.get(m) for m in _MAIN)
    ]
    if alone:
        which = ", ".join(map(str, alone))
        refuse(
            PAIR_RULE,
            f"a pair wager stands alone on box {which}: it needs a Banker, Player or Tie "
            "wager beside it before NO MORE BETS",
        )


def check_commission(rules: BaccaratRules, owed: Sequence[int], box: int) -> int:
    """What ``box``'s commission account owes (hundredths), if there is anything."""
    if not 1 <= box <= rules.boxes:
        refuse(COMMISSION_RULE, f"no box {box}: this table has boxes 1 to {rules.boxes}")
    if not owed[box - 1]:
        refuse(COMMISSION_RULE, f"box {box} owes no commission")
    return owed[box - 1]
