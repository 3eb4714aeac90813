"""CHIP_IDS (0x13): each chip's 64-bit UID and the value it carries, on a spot.
The byte vectors are the ones in docs/protocol.md."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import messages as m
from firmware_bridge.errors import BridgeError
from firmware_bridge.frame import Frame, FrameDecoder, FrameProblem, Problem, encode_frame

VECTORS = [
    (
        m.ChipIds(9, "box2", (("E004015012345678", 25),)),
        "00 02 13 0c 09 11 01 e0 04 01 50 12 34 56 78 01 01 08 19 62 6f 78 32 55 52 00",
    ),
    (
        m.ChipIds(10, "box2", (("E004015012345678", 25), ("E0040150DEADBEEF", 100))),
        "00 02 13 0c 0a 1d 02 e0 04 01 50 12 34 56 78 01 01 0a 19 e0 04 01 50 de ad be ef "
        "01 01 08 64 62 6f 78 32 6f 9d 00",
    ),
]


def one(data: bytes) -> m.Message | FrameProblem:
    (frame,) = FrameDecoder().feed(data)
    assert isinstance(frame, Frame)
    return m.decode(frame)


@pytest.mark.parametrize(("message", "line"), VECTORS)
def test_chip_ids_byte_vectors(message: m.ChipIds, line: str) -> None:
    assert m.encode(message) == bytes.fromhex(line)
    assert one(bytes.fromhex(line)) == message


uids = st.integers(0, 2**64 - 1).map(lambda n: f"{n:016X}")
chips = st.lists(st.tuples(uids, st.integers(0, 2**32 - 1)), max_size=4).map(tuple)


@given(st.integers(0, 0xFFFF), st.sampled_from(["box1", "box7.p3", "insurance5"]), chips)
def test_chip_ids_round_trip(seq: int, spot: str, stack: tuple[tuple[str, int], ...]) -> None:
    message = m.ChipIds(seq, spot, stack)
    assert one(m.encode(message)) == message


def test_chip_ids_is_reliable() -> None:
    assert isinstance(m.ChipIds(1, "box1", ()), m.RELIABLE_TYPES)


@pytest.mark.parametrize(
    ("chip_id", "why"),
    [("E00401501234567", "16 hex digits"), ("NOT-HEX-DIGITS!!", "cannot encode")],
)
def test_a_chip_id_that_is_not_a_uid_is_refused(chip_id: str, why: str) -> None:
    with pytest.raises(BridgeError, match=why):
        m.encode(m.ChipIds(1, "box1", ((chip_id, 25),)))


def test_five_chips_do_not_fit_one_frame() -> None:
    stack = tuple((f"{n:016X}", 5) for n in range(5))
    with pytest.raises(BridgeError, match="over 64"):
        m.encode(m.ChipIds(1, "box1.p2", stack))


@pytest.mark.parametrize(
    "payload",
    [
        b"\x02" + bytes(12) + b"box1",  # two chips announced, one there (the rest is the spot)
        b"\x01" + bytes(12),  # no spot name
        b"",  # nothing at all
    ],
)
def test_a_malformed_chip_ids_keeps_its_sequence_number(payload: bytes) -> None:
    problem = one(encode_frame(m.MessageType.CHIP_IDS, 77, payload))
    assert isinstance(problem, FrameProblem)
    assert problem.problem is Problem.MALFORMED and problem.seq == 77
