"""What the soak (tools/soak.py) must know about a game that its `GameSpec` does not say.

The soak drives any registered game whose scripted dealer can play a table in another
process (through `sim_hardware.remote.RemoteHands`). The spec already names the dealer, the
round-end record and its settlement figures; what only the dealer's side knows lives in a
`SoakProfile` the dealer class hands out (``Dealer.soak_profile()``), so the soak names no
game and a game's soak knowledge sits beside its scripted dealer. The state names are the
published view's words (``view["state"]``), as the dealer itself reads them: a simulator
may not import the game's rules (the floors of docs/architecture.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
_SECTION = re.compile(r"^\[([\w.]+)\]\s*(#.*)?$")


class WriteConfig(Protocol):
    """Writes the game's example table config with the shoe at ``shoe_url`` (or, with
    ``rfid_decks``, an RDM6300 reader reading those enrolled decks), the journal at
    ``folder/journal.sqlite`` and the display on ``port``; returns the config's path."""

    def __call__(
        self,
        folder: Path,
        shoe_url: str,
        port: int,
        *,
        rfid_decks: Sequence[Path] = (),
        repeat_window_ms: int = 1000,
    ) -> Path: ...


def example_table(example: str) -> WriteConfig:
    """A `WriteConfig` for ``examples/<example>`` as it is: in ``[shoe]`` its ``url`` (and,
    for an RDM6300, the protocol and the decks), in ``[journal]`` its ``path``, in
    ``[display]`` its ``port`` are replaced; anything else stays the example's. An example
    without one of those keys raises `ValueError` naming it."""
    source = EXAMPLES / example

    def write(
        folder: Path,
        shoe_url: str,
        port: int,
        *,
        rfid_decks: Sequence[Path] = (),
        repeat_window_ms: int = 1000,
    ) -> Path:
        shoe = f'url = "{shoe_url}"'
        if rfid_decks:
            listed = ", ".join(f'"{path}"' for path in rfid_decks)
            shoe += f'\nprotocol = "rdm6300"\ndecks = [{listed}]'
            shoe += f"\nrepeat_window_ms = {repeat_window_ms}"
        wanted = {
            ("shoe", "url"): shoe,
            ("journal", "path"): f'path = "{folder}/journal.sqlite"',
            ("display", "port"): f"port = {port}",
        }
        lines, section = [], ""
        for line in source.read_text().splitlines():
            if header := _SECTION.match(line):
                section = header.group(1)
            key = line.partition("=")[0].strip()
            new = wanted.pop((section, key), None)
            if new is None and (section, "protocol") == ("shoe", key) and rfid_decks:
                continue  # the reader's protocol is set with its url
            lines.append(line if new is None else new)
        if wanted:
            missing = ", ".join(f"[{s}] {k}" for s, k in wanted)
            raise ValueError(f"{source} has no {missing}")
        path = folder / "table.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


def paid_out_field(payload: Mapping[str, Any]) -> int:
    """The chips a round-end record says went back to the players: its ``paid_out``."""
    value = payload.get("paid_out")
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"the round-end field 'paid_out' is {value!r}, not whole chips")
    return value


@dataclass(frozen=True)
class SoakProfile:
    """A game as the soak plays it.

    - ``write_config``: the table's config for a controller process (`WriteConfig`);
    - ``decks``: how many decks the simulated shoe holds (the config's);
    - ``dealer_options``: keyword arguments for the scripted dealer in a remote table
      (e.g. no insurance sensors: the remote hands key everything on the console);
    - ``no_card_states``: states in which a card breaks a rule (an out-of-order card is
      injected only there, so that it must end as a violation citing the card);
    - ``gate_open_states``: states in which a card is due (an RFID reader pulled then may
      have let cards pass unseen, and the table must hold);
    - ``rest_states``: states between rounds (the soak ends its run in one of them);
    - ``foreign_card_rule``: the rule the game cites for a card the shoe cannot hold
      (`controller.shoe_audit`), counted against the doctored shoes dealt;
    - ``paid_out``: the round-end payload -> the chips paid back to players; with the
      spec's settlement figures (drop, house win) every round must give
      drop == paid out + house win.
    """

    write_config: WriteConfig
    decks: int
    no_card_states: tuple[str, ...]
    gate_open_states: tuple[str, ...]
    rest_states: tuple[str, ...]
    foreign_card_rule: str
    dealer_options: Mapping[str, Any] = field(default_factory=dict)
    paid_out: Callable[[Mapping[str, Any]], int] = paid_out_field
