"""`tablectl shoe-conformance`: the kit passes the simulated shoe on every case of
docs/protocol.md, and fails each deliberately broken simulated shoe on exactly the case
its fault breaks (sim_hardware/broken_shoes.py), and on no other.

Each run plays the controller's side over a real pty; the cases take their own time (a
3.2 s watch of the heartbeat, a 3.5 s silence), so a run lasts about ten seconds.
"""

from __future__ import annotations

import io

import pytest

from controller.app.cli import build_parser
from controller.app.tools.conformance import CASES, run
from sim_hardware.broken_shoes import BROKEN_SHOES


def conformance(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = run(build_parser().parse_args(["shoe-conformance", *argv]), out=out)
    return code, out.getvalue()


def table_rows(text: str) -> dict[str, str]:
    """case: pass or FAIL, from the final table."""
    rows = {}
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in CASES and words[1] in ("pass", "FAIL"):
            rows[words[0]] = words[1]  # the table comes last, so it wins
    return rows


@pytest.mark.timeout(90)
def test_the_simulated_shoe_passes_every_case() -> None:
    code, text = conformance("--sim")
    assert code == 0, text
    assert table_rows(text) == dict.fromkeys(CASES, "pass"), text
    assert "10 of 10 cases pass" in text
    assert "Starting a connection: HELLO" in text  # each row names its section


def test_every_case_has_a_broken_shoe() -> None:
    assert set(BROKEN_SHOES) == set(CASES)


@pytest.mark.slow
@pytest.mark.timeout(90)
@pytest.mark.parametrize("case", CASES)
def test_a_broken_shoe_fails_exactly_its_case(case: str) -> None:
    code, text = conformance("--sim-broken", case)
    assert code == 1, text
    rows = table_rows(text)
    assert rows == {c: "FAIL" if c == case else "pass" for c in CASES}, text


def test_no_port_is_a_usage_error() -> None:
    code, _ = conformance()
    assert code == 2
