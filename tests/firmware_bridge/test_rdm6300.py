"""The RDM6300 frame: literal vectors (docs/rfid.md), recovery from junk, the presence filter.

Also its edges, pinned to docs/protocol.md's RDM6300 section: 0x02, 10 ASCII hex, 2 hex XOR
checksum, 0x03."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import BridgeError
from firmware_bridge.rdm6300 import (
    FrameProblem,
    PresenceFilter,
    ProblemKind,
    Rdm6300Decoder,
    TagFrame,
    checksum,
    encode,
)

# The worked example of docs/rfid.md, byte for byte.
EXAMPLE_TAG = "0F002A3B5C"
EXAMPLE_FRAME = bytes.fromhex("02 30 46 30 30 32 41 33 42 35 43 34 32 03")


def tags(items: list[TagFrame | FrameProblem]) -> list[str]:
    return [item.tag for item in items if isinstance(item, TagFrame)]


def problems(items: list[TagFrame | FrameProblem]) -> list[ProblemKind]:
    return [item.kind for item in items if isinstance(item, FrameProblem)]


def test_docs_worked_example_is_the_frame_the_code_makes() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rfid.md").read_text()
    block = doc.split("<!-- rdm6300-example -->", 1)[1].split("```")[1]
    assert bytes.fromhex(block) == EXAMPLE_FRAME == encode(EXAMPLE_TAG)


def test_worked_example_encodes_to_the_documented_bytes() -> None:
    assert checksum(bytes.fromhex(EXAMPLE_TAG)) == 0x42
    assert encode(EXAMPLE_TAG) == EXAMPLE_FRAME
    assert encode(bytes.fromhex(EXAMPLE_TAG)) == EXAMPLE_FRAME


def test_worked_example_decodes_to_tag_version_and_decimal() -> None:
    (frame,) = Rdm6300Decoder().feed(EXAMPLE_FRAME)
    assert isinstance(frame, TagFrame)
    assert frame.tag == EXAMPLE_TAG
    assert frame.version == 0x0F
    assert frame.decimal == "0002767708"


def test_lower_case_hex_is_accepted_and_reported_upper_case() -> None:
    (frame,) = Rdm6300Decoder().feed(b"\x020f002a3b5c42\x03")
    assert isinstance(frame, TagFrame) and frame.tag == EXAMPLE_TAG


def test_bad_checksum_is_a_problem_value_not_an_exception() -> None:
    corrupt = EXAMPLE_FRAME[:11] + b"43" + b"\x03"
    (problem,) = Rdm6300Decoder().feed(corrupt)
    assert isinstance(problem, FrameProblem)
    assert problem.kind is ProblemKind.BAD_CHECKSUM
    assert problem.raw == corrupt
    assert "43 sent, 42 computed" in problem.detail


def test_encode_can_inject_a_bad_checksum() -> None:
    (problem,) = Rdm6300Decoder().feed(encode(EXAMPLE_TAG, bad_checksum=True))
    assert isinstance(problem, FrameProblem) and problem.kind is ProblemKind.BAD_CHECKSUM


def test_missing_etx_is_malformed_and_the_next_frame_still_reads() -> None:
    broken = EXAMPLE_FRAME[:13] + b"X"
    items = Rdm6300Decoder().feed(broken + encode("0000000001"))
    assert problems(items) == [ProblemKind.MALFORMED]
    assert tags(items) == ["0000000001"]


def test_non_hex_inside_a_frame_is_malformed() -> None:
    (problem,) = Rdm6300Decoder().feed(b"\x020F00Z")
    assert isinstance(problem, FrameProblem)
    assert problem.kind is ProblemKind.MALFORMED
    assert problem.raw == b"\x020F00Z"
    assert "offset 5" in problem.detail


def test_a_frame_cut_short_by_a_new_stx_does_not_hide_the_new_frame() -> None:
    items = Rdm6300Decoder().feed(EXAMPLE_FRAME[:7] + EXAMPLE_FRAME)
    assert problems(items) == [ProblemKind.MALFORMED]
    assert tags(items) == [EXAMPLE_TAG]


def test_junk_before_a_frame_is_skipped_and_counted() -> None:
    decoder = Rdm6300Decoder()
    assert tags(decoder.feed(b"\xff\x00hello" + EXAMPLE_FRAME)) == [EXAMPLE_TAG]
    assert decoder.skipped == 7


def test_byte_by_byte_feed_gives_the_frame_once_complete() -> None:
    decoder = Rdm6300Decoder()
    for byte in EXAMPLE_FRAME[:-1]:
        assert decoder.feed(bytes([byte])) == []
    assert decoder.pending == 13
    assert tags(decoder.feed(EXAMPLE_FRAME[-1:])) == [EXAMPLE_TAG]
    assert decoder.pending == 0


@pytest.mark.parametrize("bad", ["0F002A3B", "0F002A3B5C00", "not hex!!!"])
def test_encode_refuses_a_tag_that_is_not_five_bytes(bad: str) -> None:
    with pytest.raises(BridgeError):
        encode(bad)


data_bytes = st.binary(min_size=5, max_size=5)


@given(st.lists(data_bytes, min_size=1, max_size=5), st.data())
def test_round_trip_over_any_split(payloads: list[bytes], data: st.DataObject) -> None:
    stream = b"".join(encode(p) for p in payloads)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    decoder = Rdm6300Decoder()
    out: list[TagFrame | FrameProblem] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        out += decoder.feed(stream[start:end])
    assert out == [TagFrame(p) for p in payloads]


@given(st.lists(st.tuples(st.binary(max_size=30), data_bytes), min_size=1, max_size=4))
def test_junk_before_and_between_frames_never_raises_nor_hides_a_frame(
    pieces: list[tuple[bytes, bytes]],
) -> None:
    stream = b"".join(junk + encode(payload) for junk, payload in pieces)
    found = tags(Rdm6300Decoder().feed(stream))
    expected = iter(found)
    # Every valid frame comes out, in order (junk may contain frames of its own).
    assert all(p.hex().upper() in expected for _, p in pieces)


@given(data_bytes, st.integers(1, 13), st.binary(min_size=1, max_size=20), data_bytes)
def test_junk_inside_a_frame_never_hides_the_next_frame(
    broken: bytes, cut: int, junk: bytes, good: bytes
) -> None:
    frame = encode(broken)
    stream = frame[:cut] + junk + frame[cut:] + encode(good)
    decoder = Rdm6300Decoder()
    found = tags(decoder.feed(stream))
    assert found[-1] == good.hex().upper()
    assert decoder.pending == 0


@given(st.binary(max_size=200), data_bytes)
def test_arbitrary_bytes_then_a_frame(junk: bytes, good: bytes) -> None:
    decoder = Rdm6300Decoder()
    decoder.feed(junk)
    assert decoder.pending < 14
    assert tags(decoder.feed(encode(good)))[-1:] == [good.hex().upper()]


def test_presence_filter_repeats_within_hold_are_one_read() -> None:
    presence = PresenceFilter(hold=1.0)
    assert presence.seen(EXAMPLE_TAG, 10.0)
    # The reader repeats every ~0.1 s for 3 s: each sighting renews the hold.
    assert not any(presence.seen(EXAMPLE_TAG, 10.0 + i / 10) for i in range(1, 31))
    assert presence.present(12.0) == {EXAMPLE_TAG}


def test_presence_filter_a_new_presentation_after_the_hold_reads_again() -> None:
    presence = PresenceFilter(hold=1.0)
    assert presence.seen(EXAMPLE_TAG, 10.0)
    assert presence.seen(EXAMPLE_TAG, 11.5)
    assert presence.present(13.0) == frozenset()


def test_presence_filter_tracks_tags_separately() -> None:
    presence = PresenceFilter(hold=1.0)
    assert presence.seen("AAAAAAAAAA", 0.0)
    assert presence.seen("BBBBBBBBBB", 0.1)
    assert not presence.seen("AAAAAAAAAA", 0.2)
    assert not presence.seen("BBBBBBBBBB", 0.3)


def test_presence_filter_refuses_a_hold_that_is_not_positive() -> None:
    with pytest.raises(BridgeError):
        PresenceFilter(hold=0)


TAG = "0A1B2C3D4E"


def test_rdm6300_encode_refuses_what_is_not_a_tag_and_says_why() -> None:
    with pytest.raises(BridgeError, match=r"^RDM6300 tag 'XYZ' is not hexadecimal$"):
        encode("XYZ")
    with pytest.raises(
        BridgeError, match=r"^an RDM6300 tag is 5 bytes \(10 hex digits\), not '0A1B'$"
    ):
        encode("0A1B")
    assert encode(bytes.fromhex(TAG)) == encode(TAG.lower()) == b"\x02" + TAG.encode() + b"4E\x03"


def test_rdm6300_a_non_hex_byte_right_after_stx_is_malformed_at_offset_1() -> None:
    decoder = Rdm6300Decoder()
    got = decoder.feed(b"\x02\x02" + encode(TAG)[1:])
    assert got[0] == FrameProblem(
        ProblemKind.MALFORMED, b"\x02\x02", "STX at offset 1, expected hex"
    )
    assert got[1:] == [TagFrame(bytes.fromhex(TAG))]
    got = Rdm6300Decoder().feed(b"\x02Z")
    assert got == [FrameProblem(ProblemKind.MALFORMED, b"\x02Z", "0x5A at offset 1, expected hex")]


def test_rdm6300_a_missing_etx_is_malformed_and_the_next_frame_reads() -> None:
    frame = encode(TAG)
    decoder = Rdm6300Decoder()
    got = decoder.feed(frame[:13] + b"\x07" + frame)
    assert got[0] == FrameProblem(
        ProblemKind.MALFORMED, frame[:13] + b"\x07", "0x07 at offset 13, expected ETX"
    )
    assert got[1:] == [TagFrame(bytes.fromhex(TAG))]
    assert decoder.pending == 0


def test_rdm6300_bad_checksum_names_both_sums_and_the_data() -> None:
    bad = encode(TAG, bad_checksum=True)
    assert Rdm6300Decoder().feed(bad) == [
        FrameProblem(ProblemKind.BAD_CHECKSUM, bad, "checksum B1 sent, 4E computed for 0A1B2C3D4E")
    ]


def test_rdm6300_skipped_counts_every_junk_byte_outside_a_frame() -> None:
    decoder = Rdm6300Decoder()
    assert decoder.feed(b"junk") == []
    assert decoder.skipped == 4
    assert decoder.feed(b"ab" + encode(TAG)) == [TagFrame(bytes.fromhex(TAG))]
    assert decoder.skipped == 6
    decoder.feed(b"xyz")
    assert decoder.skipped == 9


def test_rdm6300_presence_hold_is_positive_one_second_by_default() -> None:
    assert PresenceFilter().hold == 1.0
    for bad in (0, -1.0):
        with pytest.raises(BridgeError, match=f"^presence hold must be positive, not {bad!r}$"):
            PresenceFilter(bad)


def test_rdm6300_presence_a_tag_seen_exactly_hold_ago_is_a_new_presentation() -> None:
    presence = PresenceFilter(hold=1.0)
    assert presence.seen(TAG, 10.0)
    assert not presence.seen(TAG, 10.5)
    assert presence.present(11.25) == frozenset({TAG})
    assert presence.present(11.5) == frozenset()
    assert presence.seen(TAG, 12.0)
    assert presence.seen(TAG, 13.0)  # exactly one hold after the last sighting


def test_rdm6300_constants_and_problem_names_match_the_controllers_faults() -> None:
    from controller.ports import Fault
    from firmware_bridge.rdm6300 import BAUDRATE

    assert BAUDRATE == 9600
    assert [p.value for p in ProblemKind] == ["bad-checksum", "malformed"]
    assert {p.value for p in ProblemKind} <= {f.value for f in Fault}
