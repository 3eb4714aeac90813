"""``[pit]`` (optional): the MQTT broker the table reports to (docs/mqtt.md).

``private_cards`` says how players' cards reach the pit: on the ``restricted`` topic
only, or ``delayed`` to the hand's end, so the public feed never shows a live hand.

``signing_key_file`` is the table's Ed25519 key that signs what it publishes (default
``pit-signing.key`` in the journal's folder; `tablectl secrets` makes it);
``pit_public_key`` the pit's, which signs the head it last witnessed for the table, checked
at every start for at most ``witness_wait`` seconds (docs/mqtt.md, "Signatures").
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
    "signing_key_file": (str, ""),
    "pit_public_key": (str, ""),
    "witness_wait": (int, 3),
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
    signing_key_file: str = ""  # "": pit-signing.key in the journal's folder
    pit_public_key: str = ""  # ed25519:<hex>, the pit's: its witnessed head is checked
    witness_wait: int = 3  # seconds the start waits for the pit's witnessed head


def parse_pit(check: Checker, doc: dict[str, Any]) -> PitConfig | None:
    if "pit" not in doc:
        return None
    pit = PitConfig(**check.section(doc, "pit", SCHEMA))
    if pit.private_cards not in PRIVATE_CARDS:
        raise check.error("must be 'restricted' or 'delayed'", "pit", "private_cards")
    if not 0 <= pit.witness_wait <= 60:
        raise check.error(f"must be 0 to 60 seconds, not {pit.witness_wait}", "pit", "witness_wait")
    return pit
