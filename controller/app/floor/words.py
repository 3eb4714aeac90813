"""Words for the floor view: a game's states and an alarm's kind as a pit manager says
them, never the code's names. A game's states are its own: its spec's
``state_words`` (the pit names no game)."""

from __future__ import annotations

from typing import Any

from controller.app.floor.games import specs
from controller.errors import ConfigError
from controller.game import registry

ALARM_WORDS = {
    "Violation": "HOLD",
    "HoldCleared": "HOLD cleared",
    "DeviceLost": "Device lost",
    "DeviceRestored": "Device back",
    "DeviceFault": "Device fault",
    "ControllerFault": "Controller fault",
    "JournalBroken": "Journal broken: table stopped",
    "JournalHead": "Journal alarm",
    "TableLost": "Table lost",
    "TableStarted": "Table restarted",
    "ChipAlarm": "Possible counterfeit chip",
    "LimitOverridden": "Table limit overridden",
    "MessageRefused": "Message refused: not the table's",
    "RatingConflict": "Player rated at two tables",
}

# Every registered game's supervisor decisions (their specs' ``decisions``) in words; a
# test fails if a game offers one with none.
DECISION_WORDS = {
    "keep_card": "kept the card",
    "accept": "accepted the card",
    "burn_card": "burned the card(s) out of turn",
    "void_hand": "voided the hand",
    "void_box": "voided one box",
    "accept_payout": "accepted the payout difference",
    "change_wager": "changed a wager",
    "override_limit": "overrode the table limit",
    "accept_commission_owed": "accepted commission owed at the shoe's end",
    "order_shuffle": "ordered the shoe shuffled",
}


def all_state_words() -> dict[str, str]:
    """Every registered game's state words, merged (a state two games share, "hold",
    reads the same at both)."""
    words: dict[str, str] = {}
    for spec in specs():
        words.update(spec.state_words)
    return words


def state_words(state: str, game: str = "") -> str:
    """A state in words, as ``game`` says it (any game's words when it is not given or
    not installed here); one no game has words for reads as words too."""
    if not state:
        return ""
    try:
        words = registry.spec(game).state_words
    except ConfigError:  # not given, or not installed here
        words = all_state_words()
    return words.get(state) or state.replace("_", " ").capitalize()


def decision_words(payload: dict[str, Any]) -> str:
    """How a supervisor cleared a HOLD: ``voided the hand``, ``voided box 3``..."""
    decision = str(payload.get("decision") or "")
    if decision == "void_box" and payload.get("box") is not None:
        return f"voided box {payload['box']}"
    return DECISION_WORDS.get(decision, decision.replace("_", " "))
