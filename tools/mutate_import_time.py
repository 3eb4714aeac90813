"""The import-time route of `make mutate`: mutants of code that runs when a module is
imported (tables built at import, module constants), which mutmut 3 cannot reach because it
swaps functions at run time, after the import.

For each mutant it writes the mutated module into ROOT/FILE, runs the given tests there
(``pytest -x``), and restores the file. ROOT must be a throw-away copy of the tree
(tools/mutate.py makes one): never point it at a working tree somebody else uses.

Scopes: ``<module>`` is the module's own statements and its class bodies (not the methods);
any other name is a top-level function, mutated whole. Operators: comparison, arithmetic
and boolean operators swapped, ``not`` dropped, integers +1, strings changed, ``True`` /
``False`` swapped. The mutated file is the module unparsed from its AST (comments and
layout are lost, the meaning is not). Names are ``module.scope#N``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest  # in this process, before any fork: each child starts with it loaded

sys.dont_write_bytecode = True  # nor in the children: see run_tests

SWAP: dict[type, type] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult,
    ast.Mod: ast.Mult,
    ast.And: ast.Or,
    ast.Or: ast.And,
}


def scope_nodes(tree: ast.Module, scopes: list[str]) -> Iterator[tuple[str, ast.AST]]:
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if stmt.name in scopes:
                yield stmt.name, stmt
        elif "<module>" in scopes:
            if isinstance(stmt, ast.ClassDef):
                for inner in stmt.body:
                    if not isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        yield "<module>", inner
            elif not isinstance(stmt, ast.Import | ast.ImportFrom) and not is_all(stmt):
                yield "<module>", stmt


def is_all(stmt: ast.stmt) -> bool:
    """``__all__`` only steers ``import *``, which nothing here uses."""
    return isinstance(stmt, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets
    )


def is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def mutable(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp | ast.BoolOp):
        return type(node.op) in SWAP
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not | ast.USub)
    return isinstance(node, ast.Constant) and type(node.value) in (int, str, bool)


def sites(tree: ast.Module, scopes: list[str]) -> list[tuple[str, int, int]]:
    """(scope, node index in an ast.walk of the tree, variant)."""
    index = {id(n): i for i, n in enumerate(ast.walk(tree))}
    # Not mutated: bare strings (docstrings, attribute docstrings) and type hints
    # (annotations, strings inside a subscript such as tuple[str, "int | None"]).
    inert: set[int] = set()
    for node in ast.walk(tree):
        hint = None
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            hint = node
        elif isinstance(node, ast.AnnAssign):
            hint = node.annotation
        elif isinstance(node, ast.Subscript):
            hint = node.slice
        if hint is not None:
            inert |= {
                id(n)
                for n in ast.walk(hint)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            }
    found = []
    for scope, top in scope_nodes(tree, scopes):
        for node in ast.walk(top):
            if is_docstring(node) or id(node) in inert:
                continue
            i = index.get(id(node))
            if i is None:
                continue
            if isinstance(node, ast.Compare):
                found += [(scope, i, k) for k, op in enumerate(node.ops) if type(op) in SWAP]
            elif mutable(node):
                found.append((scope, i, 0))
    # docstrings' constants sit under their Expr: drop them
    doc_ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and is_docstring(body[0]):
            doc_ids.add(index[id(body[0].value)])
    return [s for s in found if s[1] not in doc_ids]


class Replace(ast.NodeTransformer):
    def __init__(self, target: int, variant: int, index: dict[int, int]) -> None:
        self.target, self.variant, self.index = target, variant, index

    def visit(self, node: ast.AST) -> ast.AST:
        if self.index.get(id(node)) != self.target:
            return self.generic_visit(node)
        if isinstance(node, ast.Compare):
            node.ops[self.variant] = SWAP[type(node.ops[self.variant])]()
        elif isinstance(node, ast.BinOp | ast.BoolOp):
            node.op = SWAP[type(node.op)]()
        elif isinstance(node, ast.UnaryOp):
            return node.operand
        elif isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                node.value = not v
            elif isinstance(v, int):
                node.value = v + 1
            else:
                node.value = "XX" + v + "XX"
        return node


def mutant(source: str, target: int, variant: int) -> str:
    tree = ast.parse(source)
    index = {id(n): i for i, n in enumerate(ast.walk(tree))}
    return ast.unparse(ast.fix_missing_locations(Replace(target, variant, index).visit(tree)))


def run_tests(root: Path, tests: list[str]) -> int:
    """pytest -x on ``tests`` in a child forked from this process, which has pytest and the
    third-party libraries imported but nothing of the project: the child imports the
    project afresh from ROOT, mutant included, and a mutant costs the tests' own time, not
    an interpreter's and pytest's start (about 0.25 s instead of 0.9 s for blackjack's
    round and hand tests). No bytecode is written (``sys.dont_write_bytecode``, inherited),
    and none is left over: a mutant of the same size written in the same second as the one
    before would otherwise be read from the stale .pyc."""
    for stale in root.rglob("__pycache__"):
        shutil.rmtree(stale, ignore_errors=True)
    log = root / ".import-time-pytest.log"
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 3
        try:
            os.chdir(root)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.dup2(out, 1)
            os.dup2(out, 2)
            signal.alarm(120)  # an endless loop: the alarm ends the child (a timeout)
            args = [
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                "-p",
                "no:xdist",
                "-p",
                "no:unraisableexception",
                *tests,
            ]
            code = int(pytest.main(args))
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == -signal.SIGALRM:
        return 36  # mutmut's code for a timeout: counted as killed
    if code == 2 and b"during collection" in log.read_bytes():
        # the mutant breaks the module's import (e.g. a frozenset + a set): its tests cannot
        # even be collected, so the run fails as surely as a failing test (killed, pytest's
        # exit 2 otherwise reading as "interrupted")
        return 1
    return code


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--scopes", required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--list", action="store_true", help="print the mutants, run nothing")
    parser.add_argument(
        "--shard",
        default="0/1",
        help="K/N: run only every Nth mutant from the Kth (names stay those of the whole run)",
    )
    parser.add_argument("tests", nargs="+")
    args = parser.parse_args()

    path = args.root / args.file
    original = path.read_text()
    module = args.file.removesuffix(".py").replace("/", ".")
    tree = ast.parse(original)
    todo = sites(tree, args.scopes.split(","))
    results: dict[str, int] = {}
    try:
        if not args.list:  # --list reads only: it may be pointed at a working tree
            path.write_text(ast.unparse(tree))
        shard, shards = (int(n) for n in args.shard.split("/"))
        if not args.list and shard == 0 and run_tests(args.root, args.tests) != 0:
            print(f"{args.file}: the tests fail on the unmutated module", file=sys.stderr)
            return 2
        counters: dict[str, int] = {}
        for index, (scope, target, variant) in enumerate(todo):
            counters[scope] = counters.get(scope, 0) + 1
            if not args.list and index % shards != shard:
                continue
            name = f"{module}.{scope}#{counters[scope]}"
            text = mutant(original, target, variant)
            if args.list:
                pairs = zip(text.splitlines(), ast.unparse(tree).splitlines(), strict=False)
                line = next((a for a, b in pairs if a != b), "")
                print(f"{name}: {line.strip()}")
                continue
            path.write_text(text)
            results[name] = run_tests(args.root, args.tests)
            print(f"  {name}: {'killed' if results[name] else 'SURVIVED'}", flush=True)
    finally:
        if not args.list:
            path.write_text(original)
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
