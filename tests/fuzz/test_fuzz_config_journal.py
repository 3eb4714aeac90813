"""Fuzz targets for what the controller reads from files: the table config (only
`ConfigError` may come out of `parse_config`, whatever the text) and the journal (rows
decoded by `decode_event`, `verify` on a file with damaged bytes, and the open's check
against a damaged checkpoint file: only `JournalError` or `JournalCorrupt`, which names the
row)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from controller import ports
from controller.app.config import parse_config
from controller.cards import DECK
from controller.errors import ConfigError
from controller.journal.store import (
    EVENT_TYPES,
    Entry,
    Journal,
    JournalError,
    checkpoint_path,
    decode_event,
)
from tests.support.fuzzing import FUZZ, Counter, run_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
KEY = bytes(range(32))
SEEDS = [p.read_text() for p in sorted(EXAMPLES.glob("*.toml"))]

toml_values = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.floats(allow_nan=True).map(lambda f: repr(f).replace("inf", "inf")),
    st.booleans().map(lambda b: str(b).lower()),
    st.text(max_size=20).map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
    st.lists(st.integers(-5, 300), max_size=5).map(str),
    st.sampled_from(['""', "[]", "{}", '[1, "a"]', "1979-05-27", "nan", "-0", '"sim://"']),
    st.text(max_size=30),  # not TOML at all
)


@st.composite
def config_texts(draw: st.DrawFn) -> str:
    """An example config with a few lines changed: values replaced, lines dropped or
    duplicated, junk inserted (mostly near-valid text, which reaches the checks)."""
    lines = draw(st.sampled_from(SEEDS)).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.integers(0, 4))
        line = lines[at]
        if how == 0 and "=" in line:
            key = line.split("=", 1)[0]
            lines[at] = f"{key}= {draw(toml_values)}"
        elif how == 1:
            del lines[at]
        elif how == 2:
            lines.insert(at, line)
        elif how == 3:
            lines.insert(at, draw(st.text(max_size=40)))
        else:
            lines[at] = draw(st.sampled_from(["[table]", "[pins.spots]", "[pit]", "[poker]"]))
    return "\n".join(lines)


config_count = Counter()


@FUZZ
@given(text=st.one_of(config_texts(), st.text(max_size=200)))
def check_config(text: str) -> None:
    config_count.hit()
    with contextlib.suppress(ConfigError):
        parse_config(text, source="fuzz.toml", base=EXAMPLES)


def test_fuzz_config_files_raise_only_config_error() -> None:
    assert run_for("config files", check_config, config_count) > 0


# --- journal rows -------------------------------------------------------------------------

# Found by these targets: controller/journal/store.py once let TypeError, ValueError and
# sqlite3 errors out of decode_event and verify; it now wraps them in JournalError.


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10)
    | st.sampled_from([str(c) for c in DECK[:5]] + [b.value for b in ports.ConsoleButton]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)  # fmt: skip
field_names = st.sampled_from(
    ["source", "card", "button", "fault", "spot", "total", "detail", "seq", "who", "x"]
)
row_count = Counter()


@FUZZ
@given(
    kind=st.one_of(st.sampled_from(sorted(EVENT_TYPES)), st.text(max_size=12)),
    payload=st.dictionaries(field_names, json_values, max_size=6),
)
def check_decode_event(kind: str, payload: dict[str, object]) -> None:
    """A row whose payload does not fit its kind is a `JournalError`, not a TypeError."""
    row_count.hit()
    entry = Entry(1, "wall", 0.0, None, "fuzz", kind, dict(payload), None, "0" * 64, "0" * 64)
    try:
        event = decode_event(entry)
    except JournalError:
        return
    assert event is None or isinstance(event, ports.Event)


def test_fuzz_journal_rows_decode_or_raise_journal_error() -> None:
    assert run_for("journal rows", check_decode_event, row_count) > 0


_JOURNAL_BYTES: bytes | None = None


def _journal_bytes() -> bytes:
    """A small real journal (WAL checkpointed into the main file), made once."""
    global _JOURNAL_BYTES
    if _JOURNAL_BYTES is None:
        with tempfile.TemporaryDirectory(prefix="h9_fuzz_") as folder:
            path = Path(folder) / "j.sqlite"
            with Journal(path, key=KEY) as journal:
                for i, card in enumerate(DECK[:30]):
                    journal.record(ports.CardDrawn(source="shoe", card=card), source="shoe")
                    journal.append("Note", {"i": i}, source="controller", round=i // 5)
            with sqlite3.connect(path) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _JOURNAL_BYTES = path.read_bytes()
    return _JOURNAL_BYTES


file_count = Counter()


@FUZZ
@given(
    spots=st.lists(st.tuples(st.integers(0, 2**20), st.integers(1, 255)), min_size=1, max_size=8),
    cut=st.one_of(st.none(), st.integers(0, 2**20)),
)
@example(spots=[(3914, 115)], cut=None)  # found: a damaged schema gave rows of 9 columns
def check_corrupted_journal(spots: list[tuple[int, int]], cut: int | None) -> None:
    """Bytes of the file changed (or the file cut short): verify reports `JournalCorrupt`
    or `JournalError` (or passes, when only free space was hit); nothing else escapes."""
    file_count.hit()
    data = bytearray(_journal_bytes())
    for at, xor in spots:
        data[at % len(data)] ^= xor
    if cut is not None:
        del data[cut % len(data) :]
    with tempfile.TemporaryDirectory(prefix="h9_fuzz_") as folder:
        path = Path(folder) / "j.sqlite"
        path.write_bytes(bytes(data))
        try:
            with Journal(path, key=KEY, readonly=True, check=False) as journal:
                journal.verify()
        except JournalError:
            pass


def test_fuzz_journal_verify_on_damaged_files() -> None:
    assert run_for("journal files", check_corrupted_journal, file_count) > 0


checkpoint_count = Counter()
checkpoint_values = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=70),
    st.floats(allow_nan=True), st.lists(st.integers(), max_size=2),
)  # fmt: skip


@FUZZ
@given(
    body=st.one_of(
        st.dictionaries(
            st.sampled_from(["seq", "hash", "mac", "broken_seq", "broken", "x"]),
            checkpoint_values,
            max_size=6,
        ).map(lambda d: json.dumps(d)),
        st.text(max_size=80),
        st.binary(max_size=80).map(lambda b: b.decode("latin-1")),
    )
)
def check_damaged_checkpoint(body: str) -> None:
    """Whatever the checkpoint file holds, opening the journal checks it out (a torn or
    foreign file means a full check) or raises `JournalError`/`JournalCorrupt`."""
    checkpoint_count.hit()
    with tempfile.TemporaryDirectory(prefix="h9_fuzz_") as folder:
        path = Path(folder) / "j.sqlite"
        path.write_bytes(_journal_bytes())
        checkpoint_path(path).write_text(body, encoding="utf-8", errors="surrogateescape")
        with contextlib.suppress(JournalError):
            Journal(path, key=KEY, readonly=True).close()


def test_fuzz_journal_checkpoint_files() -> None:
    assert run_for("journal checkpoints", check_damaged_checkpoint, checkpoint_count) > 0
