"""``tablectl pit --staff FILE``: who may sign in to the floor view, and as what.

A TOML file of its own, apart from the floor plan: it holds PIN hashes, and a short PIN's
scrypt hash falls to an offline search, so it is readable by the pit's service only
(0640 or tighter), while the floor plan is not secret. Each person is a ``[[staff]]``
entry as at the table (``id``, ``name``, ``role``, ``pin_hash`` from `tablectl pin-hash`),
with a pit role:

- ``pit_manager``: acknowledges alarms and starts a shift;
- ``surveillance``: signs in and reads; every write is refused (403).

``[ratings]`` (optional) ``readers``: the staff ids who may see the players' ratings (the
Ratings view and its CSV: players' card numbers and names, personal data). It is a grant
to named people, whatever their role: a pit manager not listed sees no rating; without
the section nobody does.

``[lockout]`` (optional) is the wrong-PIN delay, with the keys and defaults of the table's
``[supervisor]`` section (docs/security.md, "Wrong PINs and the lockout").
"""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path
from typing import Any

from controller.app.config import StaffMember, SupervisorConfig
from controller.app.config.checker import Checker
from controller.app.config.staff import SUPERVISOR_SCHEMA, parse_staff
from controller.errors import ConfigError

__all__ = ["PIT_MANAGER", "PIT_ROLES", "SURVEILLANCE", "PitStaff", "load_pit_staff"]

PIT_MANAGER = "pit_manager"
SURVEILLANCE = "surveillance"
PIT_ROLES = (PIT_MANAGER, SURVEILLANCE)


@dataclasses.dataclass(frozen=True)
class PitStaff:
    """The people who may sign in to the floor view, and the wrong-PIN delay."""

    members: tuple[StaffMember, ...] = ()
    lockout: SupervisorConfig = dataclasses.field(default_factory=SupervisorConfig)
    rating_readers: frozenset[str] = frozenset()  # staff ids who may see players' ratings


def load_pit_staff(path: Path) -> PitStaff:
    """The staff file, checked whole: a mistake is one line naming the file, the line and
    the key; the view does not start on a file it cannot trust."""
    try:
        text = path.read_bytes().decode("utf-8")
        doc = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"--staff {path}: {exc}") from exc
    check = Checker(text, str(path))
    unknown = set(doc) - {"staff", "lockout", "ratings"}
    if unknown:
        raise check.error(
            f"unknown section(s) {', '.join(sorted(unknown))} (known: staff, lockout, ratings)"
        )
    lockout = SupervisorConfig()
    if "lockout" in doc:
        if not isinstance(doc["lockout"], dict):
            raise check.error("must be a [section]", "lockout")
        lockout = SupervisorConfig(**check.entries(doc["lockout"], "lockout", SUPERVISOR_SCHEMA))
        for key in SUPERVISOR_SCHEMA:
            if getattr(lockout, key) < 1:
                raise check.error("must be at least 1", "lockout", key)
    members = parse_staff(check, doc, PIT_ROLES)
    return PitStaff(members, lockout, _rating_readers(check, doc, members))


def _rating_readers(
    check: Checker, doc: dict[str, Any], members: tuple[StaffMember, ...]
) -> frozenset[str]:
    """``[ratings] readers``: staff ids of this file, each once."""
    section = doc.get("ratings")
    if section is None:
        return frozenset()
    if not isinstance(section, dict):
        raise check.error("must be a [section]", "ratings")
    unknown = set(section) - {"readers"}
    if unknown:
        raise check.error(f"unknown key(s) {', '.join(sorted(unknown))} (known: readers)",
                          "ratings")  # fmt: skip
    readers = section.get("readers", [])
    if not isinstance(readers, list) or not all(isinstance(r, str) for r in readers):
        raise check.error("must be a list of staff ids", "ratings", "readers")
    known = {m.id for m in members}
    for reader in readers:
        if reader not in known:
            raise check.error(f"{reader!r} is no [[staff]] id of this file", "ratings", "readers")
    return frozenset(readers)
