"""The duplicate-card detector, controller/shoe_audit.py, against the shoe's
composition (blackjack 3.3: 4 to 8 decks; poker 11.2: one deck). The rule each
cites is the game's own, named in its spec."""

from __future__ import annotations

from controller import shoe_audit
from controller.blackjack.rules import FOREIGN_CARD_RULE as BLACKJACK_RULE
from controller.cards import DECK, Card
from controller.game import spec
from controller.poker.phases import FOREIGN_CARD_RULE as POKER_RULE
from controller.ports import DeviceFault, DeviceLost, Fault
from controller.shoe_audit import ForeignCard, ShoeAudit, ShoeReport, reader_hold

AS = Card.parse("As")
KD = Card.parse("Kd")


def test_3_3_and_11_2_the_rules_cited_are_the_games_own() -> None:
    assert (BLACKJACK_RULE, POKER_RULE) == ("3.3", "11.2")
    rules = {name: spec(name).foreign_card_rule for name in ("blackjack", "poker", "baccarat")}
    assert rules == {"blackjack": "3.3", "poker": "11.2", "baccarat": "NSW Baccarat 3.1"}


def test_the_shoe_audit_names_no_games_rule() -> None:
    """A new game brings its own rule: the audit holds none of any game's."""
    assert not [name for name in vars(shoe_audit) if name.endswith("_RULE")]


def test_11_3b_a_card_returned_that_was_never_seen_does_not_hide_a_later_extra_copy() -> None:
    """returned() of a card never seen must not count below zero: a one-deck shoe that then
    shows the card twice has one copy too many, reported on the second."""
    audit = ShoeAudit(1, POKER_RULE)
    audit.returned(AS)
    assert audit.count(AS) == 0
    assert audit.see(AS) is None
    assert audit.see(AS) == ForeignCard(POKER_RULE, "As", 2, 1)


def test_11_3b_a_returned_card_frees_its_tag_and_one_copy_only() -> None:
    audit = ShoeAudit(2, POKER_RULE)
    assert audit.see(AS, tag="T1") is None
    assert audit.see(AS, tag="T2") is None
    assert audit.see(KD, tag="T3") is None
    audit.returned(AS)
    assert audit.count(AS) == 1 and audit.cards_seen == 2
    assert audit.see(AS, tag="T1") is None  # its tag may be read again
    assert audit.see(KD, tag="T3") == ForeignCard(POKER_RULE, "Kd", 1, 2, "T3")


def test_3_3_each_copy_beyond_the_shoe_is_reported_with_its_count() -> None:
    audit = ShoeAudit(2, BLACKJACK_RULE)
    assert audit.see(AS) is None
    assert audit.see(AS) is None
    assert audit.see(AS) == ForeignCard(BLACKJACK_RULE, "As", 3, 2)
    assert audit.see(AS) == ForeignCard(BLACKJACK_RULE, "As", 4, 2)
    assert audit.count(AS) == 4 and audit.cards_seen == 4


def test_3_3_a_tag_read_twice_is_one_card_twice_and_counted_once() -> None:
    audit = ShoeAudit(6, BLACKJACK_RULE)
    assert audit.see(AS, tag="0A1B") is None
    again = audit.see(AS, tag="0A1B")
    assert again == ForeignCard(BLACKJACK_RULE, "As", 1, 6, "0A1B")
    assert again.message == (
        "As (tag 0A1B) was already read since the shuffle: the same card out of the shoe "
        "twice (rule 3.3, shoe composition)"
    )
    assert audit.count(AS) == 1


def test_3_3_the_foreign_card_message_names_card_count_and_rule() -> None:
    assert ForeignCard("3.3", "As", 7, 6).message == (
        "As seen 7 times since the shuffle but the shoe holds 6: possible foreign card "
        "(rule 3.3, shoe composition)"
    )


def test_3_3_shoe_end_report_exactly() -> None:
    audit = ShoeAudit(1, BLACKJACK_RULE)
    for card in DECK[2:]:
        audit.see(card)
    audit.see(KD)
    audit.see(KD)
    report = audit.shoe_end()
    assert report == ShoeReport(
        decks=1,
        cards_seen=52,
        extra=(("Kd", 2),),
        unseen=((str(DECK[0]), 1), (str(DECK[1]), 1)),
    )
    assert report.extra_cards == 2 and report.unseen_cards == 2
    assert not report.reconciled
    fresh = audit.report()  # counting afresh after the shuffle, tags too
    assert fresh.cards_seen == 0 and fresh.extra == () and fresh.unseen_cards == 52
    assert fresh.reconciled


def test_3_3_shoe_end_clears_the_tags_read() -> None:
    audit = ShoeAudit(1, BLACKJACK_RULE)
    audit.see(AS, tag="T1")
    audit.shuffled()
    assert audit.see(AS, tag="T1") is None


def test_3_3_unseen_counts_copies_per_card_in_a_multi_deck_shoe() -> None:
    audit = ShoeAudit(6, BLACKJACK_RULE)
    audit.see(AS)
    report = audit.report()
    assert report.decks == 6 and report.cards_seen == 1
    assert dict(report.unseen)["As"] == 5 and dict(report.unseen)["Kd"] == 6
    assert report.unseen_cards == 6 * 52 - 1
    assert [c for c, _ in report.unseen] == [str(c) for c in DECK]


def test_reader_hold_an_unknown_tag_holds_whatever_the_gate() -> None:
    event = DeviceFault(source="rfid", fault=Fault.UNKNOWN_TAG, detail="0A1B")
    for gate_open in (True, False):
        assert reader_hold(event, gate_open) == (
            "tag 0A1B is in no enrolled deck: an unknown card left the shoe",
            "the reader rfid",
        )
    other = DeviceFault(source="rfid", fault=Fault.BAD_CHECKSUM, detail="x")
    assert reader_hold(other, True) is None


def test_reader_hold_a_reader_without_resends_lost_with_the_gate_open() -> None:
    lost = DeviceLost(source="rfid", reason="cable", resends=False)
    hold = reader_hold(lost, gate_open=True)
    assert hold == (
        "the card reader was lost with the gate open (cable): cards may have left the "
        "shoe unseen, and the reader cannot send them again",
        "the reader rfid",
    )
    assert reader_hold(lost, gate_open=False) is None
    assert reader_hold(DeviceLost(source="shoe", reason="cable"), gate_open=True) is None
