"""The five scoreboards (controller/baccarat/roads.py) against examples worked by hand.

Every expected grid below was drawn on paper from the construction rules in the module's
docstring, before the code ran, and is written out literally: a road is shown as its six
rows, top row first, one character per column. Letters: ``B`` a Banker win, ``P`` a
Player win, ``T`` a tie (bead plate) or a tie-only cell (big road), ``r``/``b`` a red or
blue mark on a derived road, ``.`` nothing drawn. The comments say why each entry is where
it is; "c2 r1" is the big road's run 2, depth 1 (both from 0, as the module counts).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.baccarat import roads
from controller.baccarat.roads import ROWS, BadResult, compute

TOTALS = {"banker": (3, 5), "player": (6, 2), "tie": (4, 4)}
LETTER = {"B": "banker", "P": "player", "T": "tie"}


def result(winner: str, *, player_pair: bool = False, banker_pair: bool = False) -> dict[str, Any]:
    player, banker = TOTALS[winner]
    return {
        "winner": winner,
        "player_pair": player_pair,
        "banker_pair": banker_pair,
        "natural": False,
        "player_total": player,
        "banker_total": banker,
    }


def shoe(letters: str) -> list[dict[str, Any]]:
    """``"BBTP"`` -> four results, in that order."""
    return [result(LETTER[c]) for c in letters]


def rows(road: dict[str, Any]) -> list[str]:
    """A road's grid as six strings, top row first (the layout the examples are drawn in)."""

    def char(cell: Any) -> str:
        if cell is None:
            return "."
        if isinstance(cell, str):  # a derived road's mark
            return cell[0]
        return {"banker": "B", "player": "P", "tie": "T", None: "T"}[cell["winner"]]

    return ["".join(char(column[row]) for column in road["grid"]) for row in range(ROWS)]


# --- bead plate --------------------------------------------------------------------------


def test_bead_plate_fills_down_then_across_ties_included() -> None:
    # 8 rounds: B P T B B P T B. Six go down column 1 (B P T B B P), the 7th and 8th start
    # column 2 at the top (T, then B). Ties take a cell of their own on the bead plate.
    results = shoe("BPTBBPTB")
    results[4]["player_pair"] = True  # round 5: a Player pair, shown on its own bead
    plate = compute(results)["bead_plate"]
    assert rows(plate) == [
        "BT",
        "PB",
        "T.",
        "B.",
        "B.",
        "P.",
    ]
    assert plate["columns"] == 2
    assert plate["grid"][0][4]["player_pair"] is True
    assert plate["grid"][0][3]["player_pair"] is False
    assert plate["grid"][0][0]["total"] == 5  # the winning hand's point count (Banker 5)


# --- big road ----------------------------------------------------------------------------


def test_big_road_ties_at_the_start_of_the_shoe_go_on_the_first_cell() -> None:
    # T T B B T P B B B:
    # - the two ties come before any win: drawn on the first cell, which the first B takes
    #   (c0 r0, ties 2);
    # - B again: same side, down (c0 r1); then a tie: a stroke on that cell (ties 1);
    # - P: a new column (c1 r0); B B B: a new column, down three (c2 r0-r2).
    road = compute(shoe("TTBBTPBBB"))["big_road"]
    assert rows(road) == [
        "BPB",
        "B.B",
        "..B",
        "...",
        "...",
        "...",
    ]
    assert road["grid"][0][0]["ties"] == 2
    assert road["grid"][0][1]["ties"] == 1
    assert [road["grid"][2][r]["ties"] for r in range(3)] == [0, 0, 0]


def test_big_road_of_only_ties_is_one_tie_only_cell() -> None:
    # Three ties and no win yet: nothing to put a stroke on, so the top-left cell shows
    # the three ties alone (winner None) until the first win takes it.
    road = compute(shoe("TTT"))["big_road"]
    assert rows(road) == ["T", ".", ".", ".", ".", "."]
    assert road["grid"][0][0] == {
        "winner": None,
        "ties": 3,
        "player_pair": False,
        "banker_pair": False,
        "natural": False,
    }


def test_big_road_dragon_tail_turns_right_at_the_bottom_and_at_a_taken_cell() -> None:
    # B x8: rows 0-5 of column 1, then the tail turns right along row 5 (columns 2, 3).
    # P x7: column 2 from the top; row 5 of column 2 is the B's tail, so the P's turn right
    #   after row 4: five down, then (3, 4) and (4, 4) along row 4.
    # B: the next run starts at the top of column 3. P: the top of column 4.
    road = compute(shoe("B" * 8 + "P" * 7 + "B" + "P"))["big_road"]
    assert rows(road) == [
        "BPBP",
        "BP..",
        "BP..",
        "BP..",
        "BPPP",
        "BBB.",
    ]


def test_big_road_dragon_tail_stays_on_its_row_once_turned() -> None:
    # B x7: column 1 down, the 7th turns right to (2, 6th row). P x7: column 2 rows 1-5,
    # the 6th row of column 2 is taken, so it turns right along row 5 into columns 3 and
    # 4, and stays on row 5 even though the 6th row of column 3 is free.
    road = compute(shoe("B" * 7 + "P" * 7))["big_road"]
    assert rows(road) == [
        "BP..",
        "BP..",
        "BP..",
        "BP..",
        "BPPP",
        "BB..",
    ]


def test_big_road_pairs_stay_on_their_own_cell() -> None:
    results = shoe("BB")
    results[1]["banker_pair"] = True
    road = compute(results)["big_road"]
    assert road["grid"][0][0]["banker_pair"] is False
    assert road["grid"][0][1]["banker_pair"] is True


# --- derived roads: first entries ---------------------------------------------------------


def test_big_eye_boy_starts_at_column_2_row_2_when_it_exists() -> None:
    # B B P P: the second P is c1 r1 (column 2, row 2). Going down: compare c0 at depth 1:
    # c0 has a cell there (B B) -> red. No earlier win has the runs to compare with.
    out = compute(shoe("BBPP"))
    assert out["big_eye_boy"]["marks"] == ["red"]
    assert out["small_road"]["marks"] == []
    assert out["cockroach_pig"]["marks"] == []


def test_big_eye_boy_starts_at_column_3_row_1_when_column_2_is_one_cell() -> None:
    # B P B: column 2 is one P (no row 2), so the first mark is the B at c2 r0 (column 3,
    # row 1): a new column compares c1 and c0: lengths 1 and 1 -> red.
    assert compute(shoe("BPB"))["big_eye_boy"]["marks"] == ["red"]
    # B P: nothing yet: c1 r0 would compare c0 with a column before it, which is none.
    assert compute(shoe("BP"))["big_eye_boy"]["marks"] == []


def test_small_road_starts_at_column_3_row_2_else_column_4_row_1() -> None:
    # B B P B B: the last B is c2 r1 (column 3, row 2): compare c0 (two back) at depth 1:
    # B B has a cell there -> red. c2 r0 (column 3, row 1) had c-1-2 < 0: no mark.
    assert compute(shoe("BBPBB"))["small_road"]["marks"] == ["red"]
    # B P B P: column 3 is one cell, so the first mark is c3 r0: compare c2 (1) and c0
    # (1): equal -> red.
    assert compute(shoe("BPBP"))["small_road"]["marks"] == ["red"]
    assert compute(shoe("BPB"))["small_road"]["marks"] == []


def test_cockroach_pig_starts_at_column_4_row_2_else_column_5_row_1() -> None:
    # B P B P P: the last P is c3 r1 (column 4, row 2): compare c0 (three back) at depth 1:
    # c0 is one B long, exactly one above -> blue.
    assert compute(shoe("BPBPP"))["cockroach_pig"]["marks"] == ["blue"]
    # B P B P B: c4 r0 (column 5, row 1): compare c3 (1) and c0 (1) -> red.
    assert compute(shoe("BPBPB"))["cockroach_pig"]["marks"] == ["red"]
    assert compute(shoe("BPBP"))["cockroach_pig"]["marks"] == []


def test_straight_drop_is_red() -> None:
    # B P P P: c1 r1 compares c0 at depth 1: c0 (one B) ends exactly one above -> blue;
    # c1 r2 compares c0 at depth 2: c0 ended two above (nothing beside, nothing above
    # that either: the straight drop) -> red.
    assert compute(shoe("BPPP"))["big_eye_boy"]["marks"] == ["blue", "red"]


# --- derived roads: a worked shoe ---------------------------------------------------------


def test_worked_shoe_all_three_derived_roads() -> None:
    # B B T P P P B P B B (the tie changes nothing on the derived roads).
    # Big road runs: c0 = B B (2), c1 = P P P (3), c2 = B (1), c3 = P (1), c4 = B B (2).
    #
    # Big eye boy (one back):
    #   c1 r1: c0 has depth 1 -> red;  c1 r2: c0 is 2 long, ends just above -> blue;
    #   c2 r0: c1 (3) vs c0 (2) -> blue; c3 r0: c2 (1) vs c1 (3) -> blue;
    #   c4 r0: c3 (1) vs c2 (1) -> red;  c4 r1: c3 is 1 long, ends just above -> blue.
    # Small road (two back): first at c3 r0 (column 3 is one cell):
    #   c3 r0: c2 (1) vs c0 (2) -> blue; c4 r0: c3 (1) vs c1 (3) -> blue;
    #   c4 r1: c2 is 1 long, ends just above -> blue.
    # Cockroach pig (three back): first at c4 r0 (column 4 is one cell):
    #   c4 r0: c3 (1) vs c0 (2) -> blue; c4 r1: c1 is 3 long, has depth 1 -> red.
    out = compute(shoe("BBTPPPBPBB"))
    assert rows(out["big_road"]) == [
        "BPBPB",
        "BP..B",
        ".P...",
        ".....",
        ".....",
        ".....",
    ]
    assert out["big_eye_boy"]["marks"] == ["red", "blue", "blue", "blue", "red", "blue"]
    # drawn: r | b b b | r | b  -> four columns
    assert rows(out["big_eye_boy"]) == [
        "rbrb",
        ".b..",
        ".b..",
        "....",
        "....",
        "....",
    ]
    assert out["small_road"]["marks"] == ["blue", "blue", "blue"]
    assert rows(out["small_road"]) == ["b", "b", "b", ".", ".", "."]
    assert out["cockroach_pig"]["marks"] == ["blue", "red"]
    assert rows(out["cockroach_pig"]) == ["br", "..", "..", "..", "..", ".."]


def test_derived_road_dragon_tail() -> None:
    # B P B P B P B P B P (a chop: every run is one long). Every new column compares two
    # runs of length 1 -> red. Big eye boy marks from c2 on: 8 reds, one run: six down
    # column 1, then the tail along row 6 into columns 2 and 3. Small road from c3: 7 reds
    # (six down, one right). Cockroach from c4: 6 reds, exactly one column.
    out = compute(shoe("BP" * 5))
    assert rows(out["big_eye_boy"]) == ["r..", "r..", "r..", "r..", "r..", "rrr"]
    assert rows(out["small_road"]) == ["r.", "r.", "r.", "r.", "r.", "rr"]
    assert rows(out["cockroach_pig"]) == ["r", "r", "r", "r", "r", "r"]


def test_ask_says_what_the_next_win_would_add() -> None:
    # After B P: a Banker win would be c2 r0: big eye boy compares c1 (1) and c0 (1) ->
    # red; the small road and the cockroach pig have no runs to compare yet -> None.
    # A Player win would be c1 r1: c0 is one long, ends just above -> blue.
    asked = compute(shoe("BP"))["ask"]
    assert asked["banker"] == {"big_eye_boy": "red", "small_road": None, "cockroach_pig": None}
    assert asked["player"] == {"big_eye_boy": "blue", "small_road": None, "cockroach_pig": None}


def test_counts() -> None:
    results = shoe("BBTPT")
    results[0]["natural"] = True
    results[3]["player_pair"] = True
    assert compute(results)["counts"] == {
        "banker": 2,
        "player": 1,
        "tie": 2,
        "player_pair": 1,
        "banker_pair": 0,
        "natural": 1,
    }


def test_a_new_shoe_is_empty_roads() -> None:
    out = compute([])
    for name in ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig"):
        assert out[name]["columns"] == 0
        assert out[name]["grid"] == []


# --- bad input: one clear error naming the problem ---------------------------------------


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"winner": "bank"}, "result 2: winner 'bank' is not one of banker, player, tie"),
        ({"player_pair": 1}, "result 2: player_pair is 1, not true or false"),
        ({"banker_total": 10}, "result 2: banker_total is 10, not a point count 0-9"),
        ({"winner": "player"}, "result 2: winner 'player' but the Player has 3"),
    ],
)
def test_a_bad_result_is_named(change: dict[str, Any], words: str) -> None:
    results = shoe("BB")
    results[1].update(change)
    with pytest.raises(BadResult, match=words):
        compute(results)


def test_a_result_without_a_field_is_named() -> None:
    results = shoe("B")
    del results[0]["natural"]
    with pytest.raises(BadResult, match="result 1 has no natural"):
        compute(results)


def test_results_that_are_not_a_list_are_refused() -> None:
    with pytest.raises(BadResult, match="not a list"):
        compute("BPB")  # type: ignore[arg-type]


# --- properties --------------------------------------------------------------------------

winners = st.lists(st.sampled_from(["banker", "player", "tie"]), max_size=90)


def _results(sequence: list[str]) -> list[dict[str, Any]]:
    return [result(w) for w in sequence]


def _cells(road: dict[str, Any]) -> list[Any]:
    return [cell for column in road["grid"] for cell in column if cell is not None]


@settings(max_examples=200, deadline=None)
@given(winners)
def test_bead_plate_holds_every_result_in_order(sequence: list[str]) -> None:
    plate = compute(_results(sequence))["bead_plate"]
    assert [cell["winner"] for cell in _cells(plate)] == sequence
    assert all(len(column) == ROWS for column in plate["grid"])


@settings(max_examples=200, deadline=None)
@given(winners)
def test_big_road_holds_every_win_and_every_tie(sequence: list[str]) -> None:
    road = compute(_results(sequence))["big_road"]
    cells = _cells(road)
    wins = [cell for cell in cells if cell["winner"] is not None]
    assert len(wins) == sum(1 for w in sequence if w != "tie")
    assert sum(cell["ties"] for cell in cells) == sequence.count("tie")
    assert all(len(column) == ROWS for column in road["grid"])


@settings(max_examples=200, deadline=None)
@given(winners)
def test_derived_road_lengths_follow_their_starting_points(sequence: list[str]) -> None:
    # Every win on the big road gets a mark except those in the first k runs and the first
    # win of run k (the starting points: column k+1 row 2, else column k+2 row 1).
    out = compute(_results(sequence))
    runs, _ = roads.big_road_runs(_results(sequence))
    for name, back in roads.DERIVED.items():
        expected = sum(len(run) for run in runs[back:]) - (1 if len(runs) > back else 0)
        assert len(out[name]["marks"]) == expected
        assert len(_cells(out[name])) == expected  # the drawing loses none


@settings(max_examples=200, deadline=None)
@given(winners, st.sampled_from(["banker", "player", "tie"]))
def test_one_more_round_only_adds_what_ask_said(sequence: list[str], nxt: str) -> None:
    before = compute(_results(sequence))
    after = compute(_results([*sequence, nxt]))
    for name in roads.DERIVED:
        grown = after[name]["marks"]
        assert grown[: len(before[name]["marks"])] == before[name]["marks"]
        added = grown[len(before[name]["marks"]) :]
        if nxt == "tie":
            assert added == []
        else:
            told = before["ask"][nxt][name]
            assert added == ([] if told is None else [told])
