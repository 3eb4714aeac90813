"""The pin map: every mistake is refused with the problem and the config line."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.config import parse_config
from controller.app.config.pins import PinMapError, load_pinmap, parse_pinmap
from controller.errors import ConfigError
from controller.game import device_needs
from controller.ports import ConsoleButton, Lamp
from drivers.pinmap import GateState

ROOT = Path(__file__).resolve().parents[3]
BLACKJACK = (ROOT / "examples" / "blackjack-table.toml").read_text()
POKER = (ROOT / "examples" / "poker-table.toml").read_text()


def line_of(text: str, fragment: str) -> int:
    """The 1-based line of the first line containing ``fragment``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if fragment in line:
            return number
    raise AssertionError(f"{fragment!r} not in the text")


def refused(text: str) -> PinMapError:
    """The pin map checked as the app checks it: against what the registered games need."""
    with pytest.raises(PinMapError) as info:
        parse_pinmap(text, source="table.toml", games=device_needs())
    return info.value


def test_the_example_pin_maps_load() -> None:
    blackjack = load_pinmap(ROOT / "examples" / "blackjack-table.toml")
    assert blackjack.game == "blackjack"
    assert {b.button for b in blackjack.buttons} == set(ConsoleButton)
    assert {lo.lamp for lo in blackjack.lamps} == set(Lamp)
    assert blackjack.spot("box1.p2").pin == 11
    assert blackjack.gate is not None and blackjack.gate.fail_safe is GateState.LOCKED
    poker = load_pinmap(ROOT / "examples" / "poker-table.toml")
    assert poker.position is not None and len(poker.position.pins) == 8
    assert poker.limit_sign is not None and poker.limit_sign.data == (23, 18, 11, 8)


def test_defaults_and_overrides_of_an_input() -> None:
    pinmap = parse_pinmap(BLACKJACK)
    box1 = pinmap.spot("box1")
    assert (box1.pull, box1.active_high, box1.debounce_s) == ("up", False, 0.020)
    optical = pinmap.spot("insurance5")
    assert (optical.pull, optical.active_high, optical.debounce_s) == ("none", True, 0.030)
    assert pinmap.button(ConsoleButton.SUPERVISOR).hold_s == 3.0
    assert pinmap.button(ConsoleButton.NEXT).hold_s is None
    assert pinmap.lamp(Lamp.BETTING_OPEN).pwm and not pinmap.lamp(Lamp.HOLD).pwm


def test_baccarat_betting_areas_are_spot_names_of_the_pin_map() -> None:
    """A baccarat table's presence sensors, one per betting area (docs/baccarat.md)."""
    baccarat = (ROOT / "examples" / "baccarat-table.toml").read_text()
    sensors = "[pins.spots]\nbanker1 = 5\nplayer1 = 6\ntie14 = 16\nplayer_pair1 = 20\n\n"
    pinmap = parse_pinmap(baccarat.replace("[pins.buttons]", sensors + "[pins.buttons]"))
    assert pinmap.spot("banker1").pin == 5
    assert pinmap.spot("player_pair1").pin == 20
    assert pinmap.spot("tie14").pin == 16
    error = refused(baccarat.replace("[pins.buttons]", "[pins.spots]\ntie15 = 5\n\n[pins.buttons]"))
    assert "unknown spot name 'tie15'" in str(error)
    assert "banker_pairN, with N 1-14" in str(error)


def test_a_pin_used_twice_names_both_uses_and_the_line() -> None:
    text = BLACKJACK.replace("box3 = 16", "box3 = 17")  # 17 is the split button
    error = refused(text)
    assert "GPIO17 is used twice" in str(error)
    assert "spot box3" in str(error) and "button split" in str(error)
    assert error.line == line_of(text, "split = 17")
    assert f"line {line_of(text, 'box3 = 17')}" in str(error)
    assert str(error).startswith(f"table.toml:{error.line}: ")


def test_the_same_pin_spelled_two_ways_is_still_used_twice() -> None:
    error = refused(BLACKJACK.replace("box3 = 16", 'box3 = "GPIO17"'))
    assert "GPIO17 is used twice" in str(error)


def test_an_unknown_spot_name_is_refused_with_its_line() -> None:
    text = BLACKJACK.replace("box5 = 21", "box8 = 21")
    error = refused(text)
    assert "unknown spot name 'box8'" in str(error)
    assert error.line == line_of(text, "box8 = 21")


def test_p1_is_the_box_holders_own_spot() -> None:
    error = refused(BLACKJACK.replace('"box1.p2" = 11', '"box1.p1" = 11'))
    assert "the box holder's own spot is box1" in str(error)


def test_an_unquoted_dotted_spot_gets_a_hint() -> None:
    text = BLACKJACK.replace('"box1.p2" = 11', "box4.p2 = 11")  # clashes with box4 = 20
    error = refused(text)
    assert "must be quoted" in str(error)
    assert error.line == line_of(text, "box4.p2 = 11")
    text = BLACKJACK.replace('"box1.p2" = 11', "box6.p2 = 11")  # no box6: a table, no pin
    error = refused(text)
    assert "spot box6 has no pin" in str(error) and "must be quoted" in str(error)
    assert error.line == line_of(text, "box6.p2 = 11")


def test_an_insurance_spot_needs_its_box() -> None:
    text = BLACKJACK.replace("box5 = 21\n", "")
    error = refused(text)
    assert "insurance5 belongs to box5" in str(error)
    assert error.line == line_of(text, "insurance5 =")


def test_a_missing_required_button_names_the_section_line() -> None:
    text = BLACKJACK.replace("even_money = 22\n", "")
    error = refused(text)
    assert "blackjack needs the console button 'even_money'" in str(error)
    assert error.line == line_of(text, "[pins.buttons]")


def test_a_missing_required_lamp_is_refused() -> None:
    text = BLACKJACK.replace("hold = 19 ", "# no hold lamp ")
    error = refused(text)
    assert "needs the lamp 'hold'" in str(error)
    assert error.line == line_of(text, "[pins.lamps]")


def test_poker_needs_the_dealer_button_display() -> None:
    start = POKER.index("[pins.position]")
    end = POKER.index("[pins.limit_sign]")
    error = refused(POKER[:start] + POKER[end:])
    assert "poker needs the dealer-button display" in str(error)


def test_blackjack_needs_a_box() -> None:
    start = BLACKJACK.index("[pins.spots]")
    end = BLACKJACK.index("[pins.buttons]")
    error = refused(BLACKJACK[:start] + BLACKJACK[end:])
    assert "at least one box" in str(error)


def test_a_toml_syntax_error_keeps_its_line() -> None:
    text = BLACKJACK.replace("box2 = 6", "box2 = = 6")
    error = refused(text)
    assert "not valid TOML" in str(error)
    assert error.line == line_of(text, "box2 = = 6")


def test_pull_and_active_level_must_agree() -> None:
    text = BLACKJACK.replace("box2 = 6", 'box2 = { pin = 6, pull = "up", active = "high" }')
    error = refused(text)
    assert "must be active low" in str(error) and error.line == line_of(text, "box2 =")
    error = refused(BLACKJACK.replace("box2 = 6", 'box2 = { pin = 6, pull = "none" }'))
    assert "must say active" in str(error)


def test_the_i2c_pins_cannot_lose_their_pull_up() -> None:
    text = BLACKJACK.replace("no_more_bets = 2 ", 'no_more_bets = { pin = 2, pull = "down" } ')
    error = refused(text)
    assert "GPIO2 has a fixed pull-up" in str(error)


def test_pins_off_the_header_and_the_eeprom_pins_are_refused() -> None:
    assert "not a usable header pin" in str(refused(BLACKJACK.replace("box2 = 6", "box2 = 28")))
    assert "reserved for the HAT EEPROM" in str(refused(BLACKJACK.replace("box2 = 6", "box2 = 0")))
    assert "BCM number" in str(refused(BLACKJACK.replace("box2 = 6", 'box2 = "BOARD31"')))


def test_the_gate_must_say_its_fail_safe_state() -> None:
    text = BLACKJACK.replace('fail_safe = "locked"', "# fail safe not given")
    error = refused(text)
    assert "fail_safe" in str(error)
    assert error.line == line_of(text, "[pins.gate]")


def test_unknown_keys_buttons_and_lamps_are_refused() -> None:
    assert "unknown button 'deal'" in str(refused(BLACKJACK.replace("next = 3", "deal = 3")))
    assert "unknown lamp 'green'" in str(
        refused(BLACKJACK.replace("dealer_action = 18", "green = 18"))
    )
    assert "unknown key 'debounce'" in str(
        refused(BLACKJACK.replace("debounce_ms = 20 ", "debounce = 20 "))
    )


def test_a_hold_must_outlast_the_debounce() -> None:
    text = BLACKJACK.replace("hold_ms = 3000", "hold_ms = 10")
    assert "hold_ms must be longer than debounce_ms" in str(refused(text))


def test_the_game_must_be_named() -> None:
    error = refused(BLACKJACK.replace('game = "blackjack"', 'game = "no-such-game"'))
    assert "[table] game must be one of" in str(error)
    assert error.line == line_of(BLACKJACK, 'game = "blackjack"')


def test_the_limit_sign_needs_four_data_pins() -> None:
    text = POKER.replace("data = [23, 18, 11, 8]", "data = [23, 18, 11]")
    error = refused(text)
    assert "D4, D5, D6, D7" in str(error)


def test_the_error_is_a_config_error_and_a_value_error(tmp_path: Path) -> None:
    error = refused(BLACKJACK.replace("box2 = 6", "box2 = 99"))
    assert isinstance(error, ConfigError) and isinstance(error, ValueError)
    with pytest.raises(PinMapError, match="cannot read the config"):
        load_pinmap(tmp_path / "missing.toml")


def test_the_whole_config_checks_its_pins_against_its_game_spec() -> None:
    """`parse_config` takes what must be wired from the table's `GameSpec` (the registry),
    not from a list in the drivers: without the hold lamp a blackjack table does not start
    (docs/architecture.md: missing hardware is an error), and the error points at
    ``[pins.lamps]``."""
    text = BLACKJACK.replace("hold = 19 ", "# hold = 19 ")
    with pytest.raises(PinMapError) as info:
        parse_config(text, source="table.toml")
    assert "blackjack needs the lamp 'hold'" in str(info.value)
    assert info.value.line == line_of(text, "[pins.lamps]")
    assert parse_config(BLACKJACK, source="table.toml").pins.lamp(Lamp.HOLD).pin == 19
