"""Two boxes of a remote Duet in the seat's-eye harness: the host's box (seat A at its display's bottom edge) and
the guest's box (seat B at its display's top edge), each a ``seatseye.Table`` checked at every frame as its one
player sees it, linked through an in-process broker (``Wire``) and a clock both boxes and both links share.

The wire is the link's transport (``device.remote.link.RemoteLink``'s ``transport``), delivering each message to
the subscribers at once, keeping retained messages, publishing a client's will when its connection dies, and
letting a test cut a box off the broker and let it reconnect (``Wire.cut``, ``Wire.restore``) as paho would; the
link runs on the harness's clock (its ``now``), so heartbeats and presence go by the steps the harness takes,
never by the machine's speed. The boxes are the real apps of ``device.remote.app.remote_app`` on mock hardware.

``Remote.settle`` runs both boxes until neither has anything left to do; ``Remote.wait`` lets time pass on both
(a check of both at every step). What each box must show is checked by the table's own checks with the box's
one seat (``Table.chairs``) and the other box's side as what it must never show (``Table.foreign``).
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seatseye import STEP, Table


def _matches(pattern: str, topic: str) -> bool:
    return topic.startswith(pattern[:-1]) if pattern.endswith("#") else pattern == topic


class Wire:
    """An in-process MQTT broker for the boxes of one test: topics with ``#`` filters, retained messages, wills;
    a message reaches every connected subscriber when it is published (QoS 1: a box offline gets what is
    retained when it is back; what it publishes while offline leaves when it reconnects, as paho queues it)."""

    def __init__(self) -> None:
        self.clients: list[WireTransport] = []
        self.retained: dict[str, bytes] = {}
        self.sent = 0

    def transport(self, _config: Any, client_id: str, *, will: tuple[str, bytes] | None = None) -> WireTransport:
        client = WireTransport(self, client_id, will)
        self.clients.append(client)
        return client

    def publish(self, topic: str, payload: bytes, retain: bool) -> None:
        self.sent += 1
        if retain:
            if payload:
                self.retained[topic] = payload
            else:
                self.retained.pop(topic, None)
        for client in self.clients:
            if client.connected and client.wants(topic):
                client.events.put(("message", topic, payload, False, 0, 1))

    def cut(self, client: WireTransport) -> None:
        """The box's connection dies (a network failure): its will goes out, it sees the broker gone."""
        if client.connected:
            client.connected = False
            client.events.put(("down",))
            if client.will is not None:
                self.publish(client.will[0], client.will[1], False)

    def restore(self, client: WireTransport) -> None:
        """The box reconnects: subscribed afresh, the retained messages come again, its queue leaves."""
        if client.closing or client.connected:
            return
        client.connected = True
        client.events.put(("up",))
        for topic, payload in list(self.retained.items()):
            if client.wants(topic):
                client.events.put(("message", topic, payload, True, 0, 1))
        waiting, client.outbox = client.outbox, []
        for topic, payload, retain in waiting:
            self.publish(topic, payload, retain)


@dataclass
class WireTransport:
    """One box's client on the wire (the interface of ``device.remote.transport.Transport``)."""

    wire: Wire
    client_id: str
    will: tuple[str, bytes] | None
    events: queue.Queue[tuple[Any, ...]] = field(default_factory=queue.Queue)
    connected: bool = False
    closing: bool = False
    overflow: int = 0
    topics: list[str] = field(default_factory=list)
    outbox: list[tuple[str, bytes, bool]] = field(default_factory=list)

    def wants(self, topic: str) -> bool:
        return any(_matches(t, topic) for t in self.topics)

    def subscribe(self, topic: str) -> None:
        self.topics.append(topic)

    def start(self) -> None:
        self.wire.restore(self)

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1, wait: float = 0.0) -> None:
        if self.connected:
            self.wire.publish(topic, payload, retain)
        elif not self.closing:
            self.outbox.append((topic, payload, retain))

    def ack(self, mid: int, qos: int) -> None:
        pass

    def poll(self, limit: int = 10_000) -> list[tuple[Any, ...]]:
        out: list[tuple[Any, ...]] = []
        while len(out) < limit:
            try:
                out.append(self.events.get_nowait())
            except queue.Empty:
                break
        return out

    def wait(self, timeout: float) -> None:
        pass

    def drop(self) -> None:
        self.wire.cut(self)

    def close(self, *, clean: bool = True) -> None:
        if not clean:
            self.wire.cut(self)
        self.closing, self.connected = True, False
        self.outbox = []
        if self in self.wire.clients:
            self.wire.clients.remove(self)


@contextmanager
def linked_on(wire: Wire, clock: Callable[[], float]) -> Iterator[None]:
    """Every remote link opened meanwhile goes through ``wire`` and runs on ``clock`` (the link's own
    parameters, ``transport`` and ``now``, given as its defaults)."""
    from device.remote.link import RemoteLink

    defaults = RemoteLink.__init__.__kwdefaults__
    assert defaults is not None and "transport" in defaults and "now" in defaults, defaults
    saved = dict(defaults)
    defaults.update(transport=wire.transport, now=clock)
    try:
        yield
    finally:
        defaults.clear()
        defaults.update(saved)


@dataclass
class Remote:
    """The host's box and the guest's box of one remote Duet, at one display size (``host``, ``guest``)."""

    tmp: Path
    size: tuple[int, int]
    wire: Wire = field(default_factory=Wire)
    t: float = 1000.0
    tables: list[Table] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.host = self.box("host", "A", seed=1)
        self.guest = self.box("guest", "B", seed=2)

    def clock(self) -> float:
        return self.t

    def box(self, name: str, seat: str, seed: int) -> Table:
        """A box app with remote play, from the data directory ``tmp/name`` (a restart reads what is there)."""
        from device.remote.app import remote_app
        from device.remote.transport import BrokerConfig

        def make(box: Any, storage: Any, seed: int) -> Any:
            storage.set_setting("pack", "en")
            return remote_app(box, storage, broker=BrokerConfig(host="127.0.0.1", port=1), seed=seed)

        other = "B" if seat == "A" else "A"
        table = Table(self.tmp / name, self.size, seed=seed, make_app=make, chairs={seat: 180 if seat == "B" else 0},
                      foreign=lambda: self.side(other), linked=self.settle, waits=self.wait)
        table.box.advance(self.t - table.now)
        self.tables.append(table)
        return table

    @property
    def boxes(self) -> tuple[Table, Table]:
        return self.host, self.guest

    def side(self, seat: str) -> str | None:
        """Seat ``seat``'s side of the key, read on the box that holds it (the host: A's, the guest: B's)."""
        table = getattr(self, "host" if seat == "A" else "guest", None)
        session = table.app.game.session if table is not None else None
        setup = getattr(session, "setup", None) or {}
        side = (setup.get("key") or {}).get(seat)
        return str(side) if side else None

    def link(self, table: Table) -> Any:
        remote = table.app.remote
        return remote.link if remote is not None else None

    def transport(self, table: Table) -> WireTransport:
        client = self.link(table).transport
        assert isinstance(client, WireTransport)
        return client

    # -- time and both boxes ---------------------------------------------------------------------------------
    def settle(self, rounds: int = 40) -> Remote:
        """Step both boxes (each step checked) until neither has an event or a message left."""
        for _ in range(rounds):
            busy = False
            for table in self.boxes:
                link = self.link(table)
                pending = len(table.box.queue) or (link is not None and not link.transport.events.empty())
                busy = busy or bool(pending)
                table.app.step(0)
                table.check()
            if not busy:
                return self
        raise AssertionError("the boxes never settled")

    def wait(self, seconds: float) -> Remote:
        """Let ``seconds`` pass on both boxes and their links, both checked every ``STEP``."""
        left = seconds
        while left > 1e-9:
            dt = min(STEP, left)
            self.t += dt
            left -= dt
            for table in self.boxes:
                table.box.advance(dt)
            self.settle()
        return self

    def until(self, what: str, done: Callable[[], bool], seconds: float = 10.0) -> Remote:
        """Let time pass (a step at a time, both checked) until ``done()``; fail after ``seconds``."""
        waited = 0.0
        self.settle()
        while not done():
            if waited >= seconds:
                raise AssertionError(f"waited {seconds} s for {what}")
            self.wait(STEP)
            waited += STEP
        return self

    def restart(self, name: str) -> Table:
        """The box ``name`` loses its power (no goodbye on the broker) and starts again from its data."""
        old = self.host if name == "host" else self.guest
        seat = "A" if old is self.host else "B"
        old.app.remote.kill()
        new = self.box(name, seat, seed=9)
        if name == "host":
            self.host = new
        else:
            self.guest = new
        return new

    def ok(self) -> None:
        problems = [f"{'host' if t.chairs == {'A': 0} else 'guest'} {p}" for t in self.tables for p in t.problems]
        assert all(t.frames > 0 for t in self.tables)
        assert problems == [], "\n".join(problems[:40]) + f"\n({len(problems)} problems)"

    def close(self) -> None:
        for table in self.tables:
            remote = table.app.remote
            if remote is not None and remote.link is not None:
                remote.close_link(clean=False)
