"""Every file of the repository the README names exists: the paths in its prose and the
files its shell commands read (a file a command there writes, with ``--out`` or ``>``,
counts from that command on). Machine paths (``/etc/...``, ``/dev/...``) are the table's,
not the repository's."""

from __future__ import annotations

import glob
import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
TOP = ("examples", "deploy", "docs", "controller", "drivers", "firmware_bridge", "sim_hardware",
       "tests", "tools", "bench", "requirements", ".ci")  # fmt: skip
IN_PROSE = re.compile(rf"(?<![\w./-])((?:{'|'.join(map(re.escape, TOP))})/[\w./*-]*[\w*/])")
FILE_LIKE = re.compile(r"^[\w./*-]+\.(toml|txt|md|py|sh|csv|json|service|acl|conf|png|whl)$")
# what a command writes, named as its output in the README's prose, and the command
MADE = {"bench/results/latest.json": "make bench"}
BUILT = {"make wheel": "dist/"}  # a command in a README block, and the folder it fills


def exists(path: str) -> bool:
    return bool(glob.glob(str(ROOT / path.rstrip("/"))))


def test_every_repository_path_in_the_prose_exists() -> None:
    missing = []
    for path in sorted(set(IN_PROSE.findall(README))):
        if path in MADE:
            line = next(line for line in README.splitlines() if path in line)
            assert MADE[path] in line, f"{path}: the README should say {MADE[path]} makes it"
            continue
        if not exists(path):
            missing.append(path)
    assert not missing, f"the README names paths that do not exist: {missing}"


def shell_blocks() -> list[list[str]]:
    return [block.splitlines() for block in re.findall(r"```sh\n(.*?)```", README, re.S)]


def test_every_file_a_readme_command_reads_exists() -> None:
    missing = []
    for block in shell_blocks():
        made: set[str] = set()
        built: list[str] = []
        for line in block:
            built += [folder for command, folder in BUILT.items() if line.startswith(command)]
            words = shlex.split(line, comments=True)
            for before, word in zip(["", *words], words, strict=False):
                if before in ("--out", ">"):
                    made.add(word)
                    continue
                if word.startswith(("/", "~", "-", "$", *built)) or "://" in word:
                    continue
                if FILE_LIKE.match(word) and word not in made and not exists(word):
                    missing.append(f"{word} (in: {line.strip()})")
    assert not missing, f"README commands read files that do not exist: {missing}"
