"""The table's pit publisher (controller/app/pit/: publisher, cursor, link, privacy, reader,
signing): what a table sends to the broker, and on which topics.

A test goes here when what it asserts is on the table's side: what a subscriber receives,
what is withheld from a public topic, what the broker lets a table write, how the feed
survives an outage, how a message is signed. Tests that run the whole path, table to
broker to floor view, and assert on what the floor shows or raises, are the floor view's
(tests/app/floor/); attacks on a running table or floor are in tests/security/.
test_pit_signing.py checks the signed envelope (controller/app/pit/signing.py) with both
its readers, the floor's gate and the table's reading of the pit's witness: it stays whole,
beside the module that makes the envelope.
"""

from tests.support.pit import broker, broker_factory, recorders

__all__ = ["broker", "broker_factory", "recorders"]
