"""``tablectl rfid-monitor`` (controller/app/tools/rfid_monitor.py) against the simulated reader."""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import pytest

from controller.app.tools.rfid_monitor import add_arguments, describe, run
from controller.cards import Card
from controller.ports import CardDrawn, DeviceFault, DeviceLost, Fault


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_sim_presents_the_example_deck_and_prints_cards() -> None:
    out = io.StringIO()
    assert run(parse("--sim", "--count", "3"), out=out) == 0
    lines = out.getvalue().splitlines()
    assert "SIMULATED" in lines[0]
    assert lines[1:4] == ["rfid: card 2s", "rfid: card 3s", "rfid: card 4s"]
    assert lines[-1].startswith("rfid: ") and "reads" in lines[-1]


def test_sim_with_a_given_deck_presents_that_deck(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("0F002A3B5C As\n")
    out = io.StringIO()
    assert run(parse("--sim", "--deck", str(deck), "--count", "1"), out=out) == 0
    assert "rfid: card As" in out.getvalue()


def test_a_bad_deck_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("0F002A3B5C As\n0F002A3B5D As\n")
    assert run(parse("--sim", "--deck", str(deck))) == 2
    assert f"{deck}:2" in capsys.readouterr().err


def test_a_missing_reader_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(parse(str(tmp_path / "no-such-tty"))) == 1
    assert "no device" in capsys.readouterr().err


def test_describe_names_unknown_tags_and_faults() -> None:
    assert describe(CardDrawn(source="r", card=Card.parse("Td"))) == "r: card Td"
    unknown = DeviceFault(source="r", fault=Fault.UNKNOWN_TAG, detail="1122334455")
    assert describe(unknown) == "r: tag 1122334455 (not enrolled)"
    assert describe(DeviceLost(source="r", reason="EIO")) == "r: LOST: EIO"
