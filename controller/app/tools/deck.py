"""``tablectl deck enrol|check``: enrol a deck of tagged cards as a dealer does, and check one.

Enrolment: the dealer takes the deck in the stated order (``--order``: by default the order
`controller.cards.DECK` lists, 2s 3s ... Ks As, then hearts, diamonds and clubs the same
way; or a file of card names, whitespace-separated) and passes it over the reader card by
card::

    tablectl deck enrol --reader /dev/serial/by-id/usb-FTDI_...-if00-port0 --out deck1.toml
    tablectl deck enrol --reader usb://ffff:0035 --protocol hid --out deck1.toml

Each new tag is the next card of the order, and the command says which card it expects
next. A tag read again (the same card passed twice, or a card whose tag was sewn into two
cards) is refused, naming the card it is already enrolled as, and the dealer passes the
expected card. With ``--cut`` the last card passed is the tagged cutting card. When the
deck is complete the file is written; a reader that stays silent for ``--idle`` seconds
before then ends the enrolment with the deck short, nothing is written, and the missing
cards are named (exit 1).

Check: the dealer passes an enrolled deck (in any order) over the reader::

    tablectl deck check --reader /dev/ttyUSB0 --deck deck1.toml

and, after ``--idle`` seconds of silence (or once every card has been read), the command
names the cards missing and the extra tags (a tag in no deck file, or read twice) and exits
1 unless the deck read back whole.

The deck file written is TOML (`drivers.deck` reads both it and the plain text format)::

    [deck]
    order = "new-deck"
    reader = "/dev/ttyUSB0"
    enrolled = "2026-12-01T01:00:00+00:00"

    [tags]
    0F002A3B5C = "As"

Tags come from the reader with the same one-read-per-pass filter a table uses
(``--repeat-window-ms``), through the card source registry (drivers/registry.py).
"""

from __future__ import annotations

import argparse
import datetime
import logging
import queue
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from controller.app.cli import seconds
from controller.app.cli.progress import progress_bar, say
from controller.cards import DECK, Card, CardError
from controller.errors import ConfigError
from controller.game.arguments import at_least
from controller.ports import CardDrawn, DeviceFault, DeviceLost, Event, Fault, ShoeStatusChanged
from drivers.card_source import CardSource
from drivers.deck import CUT, DeckEnrolment, load_deck
from drivers.errors import DeviceError
from drivers.registry import RFID_PROTOCOLS, create_card_source


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="deck_command", required=True, metavar="ACTION")
    enrol = sub.add_parser("enrol", help="read a deck card by card into a deck file")
    check = sub.add_parser("check", help="read a deck back and name missing and extra cards")
    for command in (enrol, check):
        command.add_argument("--reader", required=True, help="the reader's port or usb:// URL")
        command.add_argument("--protocol", choices=sorted(RFID_PROTOCOLS), default="rdm6300")
        command.add_argument(
            "--idle",
            type=seconds,
            default=15.0,
            metavar="SECONDS",
            help="end after this long with no card read (default 15)",
        )
        command.add_argument("--repeat-window-ms", type=at_least(50), default=1000)
    enrol.add_argument("--out", required=True, type=Path, help="the deck file to write")
    enrol.add_argument(
        "--order", type=Path, default=None, help="a file of card names in the order passed"
    )
    enrol.add_argument("--cut", action="store_true", help="a tagged cutting card comes last")
    enrol.add_argument("--force", action="store_true", help="overwrite --out")
    check.add_argument(
        "--deck", required=True, type=Path, action="append", help="a deck file (repeatable)"
    )


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    if args.deck_command == "enrol":
        return enrol(args, out)
    return check(args, out)


def read_order(path: Path | None) -> list[Card]:
    """The order the dealer passes the cards in: a new deck's, or the file's."""
    if path is None:
        return list(DECK)
    try:
        names = path.read_text(encoding="utf-8").split()
        cards = [Card.parse(name) for name in names]
    except (OSError, UnicodeDecodeError, CardError) as exc:
        raise ConfigError(f"--order {path}: {exc}") from exc
    doubled = [str(card) for card, n in Counter(cards).items() if n > 1]
    if doubled:
        raise ConfigError(f"--order {path}: names {' '.join(doubled)} more than once")
    return cards


def _open(args: argparse.Namespace, deck: DeckEnrolment, events: queue.Queue[Event]) -> CardSource:
    hold = args.repeat_window_ms / 1000
    source = create_card_source(
        args.protocol, args.reader, events, name="reader", deck=deck, hold=hold
    )
    return source.start()


def _tags(events: queue.Queue[Event], idle: float, out: TextIO) -> Sequence[Event]:
    """The next reader event, or none after ``idle`` seconds of silence."""
    try:
        event = events.get(timeout=idle) if idle > 0 else events.get_nowait()
    except queue.Empty:
        return []
    if isinstance(event, DeviceLost):
        say(f"the reader was lost: {event.reason}", out)
    return [event]


def enrol(args: argparse.Namespace, out: TextIO) -> int:
    if args.out.exists() and not args.force:
        print(f"tablectl deck enrol: {args.out} exists (--force to overwrite)", file=sys.stderr)
        return 2
    order = read_order(args.order)
    logging.getLogger("drivers.tag_reader").setLevel(logging.ERROR)  # every tag is new here
    expected: list[Card | str] = [*order, CUT] if args.cut else list(order)
    enrolled: dict[str, Card | str] = {}  # tag: card, in the order passed
    events: queue.Queue[Event] = queue.Queue()
    try:
        reader = _open(args, DeckEnrolment([]), events)  # every tag is unknown: all new
    except DeviceError as exc:
        print(f"tablectl deck enrol: {exc}", file=sys.stderr)
        return 1
    try:
        with progress_bar(len(expected), "enrolled", "cards") as bar:
            while len(enrolled) < len(expected):
                want = expected[len(enrolled)]
                say(f"pass card {len(enrolled) + 1} of {len(expected)}: {want}", out)
                tag = _next_tag(events, args.idle, out)
                if tag is None:
                    break
                if tag in enrolled:
                    say(
                        f"REFUSED: tag {tag} is already enrolled as {enrolled[tag]}: "
                        f"a card passed twice? pass {want}",
                        out,
                    )
                    continue
                enrolled[tag] = want
                bar.update(1)
                say(f"  {tag} = {want}", out)
    finally:
        reader.close()
    if len(enrolled) < len(expected):
        missing = " ".join(str(card) for card in expected[len(enrolled) :])
        print(
            f"SHORT DECK: {len(enrolled)} of {len(expected)} cards read; missing {missing}. "
            f"Nothing written to {args.out}.",
            file=out,
        )
        return 1
    order_name = "new-deck" if args.order is None else str(args.order)
    write_deck_toml(args.out, enrolled, order=order_name, reader=args.reader)
    print(f"deck enrolled: {len(enrolled)} tags written to {args.out}", file=out)
    return 0


def _next_tag(events: queue.Queue[Event], idle: float, out: TextIO) -> str | None:
    """The tag of the next pass (None after ``idle`` seconds of silence)."""
    while True:
        got = _tags(events, idle, out)
        if not got:
            return None
        event = got[0]
        if isinstance(event, DeviceFault) and event.fault is Fault.UNKNOWN_TAG:
            return event.detail
        if isinstance(event, DeviceFault):
            say(f"  (a bad read, {event.fault}: pass the card again)", out)


def write_deck_toml(path: Path, tags: dict[str, Card | str], *, order: str, reader: str) -> None:
    """The deck file: a ``[deck]`` header and ``[tags]`` (tag = card, in the order passed)."""
    when = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    lines = [
        "# written by tablectl deck enrol (docs/rfid.md)",
        "[deck]",
        f'order = "{_escape(order)}"',
        f'reader = "{_escape(reader)}"',
        f'enrolled = "{when}"',
        "",
        "[tags]",
        *(f'{tag} = "{card}"' for tag, card in tags.items()),
    ]
    temporary = path.with_name(path.name + ".new")
    temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
    temporary.replace(path)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def check(args: argparse.Namespace, out: TextIO) -> int:
    try:
        decks = [load_deck(path) for path in args.deck]
        deck = DeckEnrolment.combine(*decks, name="check")
    except ConfigError as exc:
        print(f"tablectl deck check: {exc}", file=sys.stderr)
        return 2
    events: queue.Queue[Event] = queue.Queue()
    try:
        reader = _open(args, deck, events)
    except DeviceError as exc:
        print(f"tablectl deck check: {exc}", file=sys.stderr)
        return 1
    print(f"reading {args.reader}: pass the deck over the reader", file=out, flush=True)
    seen: Counter[str] = Counter()
    strangers: list[str] = []
    cut_seen = 0
    wanted = len(deck) + len(deck.cutting_cards)
    try:
        while len(seen) + min(cut_seen, len(deck.cutting_cards)) < wanted:
            got = _tags(events, args.idle, out)
            if not got:
                break
            event = got[0]
            if isinstance(event, CardDrawn) and event.tag is not None:
                seen[event.tag] += 1
                print(f"  {event.tag} = {event.card}", file=out, flush=True)
            elif isinstance(event, ShoeStatusChanged) and event.cut_card_seen:
                cut_seen += 1
                print("  the cutting card", file=out, flush=True)
            elif isinstance(event, DeviceFault) and event.fault is Fault.UNKNOWN_TAG:
                strangers.append(event.detail)
                print(f"  {event.detail}: in no deck file", file=out, flush=True)
    finally:
        reader.close()
    return _check_report(deck, seen, strangers, cut_seen, out)


def _check_report(
    deck: DeckEnrolment, seen: Counter[str], strangers: list[str], cut_seen: int, out: TextIO
) -> int:
    missing = [entry for entry in deck if entry.tag not in seen]
    twice = [(tag, n) for tag, n in seen.items() if n > 1]
    print(f"read {sum(seen.values())} cards of {len(deck)} enrolled", file=out)
    for entry in missing:
        print(f"MISSING: {entry.card} (tag {entry.tag}, {entry.origin})", file=out)
    if deck.cutting_cards and not cut_seen:
        print("MISSING: the cutting card", file=out)
    for tag in strangers:
        print(f"EXTRA: tag {tag} is in no deck file", file=out)
    for tag, n in twice:
        print(f"EXTRA: {deck.card_for(tag)} (tag {tag}) read {n} times", file=out)
    whole = not missing and not strangers and not twice
    whole = whole and (cut_seen > 0 or not deck.cutting_cards)
    print("DECK OK" if whole else "DECK NOT WHOLE", file=out)
    return 0 if whole else 1
