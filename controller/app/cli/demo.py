"""`tablectl demo [--game GAME]`: a complete simulated table, for a first look.

The same code path as `tablectl run --sim` with the example config: the simulated shoe on a
real pseudo-terminal read by the real serial driver, the simulated chip sensors and console
buttons read by the real GPIO driver, the journal (in a temporary folder), the rules, and
the status display. A scripted dealer and players (`sim_hardware.dealer`) play rounds
continuously at a pace a person can follow, acting only through the simulated devices.

``--config FILE`` simulates that table instead, on its own ``[display]`` port and its own
``[journal]`` path (``--port`` and ``--journal`` override them). Without it, the journal goes
in a new temporary folder, removed when the demo stops; a demo that was killed cannot remove
its own, so the next demo removes the folders of demos that are no longer running.

A journal found broken while the demo plays (the full check after the start) stops it as
it stops `tablectl run`: one line naming the row, and `JOURNAL_REFUSED`.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import importlib
import json
import logging
import os
import random
import shutil
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable
from importlib.resources import as_file
from pathlib import Path
from typing import Any, Protocol, TextIO

from controller.app.cli import demo_ratings, seconds, shipped, tcp_port
from controller.app.cli.demo_chips import mistakes_line, open_chip_reader, rate, with_chip_readers
from controller.app.cli.run import JOURNAL_REFUSED
from controller.app.config import ShoeConfig, TableConfig, load_config
from controller.app.runtime.table import RunningTable
from controller.errors import ConfigError, TableError
from controller.game import DEFAULT, names, spec
from controller.game.arguments import at_least
from controller.journal.store import JournalCorrupt
from controller.ports import ConsoleAction, DealerSignedIn, SupervisorAction
from sim_hardware.dealer import TableHands
from sim_hardware.device import SimulatedChipReader


class Dealer(Protocol):
    """A game's scripted dealer (its `GameSpec.sim_dealer`): one action per ``step``."""

    rounds_finished: int

    def step(self) -> str: ...


log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=names(), default=DEFAULT)
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help="a table config to simulate (default: the game's example)",
    )
    parser.add_argument(
        "--pace",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="time between the dealer's actions (default 0.6; 0 with --json)",
    )
    parser.add_argument(
        "--rounds", type=at_least(0), default=None, help="stop after this many rounds"
    )
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument(
        "--shoe",
        choices=("serial", "rfid"),
        default=None,
        help="the simulated shoe: 'serial' (docs/protocol.md) or 'rfid' (an RDM6300 reader "
        "at the mouth of a shoe of tagged decks, docs/rfid.md); default: the config's",
    )
    parser.add_argument(
        "--port",
        type=tcp_port,
        default=None,
        help="status display port (default: the config's [display] port; the examples' 8080)",
    )
    parser.add_argument(
        "--chip-readers",
        action="store_true",
        help="chip readers under the spots (a simulated reader on a pty, docs/protocol.md): "
        "wagers are read by value and every payout is checked by the chips",
    )
    parser.add_argument(
        "--dealer-mistakes",
        type=rate,
        default=0.0,
        metavar="RATE",
        help="with --chip-readers: the share of spots (0 to 1) the scripted dealer overpays, "
        "underpays or leaves uncollected on purpose",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help="print only one JSON line at the end: rounds, and with --chip-readers the "
        "dealer's mistakes made and caught, by kind (the play goes to stderr)",
    )
    parser.add_argument(
        "--rated-players",
        type=at_least(0),
        default=0,
        metavar="N",
        help="blackjack: N scripted players who come and go with player cards, betting "
        "flat, in a progression or wonging in and out, each rated (docs/ratings.md); the "
        "table runs with chip readers; --json then prints every rating",
    )
    parser.add_argument(
        "--journal",
        type=Path,
        default=None,
        help="journal file (default: with --config, the config's [journal] path; without, "
        "a new temporary folder, removed when the demo stops)",
    )


WAGERS = (10, 20, 50)  # what the players stake on a table with chip readers


class SimHands:
    """The scripted dealer's hands on the simulated devices of a running table. With a
    simulated chip reader (``chips``), chips on a spot are reported by value through it
    (the wire's CHIPS_SENSED) instead of the presence sensors; ``stake`` says what the
    player at a box stacks (the rated players' patterns), else a stake is drawn."""

    senses_layout = True

    def __init__(
        self,
        table: RunningTable,
        chips: SimulatedChipReader | None = None,
        rng: random.Random | None = None,
        stake: Callable[[int], int | None] | None = None,
    ) -> None:
        self.reader = chips
        self.rng = rng or random.Random(0)
        self.stake = stake  # box -> the chips its player stacks (None: a random stake)
        self.stakes: dict[int, int] = {}
        devices = table.devices
        if devices is None or devices.sim_shoe is None or devices.sim_table is None:
            raise RuntimeError("the demo needs a table running on the simulators")
        self.shoe = devices.sim_shoe
        self.sim = devices.sim_table
        self.events = table.events
        self.table = table
        supervisors = [m.id for m in table.config.staff if m.role == "supervisor"]
        self.supervisor_id = supervisors[0] if supervisors else "demo supervisor"

    def draw(self) -> str:
        return str(self.shoe.draw_when_open())

    def shuffle(self) -> None:
        self.shoe.load()

    def press(self, button: str) -> None:
        self.sim.press(button)

    def wager(self, box: int, on: bool) -> None:
        if self.reader is not None:
            chosen = self.stake(box) if on and self.stake is not None else None
            self.stakes[box] = (chosen or self.rng.choice(WAGERS)) if on else 0
            self.chips_to(f"box{box}", self.stakes[box])
            return
        self._chips(f"box{box}", on)

    def insurance(self, box: int, on: bool) -> None:
        if self.reader is not None:  # at most half the wager (9.3)
            self.chips_to(f"insurance{box}", self.stakes.get(box, 2) // 2 if on else 0)
            return
        self._chips(f"insurance{box}", on)

    def chips_to(self, spot: str, total: int) -> None:
        """The chip reader reports ``total`` on ``spot``; returns once it is journaled (the
        controller acknowledged it), so a button pressed next cannot overtake it."""
        if self.reader is None:
            raise RuntimeError("this table has no chip readers")
        self.reader.sense(spot, total)
        self.reader.wait_until_acknowledged(timeout=10.0)

    def accept_payout(self, box: int, reason: str) -> None:
        self.events.put(
            SupervisorAction(
                source="supervisor",
                who=self.supervisor_id,
                decision="accept_payout",
                reason=reason,
                args={"box": box},
            )
        )

    def _chips(self, spot: str, on: bool) -> None:
        if on:
            self.sim.place_chips(spot)
        else:
            self.sim.remove_chips(spot)

    def console(self, action: str, **args: Any) -> None:
        if self.table.loop.dealer is None:  # the touch console is locked until then
            sign_in_dealer(self.table)
        self.events.put(ConsoleAction(source="console", action=action, args=args, actor="demo"))

    def supervisor(self, decision: str, reason: str) -> None:
        self.events.put(
            SupervisorAction(
                source="supervisor", who=self.supervisor_id, decision=decision, reason=reason
            )
        )


def sign_in_dealer(table: RunningTable) -> None:
    """The scripted dealer signs in as the config's first member of staff (in-process: the
    demo's dealer is trusted; a person signs in at the console with a PIN)."""
    if table.config.staff:
        member = table.config.staff[0]
        table.events.put(DealerSignedIn(source="console", staff_id=member.id, name=member.name))


def demo_config(
    game: str,
    journal: Path | None,
    port: int | None,
    path: Path | None = None,
    shoe: str | None = None,
) -> TableConfig:
    """The table config the demo runs: ``path``, or the game's example; ``journal`` and
    ``port``, when given, in place of the config's own; ``shoe="rfid"``: a simulated
    RDM6300 shoe of tagged decks, ``"serial"``: our serial protocol's."""
    if path is None:
        with as_file(shipped.example_config(game)) as example:
            config = load_config(example)
    else:
        config = load_config(path)
    if journal is not None:
        config = dataclasses.replace(config, journal_path=journal)
    if port is not None:
        config = dataclasses.replace(config, display_port=port)
    if shoe is not None:
        protocol = "rdm6300" if shoe == "rfid" else "tablectl"
        sim_shoe = ShoeConfig("sim://", protocol, config.shoe.baud)
        config = dataclasses.replace(config, shoe=sim_shoe)
    return config


FOLDER_PREFIX = "tablectl-demo-"
OWNER_FILE = "owner.pid"


def demo_folder() -> tempfile.TemporaryDirectory[str]:
    """A new temporary folder for the demo's journal, marked with this process's id. A
    demo that is stopped removes its folder; one that is killed (SIGKILL, a power cut)
    cannot, so each demo first removes the folders of demos that are no longer running
    (`remove_stale_folders`)."""
    remove_stale_folders(Path(tempfile.gettempdir()))
    folder = tempfile.TemporaryDirectory(prefix=FOLDER_PREFIX)
    (Path(folder.name) / OWNER_FILE).write_text(f"{os.getpid()}\n")
    return folder


def remove_stale_folders(root: Path) -> list[Path]:
    """Remove this user's demo folders in ``root`` whose demo is no longer running (its
    process id, in the folder, names no process). A folder without that mark, another
    user's, or one whose process is alive (or whose id was reused) is left alone."""
    removed = []
    for folder in root.glob(FOLDER_PREFIX + "*"):
        try:
            if folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            pid = int((folder / OWNER_FILE).read_text())
        except (OSError, ValueError):
            continue
        if pid != os.getpid() and not _running(pid):
            shutil.rmtree(folder, ignore_errors=True)
            log.info("removed %s, left by a demo (pid %d) that was killed", folder, pid)
            removed.append(folder)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def make_dealer(
    table: RunningTable, rng: random.Random, hands: TableHands | None = None, **extra: Any
) -> Dealer:
    """The scripted dealer for the table's game, acting through its simulated devices
    (``extra``: the dealer's own options, such as its chip readers and mistake rate)."""
    where = spec(table.config.game).sim_dealer
    if where is None:
        raise ConfigError(f"the game {table.config.game!r} has no scripted dealer for the demo")
    module, _, name = where.partition(":")
    factory = getattr(importlib.import_module(module), name)
    dealer: Dealer = factory(hands or SimHands(table), lambda: table.state, rng, **extra)
    return dealer


def play(
    table: RunningTable,
    dealer: Dealer,
    *,
    pace: float,
    stop: threading.Event,
    rounds: int | None,
    out: TextIO,
) -> None:
    """The dealer's thread: one action, then wait for the table to take it in. Ends when
    the table stops on its own (its journal failed or was found broken)."""
    while not stop.is_set() and table.loop.failed is None:
        if rounds is not None and dealer.rounds_finished >= rounds:
            break
        try:
            done = act(table, dealer)
        except TableError:  # the dealer met the gate the stopped table locked
            if table.loop.failed is not None:
                break
            raise
        state = table.state
        view = state.get("view", {})
        next_step = view.get("next_action") or view.get("state", "")
        print(
            f"round {state.get('round', '?'):>3}  {done:<34} next: {next_step}",
            file=out,
            flush=True,
        )
        stop.wait(pace)


def check_port_free(host: str, port: int) -> None:
    """Refuse at once, in one line, when the display's port is taken (the likely failure
    of `make demo`: a demo already running); the server's own bind still decides."""
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise OSError(f"the status display's port {host}:{port}: {exc.strerror}") from exc


def _in_use(exc: BaseException) -> bool:
    cause = exc.__cause__ or exc
    return isinstance(cause, OSError) and cause.errno == errno.EADDRINUSE


def act(table: RunningTable, dealer: Dealer) -> str:
    """One dealer action, then wait until the table has taken it in (the action reaches
    the queue through a driver: a debounced sensor, a frame on the pty)."""
    seen = table.loop.processed
    done = dealer.step()
    if not done.startswith("wait"):
        if table.devices is not None:
            table.devices.io.wait_quiet(timeout=5.0)  # debounced inputs have reported
        table.loop.wait_processed(seen, timeout=5.0)
    table.loop.wait_idle(timeout=5.0)
    return done


def run(args: argparse.Namespace, *, out: TextIO = sys.stdout) -> int:
    folder = None
    journal = args.journal
    if journal is not None and not journal.parent.is_dir():
        print(
            f"tablectl demo: --journal: the folder {journal.parent} does not exist", file=sys.stderr
        )
        return 2
    if getattr(args, "dealer_mistakes", 0.0) and not getattr(args, "chip_readers", False):
        print("tablectl demo: --dealer-mistakes needs --chip-readers", file=sys.stderr)
        return 2
    if journal is None and args.config is None:
        folder = demo_folder()
        journal = Path(folder.name) / "journal.sqlite"
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rated_players = getattr(args, "rated_players", 0)
    if rated_players and args.game != "blackjack":
        print("tablectl demo: --rated-players: the rated players play blackjack", file=sys.stderr)
        return 2
    chips = getattr(args, "chip_readers", False) or bool(rated_players)
    as_json = getattr(args, "json", False)
    play_out = sys.stderr if as_json else out
    try:
        config = demo_config(args.game, journal, args.port, args.config, args.shoe)
        if chips:
            config = with_chip_readers(config)
        if rated_players:
            config = demo_ratings.rated_config(config)
        check_port_free(config.display_host, config.display_port)
        table = RunningTable(config, simulate=True, seed=seed).start()
    except (TableError, OSError) as exc:
        # a busy port is the likely one: "cannot serve the status display on ...: address
        # already in use" (another demo, or a table, is running: try --port)
        hint = " (is another table running? try --port)" if _in_use(exc) else ""
        if "journal.path" in str(exc) and args.journal is None:
            hint = " (or give the demo a journal with --journal)"
        print(f"tablectl demo: {exc}{hint}", file=sys.stderr)
        if folder is not None:
            folder.cleanup()
        if isinstance(exc, JournalCorrupt):
            return JOURNAL_REFUSED
        return 2 if isinstance(exc, TableError) else 1
    print(
        f"SIMULATED {config.game} table {config.table_id} (seed {seed}); "
        f"journal {config.journal_path}",
        file=play_out,
        flush=True,
    )
    if table.server is not None:
        print(
            f"status display: {table.server.url}/  (surveillance: {table.server.url}/surveillance"
            "; Ctrl-C to stop)",
            file=play_out,
            flush=True,
        )
        print(
            f"players' board: {table.server.url}/board  (the screen facing the players; "
            "docs/display.md)",
            file=play_out,
            flush=True,
        )
        print(
            f"the dealer's console: {table.server.console_url}  (open it once: it sets the "
            "console cookie; demo PINs: dealer d01 1357, supervisor s01 2468)",
            file=play_out,
            flush=True,
        )
    if table.pin_check is not None:  # the demo's staff have the demo PINs: say so first
        table.pin_check.join(timeout=30)
    sign_in_dealer(table)
    reader = None
    try:
        if chips:
            reader = open_chip_reader(table)
            boxes = getattr(config.rules, "boxes", 1)
            regulars = demo_ratings.Regulars(rated_players, boxes, random.Random(seed + 2))
            stake = regulars.stake if rated_players else None
            hands = SimHands(table, reader[0], random.Random(seed + 1), stake)
            mistakes = getattr(args, "dealer_mistakes", 0.0)
            dealer = make_dealer(table, random.Random(seed), hands, chips=hands, mistakes=mistakes)
            if rated_players:
                dealer = demo_ratings.SeatingDealer(dealer, table, regulars, unrated=boxes)
        else:
            dealer = make_dealer(table, random.Random(seed))
    except Exception:
        table.stop()
        raise
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    pace = args.pace if args.pace is not None else (0.0 if as_json else 0.6)
    try:
        play(table, dealer, pace=pace, stop=stop, rounds=args.rounds, out=play_out)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        table.stop()  # a rated table closes its ratings (TableClosed)
        rated = demo_ratings.ratings(config.journal_path, config.table_id) if rated_players else []
        if folder is not None:
            folder.cleanup()
    print(f"{dealer.rounds_finished} rounds played", file=play_out)
    if table.loop.failed is not None:
        print(f"tablectl demo: stopped: {table.loop.failed}", file=sys.stderr)
        return JOURNAL_REFUSED if table.loop.broken_row is not None else 1
    if rated_players and not as_json:
        print(demo_ratings.summary(rated), file=out)
    if as_json:
        line = mistakes_line(dealer, dealer.rounds_finished)
        if rated_players:
            line["ratings"] = rated
        print(json.dumps(line), file=out, flush=True)
    return 0
