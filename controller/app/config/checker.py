"""The one checker every config section uses, so every mistake reads the same way.

A section module (`table`, `shoe`, `display`, ...) declares its keys as a `Schema` and
hands its part of the parsed TOML to a `Checker`; the checker refuses an unknown key, a
missing required one and a wrong type, and every error it makes names the file, the line
and the key (``bj.toml:12: limits.minimum: must be a whole number, not 'two'``). tomllib
keeps no positions, so the line comes from `ConfigLines`, a scan of the text.

Adding a key: add it to its section's ``SCHEMA`` (type and default, ``...`` for
required), then read it where that section builds its config.
"""

from __future__ import annotations

import re
from typing import Any

from controller.app.config.lines import ConfigLines
from controller.errors import ConfigError

__all__ = ["REQUIRED", "Checker", "Schema", "defaults"]

# key -> (type, default); a default of ... (REQUIRED) means the key must be given
Schema = dict[str, tuple[type, Any]]
REQUIRED: Any = ...


def defaults(schema: Schema) -> dict[str, Any]:
    """A section left out of the file: every key at its default."""
    return {key: default for key, (_, default) in schema.items()}


class Checker:
    """Checks the sections of one config text and points its errors at their lines."""

    def __init__(self, text: str, source: str) -> None:
        self.where = ConfigLines(text)
        self.source = source
        self.text = text

    def entry_error(self, message: str, array: str, index: int, key: str) -> ConfigError:
        """An error in the ``index``-th ``[[array]]`` entry, at the line of its ``key``
        (ConfigLines knows only plain tables)."""
        header = re.compile(rf"^\s*\[\[\s*{re.escape(array)}\s*\]\]")
        setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
        seen, line = -1, 0
        for number, raw in enumerate(self.text.splitlines(), start=1):
            if header.match(raw):
                seen += 1
                if seen == index:
                    line = number
            elif seen == index and raw.lstrip().startswith("["):
                break
            elif seen == index and setting.match(raw):
                line = number
                break
        at = f"{self.source}:{line}" if line else self.source
        return ConfigError(f"{at}: {array}[{index}].{key}: {message}")

    def error(self, message: str, *path: str) -> ConfigError:
        line = self.where.line(*path)
        at = f"{self.source}:{line}" if line else self.source
        return ConfigError(f"{at}: {'.'.join(path)}: {message}" if path else f"{at}: {message}")

    def section(self, doc: dict[str, Any], name: str, schema: Schema) -> dict[str, Any]:
        """The required section ``[name]``, every key checked against ``schema``."""
        value = doc.get(name)
        if value is None:
            raise self.error(f"the [{name}] section is missing")
        if not isinstance(value, dict):
            raise self.error("must be a [section]", name)
        return self.entries(value, name, schema)

    def entries(self, value: dict[str, Any], name: str, schema: Schema) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in value:
            if key not in schema:
                known = ", ".join(schema)
                raise self.error(f"unknown key (known: {known})", name, key)
        for key, (kind, default) in schema.items():
            if key not in value:
                if default is REQUIRED:
                    raise self.error(f"the key {key!r} is missing", name)
                out[key] = default
                continue
            out[key] = self.typed(value[key], kind, name, key)
        return out

    def typed(self, value: Any, kind: type, *path: str) -> Any:
        """``value`` if it is a ``kind``; a bool is never a whole number, though Python
        says it is an int."""
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(f"must be a whole number, not {value!r}", *path)
        if not isinstance(value, kind):
            raise self.error(f"must be a {kind.__name__}, not {value!r}", *path)
        return value
