"""JSON from the network with a bound on its nesting (`controller.app.console.json_bounded`)."""

from __future__ import annotations

import pytest

from controller.app.console.json_bounded import loads_bounded, nesting


def test_brackets_inside_strings_do_not_count_and_escaped_quotes_stay_inside() -> None:
    assert nesting('{"a": "[[[[{{{{", "b": [1, [2]]}') == 3
    assert nesting(r'{"a": "\"[[[[\\", "b": [1]}') == 2
    assert loads_bounded(b'{"staff": "[[[[", "pin": "1234"}', 2) == {
        "staff": "[[[[",
        "pin": "1234",
    }


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"[" * 33 + b"]" * 33, "nests deeper than 32 levels"),
        (b"[" * 1020, "nests deeper than 32 levels"),  # unclosed: refused before parsing
        (b'{"a": "\xff"}', "not UTF-8"),
        (b"{'a': 1}", "Expecting property name"),
    ],
)
def test_too_deep_not_utf8_or_not_json_is_a_value_error_of_one_line(raw: bytes, words: str) -> None:
    with pytest.raises(ValueError, match=words) as caught:
        loads_bounded(raw)
    assert "\n" not in str(caught.value)


def test_thirty_two_levels_are_taken() -> None:
    expected: list[object] = []
    for _ in range(31):
        expected = [expected]
    assert nesting("[" * 32 + "]" * 32) == 32
    assert loads_bounded("[" * 32 + "]" * 32) == expected
