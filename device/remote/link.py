"""The remote-play protocol between two boxes (docs/remote.md).

**Pairing** (``pairing``, ``rendezvous``): the host publishes its SPAKE2 message on the rendezvous topic its
code's nameplate names (retained); the guest answers with its own and a key confirmation; the host checks it and
confirms in turn. Either box that finds the other did not use its code says so at once ("wrong code",
``Table.remote_ended``) and the code is spent. Then both boxes hold the **pinned session** (``Keys``): a game
topic nobody else can name, one key per direction; it is kept in the box's database, so a restarted box takes up
the same session (never a new pairing). From then on a box accepts a message only when the partner's key sealed
it for that very topic.

**Replays**: each sealed message carries its sender's epoch (one more at each start of its link, persisted) and a
sequence number; a message of an older epoch than the partner's latest is dropped, a repeat in the current one
too. Moves are idempotent by version, snapshots only ever add moves, so what a replay could still bring changes
nothing.

**Presence**: a sealed heartbeat every BEAT seconds from each box, carrying a fresh nonce and the partner's last
nonce: the partner is there while its heartbeats answer ours (a replayed heartbeat answers an old nonce and
counts for nothing); a box going away says so (its sealed will, or a last word when it closes cleanly).

**The game**: the host sequences it. Its own moves are applied, committed to its database and then published;
the guest's moves are *proposed* (with the version they were made against), checked (seat B's own moves only, at
the host's version, by the rules), committed by the host and published back as moves. Each box commits a move
before it shows it. Each box holds only its own seat's side of the key (``secret``): a guess of seat A is
resolved on the guest's box, which answers only a legal guess of seat A at its current move, one card per move.

Topics, under ``duetbox/g/<32 hex>/<sender's role>/``, every payload sealed by its sender:
- guest: ``hello`` (its one-time public key, until the set-up comes), ``propose`` ``{v, a, left}``, ``resolved``
  ``{v, card, id}``, ``facts`` ``{v, left}``;
- host: ``setup`` (retained until the guest has it: the set-up without the key, seat B's side sealed to the
  guest's one-time key), ``move`` ``{v, a, id, left}``, ``snapshot`` (retained: every move with its facts),
  ``refuse`` ``{v, why}`` (a proposal not played; "OutOfStep" when it was not made at the host's version),
  ``resolve`` ``{v, card}``;
- both: ``beat`` (heartbeat), ``gone`` (the will), ``cursor``, ``reveal`` (retained, once the game is over:
  the box's own side), ``got`` (the partner's side has arrived), ``abandon`` (retained: the game is abandoned).
Every retained topic is cleared once its job is done: the set-up when the guest has it, the snapshot and reveal
when the game is over on both boxes, all of them on abandon.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from common.jsonvalue import JsonObject
from device.remote.messages import (
    Beat,
    Colour,
    Cursor,
    Envelope,
    Facts,
    Hello,
    Malformed,
    Move,
    MoveFacts,
    Propose,
    Refuse,
    Resolve,
    Resolved,
    Reveal,
    Setup,
    Snapshot,
    number,
)
from device.remote.pairing import Rejected, Role, Session, open_sealed, seal
from device.remote.rendezvous import Ended, Rendezvous
from device.remote.secret import new_private_key, public_hex
from device.remote.secret import open_sealed as open_side
from device.remote.transport import BrokerConfig, Transport, TransportEvent
from engine.errors import IllegalAction
from engine.seats import Seat

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

log = logging.getLogger("duetbox.remote")

SEAT_OF: dict[Role, Seat] = {"host": "A", "guest": "B"}
#: Seconds between two sends of a proposal (or a hello, or a colour asked) still waiting for its answer.
RESEND = 1.0
#: Seconds a refused proposal is mentioned on the local seat's OLED.
REFUSAL_SECONDS = 3.0
#: Seconds between two heartbeats; the partner is away when none has answered ours for PRESENCE seconds.
BEAT = 1.0
PRESENCE = 3.5
#: Seconds without reaching the broker before the waiting screens say so; without the host's part of the
#: pairing under the code's nameplate before the guest's screen says "no game under this code".
BROKER_TIMEOUT = 10.0
NO_GAME = 15.0
#: One poll handles at most this many messages (a flood waits its turn instead of holding the box).
BATCH = 256
#: Repeats remembered per partner epoch (plenty for a game, bounded).
SEEN_LIMIT = 4096
#: At most one log line this often about messages dropped as not the partner's (a flood writes no flood).
LOG_EVERY = 10.0
#: A move more than this far ahead of a box's version is not kept for later.
AHEAD_LIMIT = 64

#: A parsed message (``device.remote.messages``), as one handler takes it.
M = TypeVar("M")


@dataclass
class Keys:
    """The pinned session of one box (kept in its database): the game topic, both direction keys, the short
    verifier, this box's epoch, the partner's highest epoch seen and (the guest) the card answered per move."""

    role: Role
    topic: str
    host_key: bytes
    guest_key: bytes
    verifier: str
    epoch: int = 0
    partner_epoch: int = 0
    answered: dict[int, int] = field(default_factory=dict)

    @property
    def game(self) -> str:
        return self.topic.rsplit("/", 1)[-1]

    @property
    def send_key(self) -> bytes:
        return self.host_key if self.role == "host" else self.guest_key

    @property
    def recv_key(self) -> bytes:
        return self.guest_key if self.role == "host" else self.host_key

    def dump(self) -> JsonObject:
        return {"role": self.role, "topic": self.topic, "host_key": self.host_key.hex(),
                "guest_key": self.guest_key.hex(), "verifier": self.verifier, "epoch": self.epoch,
                "partner_epoch": self.partner_epoch, "answered": {str(k): v for k, v in self.answered.items()}}

    @classmethod
    def load(cls, saved: object) -> Keys | None:
        """The keys ``dump`` wrote, None when ``saved`` is not such an object."""
        if not isinstance(saved, dict):
            return None
        role, answered = saved.get("role"), saved.get("answered") or {}
        host_key, guest_key = saved.get("host_key"), saved.get("guest_key")
        epoch, partner_epoch = number(saved.get("epoch"), 0, 2**62), number(saved.get("partner_epoch"), 0, 2**62)
        if (role not in ("host", "guest") or not isinstance(host_key, str) or not isinstance(guest_key, str)
                or epoch is None or partner_epoch is None or not isinstance(answered, dict)):
            return None
        try:
            return cls("host" if role == "host" else "guest", str(saved["topic"]), bytes.fromhex(host_key),
                       bytes.fromhex(guest_key), str(saved["verifier"]), epoch, partner_epoch,
                       {int(k): int(str(v)) for k, v in answered.items()})
        except (KeyError, ValueError):
            return None


class Table(Protocol):
    """What the link needs from the box it serves (``device.remote.play.RemotePlay``)."""

    def remote_keep(self, keys: Keys | None) -> None:
        """Keep the pinned session (None: forget it, the game is over or abandoned)."""

    def remote_version(self) -> int | None:
        """The version of the remote game in play here, None before the guest has its set-up."""

    def remote_actions(self) -> list[JsonObject]:
        """Every committed action of the game, in order."""

    def remote_commit(self, version: int, action: JsonObject, *, seat: Seat | None = None) -> None:
        """Apply, commit and show one move (``seat``: the only seat it may be a move of); IllegalAction (state
        unchanged) when it cannot be played."""

    def remote_setup(self, game: str, setup: JsonObject) -> None:
        """The guest received the host's set-up: begin the game (committed) if it is not begun yet."""

    def remote_hello(self, public: str) -> Setup | None:
        """The host: the guest's box is there with its one-time key: deal (once); the set-up message to send."""

    def remote_facts(self, version: int) -> MoveFacts:
        """What this box tells of its own side about move ``version``: ``id`` (the colour of the partner's guess
        there, read on this side) and ``left`` (this side's greens left after it)."""

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        """What the partner's box told of its side: the colour of our guess at ``version``, its greens left."""

    def remote_resolve(self, version: int, card: int) -> Colour | None:
        """The guest: the colour of ``card`` on this box's side, only for a legal guess of seat A at
        ``version`` (its current move); None otherwise."""

    def remote_resolved(self, version: int, card: int) -> None:
        """The host: the colour of seat A's guess has come (``remote_learn`` has it): play the guess."""

    def remote_own_left(self) -> int | None:
        """This side's greens left now (None without a game)."""

    def remote_over(self) -> str | None:
        """This box's side when the game is over (to turn the card over), else None."""

    def remote_reveal(self, side: str) -> bool:
        """The partner's side at the end of the game; False when it cannot be taken yet."""

    def remote_ended(self, why: Ended) -> None:
        """The partner abandoned the game, or the pairing failed (a wrong code): say so, end it here too."""


class RemoteLink:
    """One box's end of a remote game. All methods run in the app thread; ``poll`` does the work.

    Without ``keys`` the link pairs first with ``code``; with ``keys`` (a resumed game) it takes up that session."""

    def __init__(self, role: Role, table: Table, broker: BrokerConfig, *, code: str | None = None,
                 keys: Keys | None = None, now: Callable[[], float] | None = None,
                 wake: Callable[[], None] | None = None, transport: Callable[..., Transport] = Transport) -> None:
        import time

        self.role: Role = role
        self.partner_role: Role = "guest" if role == "host" else "host"
        self.seat = SEAT_OF[role]
        self.remote_seat = SEAT_OF[self.partner_role]
        self.table = table
        self.broker = broker
        self.now = now or time.monotonic
        self._wake = wake
        self._make_transport = transport
        self.code = code
        self.keys = keys
        self.failed: Ended | None = None
        self._seq = 0
        self._seen: set[int] = set()
        self._nonces: list[tuple[str, float]] = []  # heartbeat nonces sent (nonce, when)
        self._partner_nonce: str | None = None
        self._partner_at = float("-inf")  # when a heartbeat of the partner last answered ours
        self._beat_at = float("-inf")
        self._reply_at = float("-inf")
        self.partner_seen = False  # the partner's box has been there at least once since this link opened
        self.partner_cursor: int | None = None
        self.pending: tuple[int, JsonObject] | None = None
        self.resolving: tuple[int, int] | None = None  # the host: (version, card) of seat A's guess sent out
        self.to_resolve: tuple[int, int] | None = None  # the guest: a guess of seat A it cannot answer yet
        self.setup_message: Setup | None = None  # the host: the set-up it dealt (B's side sealed)
        self.private: X25519PrivateKey | None = None  # the guest: its one-time key (until the set-up is opened)
        self.partner_side: str | None = None  # the partner's side, turned over at the end
        self.delivered = False  # the partner has our side (the end of the game: retained topics cleared)
        self._hello_at = 0.0
        self._sent_at = 0.0
        self.refusal: str | None = None  # why the last proposal was not played (shown for REFUSAL_SECONDS)
        self.refused_at = 0.0
        self.ahead: dict[int, Move] = {}
        self.received = 0  # sealed messages of the partner accepted
        self.dropped = 0  # messages refused: not sealed by the partner, a repeat, an old epoch, not legal
        self.overflowed = 0  # messages the network thread dropped unread (over 64 KiB, or a full queue)
        self.downs = 0  # times the broker connection was lost
        self._unlogged = 0
        self._logged_at = float("-inf")
        self._status = ""
        self.started = self.now()
        self.was_up = False  # this box has reached the broker at least once
        self.last_remote_commit: tuple[int, float] | None = None  # (version, monotonic time), for the bench
        self._pairing: Rendezvous | None = None  # before the pairing: the exchange under the code
        if keys is not None:
            keys.epoch += 1  # a new start of this box's end: its messages are newer than any sent before
            table.remote_keep(keys)
            self._open_game()
        else:
            if code is None:
                raise ValueError("a link without a session pairs with a code")
            self._open_rendezvous(code)

    # -- transports --------------------------------------------------------------------------------------------
    def _start(self, transport: Transport, topics: list[str]) -> None:
        self.transport = transport
        transport.on_event = self._wake  # from paho's thread: the app's loop wakes at once
        for topic in topics:
            transport.subscribe(topic)
        transport.start()

    def _open_rendezvous(self, code: str) -> None:
        self._pairing = Rendezvous(self.role, code, publish=self._publish_plain, garbage=self._garbage,
                                   paired=self._paired, failed=self._fail)
        self._start(self._make_transport(self.broker, f"duetbox-{self.role}-{secrets.token_hex(6)}"),
                    self._pairing.topics)

    def _publish_plain(self, topic: str, payload: bytes, *, retain: bool = False, wait: float = 0.0) -> None:
        self.transport.publish(topic, payload, retain=retain, wait=wait)

    def _open_game(self) -> None:
        keys = self.keys
        assert keys is not None
        will = (self._topic("gone"), self._sealed("gone", {}))
        transport = self._make_transport(self.broker, f"duetbox-{self.role}-{secrets.token_hex(6)}", will=will)
        self._start(transport, [f"{keys.topic}/{self.partner_role}/#"])

    # -- state -------------------------------------------------------------------------------------------------
    @property
    def paired(self) -> bool:
        return self.keys is not None

    @property
    def game(self) -> str | None:
        """The game's id (its topic), None before the pairing."""
        return self.keys.game if self.keys is not None else None

    @property
    def verifier(self) -> str | None:
        """Four digits both boxes show once paired (the same on both: no one sits between them)."""
        return self.keys.verifier if self.keys is not None else None

    @property
    def connected(self) -> bool:
        return bool(self.transport.connected)

    @property
    def partner_online(self) -> bool:
        return self.paired and self.now() - self._partner_at < PRESENCE

    @property
    def ready(self) -> bool:
        """Both boxes are there: moves may be made."""
        return self.connected and self.partner_online

    @property
    def status(self) -> str:
        """"ready", "partner_offline" (the partner's box is away) or "offline" (this box lost the broker)."""
        if not self.connected:
            return "offline"
        return "ready" if self.partner_online else "partner_offline"

    @property
    def unreachable(self) -> bool:
        """The broker has not been reached for BROKER_TIMEOUT seconds since the link opened."""
        return not self.was_up and self.now() - self.started >= BROKER_TIMEOUT

    @property
    def no_game(self) -> bool:
        """The guest: not paired NO_GAME seconds after reaching the broker (a code mistyped, no host, or a host
        gone that left its half of the exchange behind)."""
        return self.role == "guest" and not self.paired and self.was_up and self.now() - self.started >= NO_GAME

    # -- sealing -----------------------------------------------------------------------------------------------
    def _topic(self, name: str, role: Role | None = None) -> str:
        assert self.keys is not None
        return f"{self.keys.topic}/{role or self.role}/{name}"

    def _sealed(self, name: str, body: JsonObject) -> bytes:
        assert self.keys is not None
        self._seq += 1
        return seal(self.keys.send_key, self._topic(name), dict(body, e=self.keys.epoch, n=self._seq))

    def _publish(self, name: str, body: JsonObject, *, retain: bool = False, qos: int = 1,
                 wait: float = 0.0) -> None:
        if self.keys is not None:
            self.transport.publish(self._topic(name), self._sealed(name, body), retain=retain, qos=qos, wait=wait)

    def _clear(self, name: str, role: Role | None = None) -> None:
        """Empty a retained topic (the broker forgets it)."""
        if self.keys is not None:
            self.transport.publish(self._topic(name, role), b"", retain=True)

    def _garbage(self, why: str) -> None:
        """A message that is not the partner's (or not legal): counted; one log line per LOG_EVERY seconds."""
        self.dropped += 1
        self._unlogged += 1
        now = self.now()
        if now - self._logged_at >= LOG_EVERY:
            log.warning("dropped %d message(s) that were not the partner's or not legal (last: %s)",
                        self._unlogged, why)
            self._unlogged, self._logged_at = 0, now

    def _accept(self, topic: str, payload: bytes) -> tuple[str, JsonObject] | None:
        """(name, message) of a sealed message of the partner, None (counted) for anything else."""
        keys = self.keys
        assert keys is not None
        prefix = f"{keys.topic}/{self.partner_role}/"
        if not topic.startswith(prefix):
            self._garbage("another topic")
            return None
        try:
            message = open_sealed(keys.recv_key, topic, payload)
        except Rejected as exc:
            self._garbage(str(exc))
            return None
        try:
            envelope = Envelope.from_dict(message)
        except Malformed:
            self._garbage("no epoch or sequence number")
            return None
        epoch, seq = envelope.epoch, envelope.seq
        if epoch < keys.partner_epoch:
            self._garbage("a replay of an older start of the partner's box")
            return None
        if epoch > keys.partner_epoch:
            keys.partner_epoch = epoch
            self._seen.clear()
            self.table.remote_keep(keys)
        if seq in self._seen:
            self._garbage("a repeat")
            return None
        if len(self._seen) >= SEEN_LIMIT:
            self._seen.clear()
        self._seen.add(seq)
        self.received += 1
        return topic[len(prefix):], message

    # -- the app thread ----------------------------------------------------------------------------------------
    def poll(self) -> bool:
        """Handle what arrived (at most BATCH messages). True when something changed (draw again)."""
        changed = False
        transport = self.transport  # the pairing may hand over to the game's transport while handling
        for item in transport.poll(BATCH):
            try:
                changed = self._event(item) or changed
            except Exception as exc:  # noqa: BLE001 - no message of the network may take the box down
                log.exception("a message could not be handled")
                self._garbage(f"{type(exc).__name__} while handling it")
            finally:
                if len(item) == 6:  # a message: acknowledged once handled, on the client it came from
                    transport.ack(item[4], item[5])
        overflow = self.transport.overflow
        if overflow:
            self.transport.overflow = 0
            self.overflowed += overflow
            self._garbage(f"{overflow} message(s) too big or beyond the queue, unread")
        now = self.now()
        if self.refusal is not None and now - self.refused_at >= REFUSAL_SECONDS:
            self.refusal = None
            changed = True
        if self.paired and self.connected:
            self._timers(now)
        status = self.status if self.paired else ("unreachable" if self.unreachable else str(self.no_game))
        if status != self._status:
            self._status, changed = status, True
        return changed

    def _timers(self, now: float) -> None:
        if now - self._beat_at >= BEAT:
            self._beat()
        if self.pending is not None and self.ready and now - self._sent_at >= RESEND:
            self._send_pending()
        if self.resolving is not None and self.ready and now - self._sent_at >= RESEND:
            self._send_resolve()
        if self.private is not None and now - self._hello_at >= RESEND:
            self._send_hello()

    def _event(self, item: TransportEvent) -> bool:
        if len(item) != 6:
            if item[0] == "up":
                self._on_up()
            else:
                self.downs += 1
            return True
        topic, payload = item[1], item[2]
        if not payload:
            return False  # a retained topic being emptied
        if not self.paired:
            return self._pairing is not None and self._pairing.handle(topic, payload)
        accepted = self._accept(topic, payload)
        if accepted is None:
            return False
        name, message = accepted
        return self._on_message(name, message)

    def _on_up(self) -> None:
        """(Re)connected: a heartbeat; the host puts its set-up and snapshot back (a restarted broker without
        persistence forgot its retained messages); a waiting proposal goes again."""
        self.was_up = True
        if not self.paired:
            if self._pairing is not None:
                self._pairing.on_up()
            return
        self._beat()
        self._send_state()
        if self.resolving is not None:
            self._send_resolve()
        if self.private is not None:
            self._send_hello()
        self.publish_reveal()

    # -- pairing -----------------------------------------------------------------------------------------------
    def _paired(self, session: Session) -> None:
        """The exchange worked: the pinned session, kept, and the game's topics instead of the rendezvous."""
        self.keys = Keys(self.role, session.topic, session.host_key, session.guest_key, session.verifier, epoch=1)
        self.table.remote_keep(self.keys)
        self._pairing, self.code = None, None
        self.transport.close()
        self._open_game()
        if self.role == "guest":
            self.private = new_private_key()  # one game, one key: the host seals seat B's side to it

    def _fail(self, why: Ended) -> None:
        self.failed = why
        self.table.remote_ended(why)

    # -- the game ----------------------------------------------------------------------------------------------
    def _on_message(self, name: str, message: JsonObject) -> bool:
        both: dict[str, Callable[[JsonObject], bool]] = {
            "beat": _route(Beat.from_dict, self._on_beat), "gone": self._on_gone,
            "cursor": _route(Cursor.from_dict, self._on_cursor), "reveal": _route(Reveal.from_dict, self._on_reveal),
            "got": self._on_got, "abandon": self._on_abandon}
        own = self._host_handlers() if self.role == "host" else self._guest_handlers()
        handler = both.get(name) or own.get(name)
        if handler is None:
            self._garbage(f"no such message: {name[:20]}")
            return False
        try:
            return handler(message)
        except Malformed as exc:  # the partner's key sealed it, but it is not what its name says
            self._garbage(f"a {name} that is not one: {exc}")
            return False

    def _on_beat(self, message: Beat) -> bool:
        if message.nonce is not None:
            self._partner_nonce = message.nonce
        now = self.now()
        was = self.partner_online
        echo = message.echo
        if echo is not None and any(echo == n and now - at < PRESENCE for n, at in self._nonces):
            self._partner_at = now
            self.partner_seen = True
            if not was:  # the partner is back: what it may have missed goes again (retained copies may be gone)
                self._partner_back()
        elif now - self._reply_at >= 0.25:  # the partner does not hear us yet: answer at once
            self._reply_at = now
            self._beat()
        return self.partner_online != was

    def _send_state(self) -> None:
        """What the partner needs to catch up: the host's set-up and snapshot, or the guest's facts; then a move
        still waiting for its answer."""
        if self.role == "host":
            self.publish_setup()
            self.publish_snapshot()
        else:
            self.send_facts()
        if self.pending is not None:
            self._send_pending()

    def _partner_back(self) -> None:
        self._send_state()
        self.publish_reveal()

    def _beat(self) -> None:
        now = self.now()
        nonce = secrets.token_hex(6)
        self._nonces = [(n, at) for n, at in self._nonces if now - at < PRESENCE][-8:] + [(nonce, now)]
        self._beat_at = now
        self._publish(Beat.NAME, Beat(nonce, self._partner_nonce).to_dict(), qos=0)

    def _on_gone(self, _message: JsonObject) -> bool:
        was = self.partner_online
        self._partner_at = float("-inf")
        self.partner_cursor = None
        return was

    def _on_cursor(self, message: Cursor) -> bool:
        self.partner_cursor = message.card
        return True

    def _on_reveal(self, message: Reveal) -> bool:
        self.partner_side = message.side
        taken = self._take_reveal()
        if taken:
            self._publish("got", {})
            self._finished()
        return taken

    def _on_got(self, _message: JsonObject) -> bool:
        if self.table.remote_over() is None:
            return False
        self.delivered = True
        for name in ("reveal", "snapshot", "setup"):  # the game is over on both boxes: the broker forgets it
            self._clear(name)
        self._finished()
        return False

    def _finished(self) -> None:
        if self.delivered and self.partner_side is not None:
            self.table.remote_keep(None)  # both boxes have the whole card: the session is of no more use

    def _on_abandon(self, _message: JsonObject) -> bool:
        self._clear("abandon", self.partner_role)
        for name in ("reveal", "snapshot", "setup"):
            self._clear(name)
        self.table.remote_ended("abandoned")
        return True

    def abandon(self) -> None:
        """This box abandons the game: a sealed word for the partner (retained, for a partner away), and the
        broker forgets the game's other retained messages."""
        for name in ("reveal", "snapshot", "setup"):
            self._clear(name)
        self._publish("abandon", {}, retain=True, wait=1.0)

    # -- the host ----------------------------------------------------------------------------------------------
    def _host_handlers(self) -> dict[str, Callable[[JsonObject], bool]]:
        return {Hello.NAME: _route(Hello.from_dict, self._host_hello),
                Facts.NAME: _route(Facts.from_dict, self._host_facts),
                Resolved.NAME: _route(Resolved.from_dict, self._host_resolved),
                Propose.NAME: _route(Propose.from_dict, self._host_propose)}

    def publish_setup(self) -> None:
        if self.setup_message is not None:
            self._publish(Setup.NAME, self.setup_message.to_dict(), retain=True)

    def publish_snapshot(self) -> None:
        if self.table.remote_version() is not None:
            actions = self.table.remote_actions()
            facts = [self.table.remote_facts(v) for v in range(len(actions))]
            self._publish(Snapshot.NAME, Snapshot(tuple(actions), tuple(facts)).to_dict(), retain=True)

    def publish_reveal(self) -> None:
        """Once the game is over: this box's side, so both boxes show (and keep) the whole card."""
        side = self.table.remote_over()
        if side is not None and not self.delivered:
            self._publish(Reveal.NAME, Reveal(side).to_dict(), retain=True)

    def _take_reveal(self) -> bool:
        return self.partner_side is not None and self.table.remote_reveal(self.partner_side)

    def committed(self, version: int, action: JsonObject) -> None:
        """The host committed a move (its own or the guest's): tell the guest."""
        self._publish(Move.NAME, Move(version, action, self.table.remote_facts(version)).to_dict())
        self.publish_snapshot()
        self._after_commit()

    def _after_commit(self) -> None:
        if self.table.remote_over() is not None:
            self.publish_reveal()
            if self._take_reveal():
                self._publish("got", {})
                self._finished()

    def resolve(self, version: int, card: int) -> None:
        """The host: seat A guesses ``card``; the guest's box reads it on B's side (``remote_resolved``)."""
        self.resolving = (version, card)
        self.refusal = None
        self._send_resolve()

    def _send_resolve(self) -> None:
        if self.resolving is not None:
            self._sent_at = self.now()
            version, card = self.resolving
            self._publish(Resolve.NAME, Resolve(version, card).to_dict())

    def _host_hello(self, message: Hello) -> bool:
        dealt = self.table.remote_hello(message.pub)
        if dealt is not None:
            self.setup_message = dealt
        if self.setup_message is not None and self.setup_message.to == message.pub:
            self.publish_setup()
            self.publish_snapshot()
        return True

    def _host_facts(self, message: Facts) -> bool:
        if self.setup_message is not None:  # the guest has its side: nothing to send it again
            self.setup_message = None
            self._clear(Setup.NAME)
        self.table.remote_learn(message.v, left=message.left)
        return True

    def _host_resolved(self, message: Resolved) -> bool:
        if self.resolving is None or (message.v, message.card) != self.resolving:
            return False
        self.resolving = None
        try:
            self.table.remote_learn(message.v, colour=message.id)
            self.table.remote_resolved(message.v, message.card)
        except (IllegalAction, ValueError) as exc:
            log.error("seat A's guess could not be played (%s)", exc)
            self._refuse(type(exc).__name__)
        return True

    def _host_propose(self, message: Propose) -> bool:
        version = message.v
        current = self.table.remote_version()
        if current is None:
            return False
        if version != current:  # out of step: the guest catches up from the snapshot, and is told
            self.publish_snapshot()
            if version > current:
                self._publish(Refuse.NAME, Refuse(version, "OutOfStep").to_dict())
            return False
        try:
            if message.left is not None:
                self.table.remote_learn(version, left=message.left)
            self.table.remote_commit(version, message.a, seat=self.remote_seat)
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            self._publish(Refuse.NAME, Refuse(version, type(exc).__name__).to_dict())
            return False
        if self.resolving is not None and self.resolving[0] == version:  # the guest's move came first
            self.resolving = None
            self._refuse("StaleAction")
        self.last_remote_commit = (version, self.now())
        self.committed(version, message.a)
        return True

    # -- the guest ---------------------------------------------------------------------------------------------
    def _guest_handlers(self) -> dict[str, Callable[[JsonObject], bool]]:
        return {Setup.NAME: _route(Setup.from_dict, self._open_setup),
                Move.NAME: _route(Move.from_dict, self._guest_move),
                Resolve.NAME: _route(Resolve.from_dict, self._guest_resolve),
                Snapshot.NAME: _route(Snapshot.from_dict, self._guest_snapshot),
                Refuse.NAME: _route(Refuse.from_dict, self._guest_refuse)}

    def propose(self, version: int, action: JsonObject) -> None:
        """A move of the guest's seat: it shows when the host's move comes back (committed on both boxes)."""
        self.pending = (version, action)
        self.refusal = None
        self._send_pending()

    def _send_pending(self) -> None:
        if self.pending is None:
            return
        version, action = self.pending
        self._sent_at = self.now()
        self._publish(Propose.NAME, Propose(version, action, self.table.remote_own_left()).to_dict())

    def _send_hello(self) -> None:
        if self.private is not None:
            self._hello_at = self.now()
            self._publish(Hello.NAME, Hello(public_hex(self.private)).to_dict())

    def send_facts(self) -> None:
        """The guest: B's greens left at its current move (the host needs it after a find on A's side)."""
        version, left = self.table.remote_version(), self.table.remote_own_left()
        if version is not None and left is not None:
            self._publish(Facts.NAME, Facts(version, left).to_dict())

    def _open_setup(self, message: Setup) -> bool:
        if self.private is None or message.to != public_hex(self.private):
            return False  # dealt for another key (or this box has its game already)
        try:
            side = open_side(self.private, message.side).get("B")
        except ValueError as exc:
            log.warning("dropped a set-up: %s", exc)
            return False
        if not isinstance(side, str):
            return False
        assert self.game is not None
        self.table.remote_setup(self.game, dict(message.setup, key={"B": side}))
        self.private = None  # one game, one key: forgotten
        self.send_facts()
        return True

    def _guest_move(self, message: Move) -> bool:
        current = self.table.remote_version()
        if current is None:
            return False
        if current <= message.v < current + AHEAD_LIMIT:
            self.ahead[message.v] = message
        return self._catch_up()

    def _guest_resolve(self, message: Resolve) -> bool:
        self.to_resolve = (message.v, message.card)
        return self._answer()

    def _guest_snapshot(self, message: Snapshot) -> bool:
        current = self.table.remote_version()
        if current is None:
            return False
        mine = self.table.remote_actions()
        if list(message.actions[:len(mine)]) != mine[:len(message.actions)]:
            log.error("the host's snapshot differs from the moves committed here: ignored")
            return False
        for version in range(current, min(len(message.actions), current + AHEAD_LIMIT)):
            self.ahead.setdefault(version, message.move(version))
        return self._catch_up()

    def _guest_refuse(self, message: Refuse) -> bool:
        if self.pending is not None and message.v == self.pending[0]:
            self.pending = None
            self._refuse(message.why)
            return True
        return False

    def _catch_up(self) -> bool:
        """Commit the moves that follow this box's version, in order (kept ones wait for their turn)."""
        changed = False
        for _ in range(AHEAD_LIMIT):
            current = self.table.remote_version()
            if current is None:
                return changed
            for old in [v for v in self.ahead if v < current]:
                del self.ahead[old]  # a duplicate of a committed move
            move = self.ahead.pop(current, None)
            if move is None:
                break
            try:
                self.table.remote_learn(current, colour=move.facts.id)
                if move.facts.left is not None:
                    self.table.remote_learn(current + 1, left=move.facts.left)
                self.table.remote_commit(current, move.a)
            except (IllegalAction, ValueError, KeyError, TypeError) as exc:
                log.error("the host's move %d cannot be played here (%s): waiting for its snapshot", current, exc)
                break
            self.last_remote_commit = (current, self.now())
            changed = True
            self.send_facts()
            self._after_commit()
        self._settle_pending()
        return self._answer() or changed

    def _settle_pending(self) -> None:
        """The guest's proposal waiting when the host's moves have gone past it: the host's own move came first
        when the move committed at its version is not it."""
        if self.pending is not None:
            current = self.table.remote_version()
            if current is not None and current > self.pending[0]:
                version, action = self.pending
                self.pending = None
                if self.table.remote_actions()[version] != action:  # the host's own move came first
                    self._refuse("StaleAction")

    def _answer(self) -> bool:
        """The guest: answer seat A's guess when this box is at its move (it may still be catching up), only a
        legal guess of seat A there, one card per move (a second card asked at the same move gets nothing)."""
        if self.to_resolve is None or self.keys is None:
            return False
        version, card = self.to_resolve
        current = self.table.remote_version()
        if current is None or current < version:
            return False  # answered after the moves before it
        self.to_resolve = None
        if current > version:
            return False  # an old request (a redelivery): that guess is played already
        answered = self.keys.answered.get(version)
        if answered is not None and answered != card:
            self._garbage("a second card asked at the same move")
            return False
        colour = self.table.remote_resolve(version, card)
        if colour is None:
            self._garbage("a colour asked for a guess seat A may not make")
            return False
        if answered is None:
            self.keys.answered = {v: c for v, c in self.keys.answered.items() if v >= version - 4}
            self.keys.answered[version] = card
            self.table.remote_keep(self.keys)  # kept before the answer leaves: a restart asks no second card
        self._publish(Resolved.NAME, Resolved(version, card, colour).to_dict())
        return True

    def _refuse(self, why: str) -> None:
        self.refusal = why
        self.refused_at = self.now()

    # -- both --------------------------------------------------------------------------------------------------
    def cursor(self, card: int) -> None:
        if self.transport.connected:
            self._publish(Cursor.NAME, Cursor(card).to_dict(), qos=0)

    def close(self, *, clean: bool = True) -> None:
        """Leave: a clean close says so first; ``clean=False`` dies like a killed box (the will speaks)."""
        if clean and self.transport.connected:
            if self.paired:
                self._publish("gone", {}, wait=0.5)
            elif self._pairing is not None:
                self._pairing.close()
        self.transport.close(clean=clean)


def _route(parse: Callable[[JsonObject], M], handle: Callable[[M], bool]) -> Callable[[JsonObject], bool]:
    """A handler of raw messages: ``parse`` (``Malformed`` for one that is not what its name says), then
    ``handle`` the typed message."""
    return lambda body: handle(parse(body))


def _json(body: JsonObject) -> bytes:
    import json

    return json.dumps(body, separators=(",", ":")).encode("utf-8")
