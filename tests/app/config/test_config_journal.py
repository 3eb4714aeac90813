"""``[journal]``'s keys for keeping it at scale: snapshots, rotation, archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()


def _with(lines: str) -> str:
    return EXAMPLE.replace("[journal]\n", f"[journal]\n{lines}\n", 1)


def test_the_defaults_and_given_keys() -> None:
    keeping = parse_config(EXAMPLE, source="t.toml").journal_keeping
    assert (keeping.snapshot_every, keeping.rotate_daily, keeping.keep_rounds) == (5, True, 10)
    assert keeping.archive_dir is None and keeping.rotate_bytes == 512 * 1024 * 1024
    given = parse_config(
        _with('snapshot_every = 2\nday_starts = "04:30"\nrotate_mb = 0\narchive_dir = "/mnt/a"'),
        source="/etc/tablectl/t.toml",
    ).journal_keeping
    assert given.snapshot_every == 2 and given.day_starts == (4, 30)
    assert given.rotate_bytes == 0 and given.archive_dir == Path("/mnt/a")


def test_gli24_keep_rounds_below_10_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"keep_rounds: must be at least 10: GLI-24"):
        parse_config(_with("keep_rounds = 9"), source="t.toml")
    assert parse_config(_with("keep_rounds = 10"), source="t.toml").journal_keeping.keep_rounds


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('day_starts = "25:00"', "day_starts: must be HH:MM"),
        ("snapshot_every = -1", "snapshot_every: must be 0 or more"),
        ("rotate_daily = 1", "rotate_daily: must be a bool"),
    ],
)
def test_a_bad_key_is_named(line: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(_with(line), source="t.toml")
