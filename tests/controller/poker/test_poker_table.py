"""The draw poker table (controller/poker/table.py) at its
edges: seats and stacks (11.2, 11.5 table stakes), starting a hand, the betting and draw
API, the cards it is handed, the readers' holds and the supervisor's decisions. Refusals
and violations are checked word for word: the reason is what the dealer reads.
"""

from __future__ import annotations

from controller.cards import Card
from controller.game.records import HoldCleared, Violation
from controller.poker.records import (
    ActionTaken,
    CardSetAside,
    HandSettled,
    HandStarted,
    HoldDecision,
    ShowdownOrder,
)
from controller.poker.table import PokerTable
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ConsoleButton,
    DeviceFault,
    DeviceLost,
    Fault,
    Lamp,
    LampPattern,
    LockShoe,
    SetLamp,
    UnlockShoe,
)
from tests.support.poker import (
    act,
    cards,
    deal,
    drawing,
    flat_call,
    shoe,
    stand_pat,
    table_with,
    to_act,
    unseen,
)
from tests.support.refusals import refusal


def three() -> PokerTable:
    """Seats 1-3 with 100 each: the button at seat 1, blinds 1 and 2 on seats 2 and 3,
    cards dealt 2, 3, 1, and the first round opened by seat 1 (left of the last blind)."""
    return table_with({1: 100, 2: 100, 3: 100})


def drawing_table() -> PokerTable:
    table = three()
    table.start_hand()
    deal(table)
    flat_call(table)
    assert table.state == "drawing"
    return table


# --- seats and stacks -----------------------------------------------------------------------


def test_rule_11_2_only_a_free_seat_at_the_table_word_for_word() -> None:
    table = three()
    for seat in (0, 7, 2):
        assert refusal(lambda s=seat: table.sit(s, 50)) == (
            "11.2",
            f"seat {seat} is not a free seat at this table",
        )
    table.sit(6, 50)  # the last seat
    assert table.stacks[6] == 50


def test_rule_11_5_a_stack_is_a_positive_multiple_of_the_chip_unit() -> None:
    table = table_with({}, chip_unit=5, blinds=(5, 10), minimum_wager=10, maximum_wager=50)
    for stack in (0, -5, 7):
        assert refusal(lambda s=stack: table.sit(1, s)) == (
            "11.5",
            "a stack is a positive multiple of the chip unit",
        )
    table.sit(1, 5)


def test_rule_11_5_chips_added_between_hands_word_for_word() -> None:
    table = table_with({1: 100, 2: 100}, chip_unit=5, blinds=(5, 10), minimum_wager=10)
    for seat, chips in ((1, 0), (1, -5), (1, 7), (4, 5)):
        assert refusal(lambda s=seat, c=chips: table.add_chips(s, c)) == (
            "11.5",
            f"cannot add {chips} chips at seat {seat}",
        )
    table.add_chips(1, 5)
    assert table.stacks == {1: 105, 2: 100}


def test_rule_11_2_seats_change_only_between_hands() -> None:
    table = three()
    table.leave(5)  # nobody there: nothing to do
    table.start_hand()
    for change in (lambda: table.sit(5, 50), lambda: table.add_chips(1, 5), lambda: table.leave(1)):
        assert refusal(change) == ("11.2", "seats change only between hands")
    assert table.stacks == {1: 100, 2: 99, 3: 98}


# --- starting a hand ------------------------------------------------------------------------


def test_rule_11_2_a_hand_needs_two_players_with_chips() -> None:
    table = table_with({1: 100})
    assert not table.can_start_hand()
    assert refusal(table.verify_start_hand) == ("11.2", "1 player(s) with chips: not enough")
    table.sit(2, 1)  # one chip is chips
    assert table.can_start_hand()


def test_rule_11_4_e_each_hand_is_played_to_a_conclusion() -> None:
    table = three()
    table.start_hand()
    assert refusal(table.verify_start_hand) == (
        "11.4(e)",
        "each hand shall be played to a conclusion",
    )


def test_rule_11_2_hands_are_numbered_and_a_blind_all_in_is_all_in() -> None:
    table = table_with({1: 100, 2: 1, 3: 100})
    assert table.last_settlement is None and table.showdown_order is None
    out = act(table, "start_hand")
    assert None not in out
    assert [o for o in out if isinstance(o, HandStarted)] == [
        HandStarted(1, 1, False, ((2, 1), (3, 2)), (2, 3, 1))
    ]
    assert table.all_in == {2}  # the small blind took seat 2's last chip
    deal(table)
    flat_call(table)
    stand_pat(table)
    flat_call(table)
    assert table.state == "complete"
    settled = table.last_settlement
    assert settled is not None and settled.hand == 1 and settled.void is False
    out = act(table, "start_hand", button=3)  # the supervisor places the button for the next hand
    assert [o.hand for o in out if isinstance(o, HandStarted)] == [2]


def test_console_next_starts_a_hand_and_other_buttons_do_not() -> None:
    table = three()
    assert act(table, "handle", ButtonPressed(source="console", button=ConsoleButton.DOUBLE)) == []
    assert table.state == "waiting"
    out = act(table, "handle", ButtonPressed(source="console", button=ConsoleButton.NEXT))
    assert [o.hand for o in out if isinstance(o, HandStarted)] == [1]


# --- the betting and draw API -------------------------------------------------------------------


def test_rule_11_2_c_the_table_s_betting_api_word_for_word() -> None:
    table = three()
    table.start_hand()
    assert refusal(lambda: table.check(1)) == (
        "11.2(c)",
        "no betting round in progress (dealing)",
    )
    deal(table)
    seat = to_act(table)
    assert seat == 1
    assert refusal(lambda: table.verify_call(2)) == (
        "11.2(c)",
        "seat 2 acts out of turn: seat 1 to act",
    )
    assert table.can_call(1) and not table.can_call(2)
    assert table.can_raise(1) and not table.can_raise(1, 100)
    table.raise_(1, 10)
    assert table.can_raise(2, 10)
    flat_call(table)
    assert table.state == "drawing"
    assert not table.can_raise(2)
    assert refusal(lambda: table.check(2)) == ("11.2(c)", "no betting round in progress (drawing)")


def test_rule_11_3_a_the_table_s_draw_api_word_for_word() -> None:
    table = three()
    table.start_hand()
    deal(table, {2: "As Ks Qs Js 9h"})
    assert refusal(lambda: table.discard(2, 1)) == (
        "11.3(a)",
        "the draw is not in progress (first_round)",
    )
    flat_call(table)
    assert table.can_discard(2, 1) and not table.can_discard(3, 1)
    assert not table.can_discard(2, 6)
    assert not table.can_discard(2, 1, cards("2c"))
    assert table.can_discard(2, 1, cards("9h"))
    assert refusal(lambda: table.discard(2, 2, cards("9h"))) == (
        "11.3(a)",
        "seat 2 announced 2 but the discards read are ['9h'], not 2 of the cards held",
    )
    stand_pat(table)
    assert table.state == "final_round"
    assert refusal(lambda: table.verify_discard(2, 0)) == (
        "11.3(a)",
        "the draw is not in progress (final_round)",
    )


def test_rule_11_4_b_the_final_round_s_rules_on_the_table() -> None:
    table = drawing_table()
    stand_pat(table)
    first = to_act(table)
    out = act(table, "check", first)
    assert [o.rule for o in out if isinstance(o, ActionTaken)] == ["11.4(a)"]
    out = act(table, "raise_", to_act(table), 2)
    assert [o.rule for o in out if isinstance(o, ActionTaken)] == ["11.4(b)"]


def test_rule_11_4_c_the_called_player_is_the_last_to_bet_in_the_final_round() -> None:
    table = drawing_table()
    stand_pat(table)
    opener = to_act(table)
    table.check(opener)
    bettor = to_act(table)
    table.raise_(bettor, 2)
    flat_call(table)
    assert isinstance(table.showdown_order, ShowdownOrder)
    assert table.showdown_order.called == bettor
    assert table.showdown_seats[0] == bettor  # the hands are shown from the called player


def test_rule_11_4_c_hands_may_be_asked_for_after_the_showdown_only() -> None:
    table = drawing_table()
    assert refusal(lambda: table.verify_request_to_see(1))[0] == "11.4(c)"
    stand_pat(table)
    flat_call(table)
    assert table.state == "complete"
    table.verify_request_to_see(1)
    assert table.can_request_to_see(1, 2)


# --- cards handed to the table ----------------------------------------------------------------


def test_rule_11_2_a_card_when_none_is_due_word_for_word() -> None:
    table = drawing_table()
    stand_pat(table)
    assert table.state == "final_round"
    out = shoe(table, Card.parse("2c"))
    assert [v for v in out if isinstance(v, Violation)] == [
        Violation(
            "11.4(b)",
            "2c drawn when no card is due (final_round)",
            "2c",
            state="final_round",
            by="the shoe",
        )
    ]


def test_rule_11_2_a_tag_read_twice_is_one_card_out_twice() -> None:
    table = three()
    table.start_hand()
    table.handle(CardDrawn(source="rfid", card=Card.parse("As"), tag="T1"))
    out = act(table, "handle", CardDrawn(source="rfid", card=Card.parse("Ad"), tag="T1"))
    assert [(v.rule, v.card) for v in out if isinstance(v, Violation)] == [("11.2", "Ad")]


def test_hold_procedure_a_card_under_the_hold_is_set_aside_dead() -> None:
    table = three()
    table.start_hand()
    table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="04AB"))
    first = table.hold
    assert first == Violation(
        "11.2",
        "tag 04AB is in no enrolled deck: an unknown card left the shoe (the reader rfid)",
        state="dealing",
        by="the reader rfid",
    )
    assert table.state == "hold" and table.phase == "dealing"
    out = shoe(table, Card.parse("7h"))
    assert [v for v in out if isinstance(v, Violation)] == [
        Violation(
            "11.2",
            "7h drawn while the table is on HOLD: set aside, dead",
            "7h",
            state="hold",
            by="the shoe",
        )
    ]
    table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="05CD"))
    assert table.hold == first  # the first violation still holds the table
    assert Card.parse("7h") in table.seen and table.hands == {1: [], 2: [], 3: []}


def test_hold_procedure_the_supervisor_s_decisions_on_the_table() -> None:
    table = three()
    table.start_hand()
    shoe(table, Card.parse("As"))
    out = shoe(table, Card.parse("As"))  # one deck: a second ace of spades holds
    assert table.state == "hold" and table.phase == "dealing" and table.hold is not None
    out = act(table, "supervisor_clear", "Ana", "accept")
    cleared = [o for o in out if isinstance(o, HoldCleared)]
    assert [(c.who, c.decision) for c in cleared] == [("Ana", "accept")]
    assert SetLamp(Lamp.HOLD, LampPattern.OFF) in out and UnlockShoe() in out
    # the records, then the gate and lamps of the state resumed: a copy of a card held: dead
    assert out == [
        *cleared,
        CardSetAside("As", "11.2"),
        UnlockShoe(),
        SetLamp(Lamp.HOLD, LampPattern.OFF),
    ]
    assert table.hands[2] == cards("As") and table.hands[3] == []


def test_hold_procedure_a_card_accepted_in_the_deal_is_dealt() -> None:
    table = three()
    table.start_hand()
    table.handle(CardDrawn(source="rfid", card=Card.parse("As"), tag="T1"))
    table.handle(CardDrawn(source="rfid", card=Card.parse("Ad"), tag="T1"))  # HOLD (11.2)
    table.supervisor_clear("Ana", HoldDecision.ACCEPT)  # the card stands
    assert table.hands[3] == cards("Ad")  # the next seat's card
    assert table.state == "dealing"


def test_hold_procedure_a_card_accepted_in_the_draw_goes_to_the_drawer() -> None:
    table = drawing_table()
    drawer = drawing(table).drawer
    assert drawer is not None
    held = table.hands[drawer][0]
    table.discard(drawer, 1, [held])
    shoe(table, held)  # its own discard, out again: HOLD
    assert table.hold is not None
    out = act(table, "supervisor_clear", "Ana", HoldDecision.ACCEPT)
    assert held in table.hands[drawer]
    assert not [o for o in out if isinstance(o, CardSetAside)]


def test_a_voided_hand_returns_every_chip_and_shows_no_showdown() -> None:
    table = three()
    table.start_hand()
    table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="04AB"))
    out = act(table, "supervisor_clear", "Ana", HoldDecision.VOID_HAND)
    settled = [o for o in out if isinstance(o, HandSettled)]
    assert len(settled) == 1 and settled[0].void and dict(settled[0].returned) == {2: 1, 3: 2}
    assert table.showdown_seats == ()
    assert table.stacks == {1: 100, 2: 100, 3: 100}


def test_hold_procedure_a_hold_between_hands_is_cleared_without_a_hand_to_void() -> None:
    table = three()
    table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="04AB"))
    out = act(table, "supervisor_clear", "Ana", HoldDecision.VOID_HAND)
    assert not [o for o in out if isinstance(o, HandSettled)]
    assert table.state == "waiting" and table.hold is None


def test_rake_none_on_a_hand_won_in_the_first_round_but_on_one_won_after_the_draw() -> None:
    table = three()
    table.start_hand()
    deal(table)
    table.raise_(1, 10)  # seat 1 to 12, seat 2 to 22, seat 3 and seat 1 fold: a pot of 26
    table.raise_(2, 10)
    table.fold(3)
    table.fold(1)  # won in the first round: no rake, though 5% of 26 is a whole chip
    assert table.last_settlement is not None and table.last_settlement.rake == 0
    table.start_hand()
    deal(table)
    while table.state == "first_round":  # everybody to 12: a pot of 36
        seat = to_act(table)
        table.raise_(seat, 10) if table.betting.current_bet < 12 else act(table, "call", seat)
    stand_pat(table)
    opener = to_act(table)
    table.raise_(opener, 2)
    table.fold(to_act(table))
    table.fold(to_act(table))  # won after the draw: raked, 5% of 36 in whole chips
    assert table.last_settlement is not None and table.last_settlement.rake == 1


def test_rule_11_5_one_chip_may_be_added() -> None:
    table = three()
    table.add_chips(1, 1)
    assert table.stacks[1] == 101


def test_rule_11_2_a_player_with_no_chips_left_is_not_dealt_in() -> None:
    table = table_with({1: 100, 2: 1, 3: 100})
    table.start_hand()
    deal(table, {2: "7c 5d 4h 3s 2c", 3: "As Ah Ad Kc Kd"})  # seat 2 all in with junk
    flat_call(table)
    stand_pat(table)
    flat_call(table)
    assert table.stacks[2] == 0
    out = act(table, "start_hand")
    assert [o.seats for o in out if isinstance(o, HandStarted)] == [(3, 1)]
    table2 = table_with({1: 100, 2: 1})
    table2.stacks[2] = 0  # as a lost all in leaves it
    assert refusal(table2.verify_start_hand) == ("11.2", "1 player(s) with chips: not enough")


def test_rule_11_2_a_reader_lost_holds_only_while_cards_are_due() -> None:
    table = three()
    lost = DeviceLost(source="rfid", reason="unplugged", resends=False)
    assert act(table, "handle", lost) == []  # waiting: the gate is locked
    table.start_hand()  # dealing: cards are due
    out = act(table, "handle", lost)
    assert [v.rule for v in out if isinstance(v, Violation)] == ["11.2"]


def test_hold_procedure_a_hold_after_the_hand_is_cleared_without_voiding_it() -> None:
    table = drawing_table()
    stand_pat(table)
    flat_call(table)
    assert table.state == "complete"
    settled = table.last_settlement
    table.handle(DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="04AB"))
    out = act(table, "supervisor_clear", "Ana", HoldDecision.VOID_HAND)
    assert [type(o).__name__ for o in out] == ["HoldCleared", "SetLamp"]
    assert table.state == "complete" and table.last_settlement == settled


def test_hold_procedure_the_supervisor_s_records_come_with_the_card_s() -> None:
    table = three()
    table.start_hand()
    table.handle(CardDrawn(source="rfid", card=Card.parse("As"), tag="T1"))
    table.handle(CardDrawn(source="rfid", card=Card.parse("Ad"), tag="T1"))
    out = act(table, "supervisor_clear", "Ana", HoldDecision.ACCEPT)  # dealt on: records kept
    assert isinstance(out[0], HoldCleared) and SetLamp(Lamp.HOLD, LampPattern.OFF) in out
    table = drawing_table()
    spare = [c for c in cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah") if c not in table.seen]
    shoe(table, spare[0])  # the burn
    shoe(table, spare[1])  # a card before any announcement (11.3(a)): HOLD
    assert table.hold is not None
    out = act(table, "supervisor_clear", "Ana", HoldDecision.ACCEPT)  # owed to nobody: dead
    assert isinstance(out[0], HoldCleared)
    assert [o for o in out if isinstance(o, CardSetAside)] == [
        CardSetAside(str(spare[1]), "11.3(a)")
    ]


def test_hold_procedure_a_card_accepted_into_the_draw_keeps_the_records() -> None:
    table = drawing_table()
    drawer = drawing(table).drawer
    assert drawer is not None
    held = table.hands[drawer][0]
    table.discard(drawer, 1, [held])
    shoe(table, held)
    out = act(table, "supervisor_clear", "Ana", HoldDecision.ACCEPT)
    assert isinstance(out[0], HoldCleared)


def test_rule_11_4_c_a_hand_the_controller_could_not_follow_is_exposed() -> None:
    table = drawing_table()
    drawer = drawing(table).drawer
    assert drawer is not None
    assert refusal(lambda: table.verify_expose(drawer, [])) == (
        "11.4(c)",
        f"seat {drawer} has no hand to expose now",
    )
    table.discard(drawer, 2)  # discards not read: the hand is no longer known
    spare = [c for c in cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah") if c not in table.seen]
    for card in spare[:3]:  # the burn, then the two replacements
        shoe(table, card)
    stand_pat(table)
    flat_call(table)
    assert table.state == "showdown"  # waiting for the hand to be shown
    table.verify_request_to_see(drawer)  # 11.4(c): hands may be asked for now
    kept = table.hands[drawer]
    others = [s for s in table.showdown_seats if s != drawer]
    assert refusal(lambda: table.verify_expose(others[0], [])) == (
        "11.4(c)",
        f"seat {others[0]} has no hand to expose now",
    )
    assert refusal(lambda: table.verify_expose(drawer, kept)) == (
        "11.4(c)",
        f"seat {drawer} holds {kept} and 5 cards",
    )


STEADY, FLASH, OFF = LampPattern.STEADY, LampPattern.FLASH, LampPattern.OFF


def test_hold_procedure_the_gate_and_lamps_follow_the_hand_and_the_hold() -> None:
    """From the states' facts (phases.FACTS): a new table tells its first states; the gate
    opens for the deal and locks while players bet, BETTING_OPEN lit; a HOLD flashes the red
    lamp over them, and a void hand puts both out."""
    table = three()
    assert table.take_outputs() == [
        LockShoe(),
        SetLamp(Lamp.BETTING_OPEN, OFF),
        SetLamp(Lamp.DEALER_ACTION, OFF),
        SetLamp(Lamp.HOLD, OFF),
    ]
    assert act(table, "start_hand")[-2:] == [
        HandStarted(1, 1, False, ((2, 1), (3, 2)), (2, 3, 1)),
        UnlockShoe(),
    ]
    assert deal(table)[-2:] == [LockShoe(), SetLamp(Lamp.BETTING_OPEN, STEADY)]
    stray = unseen(table)[0]
    held = Violation(
        "11.2(c)",
        f"{stray} drawn when no card is due (first_round)",
        str(stray),
        state="first_round",
        by="the shoe",
    )
    assert shoe(table, stray) == [held, SetLamp(Lamp.HOLD, FLASH)]  # the gate stays locked
    out = act(table, "supervisor_clear", "Ana", HoldDecision.VOID_HAND)
    assert out[0] == HoldCleared("Ana", "void_hand", (held,))
    assert out[-2:] == [SetLamp(Lamp.BETTING_OPEN, OFF), SetLamp(Lamp.HOLD, OFF)]
    assert table.state == "complete"
