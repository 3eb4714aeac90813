"""`make mutate`: mutation testing of the money, rules and wire code.

Two routes, both in a throw-away copy of the working tree (never the shared one):

* mutmut (configured in pyproject.toml ``[tool.mutmut]``) for every listed module. mutmut 3
  swaps functions at run time through a trampoline, so it only mutates code that runs
  after import.
* tools/mutate_import_time.py for the code that runs at import (the evaluator's tables
  and the module constants): it writes each mutant into the copied file, runs the module's
  tests, and restores the file.

The report gives killed / survived / equivalent per module; equivalent mutants are listed,
each with why, in tools/mutate_equivalents.txt (and docs/testing.md). Exit status 1 when a
module is under 90% killed, equivalents excluded. docs/testing.md says how to read it.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENTS = ROOT / "tools" / "mutate_equivalents.txt"
THRESHOLD = 90.0

# The import-time route: which code of which module ("<module>": its own statements and
# class bodies; other names: top-level functions that only run at import), and the tests
# that cover it. mutmut still makes mutants of those functions, but they run at import,
# before any mutant is switched on: the report sets them aside as "import-time".
# A module's tests are its package's folder where that folder is small and pure (the wire
# decoders'); elsewhere the files that cover its import-time code: this route has no
# per-function selection, every mutant runs its whole list, so a game's whole folder (its
# property, tool and simulation tests included) would multiply the route's time.
_BRIDGE = "tests/firmware_bridge"
_JOURNAL = [
    "tests/controller/test_journal.py",
    "tests/controller/test_journal_survivors.py",
]
_POKER = [
    "tests/controller/poker/test_poker_pots.py",
    "tests/controller/poker/test_poker_showdown.py",
    "tests/controller/poker/test_poker_rules.py",
    "tests/controller/poker/test_poker_clauses_second_pass.py",
]
_BLACKJACK = [
    f"tests/controller/blackjack/test_{name}.py"
    for name in ("actions", "dealing", "layout", "table", "round", "hand")
]
IMPORT_TIME: dict[str, tuple[list[str], list[str]]] = {
    "firmware_bridge/frame.py": (["<module>"], [_BRIDGE]),
    "firmware_bridge/session.py": (["<module>"], [_BRIDGE]),
    "firmware_bridge/rdm6300.py": (["<module>"], [_BRIDGE]),
    "controller/journal/store.py": (["<module>"], _JOURNAL),
    "controller/journal/rows.py": (["<module>", "_event_types"], _JOURNAL),
    "controller/game/jsonable.py": (["<module>"], _JOURNAL),
    "controller/shoe_audit.py": (
        ["<module>"],
        [
            "tests/controller/test_shoe_audit.py",
            "tests/controller/blackjack/test_blackjack_shoe_audit.py",
            "tests/controller/poker/test_poker_shoe_audit.py",
            "tests/controller/game/test_privacy_marks.py",  # ShoeReport's card fields
        ],
    ),
    "controller/poker/evaluator.py": (
        ["<module>", "_key", "_build"],
        [
            "tests/controller/poker/test_poker_evaluator.py",
            "tests/controller/poker/test_poker_pots.py",
            "tests/controller/poker/test_poker_showdown.py",
        ],
    ),
    "controller/poker/showdown.py": (["<module>"], _POKER),
    "controller/poker/betting.py": (
        ["<module>"],
        ["tests/controller/poker/test_betting.py"],
    ),
    "controller/poker/draw.py": (["<module>"], ["tests/controller/poker/test_draw.py"]),
    "controller/blackjack/dealing.py": (["<module>"], _BLACKJACK),
    "controller/blackjack/layout.py": (["<module>"], _BLACKJACK),
    "controller/blackjack/round.py": (["<module>"], _BLACKJACK),
    "controller/blackjack/hand.py": (["<module>"], _BLACKJACK),
    "controller/blackjack/settlement.py": (
        ["<module>"],
        [
            "tests/controller/blackjack/test_blackjack_settlement.py",
        ],
    ),
    # the kernel's and the card sources' money, rules and wire code (third session)
    "controller/game/chips.py": (
        ["<module>"],
        [
            "tests/controller/game/test_chips_kernel.py",
            "tests/controller/blackjack/test_rule_4_1_chips.py",
        ],
    ),
    "controller/game/hold.py": (["<module>"], ["tests/controller/game/test_hold.py"]),
    "controller/game/machine.py": (
        ["<module>"],
        [
            "tests/controller/game/test_machine_fast_path.py",
            "tests/controller/game/test_kernel.py",
        ],
    ),
    "drivers/deck.py": (
        ["<module>"],
        ["tests/drivers/test_deck.py"],
    ),
    "drivers/rfid.py": (
        ["<module>"],
        ["tests/drivers/test_rfid.py", "tests/drivers/test_rfid_power_line.py"],
    ),
    "controller/baccarat/settlement.py": (
        ["<module>"],
        ["tests/controller/baccarat/test_baccarat_settlement.py"],
    ),
    "controller/baccarat/tableau.py": (
        ["<module>"],
        ["tests/controller/baccarat/test_baccarat_table_of_play.py"],
    ),
    "controller/baccarat/shoe.py": (
        ["<module>"],
        ["tests/controller/baccarat/test_baccarat_shoe.py"],
    ),
}

# mutmut's exit-code meaning (mutmut.stats.status_by_exit_code, 3.8.1)
KILLED = {1, 3, -24, 24, 36, 152, 255}  # a failing test, or a timeout (an endless loop)


def equivalents() -> dict[str, str]:
    """name -> why, from tools/mutate_equivalents.txt (``name  why``; # comments)."""
    found: dict[str, str] = {}
    for line in EQUIVALENTS.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(" ")
            found[name] = why.strip()
    return found


def copy_tree(dest: Path) -> None:
    """The working tree as it is (tracked and untracked, not ignored) into dest."""
    if dest.exists():
        shutil.rmtree(dest)
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for raw in files:
        if not raw:
            continue
        rel = Path(raw.decode())
        src = ROOT / rel
        if not src.is_file():
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / rel)


def baseline_tests(dest: Path) -> None:
    """The tests as committed at HEAD (new test files emptied): the "before" figures."""
    changed = subprocess.run(
        ["git", "ls-files", "-mo", "--exclude-standard", "tests"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    for rel in changed:
        head = subprocess.run(
            ["git", "show", f"HEAD:{rel}"], cwd=ROOT, capture_output=True, check=False
        )
        text = head.stdout if head.returncode == 0 else b'"""Not at HEAD."""\n'
        (dest / rel).write_bytes(text)


def _set_list(work: Path, key: str, values: list[str]) -> None:
    """Rewrite one list of the copy's ``[tool.mutmut]`` (mutmut reads nothing else)."""
    text = (work / "pyproject.toml").read_text()
    start = text.index(f"{key} = [", text.index("[tool.mutmut]"))
    end = text.index("]", start) + 1
    listed = ", ".join(f'"{value}"' for value in values)
    (work / "pyproject.toml").write_text(f"{text[:start]}{key} = [{listed}]{text[end:]}")


def select_sources(work: Path, only: list[str], tests: list[str]) -> None:
    """Mutate only ``only`` (source paths from pyproject.toml) in the copy, against
    ``tests`` if given (else the configured tests): mutmut has no option for either, so
    the copy's ``[tool.mutmut]`` is rewritten. One module at a time keeps a run short on a
    shared 2-core machine, and a module's own tests keep it clear of a half-finished
    change elsewhere in the working tree that breaks another suite's collection."""
    config = tomllib.loads((work / "pyproject.toml").read_text())["tool"]["mutmut"]
    unknown = sorted(set(only) - set(config["source_paths"]))
    if unknown:
        raise SystemExit(
            f"--only {', '.join(unknown)}: not in pyproject.toml [tool.mutmut] source_paths"
        )
    missing = [path for path in tests if not (work / path).exists()]
    if missing:
        raise SystemExit(f"--tests {', '.join(missing)}: no such test path")
    if only:
        _set_list(work, "source_paths", only)
    if tests:
        _set_list(work, "pytest_add_cli_args_test_selection", tests)


def module_of(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def run_mutmut(work: Path, children: int) -> dict[str, dict[str, int]]:
    """mutant name -> exit code, per source path."""
    mutmut = Path(sys.executable).parent / "mutmut"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(
        [str(mutmut), "run", "--max-children", str(children)],
        cwd=work,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"mutmut failed (exit {done.returncode}); see its output above")
    results: dict[str, dict[str, int]] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        rel = str(meta.relative_to(work / "mutants")).removesuffix(".meta")
        data = json.loads(meta.read_text())
        results[rel] = data.get("exit_code_by_key", {})
    return results


def run_import_time(work: Path, only: list[str], workers: int) -> dict[str, dict[str, int]]:
    """Each module's import-time mutants (tools/mutate_import_time.py), on ``workers``
    copies of the work tree at once: a mutant is written into its file before its tests
    run, so the copies never share a mutated file (the blackjack modules' tests import
    each other), and one copy alone would leave a core idle for minutes."""
    paths = [path for path in IMPORT_TIME if not only or path in only]
    # the evaluator's mutants each import its tables and run its exhaustive tests: split
    # between the workers and started first, they no longer finish alone at the end
    heavy = {"controller/poker/evaluator.py"}
    n = max(1, workers)
    todo = [(p, f"{k}/{n}") for p in paths if p in heavy for k in range(n)]
    todo += [(p, "0/1") for p in paths if p not in heavy]
    roots: queue.SimpleQueue[Path] = queue.SimpleQueue()
    copies = [work.with_name(f"{work.name}-import-{i}") for i in range(1, min(n, len(todo)))]
    for root in [work, *copies]:
        if root != work:
            shutil.rmtree(root, ignore_errors=True)
            shutil.copytree(work, root, ignore=shutil.ignore_patterns("mutants", "__pycache__"))
        roots.put(root)

    def one(task: tuple[str, str]) -> dict[str, int]:
        path, shard = task
        root = roots.get()
        try:
            print(f"import-time route: {path} {shard} (in {root})", flush=True)
            out = root / f"import-time-{module_of(path)}-{shard.replace('/', 'of')}.json"
            scopes, tests = IMPORT_TIME[path]
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "tools" / "mutate_import_time.py"),
                    "--root",
                    str(root),
                    "--file",
                    path,
                    "--scopes",
                    ",".join(scopes),
                    "--shard",
                    shard,
                    "--out",
                    str(out),
                    *tests,
                ],
                check=True,
            )
            results: dict[str, int] = json.loads(out.read_text())
            return results
        finally:
            roots.put(root)

    try:
        with ThreadPoolExecutor(max_workers=1 + len(copies)) as pool:
            merged: dict[str, dict[str, int]] = {path: {} for path in paths}
            for (path, _), results in zip(todo, pool.map(one, todo), strict=True):
                merged[path].update(results)
            return merged
    finally:
        for root in copies:
            shutil.rmtree(root, ignore_errors=True)


def import_time_prefixes(path: str) -> tuple[str, ...]:
    """mutmut's names for the mutants of ``path``'s functions that only run at import."""
    scopes = IMPORT_TIME.get(path, ([], []))[0]
    return tuple(f"{module_of(path)}.x_{f}__mutmut_" for f in scopes if f != "<module>")


def tally(
    codes: dict[str, int],
    equiv: dict[str, str],
    skip: tuple[str, ...] = (),
    drifted: list[str] | None = None,
) -> tuple[Counter[str], list[str]]:
    """Count each mutant's fate. A mutant listed as equivalent that a test killed is not
    equivalent: mutmut numbers a function's mutants in order, so an edit to the function
    moves the numbers and the list's entry now names another mutant. It is counted as
    killed and added to ``drifted``, for the list to be corrected."""
    count: Counter[str] = Counter()
    survivors = []
    for name, code in sorted(codes.items()):
        if skip and name.startswith(skip):
            count["import-time"] += 1
        elif name in equiv and code in KILLED:
            count["killed"] += 1
            if drifted is not None:
                drifted.append(name)
        elif name in equiv:
            count["equivalent"] += 1
        elif code in KILLED:
            count["killed"] += 1
        elif code == 0:
            count["survived"] += 1
            survivors.append(name)
        elif code is None:
            count["not checked"] += 1
        else:
            count[f"other ({code})"] += 1
            survivors.append(f"{name} (exit {code})")
    return count, survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    default_work = Path(tempfile.gettempdir()) / "tablectl-mutate"
    parser.add_argument("--work", type=Path, default=default_work)
    parser.add_argument("--children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--route", choices=["all", "mutmut", "import-time"], default="all")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PATH",
        help="mutate only this source path (repeatable; e.g. controller/blackjack/actions.py)",
    )
    parser.add_argument(
        "--tests",
        action="append",
        default=[],
        metavar="PATH",
        help="run only these tests against the mutants (repeatable; default: as configured)",
    )
    parser.add_argument(
        "--baseline", action="store_true", help="with the tests as committed at HEAD"
    )
    args = parser.parse_args()

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    started = time.monotonic()
    copy_tree(args.work)
    if args.baseline:
        baseline_tests(args.work)
    if args.only or args.tests:
        select_sources(args.work, args.only, args.tests)
    equiv = equivalents()
    routes: dict[str, dict[str, dict[str, int]]] = {}
    if args.route in ("all", "mutmut"):
        routes["mutmut"] = run_mutmut(args.work, args.children)
    if args.route in ("all", "import-time"):
        routes["import-time"] = run_import_time(args.work, args.only, args.children)

    print(f"\nmutation report ({time.monotonic() - started:.0f} s; work tree {args.work})")
    header = f"{'module':36} {'route':12} {'killed':>6} {'surv.':>6} {'equiv.':>6} {'score':>7}"
    print(header)
    print("-" * len(header))
    failed = []
    figures = {}
    survivors_all: list[str] = []
    drifted: list[str] = []
    for path in args.only or config["source_paths"]:
        for route, results in routes.items():
            if path not in results or not results[path]:
                if route == "mutmut":
                    failed.append(f"{path} (no mutants: did mutmut run?)")
                continue
            skip = import_time_prefixes(path) if route == "mutmut" else ()
            count, survivors = tally(results[path], equiv, skip, drifted)
            tested = (
                count["killed"]
                + count["survived"]
                + sum(v for k, v in count.items() if k.startswith("other"))
            )
            score = 100.0 * count["killed"] / tested if tested else 100.0
            figures[f"{path} {route}"] = dict(count, score=round(score, 1))
            aside = f"  ({count['import-time']} at import: the other route)" if skip else ""
            print(
                f"{path:36} {route:12} {count['killed']:6} {tested - count['killed']:6}"
                f" {count['equivalent']:6} {score:6.1f}%{aside}"
            )
            if score < THRESHOLD:
                failed.append(f"{path} ({route})")
            survivors_all += survivors
    if survivors_all:
        print("\nsurvivors (`cd WORK && mutmut show NAME` for the diff of a mutmut one):")
        for name in survivors_all:
            print("  " + name)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    unused = set(equiv) - {n for r in routes.values() for c in r.values() for n in c}
    if unused and args.route == "all" and not args.only:
        print("\nlisted as equivalent but no longer generated (remove them):")
        for name in sorted(unused):
            print("  " + name)
    if drifted:
        print("\nlisted as equivalent but killed (the function changed and its mutants")
        print("were renumbered: find the mutant each entry meant, and correct the list):")
        for name in drifted:
            print("  " + name)
        failed.append("the equivalents list (entries that name killed mutants)")
    if failed:
        print(f"\nunder {THRESHOLD:.0f}% killed: " + ", ".join(failed))
        return 1
    print(f"\nevery module at {THRESHOLD:.0f}% killed or better")
    return 0


if __name__ == "__main__":
    sys.exit(main())
