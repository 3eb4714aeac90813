"""`tablectl journal replay` of a rated table: the `TableStarted` row carries the table's
`[rating]`, so the offline replay rates as the table did (docs/ratings.md)."""

from __future__ import annotations

import dataclasses
import io
import json
import random
from argparse import Namespace
from pathlib import Path

from controller.app.cli import journal as journal_cli
from controller.app.cli.demo import SimHands, act, demo_config, sign_in_dealer
from controller.app.runtime.table import RunningTable
from controller.ports import ConsoleAction
from controller.rating import RatingSettings
from sim_hardware.dealer import BlackjackDealer


def test_the_offline_replay_has_the_tables_open_ratings(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    config = dataclasses.replace(
        demo_config("blackjack", journal, port=0), rating=RatingSettings(enabled=True)
    )
    table = RunningTable(config, simulate=True, serve=False, seed=3).start()
    try:
        sign_in_dealer(table)
        for box in (1, 4):
            table.events.put(
                ConsoleAction(source="console", action="start_rating", args={"box": box})
            )
        dealer = BlackjackDealer(SimHands(table), lambda: table.state, random.Random(4))
        while dealer.rounds_finished < 2:
            act(table, dealer)
        live = table.loop.snapshot()["view"]["rated"]
    finally:
        table.stop()
    out = io.StringIO()
    args = Namespace(journal_command="replay", path=journal, key_file=None, head=None,
                     json=True)  # fmt: skip
    assert journal_cli.run(args, out=out) == 0
    assert live == [{"box": 1, "anonymous": True}, {"box": 4, "anonymous": True}]
    # rated as the table was (a replay that did not rate would have no marks at all): the
    # orderly stop closed both ratings
    assert json.loads(out.getvalue())["view"]["rated"] == []
