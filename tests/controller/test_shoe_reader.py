"""The shoe audit with RFID tags, and the holds a card reader's events call for.

In an RFID shoe each card of each deck carries its own tag, so a tag read twice since the
shuffle is one card out twice even where six decks hold six copies of it; a tag in no
deck, or a reader without acknowledgement lost with the gate open, holds the table.
"""

from __future__ import annotations

from controller.blackjack.table import BlackjackTable
from controller.cards import Card
from controller.ports import CardDrawn, DeviceFault, DeviceLost, Fault
from controller.shoe_audit import ShoeAudit, reader_hold

AS = Card.parse("As")


def test_a_tag_read_twice_is_a_duplicate_though_six_decks_hold_six_copies() -> None:
    audit = ShoeAudit(6, "3.3")
    assert audit.see(AS, "C000000000") is None
    assert audit.see(AS, "C100000000") is None  # another deck's ace: fine
    twice = audit.see(AS, "C000000000")
    assert twice is not None and twice.tag == "C000000000"
    assert audit.count(AS) == 2  # one card read twice is still one copy of the ace
    assert "tag C000000000" in twice.message and "already read since the shuffle" in twice.message


def test_the_shuffle_and_a_returned_card_forget_their_tags() -> None:
    audit = ShoeAudit(1, "11.2")
    assert audit.see(AS, "C000000000") is None
    audit.returned(AS)  # poker 11.3(b): the earlier discards shuffled back in
    assert audit.see(AS, "C000000000") is None
    audit.shoe_end()
    assert audit.see(AS, "C000000000") is None


def test_untagged_cards_are_counted_as_before() -> None:
    audit = ShoeAudit(1, "11.2")
    assert audit.see(AS) is None
    foreign = audit.see(AS)
    assert foreign is not None and foreign.tag is None and foreign.seen == 2


def test_which_reader_events_hold_the_table() -> None:
    unknown = DeviceFault(source="shoe", fault=Fault.UNKNOWN_TAG, detail="1122334455")
    for gate_open in (True, False):  # a card left the shoe either way
        found = reader_hold(unknown, gate_open)
        assert found is not None and "1122334455" in found[0]
    rfid_lost = DeviceLost(source="shoe", reason="EIO", resends=False)
    found = reader_hold(rfid_lost, True)
    assert found is not None and "unseen" in found[0] and found[1] == "the reader shoe"
    assert reader_hold(rfid_lost, False) is None  # a locked gate let no card pass
    assert reader_hold(DeviceLost(source="shoe", reason="EIO"), True) is None  # it resends
    bad = DeviceFault(source="shoe", fault=Fault.BAD_CHECKSUM, detail="x")
    assert reader_hold(bad, True) is None  # the reader reads the tag again


def test_blackjack_holds_on_an_unknown_tag_and_on_a_duplicate_tag() -> None:
    table = BlackjackTable()
    table.take_outputs()
    out = table.handle(DeviceFault(source="shoe", fault=Fault.UNKNOWN_TAG, detail="99"))
    (violation,) = [o for o in out if type(o).__name__ == "Violation"]
    assert violation.rule == "3.3" and "99" in violation.message and table.state == "hold"
    assert violation.by == "the reader shoe"


def test_a_card_drawn_event_carries_its_tag_to_the_audit() -> None:
    table = BlackjackTable()
    table.handle(CardDrawn(source="shoe", card=AS, tag="C000000000"))
    assert table.audit.count(AS) == 1
