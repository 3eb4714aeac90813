"""The status page's view of the poker table: frozen, JSON-serialisable, rule-cited.

`status(table)` is a snapshot; the web display (a later issue) renders
``status(table).as_dict()``. It says whose action it is and what they may do (with the
11.5 wager bounds), the draw (who draws, how many, what 11.3(b) lets the dealer reshuffle),
the showdown order of 11.4(c), the awards of 11.4(d) with the odd chip, and any HOLD with
the rule it cites.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from controller.poker.pots import pots_in_play
from controller.poker.table import PokerTable


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    stack: int
    in_hand: bool
    folded: bool
    all_in: bool
    bet: int  # in the current betting round
    contributed: int  # in this hand
    cards: int  # cards held (what the controller knows of them is not shown)
    blind: int | None  # 1 for the first blind, 2 for the second...


@dataclass(frozen=True, slots=True)
class ActionView:
    """What the seat to act may do (11.2(c) / 11.4(a)-(b); wager bounds 11.5(a))."""

    seat: int
    rule: str
    can_check: bool
    call: int  # chips to call, 0 when a check is possible
    can_raise: bool
    raise_min: int  # chips added above the call
    raise_max: int
    can_fold: bool


@dataclass(frozen=True, slots=True)
class DrawView:
    """11.3: who draws, what was announced, and the 11.3(b) reshuffle when the stub ran out."""

    drawer: int | None
    announced: int | None
    owed: int | None
    stub: int
    discards_by_owner: tuple[tuple[int, int], ...]
    reshuffle: dict[str, Any] | None  # the latest 11.3(b) reshuffle (again when it runs out)
    pile: int | None  # cards left in the reshuffled discards; None before the stub ran out


@dataclass(frozen=True, slots=True)
class PokerStatus:
    state: str
    hand: int
    button: int | None
    button_dead: bool
    blinds: tuple[int, ...]
    limits: tuple[int, int]  # the table notice, 11.5(a)
    seats: tuple[SeatView, ...]
    # (chips, seats that can still win it), main pot first; a side pot only where a live
    # seat is all in (`pots.pots_in_play`)
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    uncalled: tuple[tuple[int, int], ...]  # (seat, chips) no one left can call: returned
    action: ActionView | None
    draw: DrawView | None
    showdown: dict[str, Any] | None
    showdown_seats: tuple[int, ...]  # 11.4(c): hands any player may ask to see, now
    requests: tuple[dict[str, Any], ...]  # 11.4(c): requests to see hands, this hand
    settlement: dict[str, Any] | None
    hold: dict[str, Any] | None
    stakes: tuple[int, ...] = ()  # the blinds' amounts, first blind first (the table's sign)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def status(table: PokerTable) -> PokerStatus:
    rules = table.rules
    positions = table.positions
    phase = table.phase  # on HOLD, the hand as it stood when the HOLD went up
    betting = table.betting if phase in ("first_round", "final_round") else None
    blind_of = {seat: i + 1 for i, seat in enumerate(positions.blinds)} if positions else {}
    seats = tuple(
        SeatView(
            seat,
            table.stacks[seat],
            seat in table.hands,
            seat in table.folded,
            seat in table.all_in,
            betting.bets.get(seat, 0) if betting else 0,
            table.contributed.get(seat, 0),
            len(table.hands.get(seat, ())) + table.unknown_kept.get(seat, 0),
            blind_of.get(seat),
        )
        for seat in sorted(table.stacks)
    )
    action = None
    if betting is not None and betting.to_act is not None and table.hold is None:
        seat = betting.to_act
        low, high = betting.raise_bounds(seat)
        action = ActionView(
            seat,
            betting.turn_rule(),
            table.can_check(seat),
            betting.to_call(seat),
            low > 0 and table.can_raise(seat, low),
            low,
            high,
            True,
        )
    draw_view = None
    draw = table.draw
    if draw is not None and phase == "drawing":
        rack = draw.rack
        owners = sorted(set(rack.known) | set(rack.unknown))
        draw_view = DrawView(
            draw.drawer,
            draw.owed,
            draw.owed,
            max(draw.stub, 0),
            tuple((s, len(rack.known.get(s, ())) + rack.unknown.get(s, 0)) for s in owners),
            draw.reshuffle.as_dict() if draw.reshuffle else None,
            draw.pile_left if draw.reshuffled else None,
        )
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    uncalled: tuple[tuple[int, int], ...] = ()
    if phase not in ("waiting", "complete") and table.contributed:
        live = [s for s in table.in_hand if s not in table.folded]
        built, returns = pots_in_play(table.contributed, live, table.all_in)
        pots = tuple((p.amount, p.eligible) for p in built)
        uncalled = tuple(sorted(returns.items()))
    occupied = set(table.stacks)
    over = phase in ("showdown", "complete")
    return PokerStatus(
        state=table.state,
        hand=table.hand_no,
        button=positions.button if positions else None,
        button_dead=bool(positions and positions.button not in occupied),
        blinds=positions.blinds if positions else (),
        limits=(rules.minimum_wager, rules.maximum_wager),
        seats=seats,
        pots=pots,
        uncalled=uncalled,
        action=action,
        draw=draw_view,
        # the showdown and the awards belong to the hand just played: off the screen
        # once the next hand is dealt (11.4(c), 11.4(d))
        showdown=table.showdown_order.as_dict() if table.showdown_order and over else None,
        showdown_seats=table.showdown_seats if over else (),
        requests=tuple(r.as_dict() for r in table.requests),
        settlement=table.last_settlement.as_dict() if table.last_settlement and over else None,
        hold=table.hold.as_dict() if table.hold else None,
        stakes=tuple(rules.blinds),
    )
