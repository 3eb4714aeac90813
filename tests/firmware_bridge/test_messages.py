"""Messages: round trips for every type, and a named problem for every kind of bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import messages as m
from firmware_bridge.errors import BridgeError
from firmware_bridge.frame import Frame, FrameDecoder, FrameProblem, Problem, encode_frame

seqs = st.integers(0, 0xFFFF)
u32 = st.integers(0, 0xFFFFFFFF)
ascii_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=24)
card_codes = st.sampled_from([r + s for r in m.CARD_RANKS for s in m.CARD_SUITS])

messages = st.one_of(
    st.builds(
        m.Hello,
        device_kind=st.integers(0, 255),
        boot_id=u32,
        next_seq=seqs,
        serial_number=ascii_text,
        firmware=ascii_text,
        reply=st.booleans(),
    ),
    st.just(m.Heartbeat()),
    st.builds(m.Ack, seqs),
    st.builds(m.Nak, st.sampled_from(m.NakReason)),
    st.builds(m.CardDrawn, seqs, card_codes, u32),
    st.builds(m.ShoeStatus, seqs, st.booleans(), st.booleans(), st.booleans(), st.booleans()),
    st.builds(
        m.ChipsSensed,
        seqs,
        st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789.", min_size=1, max_size=40),
        u32,
    ),
    st.builds(m.GateLock, seqs),
    st.builds(m.GateUnlock, seqs),
    st.builds(m.Lamp, seqs, st.integers(0, 255), st.sampled_from(m.LampPattern)),
)


@given(messages)
def test_decode_encode_round_trip(message: m.Message) -> None:
    (frame,) = FrameDecoder().feed(m.encode(message))
    assert isinstance(frame, Frame)
    assert m.decode(frame) == message


def decode_one(type_: int, seq: int, payload: bytes) -> m.Message | FrameProblem:
    (frame,) = FrameDecoder().feed(encode_frame(type_, seq, payload))
    assert isinstance(frame, Frame)
    return m.decode(frame)


def test_unknown_message_type_is_named() -> None:
    problem = decode_one(0x7E, 0, b"")
    assert isinstance(problem, FrameProblem)
    assert problem.problem is Problem.UNKNOWN_MESSAGE and "0x7e" in problem.detail


def test_a_card_code_that_is_not_a_card_keeps_its_sequence_number() -> None:
    problem = decode_one(m.MessageType.CARD_DRAWN, 42, b"Zz\x00\x00\x00\x01")
    assert isinstance(problem, FrameProblem)
    assert problem.problem is Problem.BAD_CARD and problem.seq == 42


def test_a_hello_with_an_unsupported_protocol_version_is_named() -> None:
    payload = bytes([2, 1, 0]) + b"\x00\x00\x00\x01\x00\x01\x00\x00"
    problem = decode_one(m.MessageType.HELLO, 0, payload)
    assert isinstance(problem, FrameProblem)
    assert problem.problem is Problem.UNSUPPORTED_VERSION and "version 2" in problem.detail


@pytest.mark.parametrize(
    ("type_", "payload"),
    [
        (m.MessageType.CARD_DRAWN, b"As"),  # too short
        (m.MessageType.SHOE_STATUS, b"\xf0"),  # undefined flags
        (m.MessageType.LAMP, b"\x01\x09"),  # no such pattern
        (m.MessageType.ACK, b"\x01"),  # ACK takes no payload
        (m.MessageType.HELLO, b"\x01\x01"),  # truncated
        (m.MessageType.CHIPS_SENSED, b"\x00\x00\x00\x05"),  # no spot
    ],
)
def test_a_payload_that_does_not_fit_its_type_is_malformed(type_: int, payload: bytes) -> None:
    problem = decode_one(type_, 9, payload)
    assert isinstance(problem, FrameProblem) and problem.problem is Problem.MALFORMED


def test_encoding_refuses_values_the_protocol_cannot_carry() -> None:
    with pytest.raises(BridgeError, match="not a card"):
        m.encode(m.CardDrawn(1, "1x", 0))
    with pytest.raises(BridgeError):
        m.encode(m.Hello(1, 1, 1, "S" * 25, "f"))
    with pytest.raises(BridgeError):
        m.encode(m.ChipsSensed(1, "box1", 1 << 32))
    with pytest.raises(BridgeError):
        encode_frame(1, 1 << 16)
