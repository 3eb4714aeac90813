"""The deck-enrolment file: tags to cards, refused when a tag or card is enrolled twice.

A wrong tag-to-card mapping is a wrong card, and a wrong card is a wrong payout, so each
error names the file and the line (the TOML file's own line, as `tablectl deck enrol`
writes it), and a deck with a duplicate card is refused citing Division 13's definition of
a defective deck."""

from __future__ import annotations

import locale
import logging
from pathlib import Path

import pytest

from controller.cards import DECK, Card
from controller.errors import ConfigError
from drivers.deck import DeckEnrolment, Enrolment, load_deck, parse_deck

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "deck-rfid-example.txt"


def write(tmp_path: Path, text: str, name: str = "deck.txt") -> Path:
    path = tmp_path / name
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


# Every kind of line `tablectl deck enrol` or a hand edit may give a [tags] key: bare,
# quoted, with no spaces round "=", a comment holding a "=", a key ending in "X".
TOML = """\
[deck]
note = "deck 1 of the shoe, table BJ3"

[tags]
0F002A3B5C = "As"
"0F002A3B5D" = "Td"
0F002A3B5E="7c"
0F002A3B5F = "Kh"  # re-sewn: was=Qh
0F002A3B6X = "2s"
"""


# --- the TOML deck file ---------------------------------------------------------------------


def test_division_13_toml_deck_maps_each_tag_to_its_card_at_its_own_line(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, TOML, "deck1.toml")
    deck = load_deck(path)
    assert deck.name == str(path)
    assert [(e.tag, str(e.card), e.origin) for e in deck] == [
        ("0F002A3B5C", "As", f"{path}:5"),
        ("0F002A3B5D", "Td", f"{path}:6"),
        ("0F002A3B5E", "7c", f"{path}:7"),
        ("0F002A3B5F", "Kh", f"{path}:8"),
        ("0F002A3B6X", "2s", f"{path}:9"),
    ]


def test_division_13_toml_bad_card_is_refused_naming_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, '[tags]\nA1 = "As"\nA2 = "Zz"\n', "deck.toml")
    with pytest.raises(ConfigError, match=rf"^{path}:3: 'Zz' is not a card"):
        load_deck(path)


def test_division_13_toml_tags_in_an_inline_table_are_enrolled_after_the_last_line(
    tmp_path: Path,
) -> None:
    """An inline table's keys have no line of their own: each is numbered after the file."""
    path = write(tmp_path, '# one line\ntags = { A1 = "As", A2 = "Kd" }\n', "deck.toml")
    deck = load_deck(path)
    assert [(e.tag, e.origin) for e in deck] == [("A1", f"{path}:3"), ("A2", f"{path}:4")]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[tags\n", "not valid TOML: "),
        ('[deck]\nnote = "x"\n', 'a TOML deck file needs a [tags] table (TAG = "CARD")'),
        ('tags = "As"\n', 'a TOML deck file needs a [tags] table (TAG = "CARD")'),
        ("[tags]\nA1 = 5\n", "[tags] A1: the card must be a string, not 5"),
    ],
)
def test_division_13_toml_deck_file_problems_name_the_file(
    tmp_path: Path, text: str, message: str
) -> None:
    path = write(tmp_path, text, "deck.toml")
    with pytest.raises(ConfigError) as bad:
        load_deck(path)
    assert str(bad.value).startswith(f"{path}: {message}")


def test_a_txt_deck_is_not_read_as_toml(tmp_path: Path) -> None:
    path = write(tmp_path, "0F002A3B5C As\n", "deck.TOML.txt")
    assert load_deck(path).card_for("0F002A3B5C") == Card.parse("As")


# --- the text deck file ---------------------------------------------------------------------


def test_division_13_duplicate_card_message_cites_the_definition() -> None:
    with pytest.raises(ConfigError) as bad:
        parse_deck(["A1 As", "A2 As"], source="d.txt")
    assert str(bad.value) == (
        "d.txt:2: card As is already enrolled at d.txt:1; "
        "a deck with a duplicate card is defective (Division 13 definitions)"
    )


def test_a_blank_line_does_not_end_the_deck() -> None:
    deck = parse_deck(["A1 As", "", "# a comment", "A2 Kd # two # marks"], source="d.txt")
    assert [(e.tag, str(e.card), e.origin) for e in deck] == [
        ("A1", "As", "d.txt:1"),
        ("A2", "Kd", "d.txt:4"),
    ]


def test_lines_without_a_source_are_named_deck() -> None:
    with pytest.raises(ConfigError, match=r"^<deck>:1: expected 'TAGID CARD'"):
        parse_deck(["A1"])
    deck = parse_deck(["A1 As"])
    assert deck.name == "<deck>" and repr(deck) == "<DeckEnrolment <deck>: 1 tags>"


# --- the enrolment table --------------------------------------------------------------------


def test_enrolment_names_a_deck_and_a_shoe_by_default() -> None:
    deck = DeckEnrolment([Enrolment("a1", Card.parse("As"), "x:1")])
    assert deck.name == "deck" and repr(deck) == "<DeckEnrolment deck: 1 tags>"
    other = DeckEnrolment([Enrolment("b1", Card.parse("As"), "y:1")], name="deck 2")
    shoe = DeckEnrolment.combine(deck, other)
    assert shoe.name == "shoe" and len(shoe) == 2
    assert DeckEnrolment.combine(deck, other, name="BJ3 shoe").name == "BJ3 shoe"


def test_enrolment_looks_a_tag_up_ignoring_case_and_space() -> None:
    deck = parse_deck(["0f002a3b5c As"], source="d.txt")
    assert deck.enrolment(" 0F002A3B5C ") == Enrolment("0F002A3B5C", Card.parse("As"), "d.txt:1")
    assert deck.enrolment("0F002A3B5D") is None


def test_rule_7_1_a_cutting_card_tag_already_on_a_card_names_the_card_line() -> None:
    with pytest.raises(ConfigError) as bad:
        parse_deck(["A1 As", "a1 CUT"], source="d.txt")
    assert str(bad.value) == "d.txt:2: tag A1 is already enrolled at d.txt:1"
    with pytest.raises(ConfigError) as twice:
        parse_deck(["C1 CUT", "c1 cut"], source="d.txt")
    assert str(twice.value) == "d.txt:2: tag C1 is already enrolled at d.txt:1"


# --- what loading says in the log -----------------------------------------------------------


def test_an_incomplete_deck_logs_what_it_misses_and_how_many_tags(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lines = [f"T{n} {card}" for n, card in enumerate(DECK) if str(card) not in ("As", "Kd")]
    path = write(tmp_path, "\n".join(lines) + "\n")
    with caplog.at_level(logging.INFO, logger="drivers.deck"):
        deck = load_deck(path)
    assert len(deck) == 50
    assert [(r.levelname, r.getMessage()) for r in caplog.records] == [
        ("WARNING", f"{path}: deck has 50 cards; missing As Kd"),
        ("INFO", f"{path}: 50 tags enrolled"),
    ]


def test_a_deck_file_is_read_as_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """The module docstring's "a deck file is UTF-8 text" holds on a Pi left in the C
    locale: a comment with a suit symbol still loads (the locale's ASCII would refuse it)."""
    path = write(tmp_path, "0F002A3B5C As  # ace of \N{BLACK SPADE SUIT}\n")
    before = locale.setlocale(locale.LC_CTYPE)
    try:
        locale.setlocale(locale.LC_CTYPE, "C")
        deck = load_deck(path)
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert deck.card_for("0F002A3B5C") == Card.parse("As")
