"""Baccarat behind the game contract (`controller.game`), and its registry entry.

The table (`controller.baccarat.table.BaccaratTable`) takes device events through
``handle``; the console's inputs arrive as `ConsoleAction` events naming a rules-API call
(only those in `CONSOLE` reach the table) and a supervisor's as `SupervisorAction`.
`BaccaratGame` is the kernel's adapter (`controller.game.table.TableGame`): it says only its
view, its offers and its round. Nothing in controller/app names this game: the registry's
one entry finds it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from controller.baccarat import records
from controller.baccarat.board import board_facts
from controller.baccarat.display import snapshot
from controller.baccarat.edges import exact_edges
from controller.baccarat.phases import BETWEEN_COUPS, DEALING
from controller.baccarat.records import CoupResult, CoupSettled, HoldDecision, Payout
from controller.baccarat.rules import CARDS_RULE, SETTLEMENT_RULE, BaccaratRules
from controller.baccarat.table import BaccaratTable
from controller.errors import IllegalAction
from controller.game import chips
from controller.game.contract import GameSpec, figures_from, wager_limits
from controller.game.records import DecisionOffer, defined_in, offers
from controller.game.table import TableGame
from controller.ports import ConsoleButton, DeviceNeeds, Lamp, SupervisorAction
from controller.rating import BoxRound, RatingSettings, RoundFigures
from controller.shoe_audit import ShoeReport

CONSOLE = ("place_wager", "no_more_bets", "shuffled", "collect_commission")

# The supervisor's decisions on a HOLD, as the console offers them (the page copies nothing).
HOLD_DECISIONS = (
    DecisionOffer(
        HoldDecision.BURN_CARD,
        "Burn the card(s) out of turn: the coup goes on as the Table of Play says",
    ),
    DecisionOffer(HoldDecision.VOID_HAND, "Void the coup: every wager back (Void)"),
)
# Not a HOLD's: the chips on a box's spot disagree with what it is owed (SETTLEMENT_RULE).
ACCEPT_PAYOUT = DecisionOffer(
    "accept_payout",
    f"Accept the payout difference on a box ({SETTLEMENT_RULE}), with the reason",
    "box",
)
# Not a HOLD's: decisions between coups, each with the supervisor's reason.
ACCEPT_COMMISSION_OWED = DecisionOffer(
    "accept_commission_owed",
    "Accept the commission owed: the shoe may end with it on the boxes' accounts, with the "
    "reason (commission account, house procedure)",
)
ORDER_SHUFFLE = DecisionOffer(
    "order_shuffle",
    "Shuffle now: the shoe ends between coups, as the cutting card would end it, with the "
    "reason (shuffle ordered by a supervisor, house procedure)",
)
DECIDED_BETWEEN_COUPS = {
    ACCEPT_COMMISSION_OWED.decision: BaccaratTable.accept_commission_owed,
    ORDER_SHUFFLE.decision: BaccaratTable.order_shuffle,
}


class BaccaratGame(TableGame):
    table: BaccaratTable

    def __init__(self, rules: BaccaratRules) -> None:
        super().__init__(SPEC, BaccaratTable(rules))

    @property
    def round_no(self) -> int:
        return self.table.coup

    def snapshot(self) -> object:
        return snapshot(self.table)

    def offered(self) -> list[dict[str, Any]]:
        table = self.table
        state = table.state
        between = state not in DEALING and state != "hold"
        return offers(
            *HOLD_DECISIONS,
            *([ACCEPT_PAYOUT] if table.payout_check.open else []),
            *([ACCEPT_COMMISSION_OWED] if between and any(table.commission_owed) else []),
            *([ORDER_SHUFFLE] if between and state in BETWEEN_COUPS else []),
        )

    # --- player rating (docs/ratings.md) ---------------------------------------------------

    def rating_boxes(self) -> Collection[int]:
        return range(1, self.table.rules.boxes + 1)

    def rating_edges(self, settings: RatingSettings) -> Mapping[str, Fraction]:
        """Each wager's exact edge under this table's variant, decks and odds."""
        return exact_edges(self.table.rules)

    def wager_source(self) -> str:
        return "chips" if self.table.rules.chip_readers else "console"

    def rating_round(self, records: list[Any]) -> RoundFigures | None:
        """Each box's stakes by wager, and its result from the coup's payouts: what was
        won less what was lost, less the commission owed on its account (hundredths)."""
        settled = records[-1]
        if not isinstance(settled, CoupSettled):
            return None
        wagers: dict[int, dict[str, int]] = {}
        results: dict[int, int] = {}
        for record in records:
            if isinstance(record, Payout):
                box = wagers.setdefault(record.box, {})
                box[record.bet] = box.get(record.bet, 0) + record.stake
                results[record.box] = (
                    results.get(record.box, 0)
                    + (record.won - record.lost) * 100
                    - record.commission
                )
        boxes = {n: BoxRound(n, wagers[n], results[n]) for n in wagers}
        return RoundFigures(settled.coup, boxes, void=settled.void)

    def decide(self, event: SupervisorAction) -> None:
        """A HOLD's clear; a payout difference a supervisor accepts on a box
        (``accept_payout``); or a decision between coups; each of the last with the reason."""
        reason = event.reason or str(event.args.get("reason") or "")
        between = DECIDED_BETWEEN_COUPS.get(event.decision)
        if event.decision == "accept_payout":
            box = event.args.get("box")
            if type(box) is not int:
                raise IllegalAction(SETTLEMENT_RULE, "accept_payout names the box, a whole number")
            self.table.accept_payout(event.who, box, reason)
        elif between is not None:
            between(self.table, event.who, reason)
        else:
            self.table.supervisor_clear(event.who, event.decision)


SPEC = GameSpec(
    name="baccarat",
    rules=BaccaratRules,
    make=BaccaratGame,
    devices=DeviceNeeds(
        buttons=(
            ConsoleButton.NO_MORE_BETS,
            ConsoleButton.NEXT,
            ConsoleButton.VOID_HAND,
            ConsoleButton.SUPERVISOR,
        ),
        lamps=(Lamp.BETTING_OPEN, Lamp.DEALER_ACTION, Lamp.HOLD),
    ),
    console={name: getattr(BaccaratTable, name) for name in CONSOLE},
    decisions={
        **{d.value: BaccaratTable.supervisor_clear for d in HoldDecision},
        "accept_payout": BaccaratTable.accept_payout,
        **DECIDED_BETWEEN_COUPS,
    },
    from_limits=wager_limits,
    decks=lambda rules: int(rules.decks),
    foreign_card_rule=CARDS_RULE,  # NSW Baccarat 3.1: the shoe's 6 or 8 decks of 52
    private_cards=False,  # every card is dealt face up
    round_end="CoupSettled",
    sim_dealer="sim_hardware.baccarat_dealer:BaccaratDealer",
    renderer="baccarat",
    page_script="controller.baccarat:static/baccarat.js",  # its drawing (hands, roads, boxes)
    round_word="coup",
    title="Baccarat",
    records=(*defined_in(records), CoupResult, Payout, ShoeReport, *defined_in(chips)),
    # the drop is the wagers in; the house's result is negative when the players won (the
    # commission owed is on the boxes' accounts, journaled when collected)
    settlement_figures=figures_from("wagers_in", "house_result"),
    simulator="controller.baccarat.simulate",
    board=board_facts,
    state_words={  # the floor's words for the states of phases.py
        "shuffle": "New shoe due",
        "burn": "Burning",
        "betting": "Taking bets",
        "initial_deal": "Dealing",
        "player_third": "Player's third card",
        "banker_third": "Banker's third card",
        "settlement": "Paying and taking",
        "hold": "HOLD",
    },
)
