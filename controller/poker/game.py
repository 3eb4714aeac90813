"""Draw poker behind the game contract (`controller.game`), and its registry entry.

`PokerGame` is the kernel's adapter (`controller.game.table.TableGame`): a supervisor's
decision reaches the table's ``supervisor_clear``, a device event its ``handle``, and what
they produced is taken from the table. Its console step is poker's own
(`controller.poker.console`: the console's ``raise`` and ``chop`` name ``raise_`` and
``request_chop``, and seating happens between hands).
"""

from __future__ import annotations

from collections.abc import Collection
from fractions import Fraction
from typing import Any

from controller.game.contract import GameSpec, Output, figures_from, wager_limits
from controller.game.records import DecisionOffer, defined_in, offers
from controller.game.table import RATING_CONSOLE, TableGame
from controller.poker import console, records
from controller.poker.board import board_facts
from controller.poker.display import PokerStatus, status
from controller.poker.phases import FOREIGN_CARD_RULE
from controller.poker.records import HandSettled
from controller.poker.rules import PokerRules
from controller.poker.table import HoldDecision, PokerTable
from controller.ports import ConsoleAction, ConsoleButton, DeviceNeeds, Event, Lamp
from controller.rating import BoxRound, RoundFigures
from controller.shoe_audit import ShoeReport

SEATING = ("sit", "leave", "add_chips")

# The supervisor's decisions on a HOLD, as the console offers them (the page copies nothing).
HOLD_DECISIONS = (
    DecisionOffer(HoldDecision.ACCEPT, "Accept the card: it stands"),
    DecisionOffer(HoldDecision.VOID_HAND, "Void the hand: every chip back to whoever put it in"),
)
_OFFERED = offers(*HOLD_DECISIONS)


class PokerGame(TableGame):
    SEATING = frozenset(SEATING)
    table: PokerTable

    def __init__(self, rules: PokerRules) -> None:
        super().__init__(SPEC, PokerTable(rules))

    @property
    def round_no(self) -> int:
        return self.table.hand_no

    def handle(self, event: Event) -> list[Output]:
        """A console action through poker's console step (seating, between hands, as it
        comes); anything else as every game's."""
        if isinstance(event, ConsoleAction) and event.action not in RATING_CONSOLE:
            if event.action in self.SEATING:
                getattr(self.table, event.action)(**event.args)
            else:
                console.apply_console(self.table, event)
            outputs: list[Output] = self.table.take_outputs()
            return self._rated(None, outputs) if self.ratings.settings.enabled else outputs
        return super().handle(event)

    # --- player rating (docs/ratings.md) ---------------------------------------------------

    def rating_boxes(self) -> Collection[int]:
        """The seats with a player seated."""
        return tuple(self.table.stacks)

    def rating_round(self, records: list[Any]) -> RoundFigures | None:
        """Each seat's chips into the pots (what it put in less what came back uncalled)
        and its result (its pot shares and returns less what it put in); its theo is its
        part of the rake, shared in proportion to the chips each seat put into the pots.
        The house charges no time at this table: the rake is its only take."""
        settled = records[-1]
        if not isinstance(settled, HandSettled):
            return None
        put_in = dict(self.table.contributed)
        back = dict(settled.returned)
        won: dict[int, int] = {}
        for award in settled.awards:
            for seat, chips in award.shares:
                won[seat] = won.get(seat, 0) + chips
        in_pots = {seat: chips - back.get(seat, 0) for seat, chips in put_in.items()}
        total = sum(in_pots.values())
        boxes = {
            seat: BoxRound(
                seat,
                {"pot": chips},
                (won.get(seat, 0) + back.get(seat, 0) - put_in[seat]) * 100,
                charged=Fraction(settled.rake * chips, total) if total else Fraction(0),
            )
            for seat, chips in in_pots.items()
        }
        return RoundFigures(settled.hand, boxes, void=settled.void)

    def snapshot(self) -> PokerStatus:
        return status(self.table)

    def offered(self) -> list[dict[str, Any]]:
        return list(_OFFERED)


SPEC = GameSpec(
    name="poker",
    rules=PokerRules,
    make=PokerGame,
    # no insurance, doubles or splits; the dealer-button display (one lamp per seat)
    devices=DeviceNeeds(
        buttons=(
            ConsoleButton.NO_MORE_BETS,
            ConsoleButton.NEXT,
            ConsoleButton.VOID_HAND,
            ConsoleButton.SUPERVISOR,
        ),
        lamps=(Lamp.BETTING_OPEN, Lamp.DEALER_ACTION, Lamp.HOLD),
        position_display=True,
    ),
    console={
        **{name: getattr(PokerTable, method) for name, method in console.CONSOLE_ACTIONS.items()},
        **{name: getattr(PokerTable, name) for name in SEATING},
    },
    decisions={d.value: PokerTable.supervisor_clear for d in HoldDecision},
    from_limits=wager_limits,
    foreign_card_rule=FOREIGN_CARD_RULE,  # 11.2: the deal of one 52-card deck
    private_cards=True,  # rule 11.3(a), 11.4(c): players' hands are their own
    round_end="HandSettled",
    sim_dealer="sim_hardware.dealer:PokerDealer",
    renderer="poker",
    page_script="controller.poker:static/poker.js",  # its page drawing
    round_word="hand",
    title="Draw poker",
    records=(*defined_in(records), ShoeReport),
    # every chip into the pots is the drop; the rake is the house's only take
    settlement_figures=figures_from("chips_in", "rake"),
    simulator="controller.poker.simulate",
    board=board_facts,
    state_words={  # the floor's words for the states of phases.py
        "waiting": "Waiting for players",
        "button_placed": "Button placed",
        "dealing": "Dealing",
        "first_round": "First betting round",
        "drawing": "The draw",
        "final_round": "Final betting round",
        "showdown": "Showdown",
        "complete": "Hand over",
        "hold": "HOLD",
    },
)
