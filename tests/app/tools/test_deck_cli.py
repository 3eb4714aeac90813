"""`tablectl deck enrol` and `deck check` against a simulated RDM6300 reader on a real pty.

The command runs in a thread as a dealer would use it; this test is the dealer, passing
tagged cards over the reader. Each run ends on its own: a complete deck, or ``--idle``
seconds of silence (kept short here); the test waits for the thread, never sleeps for a
result. The only sleeps make a card leave the reader's field (the fault under test).
"""

from __future__ import annotations

import io
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.app.cli import build_parser
from controller.app.tools.deck import run
from controller.cards import DECK
from drivers.deck import load_deck
from sim_hardware.rdm6300 import SimulatedRdm6300, sim_cut_tag, sim_tag

WAIT = 20.0


class Command:
    """`tablectl deck ...` running in a thread; `result()` waits for its exit code."""

    def __init__(self, *argv: str) -> None:
        self.args = build_parser().parse_args(["deck", *argv])
        self.out = io.StringIO()
        self.code: int | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        self.code = run(self.args, out=self.out)

    def result(self) -> tuple[int | None, str]:
        self.thread.join(WAIT)
        assert not self.thread.is_alive(), self.out.getvalue()
        return self.code, self.out.getvalue()

    def wait_for(self, text: str) -> None:
        """Wait until the command has printed ``text`` (it prompts for every card)."""
        deadline = time.monotonic() + WAIT
        while text not in self.out.getvalue():
            assert time.monotonic() < deadline, self.out.getvalue()
            time.sleep(0.01)  # polling the command's own output


@pytest.fixture
def reader() -> Iterator[SimulatedRdm6300]:
    with SimulatedRdm6300() as sim:
        yield sim


def enrol(reader: SimulatedRdm6300, out: Path, *extra: str) -> Command:
    return Command("enrol", "--reader", reader.path, "--out", str(out), "--idle", "1", *extra)


def test_a_whole_deck_passed_in_new_deck_order_is_enrolled_and_checks_back(
    reader: SimulatedRdm6300, tmp_path: Path
) -> None:
    out = tmp_path / "deck1.toml"
    command = enrol(reader, out, "--cut")
    command.wait_for("pass card 1 of 53")
    for i in range(52):
        reader.present(sim_tag(0, i), repeats=4)  # each read four times in the field
    reader.present(sim_cut_tag(), repeats=4)
    code, text = command.result()
    assert code == 0, text
    deck = load_deck(out, require_complete=True)
    assert [deck.card_for(sim_tag(0, i)) for i in range(52)] == list(DECK)
    assert deck.is_cutting_card(sim_cut_tag())

    check = Command("check", "--reader", reader.path, "--deck", str(out), "--idle", "1")
    check.wait_for("pass the deck over the reader")  # the port is open: frames are read
    for i in reversed(range(52)):  # read back in any order
        reader.present(sim_tag(0, i))
    reader.present(sim_cut_tag())
    code, text = check.result()
    assert code == 0 and "DECK OK" in text, text


def test_a_tag_passed_twice_is_refused_and_the_expected_card_asked_for_again(
    reader: SimulatedRdm6300, tmp_path: Path
) -> None:
    order = tmp_path / "order.txt"
    order.write_text("As Kd 7c\n")
    out = tmp_path / "small.toml"
    command = enrol(reader, out, "--order", str(order), "--repeat-window-ms", "50")
    command.wait_for("pass card 1 of 3: As")
    reader.present(sim_tag(0, 0))
    command.wait_for("pass card 2 of 3: Kd")
    time.sleep(0.1)  # the card leaves the field for longer than the repeat window...
    reader.present(sim_tag(0, 0))  # ...and the dealer passes it again
    command.wait_for("REFUSED")
    reader.present(sim_tag(0, 1))
    reader.present(sim_tag(0, 2))
    code, text = command.result()
    assert code == 0, text
    assert (
        f"REFUSED: tag {sim_tag(0, 0)} is already enrolled as As: a card passed twice? pass Kd"
        in text
    )
    deck = load_deck(out)
    assert [str(deck.card_for(sim_tag(0, i))) for i in range(3)] == ["As", "Kd", "7c"]


def test_a_short_deck_writes_nothing_and_names_the_missing_cards(
    reader: SimulatedRdm6300, tmp_path: Path
) -> None:
    out = tmp_path / "short.toml"
    command = enrol(reader, out)
    command.wait_for("pass card 1 of 52")
    for i in range(50):
        reader.present(sim_tag(0, i))
    code, text = command.result()  # the reader falls silent: --idle ends it
    assert code == 1
    assert "SHORT DECK: 50 of 52 cards read; missing Kc Ac" in text
    assert not out.exists()


def test_check_names_the_missing_and_the_extra_cards(
    reader: SimulatedRdm6300, tmp_path: Path
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("".join(f"{sim_tag(0, i)} {card}\n" for i, card in enumerate(DECK)))
    check = Command("check", "--reader", reader.path, "--deck", str(deck), "--idle", "1")
    check.wait_for("pass the deck over the reader")
    for i in range(51):  # the ace of clubs is not there...
        reader.present(sim_tag(0, i))
    reader.present("1122334455")  # ...and a card of another deck is
    code, text = check.result()
    assert code == 1
    assert f"MISSING: Ac (tag {sim_tag(0, 51)}" in text
    assert "EXTRA: tag 1122334455 is in no deck file" in text
    assert "DECK NOT WHOLE" in text


def test_enrol_will_not_overwrite_a_deck_file(reader: SimulatedRdm6300, tmp_path: Path) -> None:
    out = tmp_path / "deck.toml"
    out.write_text("[tags]\n")
    code, _ = enrol(reader, out).result()
    assert code == 2
