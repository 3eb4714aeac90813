"""The players' board names no card that is not yet public, whatever the play: random
rounds of every game through the real game, loop and journal (the scripted dealer's
random players, with stray cards and keying mistakes thrown in), and at every published
state the board document (what ``/api/board`` and its event stream serve, built by
`board_document`) is checked with a card finder independent of the code under test
(`tests.support.poker_play.cards_named`):

- poker: no card at all, ever (11.3(a): a player's hand is his own; 11.4(c));
- baccarat and blackjack: only cards face up in the hands on the layout now, never a card
  a HOLD holds back (a foreign card, a card out of turn)."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.app.config.board import BoardConfig
from controller.app.console.board import board_document
from controller.app.pit.privacy import names_a_card
from controller.cards import DECK
from controller.game import registry
from controller.journal.store import Journal
from controller.ports import CardDrawn
from tests.support.loop_play import KEY, RecordingHands, new_loop
from tests.support.pit import make_config
from tests.support.poker_play import MISCHIEF, cards_named, open_journal, play

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOWHERE = "mqtt://127.0.0.1:1"


def _folder() -> tempfile.TemporaryDirectory[str]:
    shm = Path("/dev/shm")
    return tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None)


def face_up(view: dict[str, Any]) -> set[str]:
    """The cards face up in the hands on the layout, as the view lists them."""
    cards: list[str] = []
    for side in ("player", "banker", "dealer"):
        hand = view.get(side)
        if isinstance(hand, dict):
            cards += hand.get("cards") or []
    for box in view.get("boxes") or []:
        for hand in box.get("hands") or []:
            cards += hand.get("cards") or []
    return set(cards)


def named(document: dict[str, Any]) -> set[str]:
    found = set(cards_named(document))
    for text in found:
        assert names_a_card(text), text  # the project's own finder agrees
    return found


def play_shoe_game(
    game: str, journal: Journal, seed: int, rounds: int, strays: dict[int, int]
) -> list[dict[str, Any]]:
    """``rounds`` rounds of ``game`` by its scripted dealer, a stray card from the shoe at
    each step ``strays`` names; every published state."""
    states: list[dict[str, Any]] = []
    loop = new_loop(game, journal, events=None, publish=states.append)
    rng = random.Random(seed)
    hands = RecordingHands(loop, rng, decks=8 if game == "baccarat" else 6)
    module, _, name = (registry.spec(game).sim_dealer or "").partition(":")
    factory = getattr(__import__(module, fromlist=[name]), name)
    dealer = factory(hands, loop.snapshot, rng)
    for number in range(2000):
        if dealer.rounds_finished >= rounds:
            break
        if number in strays:
            hands.step(CardDrawn(source="shoe", card=DECK[strays[number]]))
            if loop.snapshot()["view"].get("hold"):
                hands.supervisor("void_hand", "stray card")
        else:
            dealer.step()
    return states


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    hands=st.integers(1, 2),
    mischief=st.dictionaries(st.integers(0, 400), st.sampled_from(MISCHIEF), max_size=15),
)
def test_rule_11_3_a_the_poker_board_never_names_a_card(
    seed: int, hands: int, mischief: dict[int, str]
) -> None:
    with _folder() as folder:
        config = make_config(Path(folder), "poker", "dp-01", NOWHERE)
        with open_journal(config.journal_path) as journal:
            states = play(config, journal, seed, hands_to_play=hands, mischief_steps=mischief)
    assert states
    for state in states:
        document = board_document(state, BoardConfig(), "poker", closed=False)
        assert named(document) == set(), state["view"]


@SETTINGS
@given(
    game=st.sampled_from(["baccarat", "blackjack"]),
    seed=st.integers(0, 2**32 - 1),
    rounds=st.integers(1, 3),
    strays=st.dictionaries(
        st.integers(0, 40), st.integers(0, len(DECK) - 1), min_size=1, max_size=4
    ),
)
def test_a_shoe_game_s_board_names_only_cards_face_up_on_the_layout(
    game: str, seed: int, rounds: int, strays: dict[int, int]
) -> None:
    with _folder() as folder, Journal(Path(folder) / "j.sqlite", key=KEY) as journal:
        states = play_shoe_game(game, journal, seed, rounds, strays)
    shown_any = False
    for state in states:
        document = board_document(state, BoardConfig(), game, closed=False)
        shown = named(document)
        assert shown <= face_up(state["view"]), (shown, state["view"])
        shown_any = shown_any or bool(shown)
    assert shown_any  # the deal's cards do reach the board
