"""The soak: a simulated table played for a long time through injected faults.

`tablectl run --sim gpio` runs in a child process (sim_hardware/testbed.py); the shoe is a
`SimulatedShoe` in this process on a pty behind a `FaultyLink`, and the game's scripted
dealer plays through the table's console API. ``--game NAME`` picks any registered game
whose scripted dealer hands out a soak profile (tools/soak_games.py; default blackjack,
sim_hardware/dealer.py; baccarat: sim_hardware/baccarat_dealer.py). A seeded injector
adds, at configurable rates per dealer step:

- line faults on the shoe's link, both ways (corrupted, split, duplicated, dropped,
  delayed writes: sim_hardware/faults.py `LineFaults`, rates per write);
- the shoe's cable pulled and plugged back (`link.disconnect` / `reconnect`);
- a console button pressed at a random moment;
- a card drawn when none is due (a gated shoe refuses it; a shoe without a gate, forced
  here by opening the simulated gate, lets it out);
- an unknown tag: a well-framed CARD_DRAWN whose code is not a card;
- a foreign card: the shoe reloaded at a shuffle with one ace of spades too many (a 7th
  in blackjack's 6 decks, a 9th in baccarat's 8);
- SIGKILL of the controller and a restart on the same journal.

With ``--shoe rfid`` the shoe is a `SimulatedRfidShoe` instead: six tagged decks with an
RDM6300 reader at the mouth, on a pty the table reads as ``[shoe] protocol = "rdm6300"``
through the deck files the shoe writes. A reader has no acknowledgement, so its faults are
its own: the reader unplugged and plugged back (held when the gate was open: cards may
have passed unseen), line noise (a frame with a bad checksum, junk bytes, while the tag is
read again), a tag in no deck, a card's tag read again since the shuffle (one card out
twice), a card when none is due, and SIGKILL. Lost and duplicated are then counted by tag:
every card slid past the reader must be journaled once, with its tag.

Sensor bounce needs in-process GPIO (gpiozero MockFactory pins), which a controller in a
child process does not expose: it is left out of this process soak (the GPIO tests in
tests/drivers cover debouncing).

At the end the figures are computed from the journal and the simulated shoe
(tools/soak_checks.py): rounds played, faults injected by kind, violations by rule, holds
cleared, events journaled, events lost and duplicated (shoe sequence numbers acknowledged
but not journaled, or journaled twice: both must be 0), rounds unbalanced (a row of the
game's round-end record whose drop is not paid out + house win by the spec's settlement
figures, e.g. blackjack's RoundSettled or baccarat's CoupSettled, or a ControllerFault
row: must be 0), and the recoveries with their times. Exit status 0 when the run meets
all of that.

    python tools/soak.py [--game baccarat] [--seconds 600] [--seed N] [--json FILE] ...
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import random
import struct
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from controller.cards import Card, shoe_cards  # noqa: E402
from controller.errors import ConfigError  # noqa: E402
from controller.game import names  # noqa: E402
from controller.ports import ConsoleButton  # noqa: E402
from firmware_bridge.messages import MessageType  # noqa: E402
from sim_hardware.device import DeviceRefused  # noqa: E402
from sim_hardware.faults import FaultyLink, LineFaults  # noqa: E402
from sim_hardware.link import PtyLink  # noqa: E402
from sim_hardware.rdm6300 import SimulatedRfidShoe  # noqa: E402
from sim_hardware.remote import ConsoleClient, DealingShoe, RemoteHands  # noqa: E402
from sim_hardware.shoe import SimulatedShoe  # noqa: E402
from sim_hardware.testbed import ControllerProcess, free_port, settle  # noqa: E402
from tools.soak_checks import STALL_SECONDS, Observed, SoakResult, figures, report  # noqa: E402
from tools.soak_games import DEFAULT, soak_game  # noqa: E402

__all__ = ["Rates", "SoakResult", "report", "run_soak"]

log = logging.getLogger("soak")

FOREIGN = Card.parse("As")
SHUFFLE_SECONDS = 1.2  # RFID: longer than the reader's default repeat window (1 s)
PIN = "2468"  # examples/*-table.toml [[staff]]: supervisor s01's demo PIN


@dataclass
class Rates:
    """Fault rates: per shoe write for the line, per dealer step for the rest."""

    corrupt: float = 0.01
    split: float = 0.03
    duplicate: float = 0.01
    drop: float = 0.01
    delay: float = 0.02
    cable: float = 0.004
    button: float = 0.02
    out_of_order: float = 0.01
    unknown_tag: float = 0.005
    foreign_shoe: float = 0.5  # per shuffle: the reloaded shoe holds one As too many
    kill: float = 0.004
    tag_again: float = 0.005  # RFID: a card's tag read again since the shuffle
    noise: float = 0.01  # RFID: a corrupted frame and junk bytes on the reader's line


class DoctoredHands(RemoteHands):
    """The dealer's hands, whose shuffles sometimes load a shoe with a foreign card."""

    def __init__(self, client: ConsoleClient, shoe: DealingShoe, rng: random.Random,
                 rate: float, faults: Counter[str]) -> None:  # fmt: skip
        super().__init__(client, shoe)
        self.rng = rng
        self.rate = rate
        self.faults = faults
        self.extra_at: int | None = None  # where the doctored shoe's extra As lies
        self.foreign_dealt = 0  # doctored shoes dealt past their extra As
        self.loaded = 0

    def supervisor(self, decision: str, reason: str) -> None:
        """The pit supervisor, with the example config's demo PIN (RemoteHands sends none,
        and the table refuses a supervisor action without its PIN)."""
        body = {"staff": self.supervisor_id, "decision": decision, "reason": reason, "pin": PIN}
        self.client.post("/api/supervisor", body)

    def shuffle(self) -> None:
        self.close_shoe()
        shoe = self.shoe
        if isinstance(shoe, SimulatedRfidShoe):
            # A real shuffle takes minutes; the simulated one none. Without this wait a
            # card read just before the shuffle can come out first from the new shoe
            # within the reader's repeat window (`[shoe] repeat_window_ms`, 1 s by
            # default), where the reader rightly takes it for the same pass of that tag.
            time.sleep(SHUFFLE_SECONDS)
        if self.rng.random() >= self.rate:
            shoe.load()
            return
        # One ace of spades too many (a 7th in 6 decks), every copy in the first 80 cards
        # (ahead of the cutting card), so that the extra one comes out within a few rounds:
        # only then can any detector tell that the shoe holds one too many.
        cards = [c for c in shoe_cards(shoe.decks) if c is not FOREIGN]
        self.rng.shuffle(cards)
        spots = sorted(self.rng.sample(range(80), shoe.decks + 1))
        for spot in spots:
            cards.insert(spot, FOREIGN)
        shoe.load(cards)
        self.loaded = len(cards)
        self.extra_at = spots[-1]
        self.faults["foreign_shoe_loaded"] += 1

    def close_shoe(self) -> None:
        """Before a shuffle (and at the end): was the doctored shoe dealt past its extra As?"""
        if self.extra_at is not None and self.loaded - self.shoe.cards_left > self.extra_at:
            self.foreign_dealt += 1
        self.extra_at = None


class Soak:
    def __init__(
        self,
        folder: Path,
        seconds: float,
        seed: int,
        rates: Rates,
        shoe: str = "serial",
        game: str = DEFAULT,
    ) -> None:
        self.game = soak_game(game)
        profile = self.game.profile
        self.rfid: SimulatedRfidShoe | None = None
        if shoe == "rfid":
            rates = dataclasses.replace(rates, foreign_shoe=0.0)  # no extra As among the tags
        self.folder = folder
        self.seconds = seconds
        self.seed = seed
        self.rates = rates
        self.rng = random.Random(seed)
        self.faults: Counter[str] = Counter()
        self.restart_times: list[float] = []
        self.cable_times: list[float] = []
        self.steps = 0
        self.out_of_order_due = False
        self.held_cards = 0
        self.stuck = False
        self.stalls = 0
        self.empty_shoes = 0
        self.out = LineFaults(
            random.Random(seed + 1),
            corrupt=rates.corrupt,
            split=rates.split,
            duplicate=rates.duplicate,
            drop=rates.drop,
            delay=rates.delay,
        )
        self.back = LineFaults(random.Random(seed + 2), corrupt=rates.corrupt / 2,
                               drop=rates.drop / 2, duplicate=rates.duplicate / 2)  # fmt: skip
        self.link = FaultyLink(PtyLink(), outbound=self.out, inbound=self.back)
        self.shoe = SimulatedShoe(self.link, decks=profile.decks, rng=random.Random(seed + 3))
        port = free_port()
        self.client = ConsoleClient(f"http://127.0.0.1:{port}")
        if shoe == "rfid":
            self.rfid = SimulatedRfidShoe(
                profile.decks, rng=random.Random(seed + 3), link=folder / "rdm6300"
            )
            decks = self.rfid.write_decks(folder)
            config = profile.write_config(folder, self.rfid.path, port, rfid_decks=decks)
        else:
            config = profile.write_config(folder, self.link.url, port)
        self.controller = ControllerProcess(config, self.client)
        self.hands = DoctoredHands(self.client, self.rfid or self.shoe, self.rng,
                                   rates.foreign_shoe, self.faults)  # fmt: skip
        self.presented: Counter[str] = Counter()  # RFID: tags presented again on purpose
        self.dealer = self.game.dealer(self.hands, self.client.state, self.rng)

    # --- the run ----------------------------------------------------------------------------

    def run(self) -> SoakResult:
        if self.rfid is None:
            self.shoe.start()
        try:
            state = self.controller.start(timeout=60)
            deadline = time.monotonic() + self.seconds
            round_no, since = state.get("round"), time.monotonic()
            while time.monotonic() < deadline:
                state = self._step(state)
                if state.get("round") != round_no:
                    round_no, since = state.get("round"), time.monotonic()
                elif time.monotonic() - since > STALL_SECONDS:
                    self.stalls += 1  # one round for two minutes: the table is stuck
                    since = time.monotonic()
            self._finish(state)
            if self.rfid is None:
                self.shoe.wait_until_acknowledged(30.0)
            self.hands.close_shoe()
        finally:
            code = self.controller.stop()
            self.shoe.close()
            if self.rfid is not None:
                self.rfid.close()
        if code != 0:
            self.faults["controller_exit_nonzero"] += 1
        return self._figures()

    def _step(self, state: dict[str, Any]) -> dict[str, Any]:
        rates, rng = self.rates, self.rng
        self.steps += 1
        seen = state.get("journal_seq", 0)
        roll = rng.random()
        if roll < rates.kill:
            return self._restart()
        roll -= rates.kill
        if roll < rates.cable:
            self._pull_cable()
            return settle(self.client, seen)
        roll -= rates.cable
        if roll < rates.button:
            button = rng.choice(list(ConsoleButton))
            self.faults[f"button_{button.value}"] += 1
            # a stray NEXT with a shuffle due is refused: only SHUFFLED confirms one (7.1)
            self.client.post("/api/console", {"button": button.value})
            return settle(self.client, seen)
        roll -= rates.button
        if roll < rates.out_of_order:
            self.out_of_order_due = True  # at the next moment no card is due
        roll -= rates.out_of_order
        view = state.get("view") or {}
        if self.out_of_order_due and view.get("state") in self.game.profile.no_card_states:
            self.out_of_order_due = False
            self._card_out_of_order()
            return settle(self.client, seen)
        if self.rfid is not None and roll >= 0:
            if (fault := self._reader_fault(roll)) is not None:
                self.faults[fault] += 1
                return settle(self.client, seen)
        elif 0 <= roll < rates.unknown_tag:
            self.faults["unknown_tag"] += 1
            code = rng.choice([b"ZZ", b"1X", b"\xff\xfe", b"  ", b"Jk"])
            self.shoe.send_reliable_frame(MessageType.CARD_DRAWN, code + struct.pack(">I", 0))
            return settle(self.client, seen)
        did = self._dealer_step()
        return settle(self.client, seen, timeout=0.5 if did.startswith("wait") else 3.0)

    def _reader_fault(self, roll: float) -> str | None:
        """RFID: a tag in no deck, a card's tag read again, or noise on the line."""
        rates, rng, rfid = self.rates, self.rng, self.rfid
        if rfid is None:
            return None
        if roll < rates.unknown_tag:
            rfid.present(f"{rng.getrandbits(32):010X}")  # a tag of no deck (no C0-C5 prefix)
            return "unknown_tag"
        roll -= rates.unknown_tag
        if roll < rates.tag_again and rfid.since_shuffle:
            tag = rng.choice(rfid.since_shuffle[-10:])
            time.sleep(1.1)  # the card left the field (the 1 s repeat window): the fault
            self.presented[tag] += 1
            rfid.present(tag)
            return "tag_read_again"
        roll -= rates.tag_again
        if roll < rates.noise:
            tag = rng.choice(list(rfid.card_of))
            rfid.reader.present(tag, 1, bad_checksum=True)
            rfid.reader.send(b"\x00junk\xff")
            return "reader_noise"
        return None

    def _dealer_step(self) -> str:
        try:
            return self.dealer.step()
        except DeviceRefused as exc:  # the gate is still locked (a command on its way)
            log.debug("dealer: %s", exc)
            if (self.rfid or self.shoe).cards_left == 0:  # no shuffle was due: counted, reloaded
                self.empty_shoes += 1
                self.hands.shuffle()
            return "wait (gate)"

    def _restart(self) -> dict[str, Any]:
        if self.rfid is not None:
            # A reader cannot resend: a card read but not yet journaled when the power goes
            # is gone (the restart then holds the table, docs/rfid.md). The soak counts
            # losses, so it cuts the power at rest, once the table has been quiet a while.
            quiet(self.client, 0.3)
        self.faults["sigkill"] += 1
        self.controller.kill()
        started = time.monotonic()
        state = self.controller.start(timeout=60)
        self.restart_times.append(time.monotonic() - started)
        return state

    def _pull_cable(self) -> None:
        self.faults["cable_pulled"] += 1
        if self.rfid is not None:
            view = self.client.state().get("view") or {}
            if view.get("state") in self.game.profile.gate_open_states:
                self.faults["reader_pulled_gate_open"] += 1
            self.rfid.unplug()
            time.sleep(self.rng.uniform(0.1, 2.0))  # the reader is out: the fault
            self.rfid.replug()
        else:
            self.link.disconnect()
            time.sleep(self.rng.uniform(0.1, 2.0))  # the cable is out: the fault, not a wait
            self.link.reconnect()
        started = time.monotonic()
        deadline = started + 30.0
        while time.monotonic() < deadline:
            shoe = str((self.client.state().get("devices") or {}).get("shoe", "LOST"))
            acknowledged = self.rfid is not None or self.shoe.wait_until_acknowledged(0.05)
            if not shoe.startswith("LOST") and acknowledged:
                self.cable_times.append(time.monotonic() - started)
                return
            time.sleep(0.02)  # polling another process's state
        self.faults["cable_not_recovered_30s"] += 1

    def _card_out_of_order(self) -> None:
        """A card when none is due: a gated shoe holds it back (absorbed); half the time
        the gate is forced, as on a shoe without one, and the card comes out. The RFID
        shoe's gate is on the table's GPIO, in the controller's process: the card comes out."""
        if self.rfid is not None:
            try:
                self.rfid.draw()
                self.faults["out_of_order_card"] += 1
            except DeviceRefused:
                self.faults["out_of_order_shoe_empty"] += 1
            return
        if self.rng.random() < 0.5:
            try:
                self.shoe.draw()
                self.faults["out_of_order_card"] += 1
            except DeviceRefused:
                self.faults["out_of_order_held_by_gate"] += 1
            return
        self.shoe.gate_locked = False  # a shoe without a gate: the card comes out anyway
        try:
            self.shoe.draw()
            self.faults["out_of_order_card"] += 1
        except DeviceRefused:
            self.faults["out_of_order_shoe_empty"] += 1

    def _finish(self, state: dict[str, Any]) -> None:
        """Play on without faults until the round in progress is over (two minutes at
        most: a table still not there is counted as stuck)."""
        deadline = time.monotonic() + 120.0
        while time.monotonic() < deadline:
            view = state.get("view") or {}
            if view.get("state") in self.game.profile.rest_states:
                return
            seen = state.get("journal_seq", 0)
            self._dealer_step()
            state = settle(self.client, seen)
        self.stuck = True

    # --- the figures --------------------------------------------------------------------------

    def _figures(self) -> SoakResult:
        faults = Counter(self.faults)
        for name, count in self.out.counts.items() if self.rfid is None else ():
            faults[f"line_to_controller_{name}"] += count
        for name, count in self.back.counts.items() if self.rfid is None else ():
            faults[f"line_to_shoe_{name}"] += count
        seen = Observed(
            faults,
            steps=self.steps,
            restart_times=self.restart_times,
            cable_times=self.cable_times,
            foreign_dealt=self.hands.foreign_dealt,
            empty_shoes=self.empty_shoes,
            stalls=self.stalls,
            stuck=self.stuck,
            shoe_sent=self.shoe.session.counters.sent,
            slid=None
            if self.rfid is None
            else Counter(tag for tag, _ in self.rfid.drawn) + self.presented,
        )
        return figures(self.folder / "journal.sqlite", self.game, seen, self.seconds, self.seed)


def quiet(client: ConsoleClient, seconds: float, timeout: float = 5.0) -> None:
    """Wait until the table's published state has not changed for ``seconds``."""
    deadline = time.monotonic() + timeout
    state, since = client.state(), time.monotonic()
    while time.monotonic() < deadline and time.monotonic() - since < seconds:
        time.sleep(0.02)  # polling another process's state
        again = client.state()
        if again != state:
            state, since = again, time.monotonic()


def run_soak(seconds: float, seed: int = 20261130, rates: Rates | None = None,
             folder: Path | None = None, shoe: str = "serial",
             game: str = DEFAULT) -> SoakResult:  # fmt: skip
    """Run the soak of ``game`` for ``seconds`` in ``folder`` (a temporary one by default),
    with the ``shoe`` ("serial": docs/protocol.md; "rfid": an RDM6300 at a shoe of tagged
    decks). A game the soak cannot play raises `ConfigError` saying why."""
    if folder is not None:
        return Soak(folder, seconds, seed, rates or Rates(), shoe, game).run()
    with tempfile.TemporaryDirectory(prefix="soak-") as tmp:
        return Soak(Path(tmp), seconds, seed, rates or Rates(), shoe, game).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game",
        choices=names(),
        default=DEFAULT,
        help="the registered game to soak (its scripted dealer must have a soak profile)",
    )
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--folder", type=Path, help="keep the journal here")
    parser.add_argument("--json", type=Path, help="write the figures as JSON here")
    parser.add_argument(
        "--shoe",
        choices=("serial", "rfid"),
        default="serial",
        help="the simulated shoe: our serial protocol, or an RDM6300 at a shoe of tagged decks",
    )
    for name, value in asdict(Rates()).items():
        parser.add_argument(f"--rate-{name.replace('_', '-')}", type=float, default=value)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    rates = Rates(**{name: getattr(args, f"rate_{name}") for name in asdict(Rates())})
    if args.folder:
        args.folder.mkdir(parents=True, exist_ok=True)
    try:
        result = run_soak(args.seconds, args.seed, rates, args.folder, args.shoe, args.game)
    except ConfigError as exc:
        parser.error(str(exc))
    print(report(result))
    if args.json:
        args.json.write_text(json.dumps(asdict(result), indent=2) + "\n")
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
