"""What the dealer is told, card by card: the card due (for which hand, the rule, the
line on the display and the console's NEXT), and the rule a card breaks when none is due.
Pure functions of the coup's facts, so the table's card path and the display agree."""

from __future__ import annotations

from controller.baccarat.phases import FACTS
from controller.baccarat.rules import BURN_RULE, INITIAL_DEAL_RULE, NATURAL_RULE, TABLE_OF_PLAY
from controller.baccarat.settlement import CoupResult
from controller.baccarat.shoe import ShoeState
from controller.baccarat.tableau import banker_rule_text
from controller.game.records import HOLD_PROCEDURE

__all__ = ["Due", "card_due", "stray_card"]

Due = tuple[str, str, str]  # (for whom: "player", "banker" or "burn"; the rule; the line)
_ORDER = ("Player's first", "Banker's first", "Player's second", "Banker's second")


def card_due(
    state: str, dealt: int, player: int, banker: int, player_third: int | None, shoe: ShoeState
) -> Due | None:
    """The card due in ``state`` (``dealt``: cards of the Initial Deal so far; the hands'
    point counts; the Player's third card's value), or None when no card may come."""
    if state == "initial_deal":
        text = f"{_ORDER[dealt]} card (Initial Deal: Player, Banker, Player, Banker)"
        return ("player" if dealt % 2 == 0 else "banker"), INITIAL_DEAL_RULE, text
    if state == "player_third":
        return (
            "player",
            TABLE_OF_PLAY,
            f"Player draws: a third card on {player} (Table of Play: the Player draws on 0-5)",
        )
    if state == "banker_third":
        return "banker", TABLE_OF_PLAY, banker_rule_text(banker, player_third)
    if state == "burn":
        if shoe.burn_first:
            text = "Burn: expose the new shoe's first card; its value burns that many"
            return "burn", BURN_RULE, f"{text} ({BURN_RULE})"
        text = f"Burn: {shoe.burns_due} more card(s), face down"
        return "burn", BURN_RULE, f"{text} ({BURN_RULE})"
    return None


def stray_card(state: str, result: CoupResult | None) -> tuple[str, str]:
    """The rule a card breaks in ``state``, where none may come, in the dealer's words."""
    if state == "settlement" and result is not None:
        p, b = result.player_total, result.banker_total
        if result.natural:
            return (
                NATURAL_RULE,
                f"a card after a Natural (Player {p}, Banker {b}): a Natural stops the coup",
            )
        return (
            TABLE_OF_PLAY,
            "a card the Table of Play does not allow: the Player "
            f"stands on {p} and the Banker on {b}",
        )
    breaks = FACTS[state].card_breaks
    return breaks if breaks is not None else (HOLD_PROCEDURE, f"a card in {state}")
