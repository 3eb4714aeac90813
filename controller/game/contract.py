"""The contract every game implements, and what it tells the app about itself.

A game is a sans-I/O object the controller thread owns (docs/architecture.md):

- ``handle(event) -> Step``: apply one event (a card, a sensor, a button, a console
  action naming a rules-API call, a supervisor's decision) and return what it produced,
  in order: frozen records for the journal (payouts, violations, refusals) and commands
  for the devices (gate, lamps, displays). A refused input raises `IllegalAction` naming
  the rule; the loop journals it as `ActionRefused`.
- ``pending()``: outputs not yet taken (a new table's first gate and lamp states).
- ``view()``: the game's state as plain JSON for the status display and the pit; it
  carries the supervisor decisions on offer (``decisions``), so the page copies nothing.
- ``round_no``: the round (hand) the next journal rows belong to.

The rest of what a game is lives in its `GameSpec` (controller/game/registry.py): its
rules config, the hardware it needs, the console actions and supervisor decisions it
offers (each a rules-API call whose signature the console's schema is read from, behind
the game's own verify step), and the scripted dealer the demo drives it with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeAlias

from controller.cards import Card
from controller.errors import ConfigError
from controller.ports import Command, ConsoleAction, DeviceNeeds, Event


class Record(Protocol):
    """A frozen dataclass a game returns for the journal; its kind is its class name."""

    __dataclass_fields__: ClassVar[dict[str, Any]]


Output: TypeAlias = Record | Command
Step: TypeAlias = Sequence[Output]  # what one event produced, in the order it happened


class Game(Protocol):
    name: str

    def handle(self, event: Event) -> Step: ...
    def pending(self) -> Step: ...
    def view(self) -> dict[str, Any]: ...
    @property
    def round_no(self) -> int: ...


def _no_limits(minimum: int, maximum: int, unit: int) -> dict[str, Any]:
    return {}


def _one_deck(rules: Any) -> int:
    return 1


def wager_limits(minimum: int, maximum: int, unit: int) -> dict[str, Any]:
    """`GameSpec.from_limits` for rules that take the table notice's limits as
    ``minimum_wager``, ``maximum_wager`` and ``chip_unit`` (poker's 11.5, baccarat's)."""
    return {"minimum_wager": minimum, "maximum_wager": maximum, "chip_unit": unit}


def call_console(game: str, actions: frozenset[str], table: object, event: ConsoleAction) -> None:
    """Call the rules-API method a `ConsoleAction` names on ``table``: only one of
    ``actions`` (the game's console list), so a console reaches nothing else. A ``cards``
    argument arrives as text ("AS") and is parsed. The method's own verify step still
    refuses with `IllegalAction` naming the rule; its outputs stay on the table."""
    if event.action not in actions:
        raise ConfigError(f"the {game} console has no action {event.action!r}")
    args = event.args
    if "cards" in args:
        args = {**args, "cards": [Card.parse(c) for c in args["cards"]]}
    getattr(table, event.action)(**args)


SettlementFigures: TypeAlias = Callable[[Mapping[str, Any]], "tuple[int, int] | None"]
"""A round-end row's payload -> (drop, win) in chip units, or None for a void round."""


def figures_from(drop: str, win: str) -> SettlementFigures:
    """`GameSpec.settlement_figures` for a round-end record that names its drop (the chips
    wagered) and the house's win (negative when the players won) in two fields: a void
    round (``void`` true) counts neither. A value that is not a whole number of chips
    raises `ValueError` naming the field (docs/architecture.md: integers only)."""

    def figures(payload: Mapping[str, Any]) -> tuple[int, int] | None:
        if payload.get("void"):
            return None
        out = []
        for key in (drop, win):
            value = payload.get(key) or 0
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"the round-end field {key!r} is {value!r}, not whole chips")
            out.append(value)
        return out[0], out[1]

    return figures


@dataclasses.dataclass(frozen=True)
class GameSpec:
    """One registry entry: everything the app needs to run a game without naming it.

    - ``name``: ``[table] game`` in the config, and the name of its rules section;
    - ``rules``: the rules config dataclass (``[<name>]``; every field has its default);
    - ``make``: builds the game from its rules;
    - ``devices``: the hardware it cannot run without (`DeviceNeeds`);
    - ``console``: the touch console's actions, name -> the rules-API method it calls
      (unbound: its signature gives the console's schema, `controller.app.console.schema`);
    - ``decisions``: a supervisor's decisions, name -> the method that takes them;
    - ``from_limits``: rule fields set from ``[limits]`` (minimum, maximum, chip unit),
      never from the game's own section;
    - ``decks``: how many decks its shoe holds (the simulated shoe loads them);
    - ``foreign_card_rule``: the rule a card its shoe cannot hold breaks, the one its shoe
      audit cites (`controller.shoe_audit`: no clause names a foreign card, so each game
      cites its nearest); None: the game keeps no shoe audit;
    - ``private_cards``: players' cards are private (the pit withholds them);
    - ``round_end``: the record kind that ends a round (the pit's hand-end marker);
    - ``sim_dealer``: ``"module:function"`` of its scripted dealer (`tablectl demo`),
      imported only when asked for, so the rules never import the simulators;
    - ``renderer``: the name its ``page_script`` registers its drawing under (a name no
      script registers: the page shows the view's facts as they are), and ``round_word``:
      what the page calls a round ("round", "hand"). `view_facts` puts both in the view;
    - ``title``: the game's name as the floor says it ("Draw poker"; default: the name);
    - ``records``: the record classes the game journals (besides every game's records,
      `controller.game.records`, and the events of `controller.ports`): the pit reads
      their fields' privacy marks (`CARD_MARK`) to withhold players' cards;
    - ``settlement_figures``: a ``round_end`` row's payload -> (drop, win) for the pit's
      shift figures (`figures_from`); None: the game's rounds count no money;
    - ``state_words``: its states as a pit manager says them ("insurance" -> "Insurance
      open"); a state without words reads as its name in words;
    - ``board``: the players' board's facts from the game's published view
      (``board(view) -> dict``, pure, picking by whitelist only what players may see: no
      card not yet public, no control, no identity; `controller.app.console.board`);
      None: the board shows the table's frame alone (name, limits, closed);
    - ``simulator``: the module `tablectl simulate <name>` runs (``HELP``,
      ``add_arguments(parser)``, ``run(args) -> result`` with ``as_dict()`` and
      ``report()``), imported only when asked for; None: the game has none.
    """

    name: str
    rules: type
    make: Callable[[Any], Game]
    devices: DeviceNeeds
    console: Mapping[str, Callable[..., Any]]
    decisions: Mapping[str, Callable[..., Any]]
    from_limits: Callable[[int, int, int], dict[str, Any]] = _no_limits
    decks: Callable[[Any], int] = _one_deck
    foreign_card_rule: str | None = None
    private_cards: bool = False
    round_end: str | None = None
    sim_dealer: str | None = None
    renderer: str = ""
    round_word: str = "round"
    title: str = ""
    records: tuple[type, ...] = ()
    settlement_figures: SettlementFigures | None = None
    simulator: str | None = None
    state_words: Mapping[str, str] = dataclasses.field(default_factory=dict)
    board: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    @property
    def words(self) -> str:
        """The game's name for people: its ``title``, or its name capitalised."""
        return self.title or self.name.capitalize()

    # the game's own drawing for the status page, ``"package:path/in/it.js"`` (it registers
    # ``window.tablectl.renderers[renderer]``); the app serves it at /game.js, never naming
    # the game (controller/app/console/game_page.py). None: the page shows the view's facts.
    page_script: str | None = None

    def view_facts(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` with what the page needs to draw it, from this spec."""
        view["renderer"] = self.renderer
        view["round_word"] = self.round_word
        return view
