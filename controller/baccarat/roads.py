"""Baccarat's scoreboards: the bead plate, the big road and its three derived roads.

Players at a baccarat table expect the shoe's history on these five grids (issue 17); the
rules of the game (the Gazette's baccarat division, docs/rules/baccarat.md)
say nothing about them, so they are built by the construction rules the industry
publishes. Sources read for them (paraphrased, not copied):

- OG Plus, "Road map" (https://og-plus.oss-accelerate.aliyuncs.com/v6/rule/roadmap.html):
  the bead road and big road (a tie is a green stripe on the last win's cell, with the
  count when there are several); the big eye road starts at column 2 row 2 of the big
  road, or column 3 row 1 when there is none; blue when going down and the column to
  the left has no cell on that row, or at a new column when the two columns before it
  differ in length; red otherwise;
- sikwin, "five road rules" (https://www.sikwin.in/sikwin-casino-baccarat-game-rules-five-
  road-rules/): the same starting points one column further on for the small road
  (column 3 row 2, else column 4 row 1) and the cockroach road (column 4 row 2, else
  column 5 row 1), and the "straight drop" (no cell to compare with at all) that is red;
- baccaratboard.com (after the Wizard of Odds' Venetian scoreboard article): the bead
  plate is read down, then the next column; a run longer than six turns right (the
  "dragon tail").

The construction, as this module does it:

- **Bead plate**: every result, ties too, down a column of `ROWS` cells, then the next.
- **Big road**: a column per run of Banker or Player wins. A tie is a stroke on the cell
  of the win before it (``ties`` counts them); ties before the shoe's first win are drawn
  on the first cell, which the first win then takes (until then the cell is a tie-only
  cell, ``winner`` None). A run goes down while the cell below is inside the grid and
  free; otherwise it turns right along its row and stays there (the dragon tail). A new
  run starts at the top of the first column to the right of the last run's start whose
  top cell is free.
- **Derived roads** (big eye boy, small road, cockroach pig: k = 1, 2, 3): each new win on
  the big road, at run c and depth r (both from 0, counted in runs, not in the drawn
  cells, so a dragon tail changes nothing), gets a mark when the runs it compares exist:
  * r = 0 (a new run): red when runs c-1 and c-1-k are the same length ("the pattern
    repeats"), blue when they differ; needs c-1-k >= 0;
  * r >= 1 (going down): compare run c-k at depth r. It has a cell there: red; it ends
    exactly one above (length r): blue; it ended earlier still (the straight drop): red.
    Needs c-k >= 0.
  So the first mark falls on column k+1 row 2 when that cell exists, else on column k+2
  row 1 (the starting points above). The marks are drawn the way the big road draws
  wins: a column per run of one colour, with the same dragon tail.
- **Ask**: what each derived road would add if the next win were Banker, or Player (the
  "Banker ask" and "Player ask" on a scoreboard).

Pure: plain JSON in (the game's ``results``: one per round since the new shoe), plain
JSON out. A new shoe is the game's business: its results list restarts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.errors import TableError

ROWS = 6  # every road is six cells deep
WINNERS = ("banker", "player", "tie")
FLAGS = ("player_pair", "banker_pair", "natural")
TOTALS = ("player_total", "banker_total")
DERIVED = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}  # name -> columns back

Cell = dict[str, Any]
Grid = list[list[Any]]  # columns, each `ROWS` cells (None where nothing is drawn)


class BadResult(TableError, ValueError):
    """A round's result the roads cannot draw: which one, and what is wrong with it."""


# --- input -------------------------------------------------------------------------------


def _checked(index: int, result: Any) -> Mapping[str, Any]:
    """One result as the game gives it, or `BadResult` naming the round and the field."""
    where = f"result {index + 1}"
    if not isinstance(result, Mapping):
        raise BadResult(f"{where} is {type(result).__name__}, not an object")
    missing = [key for key in ("winner", *FLAGS, *TOTALS) if key not in result]
    if missing:
        raise BadResult(f"{where} has no {', '.join(missing)}")
    winner = result["winner"]
    if winner not in WINNERS:
        raise BadResult(f"{where}: winner {winner!r} is not one of {', '.join(WINNERS)}")
    for flag in FLAGS:
        if not isinstance(result[flag], bool):
            raise BadResult(f"{where}: {flag} is {result[flag]!r}, not true or false")
    for total in TOTALS:
        value = result[total]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
            raise BadResult(f"{where}: {total} is {value!r}, not a point count 0-9")
    player, banker = result["player_total"], result["banker_total"]
    by_totals = "banker" if banker > player else "player" if player > banker else "tie"
    if winner != by_totals:
        raise BadResult(
            f"{where}: winner {winner!r} but the Player has {player} and the Banker {banker}"
        )
    return result


# --- drawing runs into a grid (big road and derived roads alike) --------------------------


def _place(runs: Sequence[Sequence[Any]]) -> Grid:
    """Draw ``runs`` (each a list of cells, one run a column) into columns of `ROWS`,
    turning right (the dragon tail) when a run reaches the bottom or the cell below is
    already drawn. Returns the grid, as wide as the drawing."""
    taken: dict[tuple[int, int], Any] = {}
    start = -1
    for run in runs:
        start += 1
        while (start, 0) in taken:  # an earlier tail ran along the top row
            start += 1
        column, row, turned = start, 0, False
        for depth, cell in enumerate(run):
            if depth:
                if not turned and row + 1 < ROWS and (column, row + 1) not in taken:
                    row += 1
                else:
                    turned = True
                    column += 1
                    while (column, row) in taken:
                        column += 1
            taken[(column, row)] = cell
    width = 1 + max((column for column, _ in taken), default=-1)
    grid: Grid = [[None] * ROWS for _ in range(width)]
    for (column, row), cell in taken.items():
        grid[column][row] = cell
    return grid


def _road(grid: Grid, **more: Any) -> dict[str, Any]:
    return {"columns": len(grid), "grid": grid, **more}


# --- the roads ---------------------------------------------------------------------------


def bead_plate(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every round, ties included, six down a column then the next column."""
    cells = [
        {
            "winner": r["winner"],
            "total": max(r["player_total"], r["banker_total"]),
            **{flag: r[flag] for flag in FLAGS},
        }
        for r in results
    ]
    grid: Grid = [
        cells[at : at + ROWS] + [None] * (ROWS - len(cells[at : at + ROWS]))
        for at in range(0, len(cells), ROWS)
    ]
    return _road(grid)


def big_road_runs(results: Sequence[Mapping[str, Any]]) -> tuple[list[list[Cell]], int]:
    """The big road's runs (a run of wins for one side each) and the ties seen before any
    win (they go on the first cell when it comes: the caller draws them)."""
    runs: list[list[Cell]] = []
    leading = 0
    for r in results:
        if r["winner"] == "tie":
            if runs:
                runs[-1][-1]["ties"] += 1
            else:
                leading += 1
            continue
        cell = {"winner": r["winner"], "ties": 0, **{flag: r[flag] for flag in FLAGS}}
        if not runs:
            cell["ties"] = leading
        if runs and runs[-1][0]["winner"] == r["winner"]:
            runs[-1].append(cell)
        else:
            runs.append([cell])
    return runs, leading


def big_road(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Banker and Player wins, a column per run; ties as strokes on the cell before."""
    runs, leading = big_road_runs(results)
    if not runs and leading:  # only ties so far: one tie-only cell at the top left
        tie_only: Cell = {"winner": None, "ties": leading}
        tie_only.update(dict.fromkeys(FLAGS, False))
        return _road([[tie_only] + [None] * (ROWS - 1)])
    return _road(_place(runs))


def _mark(lengths: Sequence[int], column: int, depth: int, back: int) -> str | None:
    """The derived road's mark for the big road's win at run ``column``, depth ``depth``
    (``lengths``: the runs' lengths as they stood once it was drawn), comparing ``back``
    runs back; None while the runs it compares do not exist yet."""
    if depth == 0:
        if column - 1 - back < 0:
            return None
        return "red" if lengths[column - 1] == lengths[column - 1 - back] else "blue"
    if column - back < 0:
        return None
    return "blue" if lengths[column - back] == depth else "red"


def derived_marks(runs: Sequence[Sequence[Any]], back: int) -> list[str]:
    """One derived road's marks in order, from the big road's runs (``back``: 1 big eye
    boy, 2 small road, 3 cockroach pig)."""
    marks: list[str] = []
    lengths: list[int] = []
    for column, run in enumerate(runs):
        lengths.append(0)
        for depth in range(len(run)):
            lengths[column] = depth + 1
            mark = _mark(lengths, column, depth, back)
            if mark is not None:
                marks.append(mark)
    return marks


def _runs_of(marks: Sequence[str]) -> list[list[str]]:
    runs: list[list[str]] = []
    for mark in marks:
        if runs and runs[-1][0] == mark:
            runs[-1].append(mark)
        else:
            runs.append([mark])
    return runs


def derived_road(runs: Sequence[Sequence[Any]], back: int) -> dict[str, Any]:
    """A derived road drawn: its marks in columns of one colour, with the dragon tail."""
    marks = derived_marks(runs, back)
    return _road(_place(_runs_of(marks)), marks=marks)


def ask(runs: Sequence[Sequence[Any]]) -> dict[str, dict[str, str | None]]:
    """What each derived road would add were the next win Banker's, or Player's."""
    lengths = [len(run) for run in runs]
    answer: dict[str, dict[str, str | None]] = {}
    for side in ("banker", "player"):
        if runs and runs[-1][0]["winner"] == side:
            column, depth = len(runs) - 1, lengths[-1]
            after = [*lengths[:-1], depth + 1]
        else:
            column, depth = len(runs), 0
            after = [*lengths, 1]
        answer[side] = {name: _mark(after, column, depth, back) for name, back in DERIVED.items()}
    return answer


def compute(results: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """All five roads (and the asks and counts) from the shoe's results, as plain JSON.

    Each road is ``{"columns": n, "grid": [[cell or None] * ROWS] * n}``, a list of
    columns; derived roads also give their ``marks`` in order. Raises `BadResult` naming
    the first result that is not a round's result."""
    if isinstance(results, (str, bytes)) or not isinstance(results, Sequence):
        raise BadResult(f"the results are {type(results).__name__}, not a list")
    checked = [_checked(index, result) for index, result in enumerate(results)]
    runs, _ = big_road_runs(checked)
    roads: dict[str, Any] = {
        "rows": ROWS,
        "bead_plate": bead_plate(checked),
        "big_road": big_road(checked),
    }
    for name, back in DERIVED.items():
        roads[name] = derived_road(runs, back)
    roads["ask"] = ask(runs)
    counts = {winner: 0 for winner in WINNERS}
    counts.update(dict.fromkeys(FLAGS, 0))
    for r in checked:
        counts[r["winner"]] += 1
        for flag in FLAGS:
            counts[flag] += int(r[flag])
    roads["counts"] = counts
    return roads
