"""Start-up after a power cut on a long journal: from the last snapshot, beside a full replay.

    .venv/bin/python bench/recovery.py [--rows 5000000] [--games blackjack,poker] [--json]

For each game, a journal of ``--rows`` rows is built through the real API
(`Journal.append_many`, each event with its records in one transaction, as the controller
thread writes them) from a session really played on the simulators (`tablectl demo`'s
scripted dealer, the real devices, rules, loop and snapshots every ``--every`` rounds),
repeated with its round numbers moved on: real rows of real sizes, snapshot rows among
them. The build runs with ``synchronous=OFF`` (it is not what is measured) and is cached
under ``--cache`` (default /tmp/tablectl-recovery), keyed by the game, the rows, the
snapshot interval and the code (a snapshot is only used by the code that wrote it), so a
second run starts at once. The journal's checkpoint is left at a round end with the last
rows after it, as a power cut leaves it.

Measured, per game:

- ``startup_seconds``: what a restart does with the journal before the table deals: open
  and check it (from its checkpoint), load the last snapshot (its HMAC checked), replay
  the rows after it, and find the shoe's resume point (median of 3);
- ``full_replay_seconds``: replaying every event from row 1 without the snapshot, as a
  table without snapshots would. Replaying 5,000,000 rows takes minutes, so it is measured on
  the first ``--full-rows`` rows and scaled to the whole journal
  (``full_replay_extrapolated``); ``--full-rows 0`` replays all of them.

Prints ``{"rows": N, "startup_seconds": S, "full_replay_seconds": F, ...}``: S and F the
slowest game's, each game's own under ``games``. Target: S under 2 s whatever N.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import queue
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.app.cli.demo import SimHands, act, demo_config, make_dealer, sign_in_dealer
from controller.app.cli.progress import Bar, progress_bar
from controller.app.runtime import snapshots
from controller.app.runtime.games import make_game
from controller.app.runtime.loop import TableLoop
from controller.app.runtime.table import RunningTable
from controller.app.secrets import create_secret, read_secret
from controller.journal.store import Entry, Journal, Row

TARGET_SECONDS = 2.0


def played_session(game: str, folder: Path, rounds: int, every: int) -> list[list[Row]]:
    """The rows of ``rounds`` rounds played on the simulators, grouped as the controller
    wrote them (an event and its records, or a snapshot alone)."""
    config = demo_config(game, folder / f"played-{game}.sqlite", port=0)
    table = RunningTable(config, simulate=True, serve=False, seed=11)
    table.loop.snapshot_every = every
    table.start()
    try:
        sign_in_dealer(table)
        dealer = make_dealer(table, random.Random(12), SimHands(table))
        while dealer.rounds_finished < rounds:
            act(table, dealer)
        entries = list(table.journal.entries())
    finally:
        table.stop()
    steps: list[list[Row]] = []
    for e in entries:
        item: Row = (e.kind, e.payload, e.source, e.round, e.actor)
        record = e.source == "controller" and e.kind not in ("TableStarted", snapshots.KIND)
        if record and steps:
            steps[-1].append(item)
        else:
            steps.append([item])
    return steps


def build(
    path: Path, key: bytes, rows: int, steps: list[list[Row]], *, quiet: bool = False
) -> float:
    """Write at least ``rows`` rows: the session again and again, its rounds moved on, so
    the journal ends with a whole session (a snapshot and the rows after it as played).
    A progress bar on a terminal (not ``quiet``): a build of millions takes minutes."""
    started = time.perf_counter()
    per_session = sum(len(s) for s in steps)
    sessions = max(1, -(-rows // per_session))
    span = max((r[3] or 0 for step in steps for r in step), default=0) + 1
    bar = progress_bar(sessions * per_session, "building the journal", "rows", quiet=quiet)
    with bar, Journal(path, key=key) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")  # the build only: not what is measured
        batch: list[Row] = []
        for n in range(sessions):
            bar.update(per_session)
            offset = n * span
            last = n == sessions - 1
            for index, step in enumerate(steps):
                moved = [(k, p, s, None if r is None else r + offset, a) for k, p, s, r, a in step]
                if last and index >= len(steps) - 20:  # the tail as the controller wrote it
                    if batch:
                        journal.append_many(batch)
                        batch = []
                    if index == len(steps) - 20:
                        journal.checkpoint()  # a round end; the rest is after the checkpoint
                    journal.append_many(moved)
                else:
                    batch += moved
                    if len(batch) >= 20000:
                        journal.append_many(batch)
                        batch = []
        if batch:
            journal.append_many(batch)
    return time.perf_counter() - started


def _start(game: str, path: Path, key: bytes) -> tuple[float, int, int | None]:
    """One restart's work on the journal: seconds, events replayed, the snapshot's row."""
    config = demo_config(game, path, port=0)
    started = time.perf_counter()
    with Journal(path, key=key) as journal:
        loop = TableLoop(make_game(config), journal, queue.Queue(), rules=config.rules)
        count = loop.replay()
        loop.shoe_resume()
        seconds = time.perf_counter() - started
    return seconds, count, loop.restored_from


def _full(game: str, path: Path, key: bytes, limit: int, quiet: bool) -> tuple[float, int]:
    config = demo_config(game, path, port=0)
    with Journal(path, key=key, readonly=True, check=False) as journal:
        loop = TableLoop(make_game(config), journal, queue.Queue(), rules=config.rules)
        total = journal.last_seq if limit == 0 else min(limit, journal.last_seq)
        with progress_bar(total, f"{game}: full replay", "rows", quiet=quiet) as bar:
            started = time.perf_counter()
            count = loop.replay(_First(journal, limit, bar), full=True)
            return time.perf_counter() - started, count


def _code_digest() -> str:
    """The controller's whole source: a cached journal's snapshots are only of use to the
    code that wrote them (a superset of what `snapshots.code_version` looks at)."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parents[1] / "controller"
    for path in sorted(root.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class _First:
    """The first ``limit`` rows of a journal (0: all), as a replay reads them, counted on
    ``bar`` every thousand."""

    def __init__(self, journal: Journal, limit: int, bar: Bar) -> None:
        self.journal = journal
        self.limit = limit
        self.bar = bar

    def last_authentic(self, kind: str) -> Entry | None:
        return None

    def entries(self, *, since: int = 0) -> Iterator[Entry]:
        rows = self.journal.entries(since=since)
        for count, entry in enumerate(rows if self.limit == 0 else islice(rows, self.limit), 1):
            if count % 1000 == 0:
                self.bar.update(1000)
            yield entry


def measure(game: str, args: argparse.Namespace) -> dict[str, Any]:
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    code = _code_digest()
    name = hashlib.sha256(f"{game}:{args.rows}:{args.every}:{code}".encode()).hexdigest()[:16]
    path = cache / f"{game}-{args.rows}-{name}.sqlite"
    key_file = path.with_name(path.name + ".key")
    built_seconds = None
    if not path.exists() or not key_file.exists():
        for stale in cache.glob(f"{game}-{args.rows}-*"):
            stale.unlink()
        with tempfile.TemporaryDirectory(prefix="tablectl-recovery-") as folder:
            steps = played_session(game, Path(folder), args.rounds, args.every)
        key = create_secret(key_file)
        partial = path.with_name(path.name + ".partial")
        built_seconds = build(partial, key, args.rows, steps, quiet=args.json)
        for suffix in ("", ".checkpoint"):
            os.replace(partial.with_name(partial.name + suffix), path.with_name(path.name + suffix))
        for suffix in ("-wal", "-shm"):
            partial.with_name(partial.name + suffix).unlink(missing_ok=True)
    key = read_secret(key_file, "the journal key")
    with Journal(path, key=key, readonly=True, check=False) as journal:
        rows = journal.last_seq
    size = path.stat().st_size
    # the start writes its checkpoint: measure on a copy, so every run starts alike
    with tempfile.TemporaryDirectory(prefix="tablectl-recovery-run-", dir=cache) as folder:
        runs = []
        for _ in range(3):
            copy = Path(folder) / path.name
            shutil.copy(path, copy)
            shutil.copy(path.with_name(path.name + ".checkpoint"),
                        copy.with_name(copy.name + ".checkpoint"))  # fmt: skip
            runs.append(_start(game, copy, key))
            for item in Path(folder).iterdir():
                item.unlink()
    startup = statistics.median(r[0] for r in runs)
    full_seconds, full_events = _full(game, path, key, args.full_rows, args.json)
    measured_rows = rows if args.full_rows == 0 else min(args.full_rows, rows)
    scale = rows / measured_rows
    return {
        "rows": rows,
        "bytes_per_row": round(size / rows),
        "file_bytes": size,
        "startup_seconds": round(startup, 4),
        "startup_events_replayed": runs[0][1],
        "snapshot_row": runs[0][2],
        "full_replay_seconds": round(full_seconds * scale, 2),
        "full_replay_measured_rows": measured_rows,
        "full_replay_measured_seconds": round(full_seconds, 3),
        "full_replay_events": full_events,
        "full_replay_extrapolated": scale != 1,
        "build_seconds": None if built_seconds is None else round(built_seconds, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5_000_000, help="rows per game's journal")
    parser.add_argument("--games", default="blackjack,poker")
    parser.add_argument("--every", type=int, default=5, help="rounds between snapshots")
    parser.add_argument("--rounds", type=int, default=40, help="rounds in the played session")
    parser.add_argument("--full-rows", type=int, default=200_000,
                        help="rows the full replay is timed on (0: all)")  # fmt: skip
    parser.add_argument("--cache", default="/tmp/tablectl-recovery")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.rows < 1 or args.every < 1:
        parser.error("--rows and --every must be 1 or more")
    games = {game: measure(game, args) for game in args.games.split(",") if game}
    slowest = max(games.values(), key=lambda g: g["startup_seconds"])
    result = {
        "rows": min(g["rows"] for g in games.values()),
        "startup_seconds": slowest["startup_seconds"],
        "full_replay_seconds": max(g["full_replay_seconds"] for g in games.values()),
        "target_seconds": TARGET_SECONDS,
        "met": slowest["startup_seconds"] < TARGET_SECONDS,
        "snapshot_every": args.every,
        "games": games,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for game, figures in games.items():
            print(f"{game}: {figures['rows']:,} rows ({figures['bytes_per_row']} B/row): "
                  f"start {figures['startup_seconds'] * 1000:.0f} ms "
                  f"({figures['startup_events_replayed']} events after the snapshot), "
                  f"full replay {figures['full_replay_seconds']:.0f} s")  # fmt: skip
        print(f"target: start under {TARGET_SECONDS:.0f} s: {'met' if result['met'] else 'MISSED'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
