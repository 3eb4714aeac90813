"""The casino's baccarat settings, and what each citation in this game means.

Only the definitions pages of the NZ baccarat division are known (Gazette 1998 No. 12
p. 260 and 2004 No. 56 p. 1313, summarised in docs/rules/baccarat.md). So
the numbers below are settings with the conventional defaults, and docs/baccarat.md marks
every default the NZ text we have does not confirm. A citation is either a Gazette rule
number the definitions pages give ("4.2" point values, "5.10(b)" commission), a term
those pages define ("Table of Play", "Initial Deal", "Natural", "Table Differential"), or
a named non-Gazette source (the NSW-style Mini Baccarat rules, a casino procedure), never
a rule number we invented.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum

from controller.errors import ConfigError
from controller.game.chips import WinningsPaid

__all__ = [
    "BURN_RULE",
    "CARDS_RULE",
    "COMMISSION_ACCOUNT_RULE",
    "COMMISSION_RULE",
    "CUT_CARD_RULE",
    "DEALING_STYLE_TERMS",
    "DIFFERENTIAL_RULE",
    "INITIAL_DEAL_RULE",
    "NATURAL_RULE",
    "PAIR_RULE",
    "POINT_COUNT_RULE",
    "ROUNDING_RULE",
    "SETTLEMENT_RULE",
    "SHUFFLE_RULE",
    "SUPERVISOR_SHUFFLE_RULE",
    "TABLE_OF_PLAY",
    "TIE_RULE",
    "VOID_RULE",
    "WAGERS_RULE",
    "BaccaratRules",
    "Bet",
    "DealingStyle",
    "Variant",
]

# --- citations -------------------------------------------------------------------------
# Terms and rule numbers of the NZ definitions pages (G98-260, G04-1313):
TABLE_OF_PLAY = "Table of Play"  # the mandatory stand/draw instructions (G98-260)
INITIAL_DEAL_RULE = "Initial Deal"  # the first four cards, two to each hand (G98-260)
NATURAL_RULE = "Natural"  # 8 or 9 on the first two cards (G98-260)
POINT_COUNT_RULE = "4.2"  # point values, by the definition of Point Count (G98-260)
COMMISSION_RULE = "5.10(b)"  # commission off a winning Banker wager (G04-1313; 5.7(b) in 1998)
DIFFERENTIAL_RULE = "Table Differential"  # Banker stakes less Player stakes (G98-260)
VOID_RULE = "Void"  # Division 1 definition (G98-191): a void round has no result
# the definitions of "Banker" and "Player" (G98-260, G04-1313): seated players who handle
# the hands in Dealing Style B; the rules they point to (8.x) were not found
DEALING_STYLE_TERMS = '"Banker" and "Player" (Dealing Style B)'
# Not NZ text: the NSW-style Mini Baccarat rules (docs/rules/baccarat.md)
WAGERS_RULE = "NSW Mini Baccarat 5"  # wagers before the first card; never P and B together
TIE_RULE = "NSW Mini Baccarat 5 (Tie)"  # Player and Banker are void (stand off) on a tie
ROUNDING_RULE = "NSW Mini Baccarat 5 (rounding up)"  # an amount not payable in chips: up
CARDS_RULE = "NSW Baccarat 3.1"  # 6 or 8 decks of 52, and the shoe's composition
# Not regulation at all: casino procedures and casino pages (section 4.3, 4.4)
PAIR_RULE = "pair wager (casino page)"  # first two cards of one rank pay 11 to 1
BURN_RULE = "burn (casino procedure)"  # the first card's value: that many cards burned
CUT_CARD_RULE = "cutting card (casino procedure)"  # the cut card, then one more coup
SHUFFLE_RULE = "shuffle (casino procedure)"  # a new shoe is shuffled before it is dealt
# each spot paid at its wager's odds (beside the stake) or collected before the next coup,
# and checked by the layout's sensors: the casino's settlement procedure, not NZ text
SETTLEMENT_RULE = "settlement (casino procedure)"

# This controller's house procedures (docs/baccarat.md says why each is ours)
COMMISSION_ACCOUNT_RULE = "commission account (house procedure)"  # settled before a shoe ends
SUPERVISOR_SHUFFLE_RULE = "shuffle ordered by a supervisor (house procedure)"  # ends the shoe


class DealingStyle(StrEnum):
    """Who handles the cards (the NZ definitions of "Banker" and "Player" name Dealing
    Style B; its rules, and Style A, were not found). The controller reads the same cards
    from the same shoe in the same order either way: the style is recorded and shown."""

    A = "A"  # the dealer deals and turns every card (our reading: Style A is not defined)
    B = "B"  # a seated "Player" and "Banker" are given the hands and handle them


class Variant(StrEnum):
    """How a Banker win is paid (the casino's choice; none of them is NZ text we have)."""

    COMMISSION = "commission"  # 1 to 1, less the commission (5.10(b))
    NO_COMMISSION = "no_commission"  # 1 to 1, but a winning Banker 6 pays 1 to 2
    THREE_CARD_7_PUSH = "banker_three_card_7_push"  # 1 to 1, a three-card Banker 7 pushes


class Bet(StrEnum):
    """The wagers a box can hold (each box's spots on the layout)."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"


def _need(ok: bool, key: str, message: str) -> None:
    if not ok:
        raise ConfigError(f"{key}: {message}")


@dataclasses.dataclass(frozen=True)
class BaccaratRules:
    """One table's settings (``[baccarat]``; minimum, maximum and the chip unit come from
    ``[limits]`` through the spec's ``from_limits``). Defaults are the conventional ones,
    none confirmed by the NZ text we have (docs/baccarat.md says which source each has).

    Commission is owed, never rounded on the coup: 5 % of a 10-unit stake is half a unit,
    which no chip pays, so each box's commission account holds what it owes exactly in
    hundredths of a chip unit (stake x percent), as the numbered commission boxes on a
    baccarat layout do, and the dealer collects it (`collect_commission`) rounded up to
    the chip unit, the rounding journaled (NSW Mini Baccarat: rounded up).

    The layout's sensors (off by default: wagers keyed on the console, as ever), one per
    betting area of a box (`controller.baccarat.spots`: ``banker3``, ``player3``,
    ``tie3``, ``player_pair3``, ``banker_pair3``): ``spot_sensors``, presence sensors, so a
    wager keyed on the console needs chips on its spot, and chips taken off withdraw it;
    ``chip_readers``, readers of each spot's value, so the chips on a spot are its wager
    (placed through the same rules API as a keyed one). After NO MORE BETS a wager that
    changes on the layout holds the table (NSW Mini Baccarat 5). ``settlement_check``:
    after the result each sensed spot is checked against what it is owed
    (`controller.game.chips`, citing `SETTLEMENT_RULE`); NEXT is refused until it reads
    right or a supervisor accepts the difference. ``winnings_paid``: stacked on the spot
    (checked) or handed over (the stake alone is checked). ``chip_inventory``: the
    casino's chip inventory as CSV text, from ``[chips] inventory``."""

    decks: int = 8
    boxes: int = 7
    variant: Variant = Variant.COMMISSION
    commission_percent: int = 5
    tie_odds: int = 8
    pair_odds: int = 11
    minimum_wager: int = 1
    maximum_wager: int = 1000
    chip_unit: int = 1
    table_differential: int | None = None  # largest Banker-Player difference; None: no limit
    burn_by_first_card: bool = True
    cut_card_from_end: int = 16
    coups_after_cut_card: int = 1
    player_and_banker_together: bool = False
    spot_sensors: bool = False
    chip_readers: bool = False
    settlement_check: bool = False
    winnings_paid: WinningsPaid = WinningsPaid.ON_SPOT
    chip_inventory: str = ""
    # a Player pair or Banker pair wager stands only beside a Banker, Player or Tie wager
    # of the same box, checked at NO MORE BETS (PAIR_RULE: the casino page requires one;
    # the NZ text we have is silent, so off by default)
    pair_needs_main_wager: bool = False
    dealing_style: DealingStyle = DealingStyle.A  # recorded at each shoe's start and shown

    def __post_init__(self) -> None:
        try:  # the config gives the style as text ("A" or "B")
            object.__setattr__(self, "dealing_style", DealingStyle(self.dealing_style))
        except ValueError:
            raise ConfigError(
                f"dealing_style: 'A' or 'B', not {self.dealing_style!r} ({DEALING_STYLE_TERMS})"
            ) from None
        _need(
            self.decks in (6, 8),
            "decks",
            f"baccarat is dealt from 6 or 8 decks, not {self.decks} ({CARDS_RULE})",
        )
        _need(1 <= self.boxes <= 14, "boxes", f"1 to 14 boxes, not {self.boxes}")
        _need(
            0 <= self.commission_percent < 100,
            "commission_percent",
            f"a whole percent 0-99, not {self.commission_percent}",
        )
        _need(self.tie_odds >= 1, "tie_odds", f"at least 1 (to 1), not {self.tie_odds}")
        _need(self.pair_odds >= 1, "pair_odds", f"at least 1 (to 1), not {self.pair_odds}")
        _need(self.chip_unit >= 1, "chip_unit", f"at least 1, not {self.chip_unit}")
        _need(self.minimum_wager >= 1, "minimum_wager", "must be positive")
        _need(
            self.minimum_wager <= self.maximum_wager,
            "minimum_wager",
            f"{self.minimum_wager} is above the maximum {self.maximum_wager}",
        )
        _need(
            self.table_differential is None or self.table_differential >= 0,
            "table_differential",
            "must be 0 or more, or none",
        )
        # after the cut card at most the coup under way and the coups after it come out;
        # a coup takes at most 6 cards
        least = 6 * (self.coups_after_cut_card + 1)
        _need(self.coups_after_cut_card >= 0, "coups_after_cut_card", "must be 0 or more")
        _need(
            least <= self.cut_card_from_end <= self.decks * 52 // 2,
            "cut_card_from_end",
            f"{self.cut_card_from_end} leaves too few or too many cards: at least {least} "
            f"(6 a coup) must remain behind it",
        )
