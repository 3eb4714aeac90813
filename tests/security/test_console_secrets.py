"""Per-table secret files (controller/app/secrets.py): created atomically with mode 0o600,
never overwritten by accident, and refused when missing, malformed or readable by others."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from controller.app.secrets import SECRET_BYTES, create_secret, read_secret
from controller.errors import ConfigError


def test_create_then_read(tmp_path: Path) -> None:
    path = tmp_path / "console.secret"
    value = create_secret(path)
    assert len(value) == SECRET_BYTES
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text() == value.hex() + "\n"
    assert read_secret(path, "the console secret") == value
    assert [p.name for p in tmp_path.iterdir()] == ["console.secret"]  # no temporary left


def test_create_refuses_to_overwrite_unless_told(tmp_path: Path) -> None:
    path = tmp_path / "console.secret"
    first = create_secret(path)
    with pytest.raises(ConfigError, match="already there"):
        create_secret(path)
    assert read_secret(path, "x") == first
    second = create_secret(path, overwrite=True)
    assert second != first and read_secret(path, "x") == second


def test_create_group_readable_and_no_wider(tmp_path: Path) -> None:
    path = tmp_path / "s"
    create_secret(path, mode=0o640)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    with pytest.raises(ConfigError, match="group read at most"):
        create_secret(tmp_path / "t", mode=0o644)


def test_create_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        create_secret(tmp_path / "nope" / "console.secret")


def test_read_refusals_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "console.secret"
    with pytest.raises(ConfigError, match=f"{path}: the console secret is missing"):
        read_secret(path, "the console secret")
    path.write_text("abc\n")
    path.chmod(0o600)
    with pytest.raises(ConfigError, match="malformed"):
        read_secret(path, "the console secret")
    create_secret(path, overwrite=True)
    path.chmod(0o644)
    with pytest.raises(ConfigError, match="readable by others"):
        read_secret(path, "the console secret")
    path.chmod(0o640)
    read_secret(path, "the console secret")  # group-readable is allowed
    if os.geteuid() != 0:
        path.chmod(0o000)
        with pytest.raises(ConfigError, match="cannot read"):
            read_secret(path, "the console secret")
