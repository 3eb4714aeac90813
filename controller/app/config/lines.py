"""Which line of a config text sets a key: for error messages that point at the line.

tomllib keeps no positions, so `ConfigLines` scans the text for table headers and
``key =`` lines. Every config section's errors (`checker.Checker`), the pin map's
(`pins`) and the start-up checks' (`controller.app.runtime.preflight`) use it, so they all point
the same way.
"""

from __future__ import annotations

import re

__all__ = ["ConfigLines"]

_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(
    r"^\s*((?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)(?:\s*\.\s*(?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+))*)\s*="
)
_PART = re.compile(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)")


def _split_key(dotted: str) -> tuple[str, ...]:
    return tuple(m.group(1) or m.group(2) or m.group(3) or "" for m in _PART.finditer(dotted))


class ConfigLines:
    """Maps a key path (``("pins", "spots", "box1.p2")``) to the line that sets it.

    tomllib keeps no positions, so this scans the text for table headers and ``key =``
    lines. It is only used to point at a line in an error message; a path it cannot find
    falls back to its nearest table header.
    """

    def __init__(self, text: str) -> None:
        self.lines: dict[tuple[str, ...], int] = {}
        table: tuple[str, ...] = ()
        depth = 0  # inside a multi-line array or inline table: no new keys start here
        for number, raw in enumerate(text.splitlines(), start=1):
            code = raw.split("#", 1)[0] if '"' not in raw and "'" not in raw else raw
            if depth == 0 and (header := _HEADER.match(raw)):
                table = _split_key(header.group(1))
                self.lines.setdefault(table, number)
                continue
            if depth == 0 and (key := _KEY.match(raw)):
                path = table + _split_key(key.group(1))
                for i in range(len(table) + 1, len(path) + 1):
                    self.lines.setdefault(path[:i], number)
            depth = max(0, depth + code.count("[") + code.count("{"))
            depth = max(0, depth - code.count("]") - code.count("}"))

    def line(self, *path: str) -> int | None:
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None
