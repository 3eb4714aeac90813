"""The files that ship inside the package: the example table configs, the example RFID
deck, and the files a Pi is set up with (the systemd unit, the kiosk script, mosquitto's
config and ACL).

Their one copy is ``examples/`` and ``deploy/`` at the top of the repository, where a reader
finds them; ``controller/app/examples`` and ``controller/app/deploy`` are links to those
folders, so the wheel carries them as package data and an installed table reads them here
(importlib.resources), never through a path into a checkout.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from controller.errors import ConfigError
from controller.game import names

EXAMPLE_DECK = "deck-rfid-example.txt"
PIT_FLOOR = "pit-floor.toml"


def examples() -> Traversable:
    return files("controller.app") / "examples"


def deploy() -> Traversable:
    return files("controller.app") / "deploy"


def example_config(game: str) -> Traversable:
    """The example table config of ``game`` (``pit`` for the floor view's pit-floor file)."""
    if game == "pit":
        return examples() / PIT_FLOOR
    if game not in names():
        raise ConfigError(f"no example config for {game!r} (games: {', '.join(names())}, pit)")
    return examples() / f"{game}-table.toml"


def example_deck() -> Traversable:
    return examples() / EXAMPLE_DECK


def deploy_files() -> list[tuple[str, Traversable]]:
    """Every deploy file as (its path under the deploy folder, the file), in order."""
    found: list[tuple[str, Traversable]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.is_file():
                found.append((prefix + entry.name, entry))

    walk(deploy(), "")
    return found
