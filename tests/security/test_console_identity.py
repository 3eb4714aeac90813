"""Who did it: staff in the table config, dealer sign-in handled by the
loop (every row names the dealer, a replay restores them, the touch console is locked
while nobody is signed in), `tablectl secrets` and `tablectl kiosk-url`, and the config
rules that keep the console on loopback unless TLS is configured."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import queue
import shutil
import ssl
import stat
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.app.cli import build_parser, kiosk_url, main, shipped
from controller.app.cli import journal as journal_cli
from controller.app.cli import secrets as secrets_cli
from controller.app.cli.demo import demo_config
from controller.app.config import StaffMember, SupervisorConfig, TableConfig, parse_config
from controller.app.console.auth import COOKIE, HEADER
from controller.app.console.supervisor import hash_pin
from controller.app.console.web import status_server
from controller.app.runtime.table import RunningTable
from controller.app.secrets import read_secret
from controller.errors import ConfigError
from controller.journal.dealers import NOBODY, duties, list_dealers, spans
from controller.ports import (
    ButtonPressed,
    ConsoleAction,
    ConsoleButton,
    DealerSignedIn,
    DealerSignedOut,
)
from tests.needs import missing

DEALER = StaffMember("d07", "Tane Rewi", "dealer", hash_pin("2580", log2_n=10))
EXAMPLE = shipped.example_config("blackjack").read_text()


def config_error(text: str) -> str:
    with pytest.raises(ConfigError) as error:
        parse_config(text, source="t.toml")
    return str(error.value)


def line_of(text: str, needle: str, start: int = 0) -> int:
    return text[: text.index(needle, start)].count("\n") + 1


def test_the_examples_list_their_staff_and_no_shared_pin() -> None:
    config = parse_config(EXAMPLE, source="t.toml")
    assert [(m.id, m.role) for m in config.staff] == [("d01", "dealer"), ("s01", "supervisor")]
    assert config.supervisor == SupervisorConfig(5, 300, 5)
    assert config.console_secret_file == config.journal_path.parent / "console.secret"


def test_the_old_shared_supervisor_pin_is_refused_naming_its_line() -> None:
    text = EXAMPLE.replace(
        "lockout_tries = 5", 'pin_hash = "scrypt$14$8$1$AA==$AA=="\nlockout_tries = 5'
    )
    message = config_error(text)
    assert message.startswith(f"t.toml:{line_of(text, 'pin_hash = ')}: supervisor.pin_hash:")
    assert "[[staff]]" in message


@pytest.mark.parametrize(
    ("old", "new", "key", "words"),
    [
        ('id = "s01"', 'id = "d01"', "id", "listed twice"),
        ('\nrole = "supervisor"', '\nrole = "boss"', "role", "must be one of dealer, supervisor"),
        (
            'role = "supervisor"\npin_hash = "scrypt$14$8$1$xj6E',
            'role = "supervisor"\npin_hash = "2468"  #',
            "pin_hash",
            "tablectl pin-hash",
        ),
        ('name = "Demo Supervisor"', 'name = "Demo Supervisor"\nbadge = 7', "badge", "unknown key"),
        ('id = "s01"', 'id = "s 01"', "id", "letters, digits"),
    ],
)
def test_a_staff_mistake_names_the_entry_key_and_line(
    old: str, new: str, key: str, words: str
) -> None:
    text = EXAMPLE.replace(old, new, 1)
    message = config_error(text)
    second = text.index("[[staff]]", text.index("[[staff]]") + 1)
    where = line_of(text, f"{key} =", second)
    assert message.startswith(f"t.toml:{where}: staff[1].{key}:"), message
    assert words in message


def test_the_console_is_not_served_beyond_loopback_without_tls() -> None:
    text = EXAMPLE.replace('host = "127.0.0.1"', 'host = "0.0.0.0"')
    message = config_error(text)
    assert message.startswith(f"t.toml:{line_of(text, 'host = ')}: display.host:")
    assert "only over TLS" in message and "view_host" in message
    half = text.replace("port = 8080", 'port = 8080\ntls_cert_file = "c.pem"')
    assert "display.tls_key_file: TLS needs both" in config_error(half)
    tls = text.replace(
        "port = 8080", 'port = 8080\ntls_cert_file = "c.pem"\ntls_key_file = "k.pem"'
    )
    assert parse_config(tls).tls_key_file == "k.pem"
    view = EXAMPLE.replace("port = 8080", 'port = 8080\nview_host = "0.0.0.0"\nview_port = 8080')
    assert "display.view_port: must differ" in config_error(view)


# --- the loop: sign-in, the actor of every row, replay, the locked console ------------


def config_for(folder: Path) -> TableConfig:
    config = demo_config("blackjack", folder / "journal.sqlite", port=0)
    return dataclasses.replace(config, staff=(DEALER,))


def step(table: RunningTable, event: object, until: Callable[[], bool]) -> None:
    """Put ``event`` on the queue and wait, event by event (the simulated devices send
    their own), until ``until()`` holds."""
    seen = table.loop.processed
    table.events.put(event)
    deadline = time.monotonic() + 10
    while not until():
        assert table.loop.wait_processed(seen, timeout=max(0.0, deadline - time.monotonic()))
        seen = table.loop.processed


def journaled(table: RunningTable, kind: str, source: str) -> Callable[[], bool]:
    return lambda: any(r.kind == kind and r.source == source for r in table.journal.entries())


def test_rows_name_the_signed_in_dealer_and_a_replay_restores_them(tmp_path: Path) -> None:
    table = RunningTable(config_for(tmp_path), simulate=True, seed=3, serve=False).start()
    try:
        notices = table.loop.notices
        step(
            table,
            ButtonPressed(source="console", button=ConsoleButton.NEXT),
            lambda: len(notices) == 1,
        )
        assert "no dealer is signed in" in notices[-1]["reason"]
        assert table.state["console_locked"] is True
        step(
            table,
            ConsoleAction(source="console", action="no_more_bets", actor="typed"),
            lambda: len(notices) == 2,
        )
        physical = ButtonPressed(source="table", button=ConsoleButton.NEXT)
        step(table, physical, journaled(table, "ButtonPressed", "table"))
        signed_in = DealerSignedIn(source="console", staff_id="d07", name="Tane Rewi")
        step(table, signed_in, journaled(table, "DealerSignedIn", "console"))
        signed = table.journal.last_seq
        press = ButtonPressed(source="console", button=ConsoleButton.NO_MORE_BETS)
        step(table, press, journaled(table, "ButtonPressed", "console"))
        assert table.state["dealer"] == {"id": "d07", "name": "Tane Rewi"}
    finally:
        table.stop()
    table = RunningTable(config_for(tmp_path), simulate=True, seed=3, serve=False).start()
    try:
        assert table.loop.dealer is not None and table.loop.dealer.staff_id == "d07"
        # the devices' hello after the restart, before the dealer signs out (it comes from
        # the simulated shoe's own thread, whenever it is ready)
        started = max(r.seq for r in table.journal.entries() if r.kind == "TableStarted")
        deadline = time.monotonic() + 10
        while True:
            seen = table.loop.processed
            if any(r.kind == "DeviceHello" for r in table.journal.entries(since=started)):
                break
            assert table.loop.wait_processed(seen, timeout=max(0.0, deadline - time.monotonic()))
        signed_out = DealerSignedOut(source="console", staff_id="d07", name="Tane Rewi")
        step(table, signed_out, journaled(table, "DealerSignedOut", "console"))
        assert table.loop.dealer is None
        rows = list(table.journal.entries())
    finally:
        table.stop()
    physical = next(r for r in rows if r.kind == "ButtonPressed" and r.source == "table")
    assert physical.actor is None  # nobody was signed in
    pressed = [r for r in rows if r.kind == "ButtonPressed" and r.source == "console"]
    assert [r.payload["button"] for r in pressed] == ["no_more_bets"]  # not the refused NEXT
    after = [r for r in rows if r.seq > signed and r.kind != "TableStarted"]  # and after
    # the restart, the replay restored the dealer before the devices said hello
    assert after and all(r.actor == "d07" for r in after), [(r.kind, r.actor) for r in after]
    assert not any(r.kind == "ConsoleAction" for r in rows)  # the refused one left no row

    # surveillance: the rounds per dealer, from the sign-in rows
    stretches = duties(rows)
    assert [d.staff_id for d in stretches] == [NOBODY, "d07"]
    assert stretches[1].name == "Tane Rewi" and stretches[1].until
    out = io.StringIO()
    list_dealers(rows, out)
    summary = f"d07 (Tane Rewi): 1 round: {rounds_of(rows, signed)}"
    assert summary in out.getvalue().splitlines(), out.getvalue()


def count(table: RunningTable, kind: str) -> int:
    return sum(1 for r in table.journal.entries() if r.kind == kind)


def rounds_of(rows: list[Any], after: int) -> str:
    return spans(r.round for r in rows if r.seq > after and r.round is not None)


def test_spans_of_rounds() -> None:
    assert spans([7, 1, 2, 3, 3, 9, 10]) == "1-3, 7, 9-10"
    assert spans([]) == "none"


def test_journal_dealers_lists_rounds_per_dealer(tmp_path: Path) -> None:
    """The command itself, on a table's journal file: two dealers, one after the other."""
    table = RunningTable(config_for(tmp_path), simulate=True, seed=3, serve=False).start()
    signed: list[str] = []
    try:
        for staff_id, name in (("d07", "Tane Rewi"), ("d09", "Mere Kahu")):
            signed_in = DealerSignedIn(source="console", staff_id=staff_id, name=name)
            step(table, signed_in, lambda: count(table, "DealerSignedIn") == len(signed) + 1)
            signed.append(staff_id)
            press = ButtonPressed(source="console", button=ConsoleButton.NEXT)
            step(table, press, lambda: count(table, "ButtonPressed") == len(signed))
    finally:
        table.stop()
    args = build_parser().parse_args(["journal", "dealers", str(tmp_path / "journal.sqlite")])
    out = io.StringIO()
    assert journal_cli.run(args, out=out) == 0
    lines = out.getvalue().splitlines()
    assert any(line.startswith("d07 (Tane Rewi): ") for line in lines), lines
    assert any(line.startswith("d09 (Mere Kahu): ") for line in lines), lines
    assert "still signed in" in lines[-1]


# --- the commands ----------------------------------------------------------------------


def write_config(folder: Path) -> Path:
    path = folder / "table.toml"
    path.write_text(
        EXAMPLE.replace('path = "/var/lib/tablectl/bj-01.sqlite"', 'path = "bj.sqlite"')
    )
    return path


def test_secrets_creates_the_console_secret_and_the_journal_key_and_rotates(
    tmp_path: Path,
) -> None:
    config = write_config(tmp_path)
    out = io.StringIO()
    assert secrets_cli.run(argparse.Namespace(config=config, rotate=False), out=out) == 0
    secret = tmp_path / "console.secret"
    assert f"created {secret} (the console secret)" in out.getvalue()
    assert f"created {tmp_path / 'bj.sqlite.key'} (the journal key)" in out.getvalue()
    assert stat.S_IMODE(secret.stat().st_mode) == 0o640
    assert stat.S_IMODE((tmp_path / "bj.sqlite.key").stat().st_mode) == 0o600
    first = read_secret(secret, "x")
    out = io.StringIO()
    assert secrets_cli.run(argparse.Namespace(config=config, rotate=False), out=out) == 0
    assert "kept" in out.getvalue() and read_secret(secret, "x") == first
    out = io.StringIO()
    assert secrets_cli.run(argparse.Namespace(config=config, rotate=True), out=out) == 0
    assert f"rotated {secret}" in out.getvalue() and read_secret(secret, "x") != first

    out = io.StringIO()
    assert kiosk_url.run(argparse.Namespace(config=config), out=out) == 0
    url = out.getvalue().strip()
    assert url == f"http://127.0.0.1:8080/?console={read_secret(secret, 'x').hex()}"


def test_kiosk_url_without_a_secret_is_one_line_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    assert kiosk_url.run(argparse.Namespace(config=config), out=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(tmp_path / "console.secret") in err
    assert "tablectl secrets" in err


def test_config_check_refuses_a_console_secret_others_can_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = write_config(tmp_path)
    assert secrets_cli.run(argparse.Namespace(config=config, rotate=False), out=io.StringIO()) == 0
    (tmp_path / "console.secret").chmod(0o644)
    assert main(["config", "check", str(config)]) != 0
    err = capsys.readouterr().err
    assert "console.secret" in err and "readable by others" in err


# --- the console over TLS, and the read-only address, as the config builds them ---------


def tls_files(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    made = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        capture_output=True,
    )  # fmt: skip
    assert made.returncode == 0, f"openssl made no test certificate: {made.stderr.decode()}"
    return cert, key


def test_the_console_over_tls_and_the_read_only_address(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        missing("openssl (to make a test certificate)")
    cert, key = tls_files(tmp_path)
    text = EXAMPLE.replace(
        'path = "/var/lib/tablectl/bj-01.sqlite"', f'path = "{tmp_path}/bj.sqlite"'
    ).replace(
        "port = 8080",
        f'port = 0\ntls_cert_file = "{cert}"\ntls_key_file = "{key}"\n'
        'view_host = "127.0.0.1"\nview_port = 0',
    )
    events: queue.Queue[Any] = queue.Queue()
    with pytest.raises(ConfigError, match="view_port: must differ"):
        parse_config(text)  # both 0 here: a real config names two ports
    config = dataclasses.replace(
        parse_config(text.replace("view_port = 0", "view_port = 1")), view_port=0
    )
    server = status_server(config, events)
    assert server.console_url is not None and server.console_url.startswith("https://")
    server.start()
    try:
        trust = ssl.create_default_context(cafile=str(cert))
        jar = urllib.request.HTTPCookieProcessor()
        opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=trust), jar)
        with opener.open(server.console_url, timeout=5) as page:  # the kiosk, once
            assert page.url == server.url + "/"
        cookie = next(iter(jar.cookiejar))
        assert cookie.name == COOKIE and cookie.secure  # the cookie goes over TLS only
        request = urllib.request.Request(
            server.url + "/api/console",
            data=json.dumps({"button": "next"}).encode(),
            headers={"Content-Type": "application/json", HEADER: "1"},
        )
        with opener.open(request, timeout=5) as answer:
            assert answer.status == 202
        assert events.get_nowait() == ButtonPressed(source="console", button=ConsoleButton.NEXT)

        view = server.views[0]
        assert view.readonly and view.ssl_context is None and view.console_url is None
        request = urllib.request.Request(
            view.url + "/api/console",
            data=json.dumps({"button": "next"}).encode(),
            headers={"Content-Type": "application/json", HEADER: "1"},
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=5)
        assert refused.value.code in (404, 405)
        refused.value.close()
        with urllib.request.urlopen(view.url + "/", timeout=5) as page:
            assert 'data-mode="surveillance"' in page.read().decode()
        assert events.empty()
    finally:
        server.close()
