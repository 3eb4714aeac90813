"""HID boot-keyboard reports from a keyboard RFID reader, decoded to tag ids."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.errors import BridgeError
from firmware_bridge.hid import (
    MAX_TAG_LENGTH,
    HidDecoded,
    HidDecoder,
    HidProblem,
    HidProblemKind,
    HidTag,
    report,
    type_tag,
)

UP = bytes(8)


def feed_all(decoder: HidDecoder, reports: list[bytes]) -> list[HidDecoded]:
    out: list[HidDecoded] = []
    for data in reports:
        out += decoder.feed(data)
    return out


def test_literal_reports_type_a_tag() -> None:
    # "10" then Enter: usage 0x1E is "1", 0x27 is "0", 0x28 is Enter.
    reports = [
        bytes.fromhex("00 00 1E 00 00 00 00 00"),
        UP,
        bytes.fromhex("00 00 27 00 00 00 00 00"),
        UP,
        bytes.fromhex("00 00 28 00 00 00 00 00"),
        UP,
    ]
    assert feed_all(HidDecoder(), reports) == [HidTag("10")]


def test_a_held_key_repeated_in_reports_types_once() -> None:
    one = report(0x1E)
    assert feed_all(HidDecoder(), [one, one, one, UP, report(0x28), UP]) == [HidTag("1")]


def test_the_same_key_twice_needs_a_key_up_between() -> None:
    one = report(0x1E)
    assert feed_all(HidDecoder(), [one, UP, one, UP, report(0x28)]) == [HidTag("11")]


def test_rollover_report_types_the_newly_pressed_key_only() -> None:
    # "1" still held while "2" goes down: only "2" is new.
    reports = [report(0x1E), report(0x1E, 0x1F), UP, report(0x28)]
    assert feed_all(HidDecoder(), reports) == [HidTag("12")]


def test_shift_gives_upper_case_letters() -> None:
    reports = [report(0x04, shift=True), UP, report(0x05), UP, report(0x28)]
    assert feed_all(HidDecoder(), reports) == [HidTag("Ab")]


def test_keypad_digits_and_keypad_enter() -> None:
    reports = [report(0x59), UP, report(0x62), UP, report(0x58)]
    assert feed_all(HidDecoder(), reports) == [HidTag("10")]


def test_unknown_usage_is_reported_at_enter_instead_of_the_tag() -> None:
    reports = [report(0x1E), UP, report(0x2C), UP, report(0x1F), UP, report(0x28)]
    (problem,) = feed_all(HidDecoder(), reports)
    assert isinstance(problem, HidProblem)
    assert problem.kind is HidProblemKind.UNKNOWN_USAGE
    assert "0x2C" in problem.detail


def test_after_a_bad_tag_the_next_tag_reads() -> None:
    decoder = HidDecoder()
    feed_all(decoder, [report(0x2C), UP, report(0x28), UP])
    assert feed_all(decoder, type_tag("42")) == [HidTag("42")]


def test_error_roll_over_report_is_ignored() -> None:
    phantom = bytes([0, 0, 1, 1, 1, 1, 1, 1])
    assert feed_all(HidDecoder(), [report(0x1E), phantom, UP, report(0x28)]) == [HidTag("1")]


@pytest.mark.parametrize("data", [b"", bytes(7), bytes(9)])
def test_a_report_that_is_not_8_bytes_is_malformed(data: bytes) -> None:
    (problem,) = HidDecoder().feed(data)
    assert isinstance(problem, HidProblem) and problem.kind is HidProblemKind.MALFORMED


def test_enter_alone_is_ignored() -> None:
    assert feed_all(HidDecoder(), [report(0x28), UP]) == []


def test_a_tag_without_enter_is_discarded_when_overlong() -> None:
    decoder = HidDecoder()
    out = feed_all(decoder, type_tag("1" * (MAX_TAG_LENGTH + 1))[:-2])
    assert [p.kind for p in out if isinstance(p, HidProblem)] == [HidProblemKind.OVERLONG]
    assert feed_all(decoder, type_tag("7")) == [HidTag("7")]


def test_report_refuses_more_than_six_usages() -> None:
    with pytest.raises(BridgeError):
        report(*range(4, 11))


@given(st.text(alphabet="0123456789abcdefABCDEF", min_size=1, max_size=MAX_TAG_LENGTH))
def test_type_tag_round_trips(tag: str) -> None:
    assert feed_all(HidDecoder(), type_tag(tag)) == [HidTag(tag)]


@given(st.lists(st.binary(max_size=10), max_size=30))
def test_arbitrary_reports_never_raise_and_a_later_tag_reads(junk: list[bytes]) -> None:
    decoder = HidDecoder()
    feed_all(decoder, junk)
    # End whatever was half typed, release all keys, then a clean tag must read.
    feed_all(decoder, [UP, report(0x28), UP])
    assert feed_all(decoder, type_tag("0002767708")) == [HidTag("0002767708")]
