"""Blackjack tables played in-process to a chosen moment, for the screenshots of the dealer's
money view: a push, a win, a shared box, even money. Each game is
fed the events the loop would give it; its snapshot is published like the loop's."""

from __future__ import annotations

from typing import Any

from controller.blackjack.game import BlackjackGame
from controller.blackjack.rules import Variants
from controller.cards import Card
from controller.ports import (
    ButtonPressed,
    CardDrawn,
    ChipsSensed,
    ConsoleAction,
    ConsoleButton,
    Event,
)


class Scene:
    def __init__(self) -> None:
        self.game = BlackjackGame(Variants(boxes=5))
        self.send(ConsoleAction(source="console", action="shuffled"))
        self.deal("Qd")  # the burn after the shuffle
        self.press("next")

    def send(self, event: Event) -> None:
        self.game.handle(event)

    def deal(self, *cards: str) -> None:
        for text in cards:
            self.send(CardDrawn(source="shoe", card=Card.parse(text)))

    def press(self, *buttons: str) -> None:
        for button in buttons:
            self.send(ButtonPressed(source="gpio", button=ConsoleButton(button)))

    def chips(self, spot: str, total: int) -> None:
        self.send(ChipsSensed(source="chips", spot=spot, total=total))

    def state(self) -> dict[str, Any]:
        """What the loop would publish for this game."""
        return {
            "table": "bj-01",
            "site": "demo-casino",
            "simulated": True,
            "limits": {"minimum": 2, "maximum": 100},
            "journal_seq": 0,
            "events_processed": 0,
            "recovered": False,
            "devices": {"shoe": "ok"},
            "notices": [],
            "game": "blackjack",
            "round": self.game.round_no,
            "view": self.game.view(),
        }


def push() -> dict[str, Any]:
    """Box 1 17 against the dealer's 17: PUSH; box 2 15 loses: TAKE."""
    s = Scene()
    s.chips("box1", 4)
    s.chips("box2", 6)
    s.press("no_more_bets")
    s.deal("Ts", "9s", "7d", "7c", "6h")  # box1 17, box2 15, dealer 7
    s.press("next", "next")
    s.deal("Kd")  # dealer 17
    return s.state()


def win() -> dict[str, Any]:
    """Box 1 19 wins 4 (PAY the winnings, not the stake); box 2's blackjack against a ten
    is paid 3 to 2 when the dealer's hand is complete (10.2)."""
    s = Scene()
    s.chips("box1", 4)
    s.chips("box2", 4)
    s.press("no_more_bets")
    s.deal("Ts", "As", "Td", "9c", "Kh")  # box1 19, box2 blackjack, dealer 10
    s.press("next")  # box 1 stands
    s.deal("7d")  # dealer 17
    return s.state()


def shared_box() -> dict[str, Any]:
    """Three people on box 1, each on their own line with their own winnings; box 2 paid
    3 to 2 at once (10.1) and marked PAID."""
    s = Scene()
    s.chips("box1", 4)
    s.chips("box1.p2", 2)
    s.chips("box1.p3", 6)
    s.chips("box2", 4)
    s.press("no_more_bets")
    s.deal("Ts", "Ad", "9h", "9c", "Kd")  # box1 19, box2 blackjack, dealer 9
    s.press("next")  # box 2's cards removed after its payment (10.1)
    s.press("next")  # box 1 stands
    s.deal("8d")  # dealer 17
    return s.state()


def even_money() -> dict[str, Any]:
    """A dealer ace: on box 1 the holder asks for even money and is paid 1 to 1 at once
    (10.3a); the person behind does not, so the cards stay (10.3b)."""
    s = Scene()
    s.chips("box1", 4)
    s.chips("box1.p2", 2)
    s.chips("box2", 6)
    s.press("no_more_bets")
    s.deal("As", "Ts", "Ah", "Kc", "9s")  # box1 blackjack, box2 19, dealer ace
    s.send(ConsoleAction(source="console", action="even_money", args={"box": 1, "person": 1}))
    s.chips("insurance2", 3)
    return s.state()


SCENES = {
    "blackjack-push": push,
    "blackjack-win": win,
    "blackjack-shared-box": shared_box,
    "blackjack-even-money": even_money,
}
