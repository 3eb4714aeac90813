"""The baccarat layout's spots: one per betting area of a box, and what each should hold
once the dealer has paid and collected, for the kernel's settlement check
(`controller.game.chips`).

A spot is named by its wager and its box, as blackjack names ``box3`` and
``insurance3``: ``player3``, ``banker3``, ``tie3``, ``player_pair3``, ``banker_pair3``
(`spot_name`, `parse_spot`: the one place the names are made and read).

What a spot should hold after the result, read from the coup's payouts
(`controller.baccarat.settlement.Payout`):

- a win: the stake stays and the winnings at the wager's odds are added beside it (or
  handed over: `WinningsPaid.HANDED_OVER`, the stake alone is checked). A Banker win in
  the ``commission`` variant is paid in full: the commission is owed on the box's
  commission account (5.10(b)), collected between coups, never taken off the spot;
- a push (Player and Banker on a tie, a three-card Banker 7 in that variant) or a void
  coup: the stake stays, nothing added;
- a loss: the spot is emptied (collected).
"""

from __future__ import annotations

from collections.abc import Iterable

from controller.baccarat.rules import Bet
from controller.baccarat.settlement import Payout
from controller.game.chips import SpotExpected, WinningsPaid

__all__ = ["expected_spots", "label", "parse_spot", "spot_name"]

_BETS = {bet.value: bet for bet in Bet}
_WORDS = {
    Bet.PLAYER: "Player",
    Bet.BANKER: "Banker",
    Bet.TIE: "Tie",
    Bet.PLAYER_PAIR: "Player pair",
    Bet.BANKER_PAIR: "Banker pair",
}


def spot_name(bet: Bet | str, box: int) -> str:
    """The layout's name of ``box``'s spot for ``bet`` (``banker3``, ``player_pair3``)."""
    return f"{Bet(bet).value}{box}"


def parse_spot(spot: str) -> tuple[Bet, int] | None:
    """``banker3`` -> (Bet.BANKER, 3); ``player_pair12`` -> (Bet.PLAYER_PAIR, 12); a name
    that is no baccarat spot (``box3``, ``banker``, ``tie03``) -> None."""
    name = spot.rstrip("0123456789")
    number = spot[len(name) :]
    bet = _BETS.get(name)
    if bet is None or not number or number[0] == "0":
        return None
    return bet, int(number)


def label(bet: Bet, box: int) -> str:
    """The spot as the dealer reads it on the box ("Box 3 Banker")."""
    return f"Box {box} {_WORDS[bet]}"


def expected_spots(payouts: Iterable[Payout], winnings: WinningsPaid) -> list[SpotExpected]:
    """Every spot the coup's payouts leave something to check on (a loss: empty)."""
    out = []
    for p in payouts:
        bet = Bet(p.bet)
        owed = 0 if winnings is WinningsPaid.HANDED_OVER else p.won
        out.append(SpotExpected(spot_name(bet, p.box), p.box, p.returned, owed, label(bet, p.box)))
    return out
