"""Fixtures for the pit tests: brokers and recorders that are always stopped at the end."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.pit import Broker, Recorder


@pytest.fixture
def broker_factory(tmp_path: Path) -> Iterator[Callable[..., Broker]]:
    made: list[Broker] = []

    def make(name: str = "broker", extra: str = "") -> Broker:
        broker = Broker(tmp_path / name, extra)
        made.append(broker)
        return broker.start()

    yield make
    for broker in made:
        broker.kill()


@pytest.fixture
def broker(broker_factory: Callable[..., Broker]) -> Broker:
    return broker_factory()


@pytest.fixture
def recorders() -> Iterator[Callable[..., Recorder]]:
    made: list[Recorder] = []

    def make(port: int, topics: str | list[str], **kw: Any) -> Recorder:
        recorder = Recorder(port, topics, **kw)
        made.append(recorder)
        return recorder

    yield make
    for recorder in made:
        recorder.close()
