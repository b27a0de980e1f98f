"""The protocol without a broker: pairing codes, sealing, and moves redelivered, duplicated or out of order."""

from __future__ import annotations

import random
from typing import Any

import pytest

from device.remote.link import RemoteLink
from device.remote.pairing import ALPHABET, BadCode, Pairing, Rejected, new_code, normalise
from device.remote.transport import BrokerConfig


def test_codes_use_six_letters_without_look_alikes() -> None:
    code = new_code(random.Random(1))
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert not set("ILOQ0123456789") & set(ALPHABET)
    assert normalise(" hkm-prt ") == "HKMPRT"
    for bad in ("HKMPR", "HKMPRTX", "HKMPRO", "HKM1RT"):
        with pytest.raises(BadCode):
            normalise(bad)


def test_both_boxes_derive_the_same_topic_and_key_and_other_codes_differ() -> None:
    a, b, c = Pairing.derive("HKMPRT"), Pairing.derive("hkmprt"), Pairing.derive("HKMPRS")
    assert a == b and a.key != c.key and a.topic != c.topic
    assert "HKMPRT" not in a.topic and len(a.key) == 32
    sealed = a.seal({"x": "secret words"})
    assert b"secret" not in sealed and b.open(sealed) == {"x": "secret words"}
    with pytest.raises(Rejected):
        c.open(sealed)
    with pytest.raises(Rejected):
        a.open(sealed[:-1] + bytes([sealed[-1] ^ 1]))


class FakeTransport:
    def __init__(self, *_: Any, **__: Any) -> None:
        self.sent: list[tuple[str, bytes, bool]] = []
        self.inbox: list[tuple[Any, ...]] = []
        self.connected = True

    def subscribe(self, topic: str) -> None:
        pass

    def start(self) -> None:
        pass

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.sent.append((topic, payload, retain))

    def poll(self) -> list[tuple[Any, ...]]:
        out, self.inbox = self.inbox, []
        return out

    def close(self, *, clean: bool = True) -> None:
        pass


class FakeTable:
    """A table that keeps actions in a list (version = how many)."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []
        self.commits = 0

    def remote_version(self) -> int | None:
        return len(self.actions)

    def remote_actions(self) -> list[dict[str, Any]]:
        return list(self.actions)

    def remote_commit(self, version: int, action: dict[str, Any]) -> None:
        assert version == len(self.actions)
        self.actions.append(action)
        self.commits += 1

    def remote_setup(self, game: str, setup: dict[str, Any]) -> None:
        pass

    # one key side per box: this table's side is all bystanders but card 7, a green
    def remote_hello(self, public: str) -> dict[str, Any] | None:
        return None

    def remote_facts(self, version: int) -> dict[str, Any]:
        return {"left": 9}

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        self.learnt = getattr(self, "learnt", []) + [(version, colour, left)]

    def remote_resolve(self, version: int, card: int) -> str | None:
        return "G" if card == 7 else "N"

    def remote_resolved(self, version: int, card: int) -> None:
        self.resolved = (version, card)

    def remote_own_left(self) -> int | None:
        return 9

    def remote_over(self) -> str | None:
        return None

    def remote_reveal(self, side: str) -> bool:
        return False


def _pair() -> tuple[RemoteLink, RemoteLink, FakeTable]:
    pairing = Pairing.derive("ABCDEF")
    host = RemoteLink(pairing, "host", FakeTable(), BrokerConfig(), game="g1", setup={}, transport=FakeTransport)
    table = FakeTable()
    guest = RemoteLink(pairing, "guest", table, BrokerConfig(), game="g1", transport=FakeTransport)
    return host, guest, table


def _moves(host: RemoteLink, n: int) -> list[tuple[str, bytes]]:
    out = []
    for v in range(n):
        host.committed(v, {"type": "stop", "seat": "A", "n": v})
    for topic, payload, _ in host.transport.sent:  # type: ignore[attr-defined]
        if topic.endswith("/move"):
            out.append((topic, payload))
    return out


def test_moves_out_of_order_and_duplicated_are_committed_once_in_order() -> None:
    host, guest, table = _pair()
    moves = _moves(host, 4)
    order = [moves[2], moves[0], moves[0], moves[3], moves[1], moves[2], moves[1]]
    guest.transport.inbox = [("message", t, p, False) for t, p in order]  # type: ignore[attr-defined]
    guest.poll()
    assert [a["n"] for a in table.actions] == [0, 1, 2, 3]
    assert table.commits == 4
    assert guest.dropped == 3  # the exact repeats were refused as repeats


def test_a_snapshot_catches_up_a_box_that_was_away_and_an_old_one_changes_nothing() -> None:
    host, guest, table = _pair()
    _moves(host, 3)
    snapshots = [p for t, p, _ in host.transport.sent if t.endswith("/snapshot")]  # type: ignore[attr-defined]
    host.table.actions = [{"type": "stop", "seat": "A", "n": v} for v in range(3)]  # type: ignore[attr-defined]
    host.publish_snapshot()
    last = host.transport.sent[-1][1]  # type: ignore[attr-defined]
    guest.transport.inbox = [("message", "t", last, True)] + \
        [("message", "t", p, True) for p in snapshots]  # type: ignore[attr-defined]
    guest.poll()
    assert [a["n"] for a in table.actions] == [0, 1, 2]
    assert table.commits == 3


def test_a_message_from_another_game_or_claiming_the_wrong_role_is_dropped() -> None:
    pairing = Pairing.derive("ABCDEF")
    other = RemoteLink(pairing, "host", FakeTable(), BrokerConfig(), game="other", transport=FakeTransport)
    fake_guest = RemoteLink(pairing, "guest", FakeTable(), BrokerConfig(), game="g1", transport=FakeTransport)
    _, guest, table = _pair()
    other.committed(0, {"type": "stop", "seat": "A"})
    fake_guest._publish("move", {"k": "move", "v": 0, "a": {"type": "stop", "seat": "A"}})
    sent = other.transport.sent + fake_guest.transport.sent  # type: ignore[attr-defined]
    guest.transport.inbox = [("message", t, p, False) for t, p, _ in sent]  # type: ignore[attr-defined]
    guest.poll()
    assert table.actions == [] and guest.dropped >= 2


def test_a_proposal_overtaken_by_the_hosts_own_move_is_reported_refused_not_lost_silently() -> None:
    host, guest, table = _pair()
    guest.propose(0, {"type": "penalty", "by": "guest"})
    moves = _moves(host, 1)  # the host played its own move at version 0 first
    guest.transport.inbox = [("message", t, p, False) for t, p in moves]  # type: ignore[attr-defined]
    guest.poll()
    assert table.actions == [{"type": "stop", "seat": "A", "n": 0}]
    assert guest.pending is None and guest.refusal == "StaleAction"


def test_the_host_refuses_a_proposal_the_rules_refuse_and_plays_a_legal_one_once() -> None:
    from engine.errors import NotYourTurn

    pairing = Pairing.derive("ABCDEF")

    class Picky(FakeTable):
        def remote_commit(self, version: int, action: dict[str, Any]) -> None:
            if action.get("bad"):
                raise NotYourTurn("no")
            super().remote_commit(version, action)

    table = Picky()
    host = RemoteLink(pairing, "host", table, BrokerConfig(), game="g1", setup={}, transport=FakeTransport)
    guest = RemoteLink(pairing, "guest", FakeTable(), BrokerConfig(), game="g1", transport=FakeTransport)
    guest.propose(0, {"bad": True})
    guest.propose(0, {"type": "stop", "seat": "B"})
    guest._send_pending()  # a resend: the same move twice
    sent = guest.transport.sent  # type: ignore[attr-defined]
    host.transport.inbox = [("message", t, p, False) for t, p, _ in sent]  # type: ignore[attr-defined]
    host.poll()
    assert table.actions == [{"type": "stop", "seat": "B"}]
    kinds = [pairing.open(p)["k"] for t, p, _ in host.transport.sent]  # type: ignore[attr-defined]
    assert kinds.count("refuse") == 1 and kinds.count("move") == 1


def test_the_guest_answers_seat_As_guess_only_at_its_move_and_once_per_request() -> None:
    """A guess of seat A is read on B's side, on the guest's box: it answers when it has every move before it
    (a request may overtake the move it follows), and an old request (a redelivery) gets no answer."""
    host, guest, table = _pair()
    moves = _moves(host, 2)
    host.resolve(2, 7)
    request = host.transport.sent[-1]  # type: ignore[attr-defined]
    guest.transport.inbox = [("message", request[0], request[1], False)]  # type: ignore[attr-defined]
    guest.poll()
    assert not [t for t, _, _ in guest.transport.sent if t.endswith("/resolved")]  # type: ignore[attr-defined]
    guest.transport.inbox = [("message", t, p, False) for t, p in moves]  # type: ignore[attr-defined]
    guest.poll()
    answers = [guest.pairing.open(p) for t, p, _ in guest.transport.sent if t.endswith("/resolved")]  # type: ignore[attr-defined]
    assert [(a["v"], a["card"], a["id"]) for a in answers] == [(2, 7, "G")]
    # the host takes the answer once, for its own request only
    host_table = host.table
    sent = [x for x in guest.transport.sent if x[0].endswith("/resolved")]  # type: ignore[attr-defined]
    host.transport.inbox = [("message", t, p, False) for t, p, _ in sent * 2]  # type: ignore[attr-defined]
    host.poll()
    assert host_table.resolved == (2, 7) and host_table.learnt == [(2, "G", None)]  # type: ignore[attr-defined]
    assert host.resolving is None
