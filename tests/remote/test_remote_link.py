"""The protocol without a broker: codes, the SPAKE2 pairing, sealing and padding, the pinned session, and moves
redelivered, duplicated, out of order or not legal (an in-memory broker stands for Mosquitto here)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from device.remote.link import Keys, RemoteLink
from device.remote.messages import MoveFacts
from device.remote.pairing import (
    ALPHABET,
    SEALED_SIZES,
    BadCode,
    Pake,
    Rejected,
    Session,
    new_code,
    normalise,
    open_sealed,
    rendezvous,
    seal,
)
from device.remote.transport import BrokerConfig


def test_codes_use_six_letters_without_look_alikes() -> None:
    code = new_code()
    assert len(code) == 6 and set(code) <= set(ALPHABET)
    assert not set("ILOQ0123456789") & set(ALPHABET)
    assert normalise(" hkm-prt ") == "HKMPRT"
    for bad in ("HKMPR", "HKMPRTX", "HKMPRO", "HKM1RT"):
        with pytest.raises(BadCode):
            normalise(bad)


def test_the_rendezvous_names_only_the_nameplate_and_pake_secrets_match_only_with_the_same_code() -> None:
    assert rendezvous("HKMPRT") == rendezvous("HKXXXX") == "duetbox/pair/HK"  # nothing of the other letters
    host, guest, wrong = Pake("HKMPRT", "host"), Pake("hkmprt", "guest"), Pake("HKMPRS", "guest")
    secret = host.finish(guest.message)
    assert secret == guest.finish(host.message) and len(secret) == 32
    other = Pake("HKMPRT", "host")
    assert other.finish(wrong.message) != wrong.finish(other.message)
    with pytest.raises(Rejected):
        Pake("HKMPRT", "host").finish(b"\x00" * 33)
    a, b = Session.derive(secret), Session.derive(secret)
    assert a == b and a.host_key != a.guest_key and len(a.verifier) == 4 and a.verifier.isdigit()
    assert "HKMPRT" not in a.topic and a.topic.startswith("duetbox/g/")


def test_sealed_messages_are_padded_to_a_few_sizes_and_every_parse_error_is_a_refusal() -> None:
    key, topic = b"k" * 32, "duetbox/g/x/host/move"
    sizes = {len(seal(key, topic, {"x": "y" * n})) for n in (0, 10, 100, 200)}
    assert sizes == {min(SEALED_SIZES)}  # a clue's length, a move's kind: all one size
    assert open_sealed(key, topic, seal(key, topic, {"a": 1})) == {"a": 1}
    with pytest.raises(Rejected):
        open_sealed(key, "duetbox/g/x/host/propose", seal(key, topic, {"a": 1}))  # moved to another topic
    with pytest.raises(Rejected):
        open_sealed(b"j" * 32, topic, seal(key, topic, {"a": 1}))
    with pytest.raises(Rejected):
        open_sealed(key, topic, b"\x00" * 300)  # not one of the sizes: not even decrypted
    # nested too deep for the JSON parser (a RecursionError inside), sealed with the right key
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    deep = b"[" * 60000 + b"]" * 0
    size = max(SEALED_SIZES) - 28
    padded = len(deep).to_bytes(4, "big") + deep + bytes(size - 4 - len(deep))
    with pytest.raises(Rejected):
        open_sealed(key, topic, b"n" * 12 + AESGCM(key).encrypt(b"n" * 12, padded, topic.encode()))


class Broker:
    """An in-memory broker: topics with ``#`` subscriptions, retained messages, delivery on ``pump``."""

    def __init__(self) -> None:
        self.clients: list[FakeTransport] = []
        self.retained: dict[str, bytes] = {}
        self.log: list[tuple[str, bytes]] = []

    def publish(self, topic: str, payload: bytes, retain: bool) -> None:
        self.log.append((topic, payload))
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        for client in self.clients:
            if client.connected and client.wants(topic):
                client.inbox.append(("message", topic, payload, False, 0, 0))


def _matches(pattern: str, topic: str) -> bool:
    return topic.startswith(pattern[:-1]) if pattern.endswith("#") else pattern == topic


class FakeTransport:
    broker: Broker

    def __init__(self, *_: Any, **__: Any) -> None:
        self.inbox: list[tuple[Any, ...]] = []
        self.topics: list[str] = []
        self.connected = False
        self.overflow = 0
        self.broker.clients.append(self)

    def wants(self, topic: str) -> bool:
        return any(_matches(t, topic) for t in self.topics)

    def subscribe(self, topic: str) -> None:
        self.topics.append(topic)

    def start(self) -> None:
        self.connected = True
        self.inbox.append(("up",))
        for topic, payload in self.broker.retained.items():
            if self.wants(topic):
                self.inbox.append(("message", topic, payload, True, 0, 0))

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1, wait: float = 0) -> None:
        self.broker.publish(topic, payload, retain)

    def poll(self, limit: int = 10_000) -> list[tuple[Any, ...]]:
        out, self.inbox = self.inbox[:limit], self.inbox[limit:]
        return out

    def ack(self, mid: int, qos: int) -> None:
        pass

    def close(self, *, clean: bool = True) -> None:
        self.connected = False


class FakeTable:
    """A table that keeps actions in a list (version = how many)."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []
        self.kept: Keys | None = None
        self.ended: list[str] = []
        self.learnt: list[Any] = []
        self.legal_cards = set(range(25))

    def remote_keep(self, keys: Keys | None) -> None:
        self.kept = Keys.load(keys.dump()) if keys is not None else None

    def remote_version(self) -> int | None:
        return len(self.actions)

    def remote_actions(self) -> list[dict[str, Any]]:
        return list(self.actions)

    def remote_commit(self, version: int, action: dict[str, Any], *, seat: str | None = None) -> None:
        from engine.errors import NotYourTurn

        assert version == len(self.actions)
        if seat is not None and action.get("seat", seat) != seat:
            raise NotYourTurn("not that seat")
        self.actions.append(action)

    def remote_setup(self, game: str, setup: dict[str, Any]) -> None:
        pass

    def remote_hello(self, public: str) -> dict[str, Any] | None:
        return None

    def remote_facts(self, version: int) -> MoveFacts:
        return MoveFacts(left=9)

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        self.learnt.append((version, colour, left))

    def remote_resolve(self, version: int, card: int) -> str | None:  # this side: card 7 green, others not
        return None if card not in self.legal_cards else ("G" if card == 7 else "N")

    def remote_resolved(self, version: int, card: int) -> None:
        self.resolved = (version, card)

    def remote_own_left(self) -> int | None:
        return 9

    def remote_over(self) -> str | None:
        return None

    def remote_reveal(self, side: str) -> bool:
        return False

    def remote_ended(self, why: str) -> None:
        self.ended.append(why)


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _transport() -> type[FakeTransport]:
    broker = Broker()
    return type("T", (FakeTransport,), {"broker": broker})


def pump(*links: RemoteLink, rounds: int = 6) -> None:
    for _ in range(rounds):
        for link in links:
            link.poll()


def _pair(code: str = "HKMPRT", guest_code: str | None = None) -> tuple[RemoteLink, RemoteLink, FakeTable,
                                                                        FakeTable, Clock, Broker]:
    transport, clock = _transport(), Clock()
    host_table, guest_table = FakeTable(), FakeTable()
    host = RemoteLink("host", host_table, BrokerConfig(), code=code, now=clock, transport=transport)
    pump(host)
    guest = RemoteLink("guest", guest_table, BrokerConfig(), code=guest_code or code, now=clock, transport=transport)
    pump(host, guest)
    return host, guest, host_table, guest_table, clock, transport.broker


def test_pairing_with_the_right_code_pins_one_session_and_leaves_nothing_retained_on_the_rendezvous() -> None:
    host, guest, host_table, guest_table, _, broker = _pair()
    assert host.paired and guest.paired and host.keys is not None and guest.keys is not None
    assert host.keys.topic == guest.keys.topic and host.verifier == guest.verifier
    assert host_table.kept is not None and guest_table.kept is not None  # kept in the database for a restart
    assert not [t for t in broker.retained if "/pair/" in t]
    assert host.ready and guest.ready  # the heartbeats answered each other
    # the rendezvous carried two SPAKE2 messages and confirmations: no word, no key, no game topic
    pairing = b"".join(p for t, p in broker.log if "/pair/" in t)
    assert host.keys.topic.encode() not in pairing and host.keys.host_key.hex().encode() not in pairing


def test_a_wrong_code_fails_once_on_both_boxes_and_the_code_is_spent() -> None:
    host, guest, host_table, guest_table, _, broker = _pair("HKMPRT", "HKMPRS")
    assert not host.paired and not guest.paired
    assert host_table.ended == ["wrong_code"] and guest_table.ended == ["wrong_code"]
    assert not broker.retained  # the host's half of the exchange is gone: nobody can try again on it
    again = RemoteLink("guest", FakeTable(), BrokerConfig(), code="HKMPRT", transport=type(guest.transport))
    pump(host, again)
    assert not again.paired and not host.paired


def test_the_code_known_after_the_pairing_gives_nothing_and_a_link_resumes_its_pinned_session() -> None:
    host, guest, host_table, guest_table, clock, broker = _pair()
    # a third box with the code, after the pairing: nobody answers it on the rendezvous
    late_table = FakeTable()
    late = RemoteLink("guest", late_table, BrokerConfig(), code="HKMPRT", now=clock, transport=type(host.transport))
    pump(host, guest, late)
    clock.t += 20
    pump(late)
    assert not late.paired and late.no_game
    # the guest restarts: the same session from its database (a higher epoch), no pairing
    guest.close(clean=False)
    assert guest_table.kept is not None
    again = RemoteLink("guest", guest_table, BrokerConfig(), keys=guest_table.kept, now=clock,
                       transport=type(host.transport))
    pump(host, again)
    assert again.paired and again.keys is not None and again.keys.topic == host.keys.topic  # type: ignore[union-attr]
    assert again.keys.epoch == 2 and host.keys.partner_epoch == 2  # type: ignore[union-attr]
    assert again.ready and host.ready


def _paired() -> tuple[RemoteLink, RemoteLink, FakeTable, FakeTable, Clock, Broker]:
    return _pair()


def _sent(broker: Broker, name: str) -> list[tuple[str, bytes]]:
    return [(t, p) for t, p in broker.log if t.endswith("/" + name) and p]


def test_moves_out_of_order_and_duplicated_are_committed_once_in_order() -> None:
    host, guest, host_table, table, _, broker = _paired()
    for v in range(4):
        host_table.actions.append({"type": "stop", "seat": "A", "n": v})
        host.committed(v, {"type": "stop", "seat": "A", "n": v})
    guest.transport.inbox.clear()  # type: ignore[attr-defined]
    moves = _sent(broker, "move")
    order = [moves[2], moves[0], moves[0], moves[3], moves[1], moves[2], moves[1]]
    guest.transport.inbox = [("message", t, p, False, 0, 0) for t, p in order]  # type: ignore[attr-defined]
    before = guest.dropped
    guest.poll()
    assert [a["n"] for a in table.actions] == [0, 1, 2, 3]
    assert guest.dropped - before == 3  # the exact repeats were refused as repeats


def test_only_the_partners_key_opens_a_message_and_a_replay_of_an_older_start_is_dropped() -> None:
    host, guest, host_table, table, clock, broker = _paired()
    assert host.keys is not None and guest.keys is not None
    # a message sealed with the guest's own key (a third box that knew the guest's key would be the guest)
    # claiming to be the host's: dropped
    topic = f"{host.keys.topic}/host/move"
    forged = seal(guest.keys.guest_key, topic, {"v": 0, "a": {"type": "stop", "seat": "A"}, "e": 9, "n": 1})
    guest.transport.inbox = [("message", topic, forged, False, 0, 0)]  # type: ignore[attr-defined]
    guest.poll()
    assert table.actions == []
    # the host restarts (epoch 2); a move of its first start replayed afterwards changes nothing
    host_table.actions.append({"type": "stop", "seat": "A"})
    host.committed(0, {"type": "stop", "seat": "A"})
    old_move = _sent(broker, "move")[-1]
    pump(guest)
    assert len(table.actions) == 1
    host.close(clean=False)
    host2 = RemoteLink("host", host_table, BrokerConfig(), keys=host_table.kept, now=clock,
                       transport=type(guest.transport))
    pump(host2, guest)
    assert guest.keys.partner_epoch == 2
    table.actions.clear()
    guest.transport.inbox = [("message", old_move[0], old_move[1], False, 0, 0)]  # type: ignore[attr-defined]
    guest.poll()
    assert table.actions == []


def test_heartbeats_cannot_be_replayed_to_fake_a_partner_that_is_gone() -> None:
    host, guest, host_table, _, clock, broker = _paired()
    beats = _sent(broker, "beat")
    guest_beats = [b for b in beats if "/guest/" in b[0]]
    guest.close(clean=False)
    clock.t += 10
    pump(host)
    assert host.status == "partner_offline"
    # the host restarts (it remembers no sequence number of the guest's): the replayed heartbeats are new to it,
    # of the guest's latest start, sealed by the guest -- and answer nonces this start of the host never sent
    host.close(clean=False)
    host = RemoteLink("host", host_table, BrokerConfig(), keys=host_table.kept, now=clock,
                      transport=type(guest.transport))
    pump(host)
    for _ in range(3):  # replay every heartbeat the guest ever sent, again and again
        host.transport.inbox = [("message", t, p, False, 0, 0) for t, p in guest_beats]  # type: ignore[attr-defined]
        host.poll()
        clock.t += 1
    assert host.status == "partner_offline" and host.received >= len(guest_beats)


def test_the_host_plays_only_the_guests_own_legal_moves_at_its_version_and_says_out_of_step() -> None:
    host, guest, host_table, _, _, broker = _paired()
    guest.propose(0, {"type": "clue", "seat": "A", "number": 1})  # seat A's move from the guest's box
    pump(host, guest)
    assert host_table.actions == [] and guest.refusal == "NotYourTurn"
    guest.propose(5, {"type": "stop", "seat": "B"})  # not at the host's version
    pump(host, guest)
    assert host_table.actions == [] and guest.refusal == "OutOfStep"
    guest.propose(0, {"type": "stop", "seat": "B"})
    guest._send_pending()  # a resend: the same move twice
    pump(host, guest)
    assert host_table.actions == [{"type": "stop", "seat": "B"}]
    snapshots = len(_sent(broker, "snapshot"))
    guest.propose(0, {"type": "penalty"})  # behind the host now: not played, the guest gets the snapshot
    pump(host, guest)
    assert host_table.actions == [{"type": "stop", "seat": "B"}] and len(_sent(broker, "snapshot")) > snapshots


def test_the_guest_answers_only_a_legal_guess_of_seat_a_at_its_move_and_one_card_per_move() -> None:
    """A guess of seat A is read on B's side, on the guest's box: it answers when it has every move before it
    (a request may overtake the move it follows), never a card seat A may not guess, never a second card at the
    same move (the partner's box cannot read B's side by asking), and an old request gets nothing."""
    host, guest, host_table, table, _, broker = _paired()
    table.legal_cards = {7, 8}
    for v in range(2):
        host_table.actions.append({"type": "stop", "seat": "A", "n": v})
        host.committed(v, {"type": "stop", "seat": "A", "n": v})
    host.resolve(2, 7)
    request = _sent(broker, "resolve")[-1]
    waiting = [m for m in guest.transport.inbox if m[0] == "message" and "/resolve" not in m[1]]  # type: ignore[attr-defined]
    guest.transport.inbox = [("message", request[0], request[1], False, 0, 0)]  # type: ignore[attr-defined]
    guest.poll()
    assert not _sent(broker, "resolved")  # the moves before it are not here yet
    guest.transport.inbox = waiting  # type: ignore[attr-defined]
    pump(guest, host)
    answers = [open_sealed(guest.keys.guest_key, t, p) for t, p in _sent(broker, "resolved")]  # type: ignore[union-attr]
    assert [(a["v"], a["card"], a["id"]) for a in answers] == [(2, 7, "G")]
    assert host_table.resolved == (2, 7) and (2, "G", None) in host_table.learnt  # type: ignore[attr-defined]
    # the host's box asks a second card at the same move, and a card seat A may not guess: no answer
    host.resolve(2, 8)
    host.resolve(2, 3)
    pump(guest, host)
    assert len(_sent(broker, "resolved")) == 1
    assert table.kept is not None and table.kept.answered == {2: 7}  # kept: a restart asks no second card


def test_a_flood_is_handled_in_bounded_batches_and_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    host, guest, _, _, _, _ = _paired()
    assert host.keys is not None
    topic = f"{host.keys.topic}/guest/propose"
    junk = [("message", topic, bytes([i % 256]) * 284, False, 0, 0) for i in range(3000)]
    junk += [("message", topic, json.dumps([[]] * 3).encode(), False, 0, 0)]
    host.transport.inbox = junk  # type: ignore[attr-defined]
    caplog.clear()
    host.poll()
    assert len(host.transport.inbox) == len(junk) - 256  # type: ignore[attr-defined]
    for _ in range(20):
        host.poll()
    assert host.dropped >= len(junk)
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) <= 1


def test_a_broken_sealed_message_costs_only_itself_and_an_old_will_replayed_after_a_restart_pauses_nothing() -> None:
    """A sealed message of the partner that cannot be parsed (nested too deep) is dropped alone: the move behind it
    in the same batch is played. The guest's will of an earlier start, replayed after the guest restarted, does
    not mark it away (the epoch is kept in the database on both sides)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    host, guest, host_table, table, clock, broker = _paired()
    assert host.keys is not None
    topic = f"{host.keys.topic}/host/move"
    deep = b"[" * 60000
    size = max(SEALED_SIZES) - 28
    padded = len(deep).to_bytes(4, "big") + deep + bytes(size - 4 - len(deep))
    broken = b"n" * 12 + AESGCM(host.keys.host_key).encrypt(b"n" * 12, padded, topic.encode())
    host_table.actions.append({"type": "stop", "seat": "A"})
    host.committed(0, {"type": "stop", "seat": "A"})
    good = _sent(broker, "move")[-1]
    guest.transport.inbox = [("message", topic, broken, False, 0, 0),  # type: ignore[attr-defined]
                             ("message", good[0], good[1], False, 0, 0)]
    guest.poll()
    assert table.actions == [{"type": "stop", "seat": "A"}]
    # the guest's will, sealed in its first start; the guest restarts; the old will comes again
    old_will = guest._sealed("gone", {})
    guest.close(clean=False)
    again = RemoteLink("guest", table, BrokerConfig(), keys=table.kept, now=clock, transport=type(host.transport))
    pump(host, again)
    assert host.ready
    host.transport.inbox = [("message", f"{host.keys.topic}/guest/gone", old_will, False, 0, 0)]  # type: ignore[attr-defined]
    host.poll()
    assert host.ready and host.status == "ready"
