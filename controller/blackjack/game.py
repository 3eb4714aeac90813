"""Blackjack behind the game contract (`controller.game`), and its registry entry.

The table (`controller.blackjack.table.BlackjackTable`) takes device events through
``handle``. The console's richer inputs arrive as `ConsoleAction` events naming a
rules-API call, and supervisors' decisions as `SupervisorAction`; only the calls listed in
`CONSOLE` and `SPEC.decisions` reach the table, so a console can never reach anything else.
`BlackjackGame` is the kernel's adapter (`controller.game.table.TableGame`); it says only
its view, its offers, its round and the decisions that take more than a HOLD's clear.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from controller.blackjack import board, records
from controller.blackjack.display import snapshot
from controller.blackjack.records import HoldDecision, RoundSettled
from controller.blackjack.rules import FOREIGN_CARD_RULE, Variants
from controller.blackjack.settlement import Payout
from controller.blackjack.table import BlackjackTable
from controller.errors import IllegalAction
from controller.game import chips
from controller.game.contract import GameSpec, Output, figures_from
from controller.game.records import DecisionOffer, defined_in, offers
from controller.game.table import TableGame
from controller.ports import ConsoleButton, DeviceNeeds, Event, Lamp, SupervisorAction
from controller.shoe_audit import ShoeReport

CONSOLE = (
    "place_wager",
    "no_more_bets",
    "insure",
    "even_money",
    "double",
    "split",
    "stand",
    "confirm_removal",
    "shuffled",
)


# The supervisor's decisions on a HOLD, as the console offers them (the page copies nothing).
HOLD_DECISIONS = (
    DecisionOffer(HoldDecision.KEEP_CARD, "Keep the card: it stands where the deal puts it"),
    DecisionOffer(HoldDecision.VOID_HAND, "Void the hand (rule 9.6): unsettled wagers back"),
    DecisionOffer(
        HoldDecision.VOID_BOX,
        "Void one box's hand (rule 9.6): its wagers back, play goes on",
        "box",
    ),
)
# Not a HOLD's: the payout on a box disagrees with its chips (4.1).
ACCEPT_PAYOUT = DecisionOffer(
    "accept_payout",
    "Accept the payout difference on a box (rule 4.1), with the reason",
    "box",
)
_OFFERED = offers(*HOLD_DECISIONS)
_WITH_PAYOUT = offers(*HOLD_DECISIONS, ACCEPT_PAYOUT)


class BlackjackGame(TableGame):
    table: BlackjackTable

    def __init__(self, variants: Variants) -> None:
        super().__init__(SPEC, BlackjackTable(variants))
        # the last rounds settled, for the players' board: game state like the rest, so
        # the journal's replay rebuilds it (controller/blackjack/board.py)
        self.results: list[dict[str, Any]] = []

    @property
    def round_no(self) -> int:
        return self.table.round

    def handle(self, event: Event) -> list[Output]:
        outputs = super().handle(event)
        if any(isinstance(output, RoundSettled) for output in outputs):
            self.results = [*self.results, board.round_result(self.table)][-board.LAST :]
        return outputs

    def snapshot(self) -> object:
        return dataclasses.replace(snapshot(self.table), results=tuple(self.results))

    def offered(self) -> list[dict[str, Any]]:
        return list(_WITH_PAYOUT if self.table.payout_check.open else _OFFERED)

    def decide(self, event: SupervisorAction) -> None:
        table = self.table
        if event.decision == "accept_payout":  # the chips disagree with 4.1
            box = event.args.get("box")
            if type(box) is not int:
                raise IllegalAction("4.1", "accept_payout names the box, a whole number")
            reason = event.reason or event.args.get("reason") or ""
            table.accept_payout(event.who, box, str(reason))
        elif event.decision in ("change_wager", "override_limit"):
            # a wager the layout's sensor disagrees with; one outside the table's
            # limits only by the override, which says why
            override = event.decision == "override_limit"
            values = [event.args.get(k) for k in ("box", "person", "amount")]
            numbers = [v for v in values if type(v) is int]
            extra = event.args.keys() - {"box", "person", "amount", *(["reason"] * override)}
            if len(numbers) != 3 or extra:
                raise IllegalAction("4.1", f"{event.decision} takes a box, person, amount")
            box, person, amount = numbers
            if override:
                reason = event.reason or str(event.args.get("reason") or "")
                table.override_limit(event.who, box, person, amount, reason)
            else:
                table.change_wager(event.who, box, person, amount)
        else:
            box = event.args.get("box")
            if box is not None and type(box) is not int:
                raise IllegalAction("9.6", "the box to void must be a whole number")
            table.supervisor_clear(event.who, HoldDecision(event.decision), box)


SPEC = GameSpec(
    name="blackjack",
    rules=Variants,
    make=BlackjackGame,
    # every console button (the list), every lamp and at least one box
    devices=DeviceNeeds(buttons=tuple(ConsoleButton), lamps=tuple(Lamp), box_spot=True),
    console={name: getattr(BlackjackTable, name) for name in CONSOLE},
    decisions={
        **{d.value: BlackjackTable.supervisor_clear for d in HoldDecision},
        "change_wager": BlackjackTable.change_wager,
        "override_limit": BlackjackTable.override_limit,
        "accept_payout": BlackjackTable.accept_payout,
    },
    from_limits=lambda minimum, maximum, unit: {
        "smallest_chip": unit,
        "minimum_wager": minimum,
        "maximum_wager": maximum,
    },
    decks=lambda rules: int(rules.decks),
    foreign_card_rule=FOREIGN_CARD_RULE,  # 3.3: the shoe's 4 to 8 decks
    private_cards=False,  # all face up, no hole card
    round_end="RoundSettled",
    sim_dealer="sim_hardware.dealer:BlackjackDealer",
    renderer="blackjack",
    page_script="controller.blackjack:static/blackjack.js",  # its page drawing
    title="Blackjack",
    # the settlement checked by the chips: the kernel's records, no card in them
    records=(*defined_in(records), Payout, ShoeReport, *defined_in(chips)),
    # the drop is the wagers in; the house's result is negative when the players won
    settlement_figures=figures_from("wagers_in", "house_result"),
    simulator="controller.blackjack.simulate",
    board=board.board_facts,
    state_words={  # the floor's words for the states of phases.py
        "round_over": "Between rounds",
        "betting": "Taking bets",
        "no_more_bets": "No more bets",
        "initial_deal": "Dealing",
        "insurance": "Insurance open",
        "boxes_acting": "Players acting",
        "dealer_second": "Dealer's second card",
        "insurance_settlement": "Settling insurance",
        "dealer_drawing": "Dealer drawing",
        "settlement": "Paying and taking",
        "hold": "HOLD",
    },
)
