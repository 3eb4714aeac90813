"""The documented mosquitto ACL (deploy/mosquitto/tablectl.acl), loaded by a real mosquitto:
a table's ``restricted/rating`` topic reaches the floor view's login only; a subscriber to
everything it may read (surveillance, another table) never receives it."""

from __future__ import annotations

from collections.abc import Callable

from tests.app.pit.test_pit_acl import BASE, USERS, Table, secured
from tests.support.pit import Broker, Recorder

__all__ = ["secured"]  # the fixture, from the ACL's own tests


def test_only_the_floor_view_s_login_reads_the_players_ratings(
    secured: Broker, recorders: Callable[..., Recorder]
) -> None:
    def login(user: str) -> Recorder:
        return recorders(secured.port, "casino/#", username=user, password=USERS[user])

    pit, surveillance, other_table = login("pit"), login("surveillance"), login("bj-02")
    table = Table(secured.port, "bj-01")
    rating = {"kind": "RatingStarted", "payload": {"box": 3, "player": "4000123412341234"}}
    try:
        assert table.connected.wait(10)
        table.send(f"{BASE}/bj-01/restricted/rating", rating)
        table.send(f"{BASE}/bj-01/event", {"sentinel": True})  # after the rating, in order
        assert pit.wait_for(lambda r: len(r.on("/event")) == 1)
        assert surveillance.wait_for(lambda r: len(r.on("/event")) == 1)
        table.send(f"{BASE}/bj-01/witness-probe", {"sentinel": 2})  # surveillance's last
        assert surveillance.wait_for(lambda r: len(r.messages) >= 2)
    finally:
        table.close()
    assert pit.on("/restricted/rating") == [rating]
    assert [t for t, _, _ in surveillance.messages] == [
        f"{BASE}/bj-01/event",
        f"{BASE}/bj-01/witness-probe",
    ]
    assert other_table.messages == []  # a table reads only its own witness
