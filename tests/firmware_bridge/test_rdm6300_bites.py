"""RDM6300 frame edges a silent slip would pass, pinned to docs/protocol.md's
RDM6300 section: 0x02, 10 ASCII hex, 2 hex XOR checksum, 0x03."""

from __future__ import annotations

import pytest

from firmware_bridge.errors import BridgeError
from firmware_bridge.rdm6300 import (
    FrameProblem,
    PresenceFilter,
    ProblemKind,
    Rdm6300Decoder,
    TagFrame,
    encode,
)

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
