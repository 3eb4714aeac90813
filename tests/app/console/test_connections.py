"""The web servers' doorway (controller/app/console/connections.py) in parts: the refusal log says a
flood once and then counts it; a connection says when it is overdue (a request head or
body too slow, idle too long, a client that stopped reading). The whole, against real
processes under a low descriptor limit: tests/security/test_idle_connections.py."""

from __future__ import annotations

import asyncio
import logging

import pytest

from controller.app.console.connections import (
    HEADER_SECONDS,
    IDLE_SECONDS,
    LOG_SECONDS,
    STALLED_SECONDS,
    Connection,
    Doorway,
    ProcessBudget,
    RefusalLog,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_flood_of_refusals_is_one_line_then_a_count(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    refusals = RefusalLog("the status display", clock)
    caplog.set_level(logging.WARNING, "controller.app.console.connections")
    for n in range(10_000):
        refusals.refused("an address already holds 16 connections", f"10.0.0.{n % 200}")
        refusals.tick()
    assert len(caplog.records) == 1
    assert "refusing connections" in caplog.records[0].getMessage()
    assert "the first from 10.0.0.0" in caplog.records[0].getMessage()
    clock.now += LOG_SECONDS
    refusals.tick()
    assert len(caplog.records) == 2
    assert "refused 10000 connections in the last 60 s" in caplog.records[1].getMessage()
    clock.now += LOG_SECONDS
    refusals.tick()  # a quiet minute: no line, and the cause is forgotten
    assert len(caplog.records) == 2
    refusals.refused("an address already holds 16 connections", "10.0.0.9")
    assert len(caplog.records) == 3
    assert "refusing connections" in caplog.records[2].getMessage()


class Transport:
    """What `Connection.overdue` reads of a transport: its unsent bytes."""

    def __init__(self) -> None:
        self.unsent = 0

    def get_write_buffer_size(self) -> int:
        return self.unsent


class Content:
    def __init__(self, complete: bool) -> None:
        self.complete = complete

    def at_eof(self) -> bool:
        return self.complete


class Request:
    def __init__(self, complete: bool) -> None:
        self.content = Content(complete)


def connection(clock: Clock) -> tuple[Connection, Transport]:
    doorway = Doorway("test", asyncio.Protocol, clock=clock)
    made = Connection(doorway, "127.0.0.1", asyncio.Protocol())
    transport = Transport()
    made.transport = transport  # type: ignore[assignment]
    made.idle_since = clock()
    return made, transport


def test_a_connection_that_asks_nothing_is_overdue_after_the_idle_time() -> None:
    clock = Clock()
    made, _ = connection(clock)
    clock.now += IDLE_SECONDS - 0.1
    assert made.overdue(clock()) is None
    clock.now += 0.2
    assert made.overdue(clock()) == f"idle for {IDLE_SECONDS:.0f} s"


def test_a_request_head_that_does_not_end_is_overdue_after_the_header_time() -> None:
    clock = Clock()
    made, _ = connection(clock)
    clock.now += 5
    made.data_received(b"GET / HTTP/1.1\r\n")
    clock.now += HEADER_SECONDS - 0.1
    assert made.overdue(clock()) is None
    clock.now += 0.2
    reason = made.overdue(clock())
    assert reason is not None and "head" in reason


def test_a_request_body_that_does_not_come_is_overdue_but_a_long_answer_is_not() -> None:
    clock = Clock()
    made, _ = connection(clock)
    made.request, made.busy_since = Request(complete=False), clock()  # type: ignore[assignment]
    clock.now += HEADER_SECONDS + 0.1
    reason = made.overdue(clock())
    assert reason is not None and "body" in reason
    made.request = Request(complete=True)  # type: ignore[assignment]  # an event stream
    clock.now += 3600
    assert made.overdue(clock()) is None


def test_a_client_that_stops_reading_is_overdue_after_the_stalled_time() -> None:
    clock = Clock()
    made, transport = connection(clock)
    made.request, made.busy_since = Request(complete=True), clock()  # type: ignore[assignment]
    transport.unsent = 65536
    assert made.overdue(clock()) is None
    clock.now += STALLED_SECONDS + 0.1
    reason = made.overdue(clock())
    assert reason is not None and "read nothing" in reason
    transport.unsent = 0  # it read again: the clock starts over
    assert made.overdue(clock()) is None


def test_the_process_budget_is_shared_and_given_back() -> None:
    budget = ProcessBudget()
    budget.limit = 2
    assert budget.take() and budget.take()
    assert not budget.take()
    budget.give_back()
    assert budget.take()
