"""JSON from the network, parsed with a bound on how deep it nests.

Python's parser recurses once per ``[`` or ``{``: a small body nested 1,500 deep makes it
raise `RecursionError`, which a web handler would answer with a 500. Both web servers (the
table's console and the pit's floor view) parse request bodies here instead: the depth is
counted first, in one pass over the text, and a body deeper than `MAX_DEPTH` is refused
with `ValueError` naming the limit, like any other body that is not the JSON asked for.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["MAX_DEPTH", "loads_bounded"]

MAX_DEPTH = 32  # far deeper than any request either server takes (theirs are 2 or 3)


def loads_bounded(raw: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """``raw`` as JSON; `ValueError` (with one line saying why) if it is not JSON, not
    UTF-8, or nests arrays and objects deeper than ``max_depth``."""
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError:
        raise ValueError("the body is not UTF-8 text") from None
    if nesting(text) > max_depth:
        raise ValueError(f"the JSON nests deeper than {max_depth} levels")
    return json.loads(text)


def nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text``, brackets inside strings not
    counted (an unterminated string simply ends the count: the parser refuses it)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest
