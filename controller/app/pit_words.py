"""Words for the floor view: a game's states and an alarm's kind as a pit manager says
them, never the code's names (issue 19 item 8)."""

from __future__ import annotations

from typing import Any

STATE_WORDS = {
    # blackjack (controller/blackjack/machine.py STATES)
    "round_over": "Between rounds",
    "betting": "Taking bets",
    "no_more_bets": "No more bets",
    "initial_deal": "Dealing",
    "insurance": "Insurance open",
    "boxes_acting": "Players acting",
    "dealer_second": "Dealer's second card",
    "insurance_settlement": "Settling insurance",
    "dealer_drawing": "Dealer drawing",
    "settlement": "Paying and taking",
    "hold": "HOLD",
    # poker (controller/poker/machine.py STATES)
    "waiting": "Waiting for players",
    "button_placed": "Button placed",
    "dealing": "Dealing",
    "first_round": "First betting round",
    "drawing": "The draw",
    "final_round": "Final betting round",
    "showdown": "Showdown",
    "complete": "Hand over",
}

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
}

DECISION_WORDS = {
    "keep_card": "kept the card",
    "void_hand": "voided the hand",
    "void_box": "voided one box",
}


def state_words(state: str) -> str:
    """A state in words; one the list does not know yet reads as words too."""
    if not state:
        return ""
    return STATE_WORDS.get(state, state.replace("_", " ").capitalize())


def decision_words(payload: dict[str, Any]) -> str:
    """How a supervisor cleared a HOLD: ``voided the hand``, ``voided box 3``..."""
    decision = str(payload.get("decision") or "")
    if decision == "void_box" and payload.get("box") is not None:
        return f"voided box {payload['box']}"
    return DECISION_WORDS.get(decision, decision.replace("_", " "))
