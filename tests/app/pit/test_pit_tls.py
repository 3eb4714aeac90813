"""TLS with client certificates against a real mosquitto: each certificate's CN is the
table id (``use_identity_as_username``), so the documented ACL applies to it unchanged
(docs/mqtt.md "Security")."""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.app.pit.publisher import pit_publisher
from controller.app.runtime.journal_files import open_journal
from sim_hardware.testbed import free_port
from tests.support.pit import ROOT, Broker, Recorder, make_config

ACL = ROOT / "deploy" / "mosquitto" / "tablectl.acl"
BASE = "casino/demo-casino/table"


def openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def issue(folder: Path, name: str, ca: str = "ca", *, server: bool = False) -> None:
    """A P-256 key and a certificate for ``name`` signed by ``ca`` (one day)."""
    key, csr, crt = (folder / f"{name}.{ext}" for ext in ("key", "csr", "crt"))
    openssl(
        "req",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        str(key),
        "-out",
        str(csr),
        "-subj",
        f"/CN={name}",
    )
    ext = folder / f"{name}.ext"
    ext.write_text(
        "subjectAltName=IP:127.0.0.1,DNS:localhost\n" if server else "extendedKeyUsage=clientAuth\n"
    )
    openssl(
        "x509",
        "-req",
        "-in",
        str(csr),
        "-CA",
        str(folder / f"{ca}.crt"),
        "-CAkey",
        str(folder / f"{ca}.key"),
        "-CAcreateserial",
        "-out",
        str(crt),
        "-days",
        "1",
        "-extfile",
        str(ext),
    )


@pytest.fixture
def pki(tmp_path: Path) -> Path:
    folder = tmp_path / "pki"
    folder.mkdir()
    openssl(
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-keyout",
        str(folder / "ca.key"),
        "-out",
        str(folder / "ca.crt"),
        "-days",
        "1",
        "-subj",
        "/CN=test floor CA",
    )
    issue(folder, "broker", server=True)
    for name in ("bj-01", "surveillance"):
        issue(folder, name)
    return folder


def test_a_table_publishes_over_tls_with_its_client_certificate(
    tmp_path: Path,
    pki: Path,
    broker_factory: Callable[..., Broker],
    recorders: Callable[..., Recorder],
) -> None:
    broker = broker_factory(
        "tls",
        f"cafile {pki / 'ca.crt'}\ncertfile {pki / 'broker.crt'}\nkeyfile {pki / 'broker.key'}\n"
        "require_certificate true\nuse_identity_as_username true\n"
        f"allow_anonymous false\nacl_file {ACL}\n",
    )
    url = f"mqtts://127.0.0.1:{broker.port}"
    watcher = recorders(
        broker.port,
        "casino/#",
        tls=(pki / "ca.crt", pki / "surveillance.crt", pki / "surveillance.key"),
    )
    config = make_config(tmp_path, "blackjack", "bj-01", url)
    assert config.pit is not None
    pit = dataclasses.replace(
        config.pit,
        ca_file=str(pki / "ca.crt"),
        cert_file=str(pki / "bj-01.crt"),
        key_file=str(pki / "bj-01.key"),
    )
    config = dataclasses.replace(config, pit=pit)
    with open_journal(config.journal_path, create=True) as journal:
        journal.append(
            "CardDrawn", {"card": "AS", "seq": 1, "device_ms": None}, source="shoe", round=1
        )
        publisher = pit_publisher(config).start()
        try:
            assert publisher.wait_acknowledged(1, 15)
            assert watcher.wait_for(lambda r: [e["seq"] for e in r.on("/event")] == [1])
        finally:
            publisher.close()
    assert watcher.on("/event")[0]["payload"]["card"] == "AS"


def test_the_example_broker_config_serves_tables_over_tls_under_the_acl(
    tmp_path: Path, pki: Path
) -> None:
    """deploy/mosquitto/mosquitto.conf as shipped, only its paths and ports changed."""
    folder = tmp_path / "example"
    folder.mkdir()
    passwords = folder / "passwd"
    subprocess.run(
        ["mosquitto_passwd", "-b", "-c", str(passwords), "bj-01", "pw-1"],
        check=True,
        capture_output=True,
    )
    tls_port = free_port()
    text = (ROOT / "deploy" / "mosquitto" / "mosquitto.conf").read_text()
    for old, new in {
        "/etc/mosquitto/tablectl.passwd": str(passwords),
        "/etc/mosquitto/tablectl.acl": str(ACL),
        "/etc/mosquitto/certs/floor-ca.crt": str(pki / "ca.crt"),
        "/etc/mosquitto/certs/broker.crt": str(pki / "broker.crt"),
        "/etc/mosquitto/certs/broker.key": str(pki / "broker.key"),
        "/var/lib/mosquitto/": f"{folder}/",
        "listener 8883": f"listener {tls_port} 127.0.0.1",
        "listener 1883 127.0.0.1": f"listener {free_port()} 127.0.0.1",
    }.items():
        assert old in text, old
        text = text.replace(old, new)
    broker = Broker(
        folder, whole=text.replace("listener 1883 127.0.0.1", f"listener {free_port()} 127.0.0.1")
    )
    broker.start()
    try:
        config = make_config(
            tmp_path,
            "blackjack",
            "bj-01",
            f"mqtts://127.0.0.1:{tls_port}",
            username="bj-01",
            password="pw-1",
        )
        assert config.pit is not None
        config = dataclasses.replace(
            config, pit=dataclasses.replace(config.pit, ca_file=str(pki / "ca.crt"))
        )
        with open_journal(config.journal_path, create=True) as journal:
            journal.append("DeviceLost", {"reason": "test"}, source="shoe", round=0)
            publisher = pit_publisher(config).start()
            try:
                assert publisher.wait_acknowledged(1, 15)
            finally:
                publisher.close()
    finally:
        broker.kill()
