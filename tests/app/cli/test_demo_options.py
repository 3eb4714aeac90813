"""`tablectl demo`: a config's own display port and journal, and the
temporary folders of killed demos removed by the next one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

from controller.app.cli.demo import FOLDER_PREFIX, OWNER_FILE, remove_stale_folders
from sim_hardware.testbed import free_port

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = (ROOT / "examples" / "blackjack-table.toml").read_text()


def demo(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.app.cli", "demo", "--pace", "0", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def first_lines(proc: subprocess.Popen[str], count: int, timeout: float = 60) -> list[str]:
    """The demo's first ``count`` lines of output (read on a thread, with a timeout)."""
    lines: list[str] = []
    done = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if len(lines) >= count:
                break
        done.set()

    threading.Thread(target=read, daemon=True).start()
    assert done.wait(timeout), (lines, proc.poll())
    return lines


def test_demo_with_a_config_uses_its_display_port_and_journal(tmp_path: Path) -> None:
    port = free_port()
    journal = tmp_path / "tables" / "bj.sqlite"
    journal.parent.mkdir()
    text = EXAMPLE.replace("/var/lib/tablectl/bj-01.sqlite", str(journal))
    text = text.replace("port = 8080", f"port = {port}")
    assert f"port = {port}" in text
    config = tmp_path / "table.toml"
    config.write_text(text)
    proc = demo("--config", str(config), "--rounds", "0")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert f"journal {journal}" in out
    assert f"http://127.0.0.1:{port}/" in out
    assert journal.exists()  # the config's journal, kept: the demo did not make its own


def test_a_killed_demo_s_folder_is_removed_by_the_next_demo(tmp_path: Path) -> None:
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    killed = demo("--port", "0", env=env)
    try:
        first_lines(killed, 1)  # "SIMULATED ... journal <folder>/journal.sqlite"
        [left] = tmp_path.glob(FOLDER_PREFIX + "*")
        assert (left / "journal.sqlite").exists()
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.communicate(timeout=30)
    assert left.exists()  # SIGKILL: nothing could remove it
    after = demo("--port", "0", "--rounds", "0", env=env)
    _out, err = after.communicate(timeout=120)
    assert after.returncode == 0, err
    assert not left.exists()
    assert not list(tmp_path.glob(FOLDER_PREFIX + "*"))  # its own too, at its end


def test_only_this_user_s_folders_of_demos_no_longer_running_are_removed(
    tmp_path: Path,
) -> None:
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead_pid = int(ended.stdout)
    folders = {}
    for name, pid in (("dead", dead_pid), ("alive", os.getpid()), ("unmarked", None)):
        folder = tmp_path / f"{FOLDER_PREFIX}{name}"
        folder.mkdir()
        if pid is not None:
            (folder / OWNER_FILE).write_text(f"{pid}\n")
        folders[name] = folder
    (tmp_path / "tablectl-other").mkdir()
    assert remove_stale_folders(tmp_path) == [folders["dead"]]
    assert not folders["dead"].exists()
    assert folders["alive"].exists() and folders["unmarked"].exists()
    assert (tmp_path / "tablectl-other").exists()
