"""The one checker every config section uses, so every mistake reads the same way.

A section module (`table`, `shoe`, `display`, ...) declares its keys as a `Schema` and
hands its part of the parsed TOML to a `Checker`; the checker refuses an unknown key, a
missing required one and a wrong type, and every error it makes names the file, the line
and the key (``bj.toml:12: limits.minimum: must be a whole number, not 'two'``). tomllib
keeps no positions, so the line comes from `ConfigLines`, a scan of the text.

A config with several mistakes gets them all in one run: a section reports every unknown,
missing and mistyped key it holds (`entries`), the loader goes on to the next section after
one is refused (`Checker.step`), and `ConfigMistakes` carries them, one line each, in the
order they were found.

Adding a key: add it to its section's ``SCHEMA`` (type and default, ``...`` for
required), then read it where that section builds its config.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from controller.app.config.lines import ConfigLines
from controller.errors import ConfigError

__all__ = ["REQUIRED", "Checker", "ConfigMistakes", "Schema", "defaults", "several"]

# key -> (type, default); a default of ... (REQUIRED) means the key must be given
Schema = dict[str, tuple[type, Any]]
REQUIRED: Any = ...
T = TypeVar("T")


def defaults(schema: Schema) -> dict[str, Any]:
    """A section left out of the file: every key at its default."""
    return {key: default for key, (_, default) in schema.items()}


class ConfigMistakes(ConfigError):
    """Several mistakes in one config, one line each, in the order found."""

    def __init__(self, mistakes: list[ConfigError]) -> None:
        super().__init__("\n".join(str(mistake) for mistake in mistakes))
        self.mistakes = mistakes


def mistakes_of(error: ConfigError) -> list[ConfigError]:
    return list(error.mistakes) if isinstance(error, ConfigMistakes) else [error]


def several(mistakes: list[ConfigError]) -> ConfigError:
    """One error for ``mistakes``: the mistake itself when there is one."""
    return mistakes[0] if len(mistakes) == 1 else ConfigMistakes(mistakes)


class Checker:
    """Checks the sections of one config text and points its errors at their lines."""

    def __init__(self, text: str, source: str) -> None:
        self.where = ConfigLines(text)
        self.source = source
        self.text = text
        self.mistakes: list[ConfigError] = []

    def step(self, check: Callable[[], T]) -> T | None:
        """``check()``, or None when it is refused: its mistakes are kept for the end, and
        the next section is checked all the same (one that needs this one's result is
        skipped by its caller)."""
        try:
            return check()
        except ConfigError as exc:
            self.mistakes += mistakes_of(exc)
            return None

    def finish(self) -> None:
        """Raise every mistake found so far, if any, as one error."""
        if self.mistakes:
            raise several(self.mistakes)

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
        """The section's keys, checked; every unknown, missing or mistyped key is named."""
        out: dict[str, Any] = {}
        found: list[ConfigError] = []
        for key in value:
            if key not in schema:
                known = ", ".join(schema)
                found.append(self.error(f"unknown key (known: {known})", name, key))
        for key, (kind, default) in schema.items():
            if key not in value:
                if default is REQUIRED:
                    found.append(self.error(f"the key {key!r} is missing", name))
                out[key] = default
                continue
            try:
                out[key] = self.typed(value[key], kind, name, key)
            except ConfigError as exc:
                found.append(exc)
        if found:
            raise several(found)
        return out

    def array(self, doc: dict[str, Any], name: str, schema: Schema) -> list[dict[str, Any]]:
        """The ``[[name]]`` entries (none when left out), each checked against ``schema``
        and named by its index and its key's line: an unknown key, a required key missing,
        a value of the wrong type (a bool is no whole number); a key left out takes its
        default. The first mistake is raised."""
        given = doc.get(name, [])
        if not isinstance(given, list) or not all(isinstance(e, dict) for e in given):
            raise self.error(f"must be [[{name}]] entries (an array of tables)", name)
        entries: list[dict[str, Any]] = []
        for index, entry in enumerate(given):
            for key in entry:
                if key not in schema:
                    known = ", ".join(schema)
                    raise self.entry_error(f"unknown key (known: {known})", name, index, key)
            checked: dict[str, Any] = {}
            for key, (kind, default) in schema.items():
                value = entry.get(key, default)
                if value is REQUIRED:
                    raise self.entry_error("is missing", name, index, key)
                if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                    why = f"must be a {kind.__name__}, not {value!r}"
                    raise self.entry_error(why, name, index, key)
                checked[key] = value
            entries.append(checked)
        return entries

    def typed(self, value: Any, kind: type, *path: str) -> Any:
        """``value`` if it is a ``kind``; a bool is never a whole number, though Python
        says it is an int."""
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(f"must be a whole number, not {value!r}", *path)
        if not isinstance(value, kind):
            raise self.error(f"must be a {kind.__name__}, not {value!r}", *path)
        return value
