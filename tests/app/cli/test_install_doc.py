"""docs/install.md takes a Pi from a blank card to a dealing table: every file of the
repository it names is there, it installs every deploy file, it installs from the lock,
and the example config's commented ``[pit]`` section (its step 10) checks clean."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from controller.app.config import parse_config
from controller.app.config.pit import SCHEMA

ROOT = Path(__file__).resolve().parents[3]
INSTALL = (ROOT / "docs" / "install.md").read_text()
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()
# the repository's folders a doc can name (not dist/ or .venv/, made by a build)
FOLDERS = ["deploy", "examples", "docs", "requirements", "tools", "bench", "controller"]
TOP = "|".join([*FOLDERS, "drivers", "firmware_bridge", "sim_hardware"])
IN_REPO = re.compile(rf"(?<![\w/.~-])((?:{TOP})/[\w./-]*\w)")
DEPLOYED = "/opt/tablectl/deploy/"  # where `tablectl deploy-files` puts the deploy/ folder
PIT_KEYS = ("broker", "username", "password", "ca_file", "private_cards")
PIT_LINE = re.compile(rf"^# ((?:\[pit\]|{'|'.join(PIT_KEYS)})(?=[ =]).*)$", re.MULTILINE)


def named_paths() -> set[str]:
    """The repository paths the doc names, the deployed copies as their deploy/ originals."""
    paths = set(IN_REPO.findall(INSTALL))
    deployed = re.findall(rf"{re.escape(DEPLOYED)}([\w./-]*\w)", INSTALL)
    return paths | {f"deploy/{path}" for path in deployed}


def test_every_repository_path_the_install_doc_names_exists() -> None:
    paths = named_paths()
    assert "requirements/table.txt" in paths and "deploy/tablectl.service" in paths
    missing = sorted(path for path in paths if not (ROOT / path).exists())
    assert not missing, f"docs/install.md names files the repository does not have: {missing}"


def test_the_install_doc_installs_every_deploy_file_from_the_deployed_folder() -> None:
    shipped = {str(p.relative_to(ROOT)) for p in (ROOT / "deploy").rglob("*") if p.is_file()}
    installed = {path for path in named_paths() if path.startswith("deploy/")}
    named_deployed = {f"deploy/{p}" for p in re.findall(rf"{DEPLOYED}([\w./-]*\w)", INSTALL)}
    assert shipped <= named_deployed, sorted(shipped - named_deployed)
    assert named_deployed <= installed


def test_the_install_doc_installs_the_lock_with_hashes_then_the_wheel_alone() -> None:
    lock = INSTALL.index("pip install --require-hashes -r")
    wheel = INSTALL.index("pip install --no-deps")
    assert lock < wheel
    assert "'.[pi]'" not in INSTALL and "git clone" not in INSTALL  # the wheel, not a checkout


def uncommented_pit() -> str:
    return PIT_LINE.sub(r"\1", EXAMPLE)


def test_the_example_carries_the_pit_section_commented_out_each_key_explained() -> None:
    lines = PIT_LINE.findall(EXAMPLE)
    assert len(lines) == 1 + len(PIT_KEYS), lines
    assert all(" # " in line for line in lines), "a [pit] key without its why"
    assert parse_config(EXAMPLE, source="t.toml").pit is None  # off as shipped
    assert set(tomllib.loads(uncommented_pit())["pit"]) <= set(SCHEMA)


def test_the_example_pit_section_uncommented_passes_config_check(tmp_path: Path) -> None:
    """Step 10: the CA certificate copied to /etc/tablectl and the section turned on; here
    both files the check looks for are in a temporary folder instead."""
    ca_file = tmp_path / "floor-ca.crt"
    ca_file.write_text("-----BEGIN CERTIFICATE-----\n")
    text = (
        uncommented_pit()
        .replace("/etc/tablectl/floor-ca.crt", str(ca_file))
        .replace("/var/lib/tablectl/bj-01.sqlite", str(tmp_path / "bj-01.sqlite"))
    )
    config = tmp_path / "table.toml"
    config.write_text(text)
    pit = parse_config(text, source=str(config)).pit
    assert pit is not None and pit.broker == "mqtts://pit.floor.lan:8883"
    assert pit.username == "bj-01" and pit.ca_file == str(ca_file)
    result = subprocess.run(
        [sys.executable, "-m", "controller.app.cli", "config", "check", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
