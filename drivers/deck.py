"""Deck enrolment: which RFID tag is sewn into which playing card.

A deck file is UTF-8 text, one card per line::

    # Deck 1 of the blackjack shoe, table BJ3 (enrolled 2026-11-29 with rfid-monitor)
    0F002A3B5C  As
    0F002A3B5D  Td      # a comment may follow a card too

- ``#`` starts a comment, to the end of the line; blank lines are ignored;
- a line is a tag id, white space, and a card in `controller.cards.Card.parse` text
  (``As``, ``Td``, ``10d``, ``7c``), or ``CUT`` for a tagged cutting card (an RFID shoe
  reports the cutting card coming out as a shoe status, rule 7.1);
- a tag id is 1 to 32 letters or digits, compared without regard to case. Write it the way
  your reader reports it: an RDM6300 reports 10 hex digits (``0F002A3B5C``), a USB keyboard
  reader usually types the last four bytes in decimal (``0002767708``). ``tablectl
  rfid-monitor`` prints what your reader reports.

A deck file may also be TOML (a name ending in ``.toml``, as ``tablectl deck enrol``
writes): a ``[deck]`` table of notes and a ``[tags]`` table, ``0F002A3B5C = "As"``.

A file is refused with a `ConfigError` naming the file and line when a line does not
parse, a tag appears twice, or a card appears twice: one file is one deck, and a deck with
a duplicate card is a defective deck (Division 13 definitions: "duplicates"). A deck with
fewer than 52 cards is loaded (a practice deck, a reader test) unless
``require_complete=True``; then a wrong count is refused too. A multi-deck shoe combines
several files with `DeckEnrolment.combine`, which refuses a tag enrolled in two decks.
"""

from __future__ import annotations

import logging
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from controller.cards import DECK, Card, CardError
from controller.errors import ConfigError

log = logging.getLogger(__name__)

_TAG = re.compile(r"[0-9A-Za-z]{1,32}")
CUT = "CUT"
"""The card text of a tagged cutting card in a deck file."""


def normalise_tag(tag: str) -> str:
    """The form tags are compared in: surrounding space removed, upper case."""
    return tag.strip().upper()


@dataclass(frozen=True, slots=True)
class Enrolment:
    """One enrolled card: its tag, and where it was enrolled (``file:line``)."""

    tag: str
    card: Card
    origin: str


class DeckEnrolment:
    """Tag ids to cards. Immutable once built; look up with `card_for`."""

    def __init__(
        self,
        enrolments: Iterable[Enrolment],
        *,
        name: str = "deck",
        cutting_cards: Iterable[tuple[str, str]] = (),
    ) -> None:
        by_tag: dict[str, Enrolment] = {}
        cut: dict[str, str] = {}  # tag: origin
        for entry in enrolments:
            tag = normalise_tag(entry.tag)
            earlier = by_tag.get(tag)
            if earlier is not None:
                raise ConfigError(
                    f"{entry.origin}: tag {tag} is already enrolled as {earlier.card} "
                    f"at {earlier.origin}; every card needs its own tag"
                )
            by_tag[tag] = Enrolment(tag, entry.card, entry.origin)
        for raw, origin in cutting_cards:
            tag = normalise_tag(raw)
            if tag in by_tag or tag in cut:
                where = by_tag[tag].origin if tag in by_tag else cut[tag]
                raise ConfigError(f"{origin}: tag {tag} is already enrolled at {where}")
            cut[tag] = origin
        self.name = name
        self._by_tag: Mapping[str, Enrolment] = MappingProxyType(by_tag)
        self.cutting_cards: Mapping[str, str] = MappingProxyType(cut)
        """Tags of cutting cards (tag: where enrolled)."""

    def is_cutting_card(self, tag: str) -> bool:
        return normalise_tag(tag) in self.cutting_cards

    def card_for(self, tag: str) -> Card | None:
        """The card enrolled under ``tag``, or None for a tag not in this deck."""
        entry = self._by_tag.get(normalise_tag(tag))
        return None if entry is None else entry.card

    def enrolment(self, tag: str) -> Enrolment | None:
        return self._by_tag.get(normalise_tag(tag))

    def __contains__(self, tag: object) -> bool:
        return isinstance(tag, str) and normalise_tag(tag) in self._by_tag

    def __len__(self) -> int:
        return len(self._by_tag)

    def __iter__(self) -> Iterator[Enrolment]:
        return iter(self._by_tag.values())

    def missing_cards(self) -> list[Card]:
        """Cards of a 52-card deck that no tag names (for a single-deck enrolment)."""
        have = {entry.card for entry in self._by_tag.values()}
        return [card for card in DECK if card not in have]

    @staticmethod
    def combine(*decks: DeckEnrolment, name: str = "shoe") -> DeckEnrolment:
        """One enrolment for a multi-deck shoe. A tag in two decks is a `ConfigError`."""
        cut = [item for deck in decks for item in deck.cutting_cards.items()]
        return DeckEnrolment(
            (entry for deck in decks for entry in deck), name=name, cutting_cards=cut
        )

    def __repr__(self) -> str:
        return f"<DeckEnrolment {self.name}: {len(self)} tags>"


def parse_deck(lines: Iterable[str], *, source: str = "<deck>") -> DeckEnrolment:
    """Parse deck-file lines (see the module docstring). ``source`` names the file."""
    entries: list[Enrolment] = []
    cut: list[tuple[str, str]] = []
    card_origin: dict[Card, str] = {}
    for number, line in enumerate(lines, start=1):
        where = f"{source}:{number}"
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        fields = text.split()
        if len(fields) != 2:
            raise ConfigError(
                f"{where}: expected 'TAGID CARD' (e.g. '0F002A3B5C As'), got {text!r}"
            )
        tag, card_text = fields
        if not _TAG.fullmatch(tag):
            raise ConfigError(f"{where}: tag id {tag!r} must be 1 to 32 letters or digits")
        if card_text.upper() == CUT:
            cut.append((tag, where))
            continue
        try:
            card = Card.parse(card_text)
        except CardError as exc:
            raise ConfigError(f"{where}: {exc}") from exc
        if card in card_origin:
            raise ConfigError(
                f"{where}: card {card} is already enrolled at {card_origin[card]}; "
                "a deck with a duplicate card is defective (Division 13 definitions)"
            )
        card_origin[card] = where
        entries.append(Enrolment(tag, card, where))
    return DeckEnrolment(entries, name=source, cutting_cards=cut)


def load_deck(path: str | Path, *, require_complete: bool = False) -> DeckEnrolment:
    """Load a deck file. Raises `ConfigError` naming the file (and line) when it is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read deck file: {exc}") from exc
    if path.suffix == ".toml":
        deck = parse_deck(_toml_lines(text, path), source=str(path))
    else:
        deck = parse_deck(text.splitlines(), source=str(path))
    missing = deck.missing_cards()
    if missing:
        names = " ".join(str(card) for card in missing)
        if require_complete:
            raise ConfigError(
                f"{path}: deck has {len(deck)} cards, not 52 (defective deck, Division 13 "
                f"definitions: wrong count); missing {names}"
            )
        log.warning("%s: deck has %d cards; missing %s", path, len(deck), names)
    log.info("%s: %d tags enrolled", path, len(deck))
    return deck


def _toml_lines(text: str, path: Path) -> list[str]:
    """A TOML deck file (``tablectl deck enrol``: ``[tags]`` TAG = "CARD") as deck-file
    lines, each at its own line number, so that an error names the line of the file."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    tags = doc.get("tags")
    if not isinstance(tags, dict):
        raise ConfigError(f'{path}: a TOML deck file needs a [tags] table (TAG = "CARD")')
    lines = [""] * len(text.splitlines())
    numbers = {_toml_key(line): n for n, line in enumerate(text.splitlines()) if "=" in line}
    for tag, card in tags.items():
        if not isinstance(card, str):
            raise ConfigError(f"{path}: [tags] {tag}: the card must be a string, not {card!r}")
        n = numbers.get(tag)
        if n is None:
            lines.append(f"{tag} {card}")
        else:
            lines[n] = f"{tag} {card}"
    return lines


def _toml_key(line: str) -> str:
    return line.split("=", 1)[0].strip().strip('"')
