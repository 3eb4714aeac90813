"""The scripted dealer's deliberate mistakes: at rate 1 every spot it pays is
wrong in a way the spot allows (a loser left uncollected, a winner or a stand-off over or
under), at rate 0 none is; it counts what the display then shows as caught, and a
mismatch it did not make as a false alarm."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sim_hardware.dealer import BlackjackDealer


class Hands:
    senses_layout = True

    def __init__(self) -> None:
        self.stacks: dict[str, int] = {}
        self.pressed: list[str] = []
        self.accepted: list[int] = []

    def chips_to(self, spot: str, total: int) -> None:
        self.stacks[spot] = total

    def accept_payout(self, box: int, reason: str) -> None:
        self.accepted.append(box)

    def press(self, button: str) -> None:
        self.pressed.append(button)

    def __getattr__(self, name: str) -> Any:  # the rest of TableHands: not used here
        raise AssertionError(f"the dealer used {name} while settling by the chips")


def entry(spot: str, base: int, owed: int, state: str = "waiting", kind: str = "") -> dict:
    return {"spot": spot, "box": int(spot[3]), "base": base, "owed": owed, "end": base + owed,
            "reads": 20, "state": state, "kind": kind, "text": ""}  # fmt: skip


SPOTS = [entry("box1", 20, 20), entry("box2", 20, 0), entry("box3", 0, 0)]


def dealer(rate: float, hands: Hands, view: dict[str, Any]) -> BlackjackDealer:
    return BlackjackDealer(
        hands, lambda: {"view": view}, random.Random(4), chips=hands, mistakes=rate
    )


def test_rate_zero_pays_every_spot_right() -> None:
    hands = Hands()
    view = {"state": "settlement", "payout_check": SPOTS}
    dealer(0.0, hands, view).step()
    assert hands.stacks == {"box1": 40, "box3": 0}  # the push's 20 stays as it is


def test_rate_one_makes_a_mistake_the_spot_allows_on_every_spot() -> None:
    hands = Hands()
    view: dict[str, Any] = {"state": "settlement", "payout_check": SPOTS}
    d = dealer(1.0, hands, view)
    d.step()
    made = d.mistakes_made
    assert sum(made.values()) == 3 and made["uncollected"] == 1
    assert "box3" not in hands.stacks  # the loser's 20 left on the spot
    assert hands.stacks["box1"] != 40 and hands.stacks["box2"] != 20
    # the display shows what the table caught; box 9 is a mismatch the dealer did not make
    kinds = {s: ("over" if hands.stacks.get(s, 20) > e["end"] else "under") for s, e in
             (("box1", SPOTS[0]), ("box2", SPOTS[1]))}  # fmt: skip
    view["payout_check"] = [
        entry("box1", 20, 20, "mismatch", kinds["box1"]),
        entry("box2", 20, 0, "mismatch", kinds["box2"]),
        entry("box3", 0, 0, "mismatch", "uncollected"),
        entry("box9", 20, 0, "mismatch", "over"),
    ]
    d.step()
    assert d.mistakes_caught == made and d.false_alarms == 1
    d.step()  # counted once each, whatever the dealer does next
    assert d.mistakes_caught == made and d.false_alarms == 1


@pytest.mark.parametrize("rate", [-0.1, 1.5])
def test_a_rate_outside_0_to_1_is_refused(rate: float) -> None:
    with pytest.raises(ValueError, match="0 to 1"):
        dealer(rate, Hands(), {})
