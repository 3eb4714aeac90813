"""The protocol session, two ends back to back, with time driven by hand."""

from __future__ import annotations

import pytest

from firmware_bridge import messages as m
from firmware_bridge.frame import FrameProblem, Problem
from firmware_bridge.session import (
    Incoming,
    PeerHeard,
    PeerHello,
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
