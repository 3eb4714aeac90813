"""Surveillance's reads of a long journal: `tablectl journal last -n 10` beside the full check.

    .venv/bin/python bench/journal_reads.py [--rows 5000000] [--json]

The journal set is built as bench/recovery.py builds its journal (a blackjack session
really played on the simulators, repeated with its round numbers moved on, through the
real `Journal.append_many`), then rotated once, as a table does at a trading day's end, so
that the set has a sealed file of ``--rows`` rows and a live file with the last rounds'
rows after it: ``last -n 10`` reads across both. Cached under ``--cache`` (default
/tmp/tablectl-journal-reads) by the row count, so a second run starts at once.

Measured:

- ``last_seconds``: `tablectl journal last -n 10` as the command runs it (in this process,
  median of 5): the check from the live file's checkpoint, the last ten rounds found by
  the round index, and only their rows (and the ones after them) read and checked;
- ``last_command_seconds``: the same as a command (a new Python process, imports included),
  beside ``startup_seconds``, the same command's ``--help`` (the CLI's own start-up);
- ``export_round_seconds``: ``export --round`` of a round in the middle of the set;
- ``full_check_seconds``: the whole chain, what every read did first before (and what
  ``verify`` and ``--full`` do): the baseline.

Target: ``last -n 10`` under 1 s on a 5,000,000-row journal set.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from recovery import build, played_session  # noqa: E402 - the same journal builder

from controller.app.cli import build_parser  # noqa: E402
from controller.app.cli import journal as journal_cli  # noqa: E402
from controller.app.secrets import create_secret, read_secret  # noqa: E402
from controller.journal.fileset import rotate, set_files, verify_set  # noqa: E402
from controller.journal.store import Journal  # noqa: E402

TARGET_SECONDS = 1.0
GAME = "blackjack"


def build_set(folder: Path, rows: int, *, quiet: bool = False) -> tuple[Path, bytes]:
    """A set of ``rows`` rows in a sealed file and a live file after it (cached)."""
    base = folder / "journal.sqlite"
    key_file = base.with_name(base.name + ".key")
    done = folder / "built"
    if done.exists() and key_file.exists():
        return base, read_secret(key_file, "the journal key")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="tablectl-reads-") as scratch:
        steps = played_session(GAME, Path(scratch), 40, 5)
    key = create_secret(key_file)
    build(base, key, rows, steps, quiet=quiet)
    live = rotate(Journal(base, key=key), key, "trading day", None)
    try:
        with Journal(base, key=key, readonly=True, check=False) as sealed:
            last_round = max(sealed.rounds())
        for step in steps[-300:]:  # the last rounds, as the live file goes on after them
            live.append_many(
                [(k, p, s, None if r is None else r + last_round + 1, a) for k, p, s, r, a in step]
            )
        live.checkpoint()
    finally:
        live.close()
    done.write_text(str(rows))
    return base, key


def timed_last(base: Path) -> float:
    args = build_parser().parse_args(["journal", "last", "-n", "10", str(base)])
    started = time.perf_counter()
    code = journal_cli.run(args, out=io.StringIO())
    seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"journal last exited {code}")
    return seconds


def timed_export(base: Path, round_no: int) -> tuple[float, int]:
    args = build_parser().parse_args(["journal", "export", "--round", str(round_no), str(base)])
    out = io.StringIO()
    started = time.perf_counter()
    code = journal_cli.run(args, out=out)
    seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"journal export exited {code}")
    return seconds, len(out.getvalue().splitlines())


def measure(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(args.cache) / f"{args.rows}"
    base, key = build_set(folder, args.rows, quiet=args.json)
    files = set_files(base)
    with Journal(files[-1], key=key, readonly=True, check=False) as live:
        rows = live.last_seq
    last = statistics.median(timed_last(base) for _ in range(5))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    command = [sys.executable, "-m", "controller.app.cli", "journal", "last", "-n", "10"]
    done = subprocess.run([*command, str(base)], capture_output=True, env=env, check=False)
    command_seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(done.stderr.decode())
    started = time.perf_counter()
    subprocess.run([*command, "--help"], capture_output=True, env=env, check=True)
    startup_seconds = time.perf_counter() - started
    with Journal(files[0], key=key, readonly=True, check=False) as sealed:
        rounds = sealed.rounds()
    middle = rounds[len(rounds) // 2] if rounds else random.randint(1, 10)
    export_seconds, exported = timed_export(base, middle)
    started = time.perf_counter()
    report = verify_set(files, key) if not args.skip_full else None
    full = time.perf_counter() - started
    return {
        "rows": rows,
        "files": len(files),
        "last_seconds": round(last, 4),
        "last_command_seconds": round(command_seconds, 3),
        "startup_seconds": round(startup_seconds, 3),
        "export_round_seconds": round(export_seconds, 4),
        "export_round_rows": exported,
        "full_check_seconds": None if report is None else round(full, 2),
        "target_seconds": TARGET_SECONDS,
        "met": last < TARGET_SECONDS,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=5_000_000, help="rows in the sealed file")
    parser.add_argument("--cache", default="/tmp/tablectl-journal-reads")
    parser.add_argument("--skip-full", action="store_true", help="do not time the full check")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.rows < 1000:
        parser.error("--rows must be 1000 or more")
    result = measure(args)
    if args.json:
        print(json.dumps(result))
        return 0
    full = result["full_check_seconds"]
    print(f"{result['rows']:,} rows in {result['files']} files: journal last -n 10 "
          f"{result['last_seconds'] * 1000:.0f} ms (as a command "
          f"{result['last_command_seconds']:.2f} s, its --help "
          f"{result['startup_seconds']:.2f} s); export --round "
          f"{result['export_round_seconds'] * 1000:.0f} ms; the full check "
          f"{'not timed' if full is None else f'{full:.1f} s'}")  # fmt: skip
    print(f"target: last -n 10 under {TARGET_SECONDS:.0f} s: "
          f"{'met' if result['met'] else 'MISSED'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
