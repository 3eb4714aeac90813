"""The pit floor view (controller/app/floor/, `tablectl pit`): its store, witness, figures,
alarms, staff and sign-in, shift, boards, words and page.

A test goes here when what it asserts is on the floor's side, including the end-to-end
ones (tables in their own processes, a real mosquitto, the floor page in Chromium): what
they check is what the floor shows, counts or raises, so they live with the floor view.
What a table publishes, whatever reads it, is the publisher's (tests/app/pit/).
"""

from tests.support.pit import broker, broker_factory, recorders

__all__ = ["broker", "broker_factory", "recorders"]
