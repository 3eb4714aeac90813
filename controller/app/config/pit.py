"""``[pit]`` (optional): the MQTT broker the table reports to (docs/mqtt.md).

``private_cards`` says how players' cards reach the pit: on the ``restricted`` topic
only, or ``delayed`` to the hand's end, so the public feed never shows a live hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.app.config.checker import REQUIRED, Checker, Schema

__all__ = ["PRIVATE_CARDS", "SCHEMA", "PitConfig", "parse_pit"]

SCHEMA: Schema = {
    "broker": (str, REQUIRED),
    "prefix": (str, "casino"),
    "username": (str, ""),
    "password": (str, ""),
    "ca_file": (str, ""),
    "cert_file": (str, ""),
    "key_file": (str, ""),
    "keepalive": (int, 10),
    "private_cards": (str, "restricted"),
}
PRIVATE_CARDS = ("restricted", "delayed")


@dataclass(frozen=True)
class PitConfig:
    """``[pit]``: the MQTT broker the table reports to (docs/mqtt.md)."""

    broker: str  # mqtt://host:1883 or mqtts://host:8883
    prefix: str = "casino"
    username: str = ""
    password: str = ""
    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    keepalive: int = 10
    private_cards: str = "restricted"  # "restricted" topic, or "delayed" to hand end


def parse_pit(check: Checker, doc: dict[str, Any]) -> PitConfig | None:
    if "pit" not in doc:
        return None
    pit = PitConfig(**check.section(doc, "pit", SCHEMA))
    if pit.private_cards not in PRIVATE_CARDS:
        raise check.error("must be 'restricted' or 'delayed'", "pit", "private_cards")
    return pit
