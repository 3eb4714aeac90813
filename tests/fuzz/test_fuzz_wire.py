"""Fuzz targets for the wire decoders: firmware frames, messages and sessions, RDM6300
frames, HID boot reports. The contract each must keep: line data never raises (it comes
back as frames, tags and problems), junk around a good frame never costs that frame, and
a session over a damaged line delivers every reliable message once, in order."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from controller.cards import DECK
from firmware_bridge import hid, rdm6300
from firmware_bridge import messages as m
from firmware_bridge.frame import MAX_PAYLOAD, Frame, FrameDecoder, FrameProblem, encode_frame
from firmware_bridge.session import Session
from tests.support.fuzzing import FUZZ, Counter, run_for

chunks = st.lists(st.binary(max_size=300), max_size=12)


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces, last = [], 0
    for point in points:
        pieces.append(data[last:point])
        last = point
    return [*pieces, data[last:]]


# --- firmware frames and messages -------------------------------------------------------

frame_count = Counter()


@FUZZ
@given(
    junk=st.binary(max_size=200),
    after=st.binary(max_size=200),
    type_=st.integers(0, 255),
    seq=st.integers(0, 0xFFFF),
    payload=st.binary(max_size=MAX_PAYLOAD),
    cuts=st.lists(st.integers(0, 1000), max_size=6),
)
def check_frames(
    junk: bytes, after: bytes, type_: int, seq: int, payload: bytes, cuts: list[int]
) -> None:
    frame_count.hit()
    line = junk + encode_frame(type_, seq, payload) + after + b"\x00"
    decoder = FrameDecoder()
    out: list[Frame | FrameProblem] = []
    for piece in _split(line, cuts):
        out += decoder.feed(piece)
    assert all(isinstance(item, Frame | FrameProblem) for item in out)
    assert Frame(type_, seq, payload) in out  # junk on either side never costs the frame
    for item in out:
        if isinstance(item, Frame):
            decoded = m.decode(item)  # never raises
            if not isinstance(decoded, FrameProblem):
                frames = FrameDecoder().feed(m.encode(decoded))
                assert len(frames) == 1 and isinstance(frames[0], Frame)
                assert (
                    m.decode(frames[0]) == decoded
                )  # what decodes, encodes back to the same message


def test_fuzz_firmware_frames_and_messages() -> None:
    assert run_for("firmware frames + messages", check_frames, frame_count) > 0


raw_count = Counter()


@FUZZ
@given(data=chunks)
def check_raw_line(data: list[bytes]) -> None:
    raw_count.hit()
    decoder = FrameDecoder()
    for piece in data:
        for item in decoder.feed(piece):
            if isinstance(item, Frame):
                m.decode(item)


def test_fuzz_firmware_decoder_on_raw_bytes() -> None:
    assert run_for("firmware raw bytes", check_raw_line, raw_count) > 0


# --- sessions over a damaged line ------------------------------------------------------

session_count = Counter()


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _damage(rng: random.Random, data: bytes, rate: float) -> bytes:
    if not data or rng.random() >= rate:
        return data
    kind = rng.randrange(4)
    if kind == 0:  # one byte changed
        spoiled = bytearray(data)
        spoiled[rng.randrange(len(spoiled))] ^= rng.randrange(1, 256)
        return bytes(spoiled)
    if kind == 1:  # dropped
        return b""
    if kind == 2:  # duplicated
        return data + data
    return data[: rng.randrange(len(data))]  # cut short


@FUZZ
@given(
    seed=st.integers(0, 2**32 - 1),
    cards=st.integers(1, 40),
    rate=st.sampled_from([0.0, 0.05, 0.2, 0.4]),
    garbage=st.binary(max_size=64),
)
def check_session(seed: int, cards: int, rate: float, garbage: bytes) -> None:
    """A shoe session sends ``cards`` CARD_DRAWN over a line that corrupts, drops,
    duplicates and truncates writes both ways; the controller session delivers each
    exactly once and in order (acknowledging after "journaling"), or the test fails."""
    session_count.hit()
    rng = random.Random(seed)
    clock = _Clock()
    shoe = Session(m.DeviceKind.SHOE, "FUZZ-SHOE", "fuzz", 7, clock, resend_interval=0.05)
    table = Session(m.DeviceKind.CONTROLLER, "FUZZ-TABLE", "fuzz", 9, clock, resend_interval=0.05)
    shoe.connect()
    table.connect()
    table.receive_data(garbage)
    sent = [shoe.send(m.CardDrawn(0, str(rng.choice(DECK)), i)).seq for i in range(cards)]
    delivered: list[int] = []
    for _ in range(4000):
        clock.now += 0.01
        shoe.tick()
        table.tick()
        for item in table.receive_data(_damage(rng, shoe.data_to_send(), rate)):
            if isinstance(item, m.CardDrawn):
                delivered.append(item.seq)
                table.acknowledge(item.seq)  # journaled: now acknowledge
        shoe.receive_data(_damage(rng, table.data_to_send(), rate))
        if shoe.unacknowledged == 0 and len(delivered) == cards:
            break
    assert delivered == sent, (delivered, sent)
    assert shoe.unacknowledged == 0


def test_fuzz_sessions_deliver_once_in_order_over_a_damaged_line() -> None:
    assert run_for("firmware sessions", check_session, session_count) > 0


# --- RDM6300 ------------------------------------------------------------------------------

rdm_count = Counter()


@FUZZ
@given(
    junk=st.binary(max_size=100),
    tag=st.binary(min_size=5, max_size=5),
    after=st.binary(max_size=100),
    cuts=st.lists(st.integers(0, 500), max_size=6),
)
def check_rdm6300(junk: bytes, tag: bytes, after: bytes, cuts: list[int]) -> None:
    rdm_count.hit()
    decoder = rdm6300.Rdm6300Decoder()
    out: list[rdm6300.Decoded] = []
    line = junk.replace(b"\x02", b"") + rdm6300.encode(tag) + after
    for piece in _split(line, cuts):
        out += decoder.feed(piece)
        assert decoder.pending <= 14  # never buffers more than one frame
    assert all(isinstance(item, rdm6300.TagFrame | rdm6300.FrameProblem) for item in out)
    assert rdm6300.TagFrame(tag) in out  # junk before and after never costs the read
    noisy = rdm6300.Rdm6300Decoder()
    for piece in _split(junk + after, cuts):
        noisy.feed(piece)


def test_fuzz_rdm6300_frames() -> None:
    assert run_for("rdm6300 frames", check_rdm6300, rdm_count) > 0


# --- HID boot reports --------------------------------------------------------------------

hid_count = Counter()
tag_text = st.text(alphabet="0123456789abcdefABCDEF", min_size=1, max_size=20)


@FUZZ
@given(noise=st.lists(st.binary(max_size=12), max_size=20), tag=tag_text)
def check_hid(noise: list[bytes], tag: str) -> None:
    hid_count.hit()
    decoder = hid.HidDecoder()
    for data in noise:
        out = decoder.feed(data)
        assert all(isinstance(item, hid.HidTag | hid.HidProblem) for item in out)
    decoder.feed(hid.report())  # every key up, then Enter ends whatever was typed
    decoder.feed(hid.report(hid.ENTER))
    decoder.feed(hid.report())
    got = [r for data in hid.type_tag(tag) for r in decoder.feed(data)]
    assert got == [hid.HidTag(tag)]  # after noise, a clean read is read right


def test_fuzz_hid_reports() -> None:
    assert run_for("hid reports", check_hid, hid_count) > 0
