"""The pit's staff file (`tablectl pit --staff FILE`): what it takes and how it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.app.floor.staff import load_pit_staff
from controller.app.pin_hashes import check_pin, hash_pin
from controller.errors import ConfigError

ROOT = Path(__file__).resolve().parents[3]
HASH = hash_pin("4821", log2_n=10)


def test_the_example_staff_file_loads_and_its_demo_pins_are_the_ones_it_names() -> None:
    staff = load_pit_staff(ROOT / "examples" / "pit-staff.toml")
    roles = {m.id: (m.role, m.pin_hash) for m in staff.members}
    assert roles.keys() == {"pm01", "sv01"}
    assert roles["pm01"][0] == "pit_manager" and check_pin("3579", roles["pm01"][1])
    assert roles["sv01"][0] == "surveillance" and check_pin("8642", roles["sv01"][1])
    assert staff.lockout.lockout_tries == 5


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (f'[[staff]]\nid = "a1"\nname = "A"\nrole = "dealer"\npin_hash = "{HASH}"\n',
         ":4: staff[0].role: must be one of pit_manager, surveillance, not 'dealer'"),
        ('[[staff]]\nid = "a1"\nname = "A"\nrole = "pit_manager"\npin_hash = "1234"\n',
         ":5: staff[0].pin_hash: pin_hash is not a 'scrypt$...' hash"),
        (f'[[staff]]\nid = "a 1"\nname = "A"\nrole = "pit_manager"\npin_hash = "{HASH}"\n',
         ":2: staff[0].id: 'a 1': letters, digits"),
        (f'[[staff]]\nid = "a1"\nname = "A"\nrole = "pit_manager"\npin_hash = "{HASH}"\n'
         f'[[staff]]\nid = "a1"\nname = "B"\nrole = "surveillance"\npin_hash = "{HASH}"\n',
         "staff[1].id: 'a1' is listed twice"),
        ('[[staff]]\nid = "a1"\nname = "A"\nrole = "pit_manager"\npin = "4821"\n',
         "staff[0].pin: unknown key"),
        ("[lockout]\nlockout_tries = 0\n", "lockout.lockout_tries: must be at least 1"),
        ("[area]\nname = 1\n", "unknown section(s) area"),
    ],
    ids=["table-role", "bad-hash", "bad-id", "twice", "a-pin-in-clear", "lockout", "section"],
)  # fmt: skip
def test_a_staff_file_mistake_is_one_line_naming_the_file_and_key(
    tmp_path: Path, text: str, needle: str
) -> None:
    path = tmp_path / "pit-staff.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_pit_staff(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and needle in message and "\n" not in message
