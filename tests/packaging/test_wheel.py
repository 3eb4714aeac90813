"""The wheel is the product: built from the tree, installed (not editable) into a new venv
outside it from the table's lock (requirements/table.txt, hashes required) and then the
wheel alone, every command a new user starts with runs from another folder, with no path
into a checkout.

Built and installed once for the module (about a minute); each command is bounded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from controller.game import names

# the first test also waits for the build and the installs: minutes on a loaded machine
pytestmark = pytest.mark.timeout(900)

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements" / "table.txt"
NOT_THE_PRODUCT = (
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "mutants",
    "tmp",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
)


@dataclass(frozen=True)
class Installed:
    wheel: Path
    bin: Path
    elsewhere: Path  # a folder outside the tree, where the commands run

    def run(self, *args: str, timeout: float = 90.0) -> subprocess.CompletedProcess[str]:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["TMPDIR"] = str(self.elsewhere)
        return subprocess.run(
            [str(self.bin / "tablectl"), *args],
            cwd=self.elsewhere,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def pip(python: Path, *args: str) -> None:
    done = subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", "--quiet", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"pip {' '.join(args)}:\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    work = tmp_path_factory.mktemp("wheel")
    # a copy of the tree, so a stale build/ folder in the checkout cannot leak into the wheel
    source = work / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(*NOT_THE_PRODUCT))
    dist = work / "dist"
    pip(Path(sys.executable), "wheel", "--no-deps", "--wheel-dir", str(dist), str(source))
    (wheel,) = dist.glob("tablectl-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    pip(python, "install", "--require-hashes", "--requirement", str(LOCK))
    pip(python, "install", "--no-deps", str(wheel))
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    yield Installed(wheel, venv / "bin", elsewhere)


def test_it_runs_the_installed_package_not_the_checkout(installed: Installed) -> None:
    where = subprocess.run(
        [str(installed.bin / "python"), "-c", "import controller; print(controller.__file__)"],
        cwd=installed.elsewhere,
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    ).stdout
    assert "site-packages" in where and not where.startswith(str(ROOT))


def test_version_is_pyprojects(installed: Installed) -> None:
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    done = installed.run("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"tablectl {version}"


def test_the_wheel_carries_the_mit_licence(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        licences = [n for n in wheel.namelist() if n.endswith("LICENSE")]
        assert licences, "no LICENSE in the wheel"
        text = wheel.read(licences[0]).decode()
        metadata = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        assert "License-Expression: MIT" in wheel.read(metadata).decode()
    assert text == (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")


@pytest.mark.parametrize("shoe", ["serial", "rfid"])
@pytest.mark.parametrize("game", names())
def test_the_demo_plays_from_the_wheel(installed: Installed, game: str, shoe: str) -> None:
    done = installed.run(
        "demo", "--game", game, "--shoe", shoe, "--rounds", "2", "--pace", "0", "--port", "0"
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"SIMULATED {game} table" in done.stdout
    assert done.stdout.rstrip().endswith("2 rounds played")


@pytest.mark.parametrize("game", names())
def test_each_games_page_drawing_is_read_from_the_wheel(installed: Installed, game: str) -> None:
    """Its spec's page_script is package data, read from the installed package as the
    status server reads it (controller/app/console/game_page.py)."""
    read = (
        "import sys; from controller.app.console.game_page import script_text; "
        "sys.stdout.write(script_text(sys.argv[1]) or '')"
    )
    done = subprocess.run(
        [str(installed.bin / "python"), "-c", read, game],
        cwd=installed.elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "window.tablectl.renderers" in done.stdout


def test_the_rfid_monitor_presents_the_example_deck(installed: Installed) -> None:
    done = installed.run("rfid-monitor", "--sim")
    assert done.returncode == 0, done.stderr[-2000:]
    cards = [line for line in done.stdout.splitlines() if ": card " in line]
    assert len(cards) == 52, done.stdout[-2000:]


def test_the_shoe_conformance_kit_passes_the_simulated_shoe(installed: Installed) -> None:
    done = installed.run("shoe-conformance", "--sim")
    assert done.returncode == 0, (done.stdout + done.stderr)[-2000:]
    assert "fail" not in done.stdout.split()


@pytest.mark.parametrize("game", [*names(), "pit"])
def test_example_config_prints_the_shipped_file(installed: Installed, game: str) -> None:
    done = installed.run("example-config", game)
    assert done.returncode == 0, done.stderr
    name = "pit-floor.toml" if game == "pit" else f"{game}-table.toml"
    assert done.stdout == (ROOT / "examples" / name).read_text()


def test_an_example_config_from_the_wheel_runs_a_table(installed: Installed) -> None:
    """A new user's path: the example written out, then the demo on it (its journal moved to
    a folder that exists; the example's /var/lib/tablectl is the Pi's)."""
    table = installed.elsewhere / "table.toml"
    table.unlink(missing_ok=True)
    done = installed.run("example-config", "baccarat", "--out", str(table))
    assert done.returncode == 0, done.stderr
    journal = installed.elsewhere / "journal.sqlite"
    done = installed.run(
        "demo", "--config", str(table), "--journal", str(journal), "--rounds", "1", "--pace", "0",
        "--port", "0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert journal.exists()


def test_deploy_files_writes_what_the_repository_holds(installed: Installed) -> None:
    target = installed.elsewhere / "deploy"
    done = installed.run("deploy-files", str(target))
    assert done.returncode == 0, done.stderr
    written = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    shipped = sorted(
        str(p.relative_to(ROOT / "deploy")) for p in (ROOT / "deploy").rglob("*") if p.is_file()
    )
    assert written == shipped
    assert {"tablectl.service", "tablectl-kiosk.sh", "mosquitto/tablectl.acl"} <= set(written)
    for name in written:
        assert (target / name).read_bytes() == (ROOT / "deploy" / name).read_bytes()
    assert os.access(target / "tablectl-kiosk.sh", os.X_OK)
