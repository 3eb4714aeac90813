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
from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from controller.blackjack import board, expectation, records
from controller.blackjack.display import snapshot
from controller.blackjack.records import (
    Doubled,
    EvenMoneyElected,
    HoldDecision,
    InsuranceTaken,
    RoundSettled,
    SplitMade,
    Stood,
)
from controller.blackjack.rules import FOREIGN_CARD_RULE, Variants
from controller.blackjack.settlement import Kind, Outcome, Payout
from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.errors import IllegalAction
from controller.game import chips
from controller.game.contract import GameSpec, Output, figures_from
from controller.game.records import DecisionOffer, defined_in, offers
from controller.game.table import TableGame
from controller.ports import ConsoleButton, DeviceNeeds, Event, Lamp, SupervisorAction
from controller.rating import BoxRound, Decision, DecisionCost, RatingSettings, RoundFigures
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

BOX_HOLDER = 1  # the person who decides a box's play (controller.blackjack.hand.Box)
# a play a record names -> the decision's word (a hit is seen as a card to a hand)
_PLAYS: dict[type, str] = {Stood: "stand", Doubled: "double", SplitMade: "split"}
# the hands of the rated boxes before an event: box -> [(cards, doubled)], and the up card
_Hands = tuple[dict[int, list[tuple[tuple[Card, ...], bool]]], Card | None]


class BasicStrategyJudge:
    """The decision-cost judge of a rated box's plays (`controller.rating.DecisionCost`):
    None for basic strategy's play under ``variants``, else what the departure costs in
    chips (its cost per unit of initial wager x the box holder's initial wager; negative
    where the strategy tables are not the better play). A play the calculator cannot
    judge (no up card yet, a play it does not know for the hand) is not judged."""

    def __init__(self, variants: Variants) -> None:
        self.variants = variants

    def __call__(self, decision: Decision) -> Fraction | None:
        if decision.up_card is None or not decision.cards:
            return None
        allowed = expectation.Allowed(
            decision.may_double, decision.may_split, decision.may_stand, decision.hands
        )
        try:
            judged = expectation.decision_cost(
                self.variants, decision.cards, decision.up_card, decision.play, allowed=allowed
            )
        except expectation.ExpectationError:
            return None
        return judged.cost * decision.stake if judged.departs else None


class BlackjackGame(TableGame):
    table: BlackjackTable

    def __init__(self, variants: Variants) -> None:
        super().__init__(SPEC, BlackjackTable(variants))
        self._decisions: dict[int, list[Decision]] = {}  # the rated boxes' plays this round
        self._allowed: dict[int, tuple[bool, bool, bool]] = {}  # before the event: may double...
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

    # --- player rating (docs/ratings.md) ---------------------------------------------------

    def rating_boxes(self) -> Collection[int]:
        return range(1, self.table.variants.boxes + 1)

    def rate(self, settings: RatingSettings, decision_cost: DecisionCost | None = None) -> None:
        """Rate players; a rated box's decisions judged against basic strategy under this
        table's variants (`BasicStrategyJudge`) unless another judge is given."""
        judge = decision_cost or BasicStrategyJudge(self.table.variants)
        super().rate(settings, judge)

    def rating_edges(self, settings: RatingSettings) -> Mapping[str, Fraction]:
        """The main wager's edge: basic strategy's under this table's variants, exact
        (`expectation.house_edge`), or ``[rating] blackjack_edge`` when set; even money
        is the main wager paid 1 to 1 at once, at the same edge; insurance pays 2 to 1 on
        a ten under the ace, (4d - 1) / (52d - 1) for d decks (the player's own cards
        not counted)."""
        decks = self.table.variants.decks
        main = settings.blackjack_edge
        if main is None:
            main = expectation.house_edge(self.table.variants).value
        return {
            "main": main,
            "even_money": main,
            "insurance": Fraction(4 * decks - 1, 52 * decks - 1),
        }

    def wager_source(self) -> str:
        return "chips" if self.table.variants.chip_readers else "console"

    def rating_before(self, event: Event) -> _Hands | None:
        """The rated boxes' hands before ``event``, to see the play it makes, and what the
        table let the acting box do."""
        if not self.ratings.open:
            return None
        table = self.table
        hands = {
            n: [(tuple(h.cards), h.doubled) for h in table.boxes[n - 1].hands]
            for n in self.ratings.open
        }
        up = table.dealer.cards[0] if table.dealer.cards else None
        self._allowed = {
            n: (table.can_double(n), table.can_split(n), table.can_stand(n))
            for n in self.ratings.open
            if table.state == "boxes_acting"
        }
        return hands, up

    def rating_after(self, before: object, outputs: list[Any]) -> None:
        """Each play of a rated box's holder: a stand, double or split the table recorded,
        insurance or even money taken, or a hit (a card to a hand of two or more cards
        that was not doubled)."""
        if not isinstance(before, tuple):
            return
        noted: _Hands = before
        hands, up = noted
        boxes = self.table.boxes
        played: set[tuple[int, int]] = set()
        for output in outputs:
            play = _PLAYS.get(type(output))
            box = getattr(output, "box", None)
            if not isinstance(box, int) or box not in hands:
                continue
            if play is not None:
                played.add((box, output.hand))
                self._note(box, output.hand, play, hands, up)
            elif (
                isinstance(output, InsuranceTaken | EvenMoneyElected)
                and output.person == BOX_HOLDER
            ):
                word = "insurance" if isinstance(output, InsuranceTaken) else "even_money"
                self._note(box, 1, word, hands, up)
        for box, before_hands in hands.items():
            now = boxes[box - 1].hands
            for index, (cards, doubled) in enumerate(before_hands):
                grew = index < len(now) and len(now[index].cards) == len(cards) + 1
                if grew and len(cards) >= 2 and not doubled and (box, index + 1) not in played:
                    self._note(box, index + 1, "hit", hands, up)

    def _note(self, box: int, hand: int, play: str, hands: dict[int, Any], up: Card | None) -> None:
        before = hands[box]
        cards = before[hand - 1][0] if hand <= len(before) else ()
        on_box = self.table.boxes[box - 1]
        stake = on_box.stakes.get(BOX_HOLDER, 0)
        double, split, stand = self._allowed.get(box, (False, False, True))
        count = max(len(before), 1)
        decision = Decision(box, hand, play, cards, up, stake, double, split, stand, count)
        self._decisions.setdefault(box, []).append(decision)

    def rating_round(self, records: list[Any]) -> RoundFigures | None:
        """The box holder's stakes (main wager with its doubles and split hands, even
        money, insurance) and result, from the round's payouts."""
        settled = records[-1]
        if not isinstance(settled, RoundSettled):
            return None
        decisions, self._decisions = self._decisions, {}
        wagers: dict[int, dict[str, int]] = {}
        results: dict[int, int] = {}
        for record in records:
            if isinstance(record, Payout) and record.person == BOX_HOLDER:
                if record.kind is Kind.INSURANCE:
                    bet = "insurance"
                elif record.outcome is Outcome.EVEN_MONEY:
                    bet = "even_money"
                else:
                    bet = "main"
                box = wagers.setdefault(record.box, {})
                box[bet] = box.get(bet, 0) + record.stake
                results[record.box] = results.get(record.box, 0) + (record.won - record.lost) * 100
        boxes = {
            n: BoxRound(n, wagers[n], results[n], decisions=tuple(decisions.get(n, ())))
            for n in wagers
        }
        return RoundFigures(settled.round, boxes, void=settled.void)

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
