"""The deck-enrolment file: tags to cards, refused when a tag or card is enrolled twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cards import DECK, Card
from controller.errors import ConfigError
from drivers.deck import DeckEnrolment, load_deck, parse_deck

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "deck-rfid-example.txt"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_deck_is_a_complete_deck() -> None:
    deck = load_deck(EXAMPLE, require_complete=True)
    assert len(deck) == 52
    assert {entry.card for entry in deck} == set(DECK)
    assert deck.missing_cards() == []


def test_lookup_maps_a_tag_to_its_card_ignoring_case_and_space(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, "0F002A3B5C As\n0f002a3b5d 10d  # ten of diamonds\n"))
    assert deck.card_for("0F002A3B5C") == Card.parse("As")
    assert deck.card_for(" 0F002A3B5D ") == Card.parse("Td")
    assert "0f002a3b5c" in deck
    assert deck.card_for("0000000000") is None
    assert "0000000000" not in deck


def test_comments_and_blank_lines_are_ignored(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, "# header\n\n   \n0F002A3B5C As # trailing\n# end\n"))
    assert len(deck) == 1


def test_duplicate_tag_is_refused_naming_file_and_both_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "0F002A3B5C As\n# x\n0f002A3B5C Kd\n")
    with pytest.raises(ConfigError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert f"{path}:3" in message
    assert f"{path}:1" in message
    assert "0F002A3B5C" in message


def test_duplicate_card_is_refused_as_a_defective_deck(tmp_path: Path) -> None:
    path = write(tmp_path, "0F002A3B5C As\n0F002A3B5D AS\n")
    with pytest.raises(ConfigError) as caught:
        load_deck(path)
    assert f"{path}:2: card As is already enrolled at {path}:1" in str(caught.value)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("0F002A3B5C", "expected 'TAGID CARD'"),
        ("0F002A3B5C As extra", "expected 'TAGID CARD'"),
        ("0F00-2A3B As", "letters or digits"),
        ("0F002A3B5C Xs", "is not a card"),
        ("0F002A3B5C 1s", "is not a card"),
    ],
)
def test_a_bad_line_is_refused_naming_the_line(tmp_path: Path, line: str, why: str) -> None:
    path = write(tmp_path, f"# deck\n{line}\n")
    with pytest.raises(ConfigError, match=why) as caught:
        load_deck(path)
    assert f"{path}:2:" in str(caught.value)


def test_a_missing_file_is_a_config_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.txt"):
        load_deck(tmp_path / "nope.txt")


def test_a_file_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ConfigError, match="cannot read"):
        load_deck(path)


def test_an_incomplete_deck_loads_unless_completeness_is_required(tmp_path: Path) -> None:
    path = write(tmp_path, "0F002A3B5C As\n")
    assert len(load_deck(path)) == 1
    with pytest.raises(ConfigError, match=r"1 cards, not 52"):
        load_deck(path, require_complete=True)


def test_combine_makes_a_shoe_and_refuses_a_tag_in_two_decks() -> None:
    one = parse_deck(["AAAA0001 As"], source="deck1")
    two = parse_deck(["AAAA0002 As"], source="deck2")
    shoe = DeckEnrolment.combine(one, two)
    assert shoe.card_for("AAAA0001") == shoe.card_for("AAAA0002") == Card.parse("As")
    clash = parse_deck(["aaaa0001 Kc"], source="deck3")
    with pytest.raises(ConfigError, match=r"deck3:1: tag AAAA0001 .* at deck1:1"):
        DeckEnrolment.combine(one, clash)
