"""The protocol session, two ends back to back, with time driven by hand.

The tests named test_protocol_* each name the part of docs/protocol.md's session rules
they pin, and check what the peer or the owner sees."""

from __future__ import annotations

import pytest

from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem, Problem, encode_frame
from firmware_bridge.session import (
    Incoming,
    PeerHeard,
    PeerHello,
    PeerNak,
    PeerSilent,
    Session,
    seq_distance,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make(clock: Clock, kind: int, boot: int, **kw: object) -> Session:
    return Session(kind, f"S{boot}", "fw", boot_id=boot, clock=clock, **kw)  # type: ignore[arg-type]


class Pair:
    """A device and a controller session, and a line between them that the test controls."""

    def __init__(self, clock: Clock, **controller_kw: object) -> None:
        self.clock = clock
        self.device = make(clock, m.DeviceKind.SHOE, 7, resend_interval=0.05)
        self.controller = make(clock, m.DeviceKind.CONTROLLER, 9, **controller_kw)
        self.device.connect()
        self.controller.connect()
        self.to_controller: list[Incoming] = []
        self.pump()

    def pump(self, *, lose_from_device: bool = False) -> list[Incoming]:
        got: list[Incoming] = []
        for _ in range(6):
            data = self.device.data_to_send()
            if not lose_from_device:
                got += self.controller.receive_data(data)
            self.device.receive_data(self.controller.data_to_send())
        self.to_controller += got
        return got

    def cards(self, got: list[Incoming]) -> list[m.CardDrawn]:
        return [x for x in got if isinstance(x, m.CardDrawn)]

    def record_all(self, got: list[Incoming]) -> None:
        for item in self.cards(got):
            self.controller.acknowledge(item.seq)


def test_hello_both_ways_then_cards_exactly_once(clock: Clock) -> None:
    pair = Pair(clock)
    assert any(isinstance(x, PeerHello) and x.new_boot for x in pair.to_controller)
    for code in ("As", "Kd", "2c"):
        pair.device.send(m.CardDrawn(0, code, 0))
    got = pair.cards(pair.pump())
    assert [(c.seq, c.card) for c in got] == [(1, "As"), (2, "Kd"), (3, "2c")]


def test_no_ack_until_the_owner_records_the_event(clock: Clock) -> None:
    pair = Pair(clock)
    pair.device.send(m.CardDrawn(0, "As", 0))
    got = pair.pump()
    assert pair.device.unacknowledged == 1
    pair.record_all(got)
    pair.pump()
    assert pair.device.unacknowledged == 0


def test_a_resend_is_recognised_and_delivered_once(clock: Clock) -> None:
    pair = Pair(clock)
    pair.device.send(m.CardDrawn(0, "As", 0))
    first = pair.pump()
    clock.now += 0.06  # past the device's resend interval: it sends again
    pair.device.tick()
    again = pair.pump()
    assert len(pair.cards(first)) == 1 and pair.cards(again) == []
    assert pair.controller.counters.duplicates == 1
    pair.record_all(first)
    pair.pump()
    clock.now += 0.06
    pair.device.tick()
    pair.pump()
    assert pair.device.unacknowledged == 0 and pair.device.counters.resends == 1


def test_a_lost_frame_is_resent_and_order_kept(clock: Clock) -> None:
    pair = Pair(clock)
    pair.device.send(m.CardDrawn(0, "As", 0))
    pair.pump(lose_from_device=True)  # the first card's frame is lost on the line
    pair.device.send(m.CardDrawn(0, "Kd", 0))
    assert pair.cards(pair.pump()) == []  # seq 2 is ahead of 1: held back
    assert pair.controller.counters.out_of_order == 1
    clock.now += 0.06
    pair.device.tick()
    got = pair.pump()
    assert [c.card for c in pair.cards(got)] == ["As", "Kd"]


def test_a_damaged_frame_is_naked_and_resent_at_once(clock: Clock) -> None:
    pair = Pair(clock)
    clock.now += 1.0
    pair.device.send(m.CardDrawn(0, "As", 0))
    frame = bytearray(pair.device.data_to_send())
    frame[6] ^= 0xFF
    got = pair.controller.receive_data(bytes(frame))
    assert [x.problem for x in got if isinstance(x, FrameProblem)] == [Problem.BAD_CRC]
    nak = pair.controller.data_to_send()
    assert m.encode(m.Nak(m.NakReason.BAD_FRAME)) in nak
    pair.device.receive_data(nak)  # no clock advance: the NAK alone triggers the resend
    resent = pair.controller.receive_data(pair.device.data_to_send())
    assert [c.card for c in pair.cards(resent)] == ["As"]


def test_nothing_reliable_is_delivered_before_hello(clock: Clock) -> None:
    device = make(clock, m.DeviceKind.SHOE, 7)
    controller = make(clock, m.DeviceKind.CONTROLLER, 9)
    device.connect()
    device.data_to_send()  # the device's HELLO is lost
    frame = m.encode(m.CardDrawn(1, "As", 0))
    assert controller.receive_data(frame) == []
    # the controller asks for an introduction instead of guessing where the sequence is
    assert m.encode(m.Hello(m.DeviceKind.CONTROLLER, 9, 1, "S9", "fw")) in (
        controller.data_to_send()
    )


def test_sequence_numbers_wrap_around(clock: Clock) -> None:
    pair = Pair(clock)
    pair.device = make(clock, m.DeviceKind.SHOE, 8)
    pair.device._next_seq = 0xFFFE  # a shoe that has dealt 65,533 cards since power-up
    pair.device.connect()
    pair.controller.connect()
    pair.pump()
    for code in ("As", "Kd", "2c", "3h"):
        pair.device.send(m.CardDrawn(0, code, 0))
    got = pair.pump()
    assert [c.seq for c in pair.cards(got)] == [0xFFFE, 0xFFFF, 0, 1]
    pair.record_all(got)
    pair.pump()
    assert pair.device.unacknowledged == 0
    assert seq_distance(0, 0xFFFF) == 1 and seq_distance(0xFFFF, 0) == 0xFFFF


def test_a_rebooted_device_starts_a_new_sequence(clock: Clock) -> None:
    pair = Pair(clock)
    for _ in range(5):
        pair.device.send(m.CardDrawn(0, "As", 0))
    pair.record_all(pair.pump())
    pair.pump()
    pair.device = make(clock, m.DeviceKind.SHOE, 8)  # new boot id, numbering from 1 again
    pair.device.connect()
    pair.controller.connect()
    hellos = [x for x in pair.pump() if isinstance(x, PeerHello)]
    assert hellos and hellos[0].new_boot
    pair.device.send(m.CardDrawn(0, "Qh", 0))
    assert [c.card for c in pair.cards(pair.pump())] == ["Qh"]


def test_a_reconnecting_device_that_skipped_numbers_reports_a_gap(clock: Clock) -> None:
    pair = Pair(clock)
    pair.device._next_seq = 4  # the device lost events 1..3 (e.g. a firmware bug)
    pair.device.connect()
    pair.controller.connect()
    gaps = [
        x for x in pair.pump() if isinstance(x, FrameProblem) and x.problem is Problem.SEQUENCE_GAP
    ]
    assert len(gaps) == 1 and "3 lost" in gaps[0].detail


def test_resume_from_the_journal_recognises_recorded_events(clock: Clock) -> None:
    """After a controller restart, resends of events already journaled are not new."""
    device = make(clock, m.DeviceKind.SHOE, 7)
    for _ in range(3):
        device.send(m.CardDrawn(0, "As", 0))
    device.connect()
    controller = make(clock, m.DeviceKind.CONTROLLER, 10, resume=(7, 2))
    controller.connect()
    got: list[Incoming] = []
    for _ in range(6):
        got += controller.receive_data(device.data_to_send())
        device.receive_data(controller.data_to_send())
    assert [c.seq for c in got if isinstance(c, m.CardDrawn)] == [3]
    assert device.unacknowledged == 1  # events 1 and 2 were re-ACKed as recorded


def test_heartbeat_sent_when_idle_and_silence_detected(clock: Clock) -> None:
    pair = Pair(clock, heartbeat_interval=1.0, heartbeat_timeout=3.0)
    clock.now += 1.0
    assert pair.controller.tick() == []
    assert pair.controller.data_to_send() == m.encode(m.Heartbeat())
    clock.now += 2.5
    silent = pair.controller.tick()
    assert len(silent) == 1 and isinstance(silent[0], PeerSilent)
    assert pair.controller.tick() == []  # reported once
    back = pair.controller.receive_data(m.encode(m.Heartbeat()))
    assert back == [PeerHeard()]


def test_a_window_limits_frames_in_flight(clock: Clock) -> None:
    pair = Pair(clock)
    for _ in range(40):
        pair.device.send(m.CardDrawn(0, "As", 0))
    first = pair.controller.receive_data(pair.device.data_to_send())
    assert len(pair.cards(first)) == pair.device.window


def frames(data: bytes) -> list[object]:
    """The messages in a burst of line bytes, in order."""
    from firmware_bridge.frame import FrameDecoder

    return [m.decode(f) for f in FrameDecoder().feed(data)]


def introduced(clock: Clock, next_seq: int = 1, **device_kw: object) -> tuple[Session, Session]:
    """A device and a controller that have exchanged HELLOs, nothing else queued. Times in
    these tests are binary fractions (0.25, 0.0625), so the clock's sums are exact."""
    device = make(clock, m.DeviceKind.SHOE, 7, **device_kw)
    device._next_seq = next_seq
    controller = make(clock, m.DeviceKind.CONTROLLER, 9)
    device.connect()
    controller.connect()
    for _ in range(3):
        controller.receive_data(device.data_to_send())
        device.receive_data(controller.data_to_send())
    assert device.peer_ready and controller.peer_ready
    return device, controller


def cards(got: list[Incoming]) -> list[m.CardDrawn]:
    return [x for x in got if isinstance(x, m.CardDrawn)]


def test_protocol_ack_for_an_unsent_sequence_is_refused() -> None:
    """An ACK names a number this end sent; one ahead of the last sent is ignored, so a
    corrupt or foreign ACK cannot empty the outbox and lose the events in it."""
    clock = Clock()
    device, _ = introduced(clock)
    for code in ("As", "Kd", "2c"):
        device.send(m.CardDrawn(0, code, 0))
    device.data_to_send()
    device.receive_data(m.encode(m.Ack(4)))  # 4 was never sent
    assert device.unacknowledged == 3
    device.receive_data(m.encode(m.Ack(0x8003)))  # far ahead, "behind" in serial arithmetic
    assert device.unacknowledged == 3
    device.receive_data(m.encode(m.Ack(2)))  # cumulative: 1 and 2
    assert device.unacknowledged == 1
    device.receive_data(m.encode(m.Ack(3)))  # the last one sent is acknowledgeable
    assert device.unacknowledged == 0


def test_protocol_ack_of_an_old_number_keeps_the_newer_ones() -> None:
    clock = Clock()
    device, _ = introduced(clock)
    for code in ("As", "Kd", "2c"):
        device.send(m.CardDrawn(0, code, 0))
    device.receive_data(m.encode(m.Ack(1)))
    device.receive_data(m.encode(m.Ack(1)))  # a repeated ACK takes nothing more
    assert device.unacknowledged == 2


def test_protocol_seq_wrap_duplicates_across_65535_are_reacked_not_redelivered() -> None:
    """Numbers wrap at 65536: a resend of 65535 and 0 after both were recorded is two
    duplicates, answered with an ACK of the last recorded number."""
    clock = Clock()
    device, controller = introduced(clock, next_seq=0xFFFF, resend_interval=0.25)
    device.send(m.CardDrawn(0, "As", 0))
    device.send(m.CardDrawn(0, "Kd", 0))
    got = controller.receive_data(device.data_to_send())
    assert [c.seq for c in cards(got)] == [0xFFFF, 0]
    controller.acknowledge(0xFFFF)
    controller.acknowledge(0)
    controller.data_to_send()  # both ACKs lost on the line
    clock.now += 0.25
    device.tick()
    again = controller.receive_data(device.data_to_send())
    assert cards(again) == []
    assert controller.counters.duplicates == 2
    assert controller.counters.delivered == 2
    assert frames(controller.data_to_send()) == [m.Ack(0), m.Ack(0)]
    assert seq_distance(0, 0xFFFF) == 1


def test_protocol_duplicate_not_yet_recorded_gets_no_ack() -> None:
    """The owner ACKs only what it has journaled: a resend of an event delivered but not
    yet recorded is dropped as a duplicate and not ACKed on the owner's behalf."""
    clock = Clock()
    device, controller = introduced(clock, resend_interval=0.25)
    device.send(m.CardDrawn(0, "As", 0))
    assert len(cards(controller.receive_data(device.data_to_send()))) == 1
    clock.now += 0.25
    device.tick()
    assert cards(controller.receive_data(device.data_to_send())) == []
    assert controller.counters.duplicates == 1
    assert frames(controller.data_to_send()) == []


def test_protocol_hello_new_boot_records_up_to_the_peers_oldest_unacked() -> None:
    """A new boot id resets the expected number to the peer's next_seq, and everything
    before it counts as recorded: a stray resend of next_seq-1 is re-ACKed as n-1."""
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9)
    controller.connect()
    controller.data_to_send()
    got = controller.receive_data(m.encode(m.Hello(m.DeviceKind.SHOE, 55, 5, "S55", "fw")))
    assert [x.new_boot for x in got if isinstance(x, PeerHello)] == [True]
    controller.data_to_send()  # its HELLO reply
    assert cards(controller.receive_data(m.encode(m.CardDrawn(4, "As", 0)))) == []
    assert frames(controller.data_to_send()) == [m.Ack(4)]
    delivered = controller.receive_data(m.encode(m.CardDrawn(5, "Kd", 0)))
    assert [c.seq for c in cards(delivered)] == [5]


def test_protocol_hello_same_boot_ahead_reports_the_gap_and_moves_on() -> None:
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9, resume=(55, 9))
    controller.connect()
    got = controller.receive_data(m.encode(m.Hello(m.DeviceKind.SHOE, 55, 12, "S55", "fw")))
    gaps = [x for x in got if isinstance(x, FrameProblem)]
    assert [g.problem for g in gaps] == [Problem.SEQUENCE_GAP]
    assert "oldest unacknowledged message is 12, expected 10: 2 lost" in gaps[0].detail
    assert [x.new_boot for x in got if isinstance(x, PeerHello)] == [False]
    got = controller.receive_data(m.encode(m.CardDrawn(12, "As", 0)))
    assert [c.seq for c in cards(got)] == [12]


def test_protocol_hello_same_boot_in_step_or_behind_is_no_gap() -> None:
    for next_seq in (10, 8):
        clock = Clock()
        controller = make(clock, m.DeviceKind.CONTROLLER, 9, resume=(55, 9))
        controller.connect()
        got = controller.receive_data(
            m.encode(m.Hello(m.DeviceKind.SHOE, 55, next_seq, "S55", "fw"))
        )
        assert [x for x in got if isinstance(x, FrameProblem)] == []
        got = controller.receive_data(m.encode(m.CardDrawn(10, "As", 0)))
        assert [c.seq for c in cards(got)] == [10]


def test_protocol_hello_reply_is_not_answered() -> None:
    """A HELLO that is itself a reply is not answered (no HELLO ping-pong)."""
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9)
    controller.connect()
    controller.data_to_send()
    controller.receive_data(m.encode(m.Hello(m.DeviceKind.SHOE, 55, 1, "S55", "fw", True)))
    assert [x for x in frames(controller.data_to_send()) if isinstance(x, m.Hello)] == []
    controller.receive_data(m.encode(m.Hello(m.DeviceKind.SHOE, 56, 1, "S56", "fw")))
    replies = [x for x in frames(controller.data_to_send()) if isinstance(x, m.Hello)]
    assert len(replies) == 1 and replies[0].reply and replies[0].boot_id == 9
    assert replies[0].next_seq == 1 and replies[0].serial_number == "S9"


def test_protocol_hello_carries_the_oldest_unacknowledged_number() -> None:
    clock = Clock()
    device = make(clock, m.DeviceKind.SHOE, 7)
    device.send(m.CardDrawn(0, "As", 0))
    device.send(m.CardDrawn(0, "Kd", 0))
    device.connect()
    (hello,) = frames(device.data_to_send())
    assert isinstance(hello, m.Hello) and hello.next_seq == 1 and not hello.reply


def test_protocol_hello_resent_once_per_interval_until_answered() -> None:
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9, resend_interval=0.25)
    controller.connect()
    assert len(frames(controller.data_to_send())) == 1
    clock.now += 0.1875
    controller.tick()
    assert frames(controller.data_to_send()) == []
    clock.now += 0.0625
    controller.tick()
    assert [type(x) for x in frames(controller.data_to_send())] == [m.Hello]
    controller.tick()  # same instant: not again
    assert frames(controller.data_to_send()) == []


def test_protocol_reliable_before_hello_asks_for_hello_once_per_interval() -> None:
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9, resend_interval=0.25)
    assert controller.receive_data(m.encode(m.CardDrawn(1, "As", 0))) == []
    first = frames(controller.data_to_send())
    assert [type(x) for x in first] == [m.Hello]  # never said HELLO: says it now
    clock.now += 0.125
    assert controller.receive_data(m.encode(m.CardDrawn(1, "As", 0))) == []
    assert frames(controller.data_to_send()) == []  # asked 0.125 s ago: not again
    clock.now += 0.125
    controller.receive_data(m.encode(m.CardDrawn(1, "As", 0)))
    assert [type(x) for x in frames(controller.data_to_send())] == [m.Hello]


def test_protocol_nak_comes_out_as_peer_nak_and_resends_at_once() -> None:
    clock = Clock()
    device, _ = introduced(clock, resend_interval=0.25)
    device.send(m.CardDrawn(0, "As", 0))
    device.data_to_send()
    clock.now += 0.0625  # a quarter interval since the last resend
    got = device.receive_data(m.encode(m.Nak(m.NakReason.BAD_FRAME)))
    assert got == [PeerNak(m.NakReason.BAD_FRAME)]
    assert frames(device.data_to_send()) == [m.CardDrawn(1, "As", 0)]
    assert device.counters.resends == 1
    clock.now += 0.03125  # a second NAK inside the quarter interval: no second resend
    assert device.receive_data(m.encode(m.Nak(m.NakReason.MALFORMED))) == [
        PeerNak(m.NakReason.MALFORMED)
    ]
    assert frames(device.data_to_send()) == []
    assert device.counters.resends == 1


def test_protocol_bad_frame_is_naked_and_counted() -> None:
    clock = Clock()
    _, controller = introduced(clock)
    good = m.encode(m.CardDrawn(1, "As", 0))
    damaged = good[:3] + bytes([good[3] ^ 0x01]) + good[4:]
    got = controller.receive_data(damaged)
    assert [x.problem for x in got if isinstance(x, FrameProblem)] == [Problem.BAD_CRC]
    assert frames(controller.data_to_send()) == [m.Nak(m.NakReason.BAD_FRAME)]
    assert controller.counters.bad_frames == 1
    assert controller.counters.naks_sent == 1


def test_protocol_counters_sent_delivered_out_of_order_resends() -> None:
    clock = Clock()
    device, controller = introduced(clock, resend_interval=0.25)
    for code in ("As", "Kd", "2c"):
        device.send(m.CardDrawn(0, code, 0))
    assert device.counters.sent == 3
    burst = device.data_to_send()
    first = m.encode(m.CardDrawn(1, "As", 0))
    got = controller.receive_data(burst[len(first) :])  # 1 lost: 2 and 3 are ahead
    assert cards(got) == []
    assert controller.counters.out_of_order == 2
    clock.now += 0.25
    device.tick()
    assert device.counters.resends == 3
    got = controller.receive_data(device.data_to_send())
    assert [c.seq for c in cards(got)] == [1, 2, 3]
    assert controller.counters.delivered == 3
    assert controller.counters.duplicates == 0


def test_protocol_resend_waits_for_the_interval() -> None:
    clock = Clock()
    device, _ = introduced(clock, resend_interval=0.25)
    device.send(m.CardDrawn(0, "As", 0))
    device.data_to_send()
    clock.now += 0.1875
    device.tick()
    assert device.data_to_send() == b""
    clock.now += 0.0625
    device.tick()
    assert frames(device.data_to_send()) == [m.CardDrawn(1, "As", 0)]


def test_protocol_window_holds_back_the_rest_until_acked() -> None:
    clock = Clock()
    device, _ = introduced(clock, window=2, resend_interval=0.25)
    for code in ("As", "Kd", "2c"):
        device.send(m.CardDrawn(0, code, 0))
    assert [f.seq for f in frames(device.data_to_send())] == [1, 2]  # type: ignore[attr-defined]
    clock.now += 0.25
    device.tick()
    assert [f.seq for f in frames(device.data_to_send())] == [1, 2]  # type: ignore[attr-defined]
    device.receive_data(m.encode(m.Ack(1)))
    assert [f.seq for f in frames(device.data_to_send())] == [3]  # type: ignore[attr-defined]


def test_protocol_heartbeat_only_when_idle_for_the_interval() -> None:
    clock = Clock()
    device, _ = introduced(clock, heartbeat_interval=1.0, heartbeat_timeout=3.0)
    clock.now += 0.9375
    device.tick()
    assert device.data_to_send() == b""
    clock.now += 0.0625
    device.send(m.CardDrawn(0, "As", 0))  # something queued: no heartbeat on top
    device.tick()
    assert [type(x) for x in frames(device.data_to_send())] == [m.CardDrawn]


def test_protocol_silence_is_reported_after_the_timeout_not_at_it() -> None:
    clock = Clock()
    device, _ = introduced(clock, heartbeat_interval=10.0, heartbeat_timeout=3.0)
    clock.now += 3.0
    assert device.tick() == []
    clock.now += 0.5
    assert device.tick() == [PeerSilent(3.5)]


def test_protocol_connect_forgets_silence_and_readiness() -> None:
    clock = Clock()
    device, _ = introduced(clock, heartbeat_interval=10.0, heartbeat_timeout=3.0)
    clock.now += 4
    assert len(device.tick()) == 1
    device.connect()
    assert not device.peer_ready
    assert device.tick() == []  # heard "now": the silence is forgotten
    device.send(m.CardDrawn(0, "As", 0))  # held back until the peer's HELLO
    assert [type(x) for x in frames(device.data_to_send())] == [m.Hello]


def test_protocol_boot_id_must_be_a_nonzero_32_bit_number() -> None:
    import pytest

    clock = Clock()
    for bad in (0, 1 << 32):
        with pytest.raises(ValueError, match=r"^boot_id must be a non-zero 32-bit number$"):
            make(clock, m.DeviceKind.SHOE, bad)
    make(clock, m.DeviceKind.SHOE, (1 << 32) - 1)
    make(clock, m.DeviceKind.SHOE, 1)


def card_payload(code: bytes) -> bytes:
    """A CARD_DRAWN payload carrying ``code`` (valid or not) as its card."""
    from firmware_bridge.frame import FrameDecoder

    (frame,) = FrameDecoder().feed(m.encode(m.CardDrawn(1, "As", 0)))
    return code + frame.payload[2:]  # type: ignore[union-attr]


def test_protocol_an_intact_frame_with_a_bad_card_holds_its_place_in_the_sequence() -> None:
    """A frame whose CRC matched but whose content is wrong is delivered in order (with its
    seq) for the owner to record and ACK, not NAKed: the device must not resend it."""
    clock = Clock()
    device, controller = introduced(clock)
    seq = device.send_frame(m.MessageType.CARD_DRAWN, card_payload(b"Zz"))
    assert seq == 1
    device.send(m.CardDrawn(0, "Kd", 0))
    got = controller.receive_data(device.data_to_send())
    assert [type(x) for x in got] == [FrameProblem, m.CardDrawn]
    problem = got[0]
    assert isinstance(problem, FrameProblem)
    assert (problem.problem, problem.seq) == (Problem.BAD_CARD, 1)
    assert got[1] == m.CardDrawn(2, "Kd", 0)
    assert controller.counters.delivered == 2
    assert controller.counters.bad_frames == 0 and controller.counters.naks_sent == 0
    assert frames(controller.data_to_send()) == []
    controller.acknowledge(2)
    device.receive_data(controller.data_to_send())
    assert device.unacknowledged == 0


def test_protocol_a_bad_frame_does_not_stop_the_rest_of_the_read() -> None:
    clock = Clock()
    device, controller = introduced(clock)
    device.send(m.CardDrawn(0, "Kd", 0))
    unknown = encode_frame(0x7F, 0)
    got = controller.receive_data(unknown + device.data_to_send())
    assert [type(x) for x in got] == [FrameProblem, m.CardDrawn]
    assert got[0] == FrameProblem(Problem.UNKNOWN_MESSAGE, "message type 0x7f")
    damaged = bytearray(m.encode(m.Heartbeat()))
    damaged[2] ^= 0x40
    device.send(m.CardDrawn(0, "Qh", 0))
    got = controller.receive_data(bytes(damaged) + device.data_to_send())
    assert [type(x) for x in got] == [FrameProblem, m.CardDrawn]
    assert controller.counters.bad_frames == 2 and controller.counters.naks_sent == 2
    assert frames(controller.data_to_send()) == [
        m.Nak(m.NakReason.UNKNOWN_MESSAGE),
        m.Nak(m.NakReason.BAD_FRAME),
    ]


def test_protocol_serial_arithmetic_half_way_round_is_behind_not_ahead() -> None:
    """RFC 1982 as docs/protocol.md states it: b is after a when (b - a) mod 65536 is in
    1..32767. A number exactly 32768 on is not ahead: it is an old one, a duplicate."""
    clock = Clock()
    device, controller = introduced(clock)
    device.send(m.CardDrawn(0, "As", 0))
    controller.receive_data(device.data_to_send())
    controller.acknowledge(1)
    controller.data_to_send()
    assert controller.receive_data(m.encode(m.CardDrawn(2 + 32768, "Kd", 0))) == []
    assert controller.counters.duplicates == 1 and controller.counters.out_of_order == 0
    assert frames(controller.data_to_send()) == [m.Ack(1)]
    assert controller.receive_data(m.encode(m.CardDrawn(2 + 32767, "Kd", 0))) == []
    assert controller.counters.out_of_order == 1


def test_protocol_hello_gap_of_one_and_half_way_round() -> None:
    one = "peer's oldest unacknowledged message is 11, expected 10: 1 lost"
    for next_seq, gaps_expected in ((11, [one]), (10 + 32768, [])):
        clock = Clock()
        controller = make(clock, m.DeviceKind.CONTROLLER, 9, resume=(55, 9))
        controller.connect()
        got = controller.receive_data(
            m.encode(m.Hello(m.DeviceKind.SHOE, 55, next_seq, "S55", "fw"))
        )
        assert [x.detail for x in got if isinstance(x, FrameProblem)] == gaps_expected


def test_protocol_peer_hello_is_kept_and_reported() -> None:
    clock = Clock()
    controller = make(clock, m.DeviceKind.CONTROLLER, 9)
    assert controller.peer_hello is None and controller.peer_boot is None
    controller.connect()
    hello = m.Hello(m.DeviceKind.SHOE, 55, 1, "S55", "fw 2")
    got = controller.receive_data(m.encode(hello))
    assert got == [PeerHello(hello, True)]
    assert controller.peer_hello == hello and controller.peer_boot == 55


def test_protocol_heard_again_is_reported_once() -> None:
    clock = Clock()
    _, controller = introduced(clock, heartbeat_interval=10.0, heartbeat_timeout=3.0)
    clock.now += 4
    assert len(controller.tick()) == 1
    first = controller.receive_data(m.encode(m.Heartbeat()))
    again = controller.receive_data(m.encode(m.Heartbeat()))
    assert first == [PeerHeard()] and again == []
    clock.now += 4
    assert len(controller.tick()) == 1  # silent again: reported again


def test_protocol_connect_does_not_count_as_silent() -> None:
    clock = Clock()
    device = make(clock, m.DeviceKind.SHOE, 7, heartbeat_interval=10.0, heartbeat_timeout=3.0)
    device.connect()
    clock.now += 3.5
    assert device.tick() == [PeerSilent(3.5)]


def test_protocol_a_fresh_session_keeps_time_before_connect() -> None:
    clock = Clock()
    device = make(clock, m.DeviceKind.SHOE, 7, heartbeat_interval=1.0, heartbeat_timeout=3.0)
    clock.now += 1.0
    assert device.tick() == []
    assert frames(device.data_to_send()) == [m.Heartbeat()]
    clock.now += 3.0
    assert device.tick() == [PeerSilent(4.0)]


def test_protocol_nak_holdoff_is_a_quarter_of_the_resend_interval() -> None:
    clock = Clock()
    device, _ = introduced(clock, resend_interval=0.25)
    device.send(m.CardDrawn(0, "As", 0))
    device.data_to_send()
    clock.now += 0.0546875  # under a quarter (0.0625), over a fifth (0.05)
    device.receive_data(m.encode(m.Nak(m.NakReason.BAD_FRAME)))
    assert frames(device.data_to_send()) == []
    clock.now += 0.0078125  # now exactly a quarter
    device.receive_data(m.encode(m.Nak(m.NakReason.BAD_FRAME)))
    assert frames(device.data_to_send()) == [m.CardDrawn(1, "As", 0)]


def test_protocol_window_is_16_by_default() -> None:
    """docs/protocol.md: a sender keeps up to 16 reliable messages in flight."""
    clock = Clock()
    device, _ = introduced(clock)
    assert device.window == 16
    for _ in range(17):
        device.send(m.CardDrawn(0, "As", 0))
    assert len(frames(device.data_to_send())) == 16


def test_protocol_an_intact_bad_frame_is_hearing_the_peer_again() -> None:
    clock = Clock()
    device, controller = introduced(clock, heartbeat_interval=10.0)
    clock.now += 4
    assert len(controller.tick()) == 1
    device.send_frame(m.MessageType.CARD_DRAWN, card_payload(b"Zz"))
    got = controller.receive_data(device.data_to_send())
    assert [type(x) for x in got] == [PeerHeard, FrameProblem]
