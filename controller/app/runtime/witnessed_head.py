"""Before it deals, a table reads the head the pit last witnessed for it (docs/mqtt.md,
"Signatures"): a journal that does not reach it was rolled back while the pit watched.

The pit publishes, per table, a retained message under ``<prefix>/<site>/witness/<id>``
with the seq and hash of the head it last took from the table and the hash of that
journal's row 1, signed with the pit's key (`controller.app.floor.verify.Witness`). At the
start the table subscribes to its own, for at most ``[pit] witness_wait`` seconds (a
broker out of reach never stops a table from starting; the log says so), and:

- its journal's last row is below the witnessed seq, or its row at that seq has another
  hash: refused, in one line naming both rows, like any journal that does not check out
  (`tablectl journal reopen` is the way on);
- a message whose signature is not the pit's key (``[pit] pit_public_key``), or that is
  not well formed: logged and ignored;
- a head of another journal (another row 1: a journal reopened): logged, not checked.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
from typing import Any

from controller.app.config import TableConfig
from controller.app.pit.link import make_client
from controller.app.pit.reader import JournalReader
from controller.app.pit.signing import Refused, open_signed, parse_public
from controller.app.runtime.journal_files import REFUSED
from controller.journal.store import JournalCorrupt

log = logging.getLogger(__name__)

HASH = re.compile(r"[0-9a-f]{64}\Z")
WITNESS_MAX = 4096  # bytes: a witness message is about 300


def witness_topic(prefix: str, site: str, table: str) -> str:
    return f"{prefix}/{site}/witness/{table}"


def read_witness(config: TableConfig) -> bytes | None:
    """The retained witness message for this table, or None (none, or no broker within
    ``witness_wait`` seconds: logged). Subscribes, and once subscribed, unsubscribes: the
    broker sends the retained message before it acknowledges the unsubscription, so its
    UNSUBACK says that nothing more is coming."""
    pit = config.pit
    assert pit is not None
    topic = witness_topic(pit.prefix, config.site, config.table_id)
    client, host, port = make_client(pit, f"tablectl-{config.site}-{config.table_id}")
    client.reconnect_delay_set(min_delay=1, max_delay=1)
    found: list[bytes] = []
    done = threading.Event()
    refused: list[str] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            refused.append(str(reason))
            done.set()
        else:
            client.subscribe(topic, qos=1)

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        if message.topic == topic:
            found.append(bytes(message.payload))

    client.on_connect = on_connect
    client.on_message = on_message
    client.on_subscribe = lambda c, *a: c.unsubscribe(topic)
    client.on_unsubscribe = lambda *a: done.set()
    deadline = time.monotonic() + pit.witness_wait
    try:
        client.connect_async(host, port, keepalive=max(5, pit.witness_wait))
        client.loop_start()
        answered = done.wait(max(0.0, deadline - time.monotonic()))
    finally:
        client.disconnect()
        client.loop_stop()
    if refused:
        log.warning("the broker refused the table (%s): the pit's witnessed head is not "
                    "checked", refused[0])  # fmt: skip
        return None
    if not answered:
        log.warning(
            "no answer from the broker %s in %d s: the pit's witnessed head is not checked",
            pit.broker,
            pit.witness_wait,
        )
        return None
    if not found or not found[-1]:
        log.info("the pit has witnessed no head for this table yet (%s)", topic)
        return None
    return found[-1]


def check_witnessed_head(config: TableConfig) -> None:
    """Refuse (`JournalCorrupt`, one line naming both rows) a journal that does not reach
    the head the pit signed for this table; anything less than a good signed witness is
    logged and the table starts."""
    pit = config.pit
    if pit is None or pit.witness_wait == 0:
        return
    if not pit.pit_public_key:
        log.warning("[pit] has no pit_public_key: the head the pit witnessed is not checked")
        return
    payload = read_witness(config)
    if payload is None:
        return
    topic = witness_topic(pit.prefix, config.site, config.table_id)
    head = _witness(topic, payload, pit.pit_public_key)
    if head is None:
        return
    seq, digest, origin = head
    reader = JournalReader(config.journal_path)
    try:
        first, last, ours = reader.first_hash(), reader.last_seq(), reader.hash_at(seq)
    finally:
        reader.close()
    if origin != first:
        log.warning(
            "the pit's witnessed head (row %d) is of another journal (its row 1 %s, this "
            "one's %s: a journal reopened): not checked",
            seq,
            origin[:12],
            first[:12],
        )
        return
    refused = REFUSED.format(config.journal_path)
    if last < seq:
        raise JournalCorrupt(
            last,
            f"the journal ends here, but the pit witnessed row {seq} (hash {digest[:12]}): "
            f"rows were cut off or an older copy put back; {refused}",
        )
    if ours != digest:
        raise JournalCorrupt(
            seq,
            f"hash {str(ours)[:12]}, but the pit witnessed row {seq} with hash {digest[:12]}: "
            f"the journal was rewritten; {refused}",
        )
    log.info("the journal reaches the pit's witnessed head, row %d", seq)


def _witness(topic: str, payload: bytes, public: str) -> tuple[int, str, str] | None:
    """(seq, hash, origin) of a witness the pit signed, else None (logged: ignored)."""
    try:
        if len(payload) > WITNESS_MAX:
            raise Refused(f"it is {len(payload)} bytes")
        body = json.loads(open_signed(topic, payload, parse_public(public, "pit_public_key")))
        seq, digest, origin = body["seq"], body["hash"], body["origin"]
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise Refused(f"its seq {seq!r} is not a row")
        if not isinstance(digest, str) or not HASH.match(digest):
            raise Refused("its hash is not 64 hexadecimal digits")
        if not isinstance(origin, str):
            raise Refused("its origin is not a hash")
    except Refused as exc:
        log.error("the pit's witnessed head on %s is ignored: %s", topic, exc)
        return None
    except (ValueError, KeyError, TypeError):
        log.error("the pit's witnessed head on %s is ignored: it is not well formed", topic)
        return None
    return seq, digest, origin
