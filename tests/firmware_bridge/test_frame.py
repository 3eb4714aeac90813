"""Framing: literal vectors from docs/protocol.md, resynchronisation, and bad input.

Also the edges a silent slip would pass, pinned to the frame layout: COBS's 254-byte
blocks, the field limits, and the exact problem reported."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import messages as m
from firmware_bridge.errors import BridgeError
from firmware_bridge.frame import (
    CRC,
    HEADER,
    MAX_ENCODED,
    MAX_PAYLOAD,
    Frame,
    FrameDecoder,
    FrameProblem,
    Problem,
    cobs_decode,
    cobs_encode,
    crc16,
    decode_body,
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


def test_protocol_frame_limits() -> None:
    assert HEADER.size == 4 and CRC.size == 2 and MAX_PAYLOAD == 64
    assert MAX_ENCODED == 71  # a 70-byte body and its one COBS code byte


def test_protocol_cobs_a_full_254_byte_block_has_code_ff_and_no_implied_zero() -> None:
    data = bytes(range(1, 255))  # 254 non-zero bytes
    encoded = cobs_encode(data)
    assert encoded == b"\xff" + data + b"\x01"
    assert cobs_decode(encoded) == data
    followed = data + b"\x07"
    assert cobs_encode(followed) == b"\xff" + data + b"\x02\x07"
    assert cobs_decode(cobs_encode(followed)) == followed
    with_zero = data + b"\x00\x07"
    assert cobs_decode(cobs_encode(with_zero)) == with_zero
    assert cobs_encode(b"") == b"\x01" and cobs_decode(b"\x01") == b""
    assert cobs_encode(b"\x00") == b"\x01\x01" and cobs_decode(b"\x01\x01") == b"\x00"


def test_protocol_cobs_malformed_encodings_are_refused_with_why() -> None:
    with pytest.raises(BridgeError, match=r"^zero byte inside a COBS block$"):
        cobs_decode(b"\x02\x05\x00")
    with pytest.raises(BridgeError, match=r"^COBS block runs past the end of the frame$"):
        cobs_decode(b"\x05\x01")


def test_protocol_field_limits_on_encode() -> None:
    assert encode_frame(0xFF, 0xFFFF, bytes(MAX_PAYLOAD))[0] == 0
    with pytest.raises(BridgeError, match=r"^message type 256 does not fit in one byte$"):
        encode_frame(0x100, 0)
    with pytest.raises(BridgeError, match=r"^message type -1 does not fit in one byte$"):
        encode_frame(-1, 0)
    with pytest.raises(BridgeError, match=r"^sequence number 65536 does not fit in 16 bits$"):
        encode_frame(1, 0x10000)
    with pytest.raises(BridgeError, match=r"^sequence number -1 does not fit in 16 bits$"):
        encode_frame(1, -1)
    with pytest.raises(BridgeError, match=r"^payload of 65 bytes is over 64$"):
        encode_frame(1, 0, bytes(MAX_PAYLOAD + 1))


def test_protocol_a_frame_of_the_largest_payload_decodes() -> None:
    payload = bytes(range(MAX_PAYLOAD))
    (frame,) = FrameDecoder().feed(encode_frame(0x21, 513, payload))
    assert frame == Frame(0x21, 513, payload)


def body_with_crc(body: bytes) -> bytes:
    return body + CRC.pack(crc16(body))


def test_protocol_decode_body_reports_each_problem_exactly() -> None:
    assert decode_body(b"\x02\x05\x00") == FrameProblem(
        Problem.BAD_CRC, "damaged frame (zero byte inside a COBS block)"
    )
    short = cobs_encode(b"\x01\x02\x03\x04\x05")
    assert decode_body(short) == FrameProblem(Problem.MALFORMED, "frame of 5 bytes is too short")
    minimal = body_with_crc(HEADER.pack(1, 2, 0))
    assert decode_body(cobs_encode(minimal)) == Frame(1, 2, b"")
    bad = bytearray(minimal)
    bad[-1] ^= 1
    assert decode_body(cobs_encode(bytes(bad))) == FrameProblem(
        Problem.BAD_CRC, "CRC mismatch on a 6-byte frame"
    )
    over = body_with_crc(HEADER.pack(1, 2, 65) + bytes(3))
    assert decode_body(cobs_encode(over)) == FrameProblem(
        Problem.OVERSIZE, "declared length 65 over 64"
    )
    at_max = body_with_crc(HEADER.pack(1, 2, 64) + bytes(64))
    assert decode_body(cobs_encode(at_max)) == Frame(1, 2, bytes(64))
    wrong = body_with_crc(HEADER.pack(1, 2, 4) + bytes(3))
    assert decode_body(cobs_encode(wrong)) == FrameProblem(
        Problem.MALFORMED, "declared length 4, payload has 3 bytes"
    )


def test_protocol_oversize_chunk_counts_its_junk_and_resyncs() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(b"\x01" * MAX_ENCODED) == []  # exactly the largest: still buffered
    assert decoder.junk_bytes == 0
    assert decoder.feed(b"\x01" * 3) == []  # over the limit: dropped as it arrives
    assert decoder.junk_bytes == MAX_ENCODED + 3
    assert decoder.feed(b"\x01" * 5) == []
    assert decoder.junk_bytes == MAX_ENCODED + 8
    frame = encode_frame(2, 7, b"ok")
    got = decoder.feed(b"\x01\x01" + frame)
    assert decoder.junk_bytes == MAX_ENCODED + 10
    assert got == [
        FrameProblem(Problem.OVERSIZE, f"no frame boundary within {MAX_ENCODED} bytes"),
        Frame(2, 7, b"ok"),
    ]
    assert decoder.feed(encode_frame(2, 8)) == [Frame(2, 8, b"")]  # in step again


def test_protocol_two_frames_in_one_read_and_empty_chunks_ignored() -> None:
    data = encode_frame(1, 1) + b"\x00\x00" + encode_frame(1, 2)
    assert FrameDecoder().feed(data) == [Frame(1, 1, b""), Frame(1, 2, b"")]
    assert struct.calcsize(">BHB") == HEADER.size


def test_protocol_junk_bytes_add_up_over_several_oversize_runs() -> None:
    decoder = FrameDecoder()
    for run in (1, 2):
        decoder.feed(b"\x01" * (MAX_ENCODED + 1) + b"\x00")
        assert decoder.junk_bytes == run * (MAX_ENCODED + 1)


def test_protocol_constants_and_problem_names_match_the_controllers_faults() -> None:
    from controller.ports import Fault
    from firmware_bridge.frame import DELIMITER

    assert DELIMITER == 0x00
    assert {p.value for p in Problem} <= {f.value for f in Fault}
    assert [p.value for p in Problem] == [
        "bad-crc",
        "malformed",
        "oversize",
        "unknown-message",
        "bad-card",
        "unsupported-version",
        "sequence-gap",
    ]
