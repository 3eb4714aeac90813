"""docs/rules/ keeps up with the tests: the rules matrix of each game has a row for every
clause a test is named after, and every test a row names exists.

A test is named after a clause when its name starts ``test_<n>_<m>`` or
``test_rule_<n>_<m>``: ``test_9_5_...`` is rule 9.5. A letter joined to the number, or
standing alone after it, is the lettered clause (``test_10_3a_...``,
``test_11_3_b_...``: 10.3(a), 11.3(b)), except a lone ``a``, which names read as the
word "a" (``test_9_5_a_chip_reader_...`` is 9.5). A roman numeral after the letter is
the item (``test_11_2c_i_...``: 11.2(c)(i)), and ``_and_`` joins a second clause
(``test_9_4_and_9_5_...``). A clause is in the matrix when it has a row of its own or
a row for one of its lettered clauses (9.3 is there through 9.3(a)).

A test under ``tests/controller/<game>/``, or in a file named after the game, must find
its clause in that game's matrix; any other test in one of the three.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = ("blackjack", "poker", "baccarat")

NAMED = re.compile(r"test_(?:rule_)?(\d+_\d+.*)")
CLAUSE = re.compile(r"(\d+)_(\d+)([a-h])?(?:_([b-h])(?=_))?(?:_(i{1,3}|iv)(?=_))?(?=_|$)")
ROW_RULE = re.compile(r"\|\s*(\d+\.\d+(?:\([a-z]+\))*)\s*\|")
TEST_PATH = re.compile(r"`((?:tests/)?[\w/]*test_\w+\.py)(?:::(\w+))?`")


def clauses(name: str) -> list[str]:
    """The clauses a test's name cites: ``test_11_4c_and_11_4e_x`` -> 11.4(c), 11.4(e)."""
    named = NAMED.fullmatch(name)
    rest = named.group(1) if named else ""
    found = []
    while match := CLAUSE.match(rest):
        number, sub, joined, apart, item = match.groups()
        clause = f"{number}.{sub}"
        if joined or apart:
            clause += f"({joined or apart})"
        if item:
            clause += f"({item})"
        found.append(clause)
        rest = rest[match.end() :]
        if not rest.startswith("_and_"):
            break
        rest = rest[len("_and_") :]
    return found


def matrix_rows(game: str) -> list[str]:
    """The lines of the table under "## Rules matrix" in docs/rules/<game>.md."""
    text = (RULES / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("## Rules matrix", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| ")]


def matrix_clauses(game: str) -> set[str]:
    return {m.group(1) for row in matrix_rows(game) if (m := ROW_RULE.match(row))}


def in_matrix(clause: str, rows: set[str]) -> bool:
    return clause in rows or any(row.startswith(clause + "(") for row in rows)


def functions_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }


def game_of(path: Path) -> str | None:
    for game in GAMES:
        if game in path.relative_to(ROOT).parts or game in path.name:
            return game
    return None


def test_every_clause_a_test_is_named_after_has_a_row() -> None:
    rows = {game: matrix_clauses(game) for game in GAMES}
    missing = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        game = game_of(path)
        where = [game] if game else list(GAMES)
        for name in sorted(functions_in(path)):
            for clause in clauses(name):
                if not any(in_matrix(clause, rows[g]) for g in where):
                    doc = f"docs/rules/{game}.md" if game else "any docs/rules/<game>.md"
                    test = f"{path.relative_to(ROOT)}::{name}"
                    missing.append(f"{clause} ({test}): no row in {doc}")
    assert missing == []


def test_every_test_a_row_names_exists() -> None:
    absent = []
    for game in GAMES:
        for row in matrix_rows(game):
            for file, function in TEST_PATH.findall(row):
                under = ROOT if file.startswith("tests/") else ROOT / "tests" / "controller" / game
                path = under / file
                if not path.is_file():
                    absent.append(f"docs/rules/{game}.md names {file}: no such file")
                elif function and function not in functions_in(path):
                    absent.append(f"docs/rules/{game}.md names {file}::{function}: no such test")
    assert absent == []


def test_the_names_are_read_as_the_docstring_says() -> None:
    assert clauses("test_9_5_a_chip_reader_reading_0") == ["9.5"]
    assert clauses("test_rule_10_3_b_every_person_paid") == ["10.3(b)"]
    assert clauses("test_10_3a_even_money_paid_at_once") == ["10.3(a)"]
    assert clauses("test_11_2c_i_the_only_player_left") == ["11.2(c)(i)"]
    assert clauses("test_11_4c_and_11_4e_refusals") == ["11.4(c)", "11.4(e)"]
    assert clauses("test_rule_11_2_hands_are_numbered") == ["11.2"]
    assert clauses("test_2000_cards_through_a_faulty_line") == []
    assert clauses("test_4_size_host_origin") == []
    assert in_matrix("9.3", {"9.3(a)"}) and not in_matrix("9.3", {"9.30"})
