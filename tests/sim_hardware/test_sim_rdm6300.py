"""The simulated RDM6300 reader writes real frames, on its own pty or on a given line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_bridge.rdm6300 import Rdm6300Decoder, TagFrame, encode
from sim_hardware.rdm6300 import SimulatedRdm6300


def test_present_writes_the_frame_once_per_repeat_to_a_file_descriptor() -> None:
    read_end, write_end = os.pipe()
    try:
        SimulatedRdm6300(write_end).present("0F002A3B5C", repeats=3)
        data = os.read(read_end, 100)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert data == encode("0F002A3B5C") * 3
    assert Rdm6300Decoder().feed(data) == [TagFrame(bytes.fromhex("0F002A3B5C"))] * 3


def test_the_pty_is_raw_so_etx_and_stx_pass_unchanged() -> None:
    with SimulatedRdm6300() as sim:
        slave = os.open(sim.path, os.O_RDONLY | os.O_NOCTTY)
        try:
            sim.present("0F002A3B5C", repeats=1)
            assert os.read(slave, 100) == encode("0F002A3B5C")
        finally:
            os.close(slave)


def test_replug_moves_the_link_to_a_new_pty(tmp_path: Path) -> None:
    with SimulatedRdm6300(link=tmp_path / "reader") as sim:
        sim.unplug()
        assert not os.path.lexists(sim.path)
        with pytest.raises(OSError, match="unplugged"):
            sim.present("0F002A3B5C")
        sim.replug()
        assert sim.path == str(tmp_path / "reader")
        slave = os.open(sim.path, os.O_RDONLY | os.O_NOCTTY)
        try:
            sim.present("0F002A3B5C", repeats=1)
            assert os.read(slave, 100) == encode("0F002A3B5C")
        finally:
            os.close(slave)
    assert not (tmp_path / "reader").exists()


def test_replug_without_a_link_is_refused() -> None:
    with SimulatedRdm6300() as sim, pytest.raises(ValueError, match="link"):
        sim.replug()
