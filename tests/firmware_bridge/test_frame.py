"""Framing: literal vectors from docs/protocol.md, resynchronisation, and bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import messages as m
from firmware_bridge.frame import (
    MAX_ENCODED,
    Frame,
    FrameDecoder,
    FrameProblem,
    Problem,
    cobs_decode,
    cobs_encode,
    crc16,
    encode_frame,
)

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def doc_rows(after_heading: str) -> list[tuple[str, str]]:
    """The two-column table rows under a heading of docs/protocol.md, backticks stripped."""
    text = PROTOCOL_DOC.read_text()
    section = text.split(after_heading, 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]+)`\s*\|\s*$", section, re.MULTILINE)
    assert rows, f"no vectors under {after_heading!r}"
    return rows


def test_crc16_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(("raw", "encoded"), doc_rows("COBS in one paragraph"))
def test_cobs_vectors_from_the_doc(raw: str, encoded: str) -> None:
    assert cobs_encode(bytes.fromhex(raw)) == bytes.fromhex(encoded)
    assert cobs_decode(bytes.fromhex(encoded)) == bytes.fromhex(raw)


@given(st.binary(max_size=700))
def test_cobs_round_trip_and_no_zero(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize(("expr", "wire"), doc_rows("### Test vectors"))
def test_protocol_vectors_from_the_doc(expr: str, wire: str) -> None:
    message = eval(expr, vars(m))  # our own doc's message expressions
    frame = bytes.fromhex(wire)
    assert m.encode(message) == frame
    decoded = FrameDecoder().feed(frame)
    assert len(decoded) == 1 and isinstance(decoded[0], Frame)
    assert m.decode(decoded[0]) == message


def test_a_frame_fed_one_byte_at_a_time() -> None:
    frame = encode_frame(0x10, 5, b"As\x00\x00\x03\xe8")
    decoder = FrameDecoder()
    out: list[Frame | FrameProblem] = []
    for byte in frame:
        out += decoder.feed(bytes([byte]))
    assert out == [Frame(0x10, 5, b"As\x00\x00\x03\xe8")]


def test_junk_before_a_frame_is_reported_once_and_the_frame_decodes() -> None:
    frame = encode_frame(0x02, 0)
    out = FrameDecoder().feed(b"\x13\x37junk" + frame)
    assert [type(x) for x in out] == [FrameProblem, Frame]
    assert isinstance(out[0], FrameProblem) and out[0].problem is Problem.BAD_CRC


def test_a_flipped_bit_fails_the_crc() -> None:
    frame = bytearray(encode_frame(0x10, 5, b"As\x00\x00\x00\x01"))
    frame[7] ^= 0x01
    (problem,) = FrameDecoder().feed(bytes(frame))
    assert isinstance(problem, FrameProblem) and problem.problem is Problem.BAD_CRC
    assert problem.seq is None


def test_a_run_without_boundary_is_oversize_and_bounded() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x01" * (MAX_ENCODED * 10)) == []
    out = decoder.feed(b"\x00" + encode_frame(0x02, 0))
    assert isinstance(out[0], FrameProblem) and out[0].problem is Problem.OVERSIZE
    assert out[1] == Frame(0x02, 0, b"")
    assert decoder.junk_bytes == MAX_ENCODED * 10


def test_a_declared_length_over_the_maximum_is_oversize() -> None:
    from firmware_bridge.frame import CRC, HEADER

    body = HEADER.pack(0x10, 1, 200) + b"x" * 6
    body += CRC.pack(crc16(body))
    (problem,) = FrameDecoder().feed(b"\x00" + cobs_encode(body) + b"\x00")
    assert isinstance(problem, FrameProblem) and problem.problem is Problem.OVERSIZE


def test_a_declared_length_that_does_not_match_is_malformed() -> None:
    from firmware_bridge.frame import CRC, HEADER

    body = HEADER.pack(0x10, 1, 3) + b"x" * 6
    body += CRC.pack(crc16(body))
    (problem,) = FrameDecoder().feed(b"\x00" + cobs_encode(body) + b"\x00")
    assert isinstance(problem, FrameProblem) and problem.problem is Problem.MALFORMED


frames = st.builds(
    lambda t, s, p: encode_frame(t, s, p),
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
    st.binary(max_size=64),
)


@given(
    st.lists(st.tuples(st.binary(max_size=40), frames, st.booleans()), max_size=8),
    st.binary(max_size=40),
    st.lists(st.integers(1, 50), max_size=20),
)
def test_junk_never_raises_and_never_hides_a_later_valid_frame(
    pieces: list[tuple[bytes, bytes, bool]], tail: bytes, cuts: list[int]
) -> None:
    """Junk before and between frames, junk inside some frames (spoiling only those), and
    the stream cut into arbitrary reads: every unspoiled frame comes out, in order."""
    stream = b""
    intact: list[bytes] = []
    for junk, frame, spoil in pieces:
        if spoil and junk:
            at = len(frame) // 2
            stream += frame[:at] + junk + frame[at:]  # junk inside: this frame is lost
        else:
            stream += junk + frame
            intact.append(frame)
    stream += tail
    decoder = FrameDecoder()
    out: list[Frame | FrameProblem] = []
    at = 0
    for cut in [*cuts, len(stream)]:
        out += decoder.feed(stream[at : at + cut])
        at += cut
    out += decoder.feed(stream[at:])
    decoded = [x for x in out if isinstance(x, Frame)]
    expected = FrameDecoder().feed(b"".join(intact))
    # every intact frame appears, in order (junk may, very rarely, decode as a frame too)
    it = iter(decoded)
    assert all(any(got == want for got in it) for want in expected)
