"""Every benchmark in bench/, one after the other, in one table (`make bench`).

    .venv/bin/python bench/run_all.py [--quick] [--only NAME ...] [--out FOLDER] [--strict]

Each script runs in its own process with ``--json`` (and sizes that keep the whole run under
ten minutes on the development machine); its figures become rows: this project beside its
comparison measured in the same run, its target, and whether it is met. A script that cannot
run here (no Chromium, no mosquitto) is a row saying so, not a failure of the others. The
results go to ``bench/results/`` as ``<UTC time>.json`` and ``latest.json``
(machine-specific: not committed), so that runs can be compared over time.

Targets: wire latency within 2x the raw pty echo; blackjack 3,000 one-box rounds/s; poker
hands 5x pokerkit; card to state median < 1 ms and at most 2.5x the durable insert floor of
the same run, p99 < 3 ms on a quiet machine (the row shows the load average the run started
at), idle CPU < 0.5 %, RSS < 60 MB; card to page p99 < 50 ms; card to state with the pit
feed on within 10 % of off; the journal's start-up check of a 1,000,000-row journal under
1 s after its first full check; `journal last -n 10` under 1 s on a 5,000,000-row journal
set, beside the full check. The hand evaluator and the decode rates have no target
number: their rows say so.
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent


@dataclass
class Row:
    bench: str
    measure: str
    ours: str
    comparison: str
    target: str
    met: bool | None  # None: no target, or not measured


@dataclass
class Bench:
    name: str
    args: list[str]
    quick: list[str]
    timeout: float
    rows: Callable[[dict[str, Any]], list[Row]]


def _f(value: float, unit: str = "", digits: int = 0) -> str:
    return f"{value:,.{digits}f}{unit}"


def wire_rows(r: dict[str, Any]) -> list[Row]:
    ours, floor = r["card_latency_us"], r["raw_pty_echo_us"]
    rates = r["decode_frames_per_second"]
    names = list(rates)
    rows = [
        Row("wire", "card latency over a pty, median (p99)",
            f"{_f(ours['median'], ' us', 1)} ({_f(ours['p99'], ' us', 1)})",
            f"raw pty echo {_f(floor['median'], ' us', 1)} ({_f(floor['p99'], ' us', 1)})",
            "median <= 2x the echo", bool(r["target_met"])),
        Row("wire", f"frames decoded/s ({names[-1]})", _f(rates[names[-1]]),
            f"{names[0]} alone {_f(rates[names[0]])}", "none set", None),
    ]  # fmt: skip
    return rows


def blackjack_rows(r: dict[str, Any]) -> list[Row]:
    return [
        Row("blackjack", "one-box rounds/s (rules + events)",
            _f(r["table_rounds_per_second"]),
            f"bare transitions machine {_f(r['transitions_rounds_per_second'])}",
            f">= {r['target_rounds_per_second']:,}", r["met"]),
    ]  # fmt: skip


def poker_rows(r: dict[str, Any]) -> list[Row]:
    theirs = r["pokerkit_hands_per_second"]
    return [
        Row("poker", f"{r['players']}-player draw hands/s", _f(r["controller_hands_per_second"]),
            "pokerkit not installed" if theirs is None
            else f"pokerkit {_f(theirs)} ({r['ratio']:.1f}x)",
            f">= {r['target_ratio']:.0f}x pokerkit", r["met"]),
    ]  # fmt: skip


def evaluator_rows(r: dict[str, Any]) -> list[Row]:
    rates = r["evaluations_per_second"]
    ours = rates.pop("controller.poker.hand_value")
    peers = ", ".join(
        f"{name.split()[0]} {_f(v) if isinstance(v, float | int) else v}"
        for name, v in rates.items()
    )
    fastest = max((v for v in rates.values() if isinstance(v, float | int)), default=0.0)
    return [
        Row("evaluator", "5-card evaluations/s", _f(ours), peers,
            "none set (faster than every peer)", ours > fastest),
    ]  # fmt: skip


def latency_rows(r: dict[str, Any]) -> list[Row]:
    met, t = r["met"], r["targets"]
    load = r["load_average"]["before"][0]
    floor = f"durable SQLite insert {_f(r['floor_median_ms'], ' ms', 3)}"
    return [
        Row("latency", "card to published state, median",
            _f(r["median_ms"], " ms", 3), f"{floor}; load {load:.2f}",
            f"< {t['median_ms']} ms", met["median_ms"]),
        Row("latency", "card to published state, median / floor",
            f"{r['median_floor_ratio']:.1f}x",
            f"{floor}; after 20 ms idle "
            f"{_f(r['sqlite_durable_insert_after_idle_ms']['median'], ' ms', 3)}",
            f"<= {t['median_floor_ratio']}x the floor", met["median_floor_ratio"]),
        Row("latency", "card to published state, p99",
            _f(r["p99_ms"], " ms", 3),
            f"durable SQLite insert {_f(r['sqlite_durable_insert_ms']['p99'], ' ms', 3)}",
            f"< {t['p99_ms']} ms (quiet machine)", met["p99_ms"]),
        Row("latency", "idle CPU of tablectl run", _f(r["idle_cpu_percent"], " %", 2), "-",
            f"< {t['idle_cpu_percent']} %", met["idle_cpu_percent"]),
        Row("latency", "peak RSS of tablectl run", _f(r["rss_mb"], " MB", 1),
            f"after play {_f(r['rss_after_mb'], ' MB', 1)} (peak: + scrypt's 16 MiB at sign-in)",
            f"< {t['rss_mb']:.0f} MB", met["rss_mb"]),
    ]  # fmt: skip


def page_rows(r: dict[str, Any]) -> list[Row]:
    frame, dom = r["to_painted_frame"], r["to_dom"]
    p99 = frame.get("p99_ms", frame.get("p99"))
    return [
        Row("page", "card frame to painted card face, p99",
            f"{p99} ms" if p99 is not None else json.dumps(frame),
            f"to the DOM: {dom.get('p99_ms', dom.get('p99'))} ms",
            f"< {r['target_p99_ms']:.0f} ms", bool(r["meets_target"])),
    ]  # fmt: skip


def mqtt_rows(r: dict[str, Any]) -> list[Row]:
    cap, play, lat = r["capacity"], r["while_playing"], r["card_to_state"]
    keeps_up = cap["rows_per_second"] >= play["rows_journaled_per_second"]
    on, off = lat["frame_on"]["median_ms"], lat["frame_off"]["median_ms"]
    return [
        Row("mqtt", "journal rows/s published (PUBACKed)", _f(cap["rows_per_second"]),
            f"table journals {_f(play['rows_journaled_per_second'])}/s while playing",
            "keeps up with the table", keeps_up),
        Row("mqtt", "card to state, pit feed on (median)", f"{on:.3f} ms", f"off {off:.3f} ms",
            f"within {lat['target_change']:.0%} of off", bool(lat["meets_target"])),
    ]  # fmt: skip


def journal_rows(r: dict[str, Any]) -> list[Row]:
    return [
        Row("journal_check", f"start-up check, {r['rows']:,} rows (after a power cut)",
            f"{r['start_check_seconds'] * 1000:.1f} ms "
            f"({r['start_after_power_cut_seconds'] * 1000:.1f} ms)",
            f"full check {r['full_check_seconds']:.1f} s",
            f"< {r['target_seconds']:.0f} s", bool(r["met"])),
        Row("journal_check", "row hash (HMAC-SHA256)", f"{r['row_hash_us']['hmac_sha256']} us",
            f"plain SHA-256 {r['row_hash_us']['sha256']} us", "none set", None),
    ]  # fmt: skip


def recovery_rows(r: dict[str, Any]) -> list[Row]:
    extrapolated = (
        " (scaled from a sample)"
        if any(g["full_replay_extrapolated"] for g in r["games"].values())
        else ""
    )
    return [
        Row("recovery", f"start-up from the last snapshot, {r['rows']:,} rows",
            f"{r['startup_seconds'] * 1000:.0f} ms",
            f"full replay {r['full_replay_seconds']:.0f} s{extrapolated}",
            f"< {r['target_seconds']:.0f} s", bool(r["met"])),
    ]  # fmt: skip


def journal_reads_rows(r: dict[str, Any]) -> list[Row]:
    full = r["full_check_seconds"]
    return [
        Row("journal_reads", f"journal last -n 10, {r['rows']:,} rows in {r['files']} files",
            f"{r['last_seconds'] * 1000:.0f} ms (command {r['last_command_seconds']:.1f} s, "
            f"its --help {r['startup_seconds']:.1f} s)",
            "full check " + ("not timed" if full is None else f"{full:.0f} s"),
            f"< {r['target_seconds']:.0f} s", bool(r["met"])),
        Row("journal_reads", "journal export --round (a round mid-journal)",
            f"{r['export_round_seconds'] * 1000:.0f} ms", "full check, as above", "none set",
            None),
    ]  # fmt: skip


BENCHES = [
    Bench("wire", ["--cards", "2000"], ["--cards", "300"], 180, wire_rows),
    Bench("blackjack", ["--rounds", "50000"], ["--rounds", "5000"], 180, blackjack_rows),
    Bench("poker", ["--hands", "2000"], ["--hands", "300"], 180, poker_rows),
    Bench("evaluator", ["--hands", "200000"], ["--hands", "20000"], 120, evaluator_rows),
    Bench("latency", ["--cards", "300", "--idle", "10"], ["--cards", "60", "--idle", "2"],
          240, latency_rows),
    Bench("page_latency", ["--cards", "300"], ["--cards", "40"], 240, page_rows),
    Bench("mqtt", ["--seconds", "10", "--cards", "300"],
          ["--seconds", "3", "--cards", "60", "--rows", "3000"], 300, mqtt_rows),
    Bench("journal_check", ["--rows", "1000000"], ["--rows", "50000"], 600, journal_rows),
    Bench("recovery", ["--rows", "5000000"], ["--rows", "100000"], 1800, recovery_rows),
    Bench("journal_reads", ["--rows", "5000000"], ["--rows", "100000"], 3600,
          journal_reads_rows),
]  # fmt: skip


def run_one(bench: Bench, quick: bool) -> tuple[dict[str, Any] | None, list[Row], float]:
    script = BENCH / f"{bench.name}.py"
    started = time.monotonic()
    if not script.exists():
        return None, [Row(bench.name, "-", "not run", "-", "-", None)], 0.0
    command = [sys.executable, str(script), "--json", *(bench.quick if quick else bench.args)]
    try:
        done = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=bench.timeout, check=False
        )
    except subprocess.TimeoutExpired:
        seconds = time.monotonic() - started
        return (
            None,
            [Row(bench.name, "-", f"timed out after {seconds:.0f} s", "-", "-", None)],
            (seconds),
        )
    seconds = time.monotonic() - started
    result = _json_in(done.stdout)
    if result is None:
        why = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1][:70]
        return None, [Row(bench.name, "-", f"not run: {why}", "-", "-", None)], seconds
    try:
        rows = bench.rows(json.loads(json.dumps(result)))
    except (KeyError, TypeError, ValueError) as exc:
        rows = [Row(bench.name, "-", f"unexpected JSON: {exc!r}"[:70], "-", "-", None)]
    return result, rows, seconds


def _json_in(text: str) -> dict[str, Any] | None:
    """The JSON object a script printed (the last one, if it printed other lines too)."""
    text = text.strip()
    for start in [0, *(i for i, c in enumerate(text) if c == "{" and text[i - 1] == "\n")]:
        try:
            value = json.loads(text[start:])
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def table(rows: list[Row]) -> str:
    heads = ("bench", "measure", "this project", "beside", "target", "met")
    cells = [
        (r.bench, r.measure, r.ours, r.comparison, r.target,
         "-" if r.met is None else "yes" if r.met else "NO")
        for r in rows
    ]  # fmt: skip
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(heads)]
    line = "  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--only", nargs="*", help="run only these (e.g. wire poker)")
    parser.add_argument("--out", type=Path, default=BENCH / "results")
    parser.add_argument("--strict", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)
    chosen = [b for b in BENCHES if not args.only or b.name in args.only]
    rows: list[Row] = []
    results: dict[str, Any] = {}
    started = time.monotonic()
    for bench in chosen:
        print(f"running bench/{bench.name}.py ...", file=sys.stderr, flush=True)
        result, got, seconds = run_one(bench, args.quick)
        results[bench.name] = {"seconds": round(seconds, 1), "result": result}
        rows += got
    total = time.monotonic() - started
    print(table(rows))
    print(f"\n{len(chosen)} benchmarks in {total:.0f} s on {platform.node()} "
          f"({platform.machine()}, Python {platform.python_version()})")  # fmt: skip
    now = datetime.datetime.now(datetime.UTC)
    record = {
        "time": now.isoformat(timespec="seconds"),
        "host": platform.node(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "quick": args.quick,
        "seconds": round(total, 1),
        "rows": [asdict(r) for r in rows],
        "benches": results,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    text = json.dumps(record, indent=2) + "\n"
    (args.out / f"{now:%Y%m%dT%H%M%SZ}.json").write_text(text)
    (args.out / "latest.json").write_text(text)
    print(f"results: {args.out / 'latest.json'}")
    missed = [r for r in rows if r.met is False]
    if missed:
        print(f"{len(missed)} target(s) missed: {', '.join(r.measure for r in missed)}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
