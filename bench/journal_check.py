"""The journal's check at start: incremental from its checkpoint, beside the full check.

    .venv/bin/python bench/journal_check.py [--rows 1000000] [--keep FILE] [--json]

Builds a journal of ``--rows`` rows through the real API (`Journal.append_many`, one
transaction per event and its records, as the controller thread writes them), from the
rows of blackjack rounds really played on the simulators (the scripted dealer, the real
devices and rules), repeated with their round numbers moved on. The build alone runs with
``synchronous=OFF`` (it is not what is measured). Then:

- the first start: no checkpoint, so the open checks every row (and writes the checkpoint);
- the start after it: the open checks the checkpoint's row and nothing cut off (the median
  of five opens), and the same after a power cut left ``--unsaved`` rows after the
  checkpoint (rows written since the last round ended);
- the row hash itself: HMAC-SHA256 under the key beside the plain SHA-256 it replaced.

Target: the start-up check of a 1,000,000-row journal under 1 s after the
first full verification. ``--keep FILE`` keeps the built journal (and its key) there and
reuses it on the next run, since building it takes a while.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.app.cli.demo import SimHands, act, demo_config, sign_in_dealer
from controller.app.runtime.table import RunningTable
from controller.app.secrets import create_secret, read_secret
from controller.journal.store import (
    GENESIS,
    Journal,
    Row,
    checkpoint_path,
    plain_row_hash,
    row_hash,
)
from sim_hardware.dealer import BlackjackDealer

TARGET_SECONDS = 1.0


def played_steps(folder: Path, rounds: int = 3) -> list[list[Row]]:
    """The rows of a few blackjack rounds played on the simulators, grouped as the
    controller wrote them: an event and the records it produced."""
    config = demo_config("blackjack", folder / "played.sqlite", port=0)
    table = RunningTable(config, simulate=True, serve=False, seed=11).start()
    try:
        sign_in_dealer(table)
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(12))
        while dealer.rounds_finished < rounds:
            act(table, dealer)
        entries = list(table.journal.entries())
    finally:
        table.stop()
    steps: list[list[Row]] = []
    for e in entries:
        item: Row = (e.kind, e.payload, e.source, e.round, e.actor)
        if e.source == "controller" and steps and e.kind != "TableStarted":
            steps[-1].append(item)  # a record the event before it produced
        else:
            steps.append([item])
    return steps


def build(path: Path, key: bytes, rows: int, steps: list[list[Row]]) -> float:
    """Write ``rows`` rows; returns the seconds it took."""
    started = time.perf_counter()
    rounds = max((r[3] or 0 for step in steps for r in step), default=0) + 1
    with Journal(path, key=key) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # the build only: not what is measured
        written, lap = 0, 0
        while written < rows:
            for step in steps:
                batch = [
                    (kind, payload, source, None if r is None else r + lap * rounds, actor)
                    for kind, payload, source, r, actor in step
                ][: rows - written]
                journal.append_many(batch)
                written += len(batch)
                if written >= rows:
                    break
            lap += 1
    return time.perf_counter() - started


def timed_open(path: Path, key: bytes) -> tuple[float, int]:
    started = time.perf_counter()
    journal = Journal(path, key=key)
    seconds = time.perf_counter() - started
    checked = journal.last_seq - (journal.checked_from or 0)
    journal.close()
    return seconds, checked


def row_hash_us(path: Path, key: bytes, sample: int = 50_000) -> dict[str, float]:
    """Microseconds per row hash over real rows: keyed beside plain."""
    with Journal(path, key=key, readonly=True, check=False) as journal:
        fields = [
            [e.seq, e.wall, e.mono, e.round, e.source, e.kind, e.payload, e.actor]
            for e, _ in zip(journal.entries(), range(sample), strict=False)
        ]
    out = {}
    for name, digest in (
        ("hmac_sha256", lambda f: row_hash(key, GENESIS, f)),
        ("sha256", lambda f: plain_row_hash(GENESIS, f)),
    ):
        started = time.perf_counter()
        for f in fields:
            digest(f)
        out[name] = (time.perf_counter() - started) / len(fields) * 1e6
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--unsaved", type=int, default=200, help="rows after the checkpoint")
    parser.add_argument("--keep", type=Path, default=None, help="build once, keep it here")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tablectl-bench-journal-") as folder:
        path = args.keep or Path(folder) / "journal.sqlite"
        key_file = path.with_name(path.name + ".key")
        built_seconds = None
        if not path.exists():
            key = create_secret(key_file)
            steps = played_steps(Path(folder))
            built_seconds = build(path, key, args.rows, steps)
        key = read_secret(key_file, "the journal key")
        checkpoint_path(path).unlink(missing_ok=True)
        with Journal(path, key=key, readonly=True, check=False) as journal:
            rows = journal.last_seq
        full, checked_full = timed_open(path, key)  # the first start: every row
        opens = [timed_open(path, key) for _ in range(5)]
        start = statistics.median(s for s, _ in opens)
        with Journal(path, key=key) as journal:  # a power cut in mid-round: rows unsaved
            tail = [(e.kind, e.payload, e.source, e.round, e.actor) for e in journal.entries(
                since=journal.last_seq - args.unsaved)]  # fmt: skip
            for row in tail:
                journal.append_many([row])
        after_cut, checked_cut = timed_open(path, key)
        hashes = row_hash_us(path, key)
    result: dict[str, Any] = {
        "rows": rows,
        "build_seconds": None if built_seconds is None else round(built_seconds, 1),
        "full_check_seconds": round(full, 3),
        "full_check_rows": checked_full,
        "start_check_seconds": round(start, 4),
        "start_check_rows": opens[0][1],
        "start_after_power_cut_seconds": round(after_cut, 4),
        "start_after_power_cut_rows": checked_cut,
        "row_hash_us": {k: round(v, 2) for k, v in hashes.items()},
        "target_seconds": TARGET_SECONDS,
        "met": start < TARGET_SECONDS and after_cut < TARGET_SECONDS,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"journal of {rows:,} rows" + (f" (built in {built_seconds:.0f} s)" if built_seconds
                                         else ""))  # fmt: skip
    print(f"first start, full check:      {full:8.3f} s  ({checked_full:,} rows)")
    print(f"start after it, checkpoint:   {start:8.4f} s  ({opens[0][1]:,} rows checked)")
    print(f"start after a power cut:      {after_cut:8.4f} s  ({checked_cut:,} rows checked)")
    print(f"row hash: HMAC-SHA256 {hashes['hmac_sha256']:.2f} us, SHA-256 "
          f"{hashes['sha256']:.2f} us")  # fmt: skip
    print(f"target: under {TARGET_SECONDS:.0f} s after the first full check: "
          f"{'met' if result['met'] else 'MISSED'}")  # fmt: skip


if __name__ == "__main__":
    main()
