"""Framing edges a silent slip would pass, pinned to docs/protocol.md's frame
layout: COBS's 254-byte blocks, the field limits, and the exact problem reported."""

from __future__ import annotations

import struct

import pytest

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
