"""Poker states built in-process for the browser tests and screenshots (there is no
scripted poker dealer): a `PokerGame` fed the same console and shoe events the loop would
give it, its snapshot published (`tests.support.browser.published`, `serve`) like the
running table's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.app.config import load_config
from controller.cards import DECK, Card
from controller.poker.game import PokerGame
from controller.ports import ButtonPressed, CardDrawn, ConsoleAction, ConsoleButton
from tests.support.browser import published

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def poker_game() -> PokerGame:
    config = load_config(EXAMPLES / "poker-table.toml")
    return PokerGame(config.rules)


def console(game: PokerGame, action: str, **args: Any) -> None:
    game.handle(ConsoleAction(source="console", action=action, args=args, actor="test"))


def poker_state(game: PokerGame) -> dict[str, Any]:
    """What the loop would publish for this game (the demo's poker table, dp-01)."""
    return published("poker", game.round_no, game.view(), table="dp-01", limits=(2, 10))


def poker_first_round() -> PokerGame:
    """Five seats; the button on 1, blinds 1 and 2 on seats 2 and 3; seat 5 raises, seat 6
    (8 chips) calls all in: a main pot, a side pot, and seat 1 to act."""
    game = poker_game()
    for seat, stack in {1: 200, 2: 150, 3: 120, 5: 300, 6: 8}.items():
        console(game, "sit", seat=seat, stack=stack)
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    deck = iter(DECK)
    for _ in range(25):
        game.handle(CardDrawn(source="shoe", card=next(deck)))
    console(game, "raise_", seat=5, amount=8)
    console(game, "call", seat=6)
    return game


def poker_showdown() -> PokerGame:
    """Three seats; the small blind folds; seats 1 and 3 tie with A K Q J 9 high: the pot
    of 5 splits 3 / 2, the odd chip to seat 1's ace of hearts over the ace of diamonds
    (11.4(d): spades > hearts > diamonds > clubs)."""
    game = poker_game()
    for seat in (1, 2, 3):
        console(game, "sit", seat=seat, stack=100)
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    held = {1: "Ah Kd Qc Jh 9s", 2: "2c 3d 4h 6s 8c", 3: "Ad Kh Qh Jc 9d"}
    dealt = {seat: [Card.parse(c) for c in text.split()] for seat, text in held.items()}
    for index in range(5):
        for seat in game.table.in_hand:
            game.handle(CardDrawn(source="shoe", card=dealt[seat][index]))
    console(game, "call", seat=1)
    console(game, "fold", seat=2)
    console(game, "check", seat=3)
    for seat in (3, 1):
        console(game, "discard", seat=seat, count=0)  # both stand pat
    for seat in (1, 3):
        console(game, "check", seat=seat)
    return game


def poker_reshuffle() -> PokerGame:
    """Eight seats, everybody calls, everybody draws four: the stub runs out while seat 4
    is drawing, and 11.3(b) allows only seats 2 and 3's earlier discards to be reshuffled."""
    game = poker_game()
    for number in range(1, 9):
        console(game, "sit", seat=number, stack=100)
    game.handle(ButtonPressed(source="console", button=ConsoleButton.NEXT))
    table = game.table
    deck = iter(DECK)
    for _ in range(40):
        game.handle(CardDrawn(source="shoe", card=next(deck)))
    while table.state == "first_round" and table.betting is not None:
        acting = table.betting.to_act
        if acting is None:
            break
        console(game, "call" if table.betting.to_call(acting) else "check", seat=acting)
    while table.draw is not None and table.draw.reshuffle is None:
        drawer = table.draw.drawer
        if drawer is None:
            break
        console(game, "discard", seat=drawer, count=4)
        while table.draw.drawer == drawer and table.draw.reshuffle is None:
            game.handle(CardDrawn(source="shoe", card=next(deck)))  # the burn, then four
    return game
