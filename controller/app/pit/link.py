"""The pit's MQTT connection as config says it: the broker's URL, a table's topic base,
and a paho client with the credentials and TLS of ``[pit]``. Shared by the table's
publisher (`controller.app.pit.publisher`) and the floor view (`controller.app.floor.view`), so both
read a broker URL and a topic the same way."""

from __future__ import annotations

import argparse
import os
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from controller.app.config import PitConfig
from controller.errors import ConfigError, TableError

PASSWORD_ENV = "TABLECTL_PIT_PASSWORD"  # the floor view's broker password, by default


def parse_broker(url: str) -> tuple[str, int, bool]:
    """``mqtt://host[:1883]`` or ``mqtts://host[:8883]`` -> (host, port, tls)."""
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl") or not parts.hostname:
        raise ConfigError(f"pit.broker: expected mqtt://host[:port] or mqtts://..., not {url!r}")
    tls = parts.scheme in ("mqtts", "ssl")
    try:
        port = parts.port
    except ValueError:  # urllib: "Port out of range 0-65535", or not a number
        raise ConfigError(
            f"pit.broker: {url!r}: the port is not a number from 1 to 65535"
        ) from None
    return parts.hostname, port or (8883 if tls else 1883), tls


def broker_password(args: argparse.Namespace) -> str:
    """The broker password from the environment. A variable named with ``--password-env``,
    or the default one when a ``--username`` needs a password, must be set: an unset one
    would log in with no password and be refused ("Not authorized") again and again."""
    name = args.password_env or PASSWORD_ENV
    password = os.environ.get(name)
    if password is None:
        if args.password_env is not None:
            raise TableError(f"--password-env names {name}, which is not set")
        if args.username:
            raise TableError(
                f"--username {args.username} needs its password in {name}, which is not set "
                "(or name another variable with --password-env)"
            )
        return ""
    return password


def topic_base(prefix: str, site: str, table_id: str) -> str:
    """``<prefix>/<site>/table/<id>``; a part MQTT would read as a wildcard or a level is
    refused, naming it, so no table publishes under another's topics."""
    for name, value in (("prefix", prefix), ("site", site), ("table id", table_id)):
        if not value or any(c in value for c in "+#\0") or (name != "prefix" and "/" in value):
            raise ConfigError(f"the {name} {value!r} cannot be part of an MQTT topic")
    return f"{prefix}/{site}/table/{table_id}"


def make_client(
    pit: PitConfig, client_id: str, *, clean_session: bool = True
) -> tuple[mqtt.Client, str, int]:
    """A paho client with the credentials and TLS of ``pit`` (not yet connected).
    ``clean_session=False``: the broker keeps the client's QoS 1 messages while it is away
    (the floor view's persistent session)."""
    host, port, tls = parse_broker(pit.broker)
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv311,
        clean_session=clean_session,
    )
    if pit.username:
        client.username_pw_set(pit.username, pit.password or None)
    if tls or pit.ca_file or pit.cert_file:
        client.tls_set(
            ca_certs=pit.ca_file or None,
            certfile=pit.cert_file or None,
            keyfile=pit.key_file or None,
        )
    client.reconnect_delay_set(min_delay=1, max_delay=8)
    return client, host, port
