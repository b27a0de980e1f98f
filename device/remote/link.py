"""The remote-play protocol between two boxes (docs/remote.md).

The host box sequences the game: its own moves are applied, committed to its database and then published; the
guest's moves are *proposed* (with the version they were made against), applied and committed by the host, and
published back as moves. Each box commits a move before it shows it. So there is one order of moves, and a move a
box has shown is in its database.

Each box holds only its own seat's side of the key (``secret``): a guess is read on the clue giver's side, so a
guess of seat A is resolved on the guest's box and one of seat B on the host's, and the colour is sent.

Topics (under ``duetbox/<topic derived from the code>/``), every payload sealed (``pairing``):
- ``hello`` (QoS 1, guest): the guest's one-time public key, resent until the set-up comes;
- ``setup`` (retained, host): the game id, the set-up without the key, and seat B's side sealed to that key;
- ``move`` (QoS 1, host): one committed move, ``{v, a, id, left}``: ``id`` the colour of a guess of seat B on
  A's side, ``left`` A's greens left after it; applied by the guest when ``v`` is its version, kept until its
  turn when ahead (reordered), ignored when behind (a duplicate or a redelivery);
- ``snapshot`` (retained, host): every committed move so far with those facts: a box that was away catches up;
- ``propose`` (QoS 1, guest): ``{v, a, left}`` a move of seat B (and B's greens left); resent until its move
  comes back;
- ``refuse`` (QoS 1, host): the proposal at ``v`` could not be played (the reason, for the guest's screen);
- ``resolve`` (QoS 1, host) ``{v, card}``: seat A guesses ``card``; ``resolved`` (QoS 1, guest) ``{v, card,
  id}``: its colour on B's side; ``facts`` (QoS 1, guest) ``{v, left}``: B's greens left at move ``v``;
- ``reveal/host``, ``reveal/guest`` (retained): a box's own side, sent only once the game is over;
- ``presence/host``, ``presence/guest`` (retained; the will says offline): who is there;
- ``cursor/<role>`` (QoS 0): where the partner's grid cursor stands.

Every sealed message carries the sender's session (random per start) and a sequence number: a repeat is
dropped; the game id and the sender's role are checked; replaying an old move or snapshot changes nothing,
because moves are idempotent by (game, version) and snapshots only ever add moves.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from typing import Any, Literal, Protocol

from device.remote.pairing import Pairing, Rejected
from device.remote.secret import new_private_key, open_sealed, public_hex
from device.remote.transport import BrokerConfig, Transport
from engine.board import DUET as DUET_BOARD
from engine.errors import IllegalAction
from engine.seats import Seat

log = logging.getLogger("duetbox.remote")

Role = Literal["host", "guest"]
SEAT_OF: dict[str, Seat] = {"host": "A", "guest": "B"}
#: Seconds between two sends of a proposal still waiting for its move.
RESEND = 1.0
#: Seconds a refused proposal is mentioned on the local seat's OLED.
REFUSAL_SECONDS = 3.0
#: Remembered (session, seq) pairs per sender session: plenty for a game, bounded.
SEEN_LIMIT = 4096


class Table(Protocol):
    """What the link needs from the box it serves (``device.remote.game.RemoteGame``)."""

    def remote_version(self) -> int | None:
        """The version of the remote game in play here, None before the guest has its set-up."""

    def remote_actions(self) -> list[dict[str, Any]]:
        """Every committed action of the game, in order."""

    def remote_commit(self, version: int, action: dict[str, Any]) -> None:
        """Apply, commit and show one move; IllegalAction (state unchanged) when it cannot be played."""

    def remote_setup(self, game: str, setup: dict[str, Any]) -> None:
        """The guest received the host's set-up: begin the game (committed) if it is not begun yet."""

    def remote_hello(self, public: str) -> dict[str, Any] | None:
        """The host: the guest's box is there with its one-time key: deal (once); the set-up message to send."""

    def remote_facts(self, version: int) -> dict[str, Any]:
        """What this box tells of its own side about move ``version``: ``id`` (the colour of the partner's guess
        there, read on this side) and ``left`` (this side's greens left after it)."""

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        """What the partner's box told of its side: the colour of our guess at ``version``, its greens left."""

    def remote_resolve(self, version: int, card: int) -> str | None:
        """The guest: the colour of ``card`` on this box's side, when seat A guesses it at ``version``."""

    def remote_resolved(self, version: int, card: int) -> None:
        """The host: the colour of seat A's guess has come (``remote_learn`` has it): play the guess."""

    def remote_own_left(self) -> int | None:
        """This side's greens left now (None without a game)."""

    def remote_over(self) -> str | None:
        """This box's side when the game is over (to turn the card over), else None."""

    def remote_reveal(self, side: str) -> bool:
        """The partner's side at the end of the game; False when it cannot be taken yet."""


class RemoteLink:
    """One box's end of a remote game. All methods run in the app thread; ``poll`` does the work."""

    def __init__(self, pairing: Pairing, role: Role, table: Table, broker: BrokerConfig, *,
                 game: str | None = None, setup: dict[str, Any] | None = None,
                 now: Callable[[], float] | None = None, wake: Callable[[], None] | None = None,
                 transport: Callable[..., Transport] = Transport) -> None:
        import time

        self.pairing = pairing
        self.role: Role = role
        self.partner_role: Role = "guest" if role == "host" else "host"
        self.seat = SEAT_OF[role]
        self.remote_seat = SEAT_OF[self.partner_role]
        self.table = table
        self.game = game if game is not None else (secrets.token_hex(8) if role == "host" else None)
        self.setup = setup
        self.now = now or time.monotonic
        self._wake = wake
        self.session = secrets.token_hex(6)
        self._seq = 0
        self._seen: dict[str, set[int]] = {}
        self.partner_online = False
        self.was_up = False  # this box has reached the broker at least once
        self.partner_seen = False  # the partner's box has been there at least once since this box started
        self.partner_cursor: int | None = None
        self.pending: tuple[int, dict[str, Any]] | None = None
        self.resolving: tuple[int, int] | None = None  # the host: (version, card) of seat A's guess sent out
        self.to_resolve: tuple[int, int] | None = None  # the guest: a guess of seat A it cannot answer yet
        self.setup_message: dict[str, Any] | None = None  # the host: the set-up it dealt (B's side sealed)
        self.private: Any = None  # the guest: its one-time key (only until the set-up is opened)
        self.partner_side: str | None = None  # the partner's side, turned over at the end
        self._hello_at = 0.0
        self._sent_at = 0.0
        self.refusal: str | None = None  # why the last proposal was not played (shown for REFUSAL_SECONDS)
        self.refused_at = 0.0
        self.ahead: dict[int, dict[str, Any]] = {}
        self.received = 0  # sealed messages accepted
        self.dropped = 0  # messages refused: not ours, a repeat, another game, a wrong role
        #: (version, monotonic time) of the last move committed here from the partner (bench)
        self.last_remote_commit: tuple[int, float] | None = None
        will = (pairing.sub(f"presence/{role}"), self._seal({"k": "presence", "online": False}))
        self.transport = transport(broker, f"duetbox-{role}-{self.session}", will=will)
        if wake is not None:
            self._hook_wake()
        if role == "guest" and game is None:
            self.private = new_private_key()
        for name in ("hello", "setup", "move", "snapshot", "propose", "refuse", "resolve", "resolved", "facts",
                     f"reveal/{self.partner_role}", f"presence/{self.partner_role}", f"cursor/{self.partner_role}"):
            self.transport.subscribe(pairing.sub(name))
        self.transport.start()

    def _hook_wake(self) -> None:
        transport, wake = self.transport, self._wake
        assert wake is not None
        original = transport.events.put

        def put(item: tuple[Any, ...], *args: Any, **kwargs: Any) -> None:
            original(item, *args, **kwargs)
            wake()

        transport.events.put = put  # type: ignore[method-assign]

    # -- state ---------------------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.transport.connected

    @property
    def ready(self) -> bool:
        """Both boxes are there: moves may be made."""
        return self.transport.connected and self.partner_online

    @property
    def status(self) -> str:
        """"ready", "partner_offline" (the partner's box is away) or "offline" (this box lost the broker)."""
        if not self.transport.connected:
            return "offline"
        return "ready" if self.partner_online else "partner_offline"

    # -- sealing -------------------------------------------------------------------------------------------
    def _seal(self, body: dict[str, Any]) -> bytes:
        self._seq += 1
        message = dict(body, s=self.session, n=self._seq, r=self.role, g=self.game)
        return self.pairing.seal(message)

    def _publish(self, name: str, body: dict[str, Any], *, retain: bool = False, qos: int = 1) -> None:
        self.transport.publish(self.pairing.sub(name), self._seal(body), retain=retain, qos=qos)

    def _accept(self, payload: bytes) -> dict[str, Any] | None:
        try:
            message = self.pairing.open(payload)
        except Rejected as exc:
            log.warning("dropped a message: %s", exc)
            self.dropped += 1
            return None
        session, seq, role = message.get("s"), message.get("n"), message.get("r")
        if not isinstance(session, str) or not isinstance(seq, int) or role not in ("host", "guest"):
            self.dropped += 1
            return None
        if session == self.session:
            return None  # our own message coming back
        seen = self._seen.setdefault(session, set())
        if seq in seen:
            self.dropped += 1
            return None
        if len(seen) >= SEEN_LIMIT:
            seen.clear()
        seen.add(seq)
        game = message.get("g")
        if self.game is not None and game is not None and game != self.game:
            self.dropped += 1
            return None
        self.received += 1
        return message

    # -- the app thread --------------------------------------------------------------------------------------
    def poll(self) -> bool:
        """Handle what arrived. True when something changed (the screen should be drawn again)."""
        changed = False
        for item in self.transport.poll():
            if item[0] == "up":
                self._on_up()
                changed = True
            elif item[0] == "down":
                changed = True
            elif item[0] == "message":
                changed = self._on_message(item[1], item[2]) or changed
        if self.refusal is not None and self.now() - self.refused_at >= REFUSAL_SECONDS:
            self.refusal = None
            changed = True
        if self.pending is not None and self.ready and self.now() - self._sent_at >= RESEND:
            self._send_pending()
        if self.resolving is not None and self.ready and self.now() - self._sent_at >= RESEND:
            self._send_resolve()
        if self.private is not None and self.connected and self.now() - self._hello_at >= RESEND:
            self._send_hello()
        return changed

    def _on_up(self) -> None:
        """(Re)connected: say we are here; the host puts its set-up and snapshot back (a restarted broker
        without persistence forgot its retained messages); a waiting proposal goes again."""
        self.was_up = True
        self._publish(f"presence/{self.role}", {"k": "presence", "online": True}, retain=True)
        if self.role == "host":
            self.publish_setup()
            self.publish_snapshot()
        else:
            self.send_facts()
        if self.pending is not None:
            self._send_pending()
        if self.resolving is not None:
            self._send_resolve()
        if self.private is not None:
            self._send_hello()
        self.publish_reveal()

    def _on_message(self, topic: str, payload: bytes) -> bool:
        message = self._accept(payload)
        if message is None:
            return False
        kind, role = message.get("k"), message.get("r")
        if role != self.partner_role:
            self.dropped += 1
            return False
        if kind == "presence":
            self.partner_online = bool(message.get("online"))
            self.partner_seen = self.partner_seen or self.partner_online
            if not self.partner_online:
                self.partner_cursor = None
            elif self.pending is not None:
                self._send_pending()
            return True
        if kind == "reveal":
            side = message.get("side")
            if isinstance(side, str) and len(side) == DUET_BOARD.cards:
                self.partner_side = side
                return self._take_reveal()
            return False
        if kind == "cursor":
            card = message.get("card")
            if isinstance(card, int) and DUET_BOARD.has(card):
                self.partner_cursor = card
                return True
            return False
        if self.role == "guest":
            return self._guest_message(kind, message)
        return self._host_message(kind, message)

    # -- the host --------------------------------------------------------------------------------------------
    def publish_setup(self) -> None:
        if self.setup_message is not None:
            self._publish("setup", dict(self.setup_message, k="setup"), retain=True)

    def publish_snapshot(self) -> None:
        if self.table.remote_version() is not None:
            actions = self.table.remote_actions()
            facts = [self.table.remote_facts(v) for v in range(len(actions))]
            self._publish("snapshot", {"k": "snapshot", "actions": actions, "facts": facts}, retain=True)

    def publish_reveal(self) -> None:
        """Once the game is over: this box's side, so both boxes show (and keep) the whole card."""
        side = self.table.remote_over()
        if side is not None:
            self._publish(f"reveal/{self.role}", {"k": "reveal", "side": side}, retain=True)

    def _take_reveal(self) -> bool:
        return self.partner_side is not None and self.table.remote_reveal(self.partner_side)

    def committed(self, version: int, action: dict[str, Any]) -> None:
        """The host committed a move (its own or the guest's): tell the guest."""
        self._publish("move", dict(self.table.remote_facts(version), k="move", v=version, a=action))
        self.publish_snapshot()
        self._after_commit()

    def _after_commit(self) -> None:
        if self.table.remote_over() is not None:
            self.publish_reveal()
            self._take_reveal()

    def resolve(self, version: int, card: int) -> None:
        """The host: seat A guesses ``card``; the guest's box reads it on B's side (``remote_resolved``)."""
        self.resolving = (version, card)
        self.refusal = None
        self._send_resolve()

    def _send_resolve(self) -> None:
        if self.resolving is not None:
            self._sent_at = self.now()
            version, card = self.resolving
            self._publish("resolve", {"k": "resolve", "v": version, "card": card})

    def _host_message(self, kind: Any, message: dict[str, Any]) -> bool:
        if kind == "hello":
            return self._host_hello(message)
        if kind == "facts":
            return self._host_facts(message)
        if kind == "resolved":
            return self._host_resolved(message)
        if kind != "propose":
            self.dropped += 1
            return False
        return self._host_propose(message)

    def _host_hello(self, message: dict[str, Any]) -> bool:
        public = message.get("pub")
        if not isinstance(public, str):
            return False
        dealt = self.table.remote_hello(public)
        if dealt is not None:
            self.setup_message = dealt
        if self.setup_message is not None and self.setup_message.get("to") == public:
            self.publish_setup()
            self.publish_snapshot()
        return True

    def _host_facts(self, message: dict[str, Any]) -> bool:
        version, left = message.get("v"), message.get("left")
        if not (isinstance(version, int) and isinstance(left, int)):
            return False
        self.setup_message = None  # the guest has its side: nothing to send it again
        self.table.remote_learn(version, left=left)
        return True

    def _host_resolved(self, message: dict[str, Any]) -> bool:
        version, card, colour = message.get("v"), message.get("card"), message.get("id")
        if self.resolving is None or (version, card) != self.resolving or not isinstance(colour, str):
            return False
        assert isinstance(version, int) and isinstance(card, int)
        self.resolving = None
        try:
            self.table.remote_learn(version, colour=colour)
            self.table.remote_resolved(version, card)
        except (IllegalAction, ValueError) as exc:
            log.error("seat A's guess could not be played (%s)", exc)
            self._refuse(type(exc).__name__)
        return True

    def _host_propose(self, message: dict[str, Any]) -> bool:
        version, action, left = message.get("v"), message.get("a"), message.get("left")
        if not isinstance(version, int) or not isinstance(action, dict):
            self.dropped += 1
            return False
        current = self.table.remote_version()
        if current is None or version > current:
            return False
        if version < current:  # already played (a resend or a redelivery): make sure the guest has it
            self.publish_snapshot()
            return False
        try:
            if isinstance(left, int):
                self.table.remote_learn(version, left=left)
            self.table.remote_commit(version, action)
        except (IllegalAction, ValueError) as exc:
            self._publish("refuse", {"k": "refuse", "v": version, "why": type(exc).__name__})
            return False
        if self.resolving is not None and self.resolving[0] == version:  # the guest's move came first
            self.resolving = None
            self._refuse("StaleAction")
        self.last_remote_commit = (version, self.now())
        self.committed(version, action)
        return True

    # -- the guest -------------------------------------------------------------------------------------------
    def propose(self, version: int, action: dict[str, Any]) -> None:
        """A move of the guest's seat: it shows when the host's move comes back (committed on both boxes)."""
        self.pending = (version, action)
        self.refusal = None
        self._send_pending()

    def _send_pending(self) -> None:
        if self.pending is None:
            return
        version, action = self.pending
        self._sent_at = self.now()
        self._publish("propose", {"k": "propose", "v": version, "a": action, "left": self.table.remote_own_left()})

    def _send_hello(self) -> None:
        self._hello_at = self.now()
        self._publish("hello", {"k": "hello", "pub": public_hex(self.private)})

    def send_facts(self) -> None:
        """The guest: B's greens left at its current move (the host needs it after a find on A's side)."""
        version, left = self.table.remote_version(), self.table.remote_own_left()
        if version is not None and left is not None:
            self._publish("facts", {"k": "facts", "v": version, "left": left})

    def _open_setup(self, message: dict[str, Any]) -> bool:
        setup, game, sealed = message.get("setup"), message.get("g"), message.get("side")
        if not isinstance(setup, dict) or not isinstance(game, str) or not isinstance(sealed, str):
            return False
        if self.private is None or message.get("to") != public_hex(self.private):
            return False  # dealt for another box (or this box has its game already)
        if self.game is None:
            self.game = game
        if game != self.game:
            return False
        try:
            side = open_sealed(self.private, sealed).get("B")
        except ValueError as exc:
            log.warning("dropped a set-up: %s", exc)
            return False
        if not isinstance(side, str):
            return False
        self.table.remote_setup(game, dict(setup, key={"B": side}))
        self.private = None  # one game, one key: forgotten
        self.send_facts()
        return True

    def _guest_message(self, kind: Any, message: dict[str, Any]) -> bool:
        if kind == "setup":
            return self._open_setup(message)
        if kind == "move":
            version, action = message.get("v"), message.get("a")
            if isinstance(version, int) and isinstance(action, dict):
                self.ahead[version] = dict(message)
                return self._catch_up()
            return False
        if kind == "resolve":
            version, card = message.get("v"), message.get("card")
            if isinstance(version, int) and isinstance(card, int) and DUET_BOARD.has(card):
                self.to_resolve = (version, card)
                return self._answer()
            return False
        if kind == "snapshot":
            return self._take_snapshot(message)
        if kind == "refuse":
            version = message.get("v")
            if self.pending is not None and version == self.pending[0]:
                self.pending = None
                self._refuse(str(message.get("why") or "IllegalAction"))
                return True
            return False
        self.dropped += 1
        return False

    def _take_snapshot(self, message: dict[str, Any]) -> bool:
        """The host's whole game (a guest that was away): the moves this box lacks, then caught up."""
        actions, facts = message.get("actions"), message.get("facts")
        if not isinstance(actions, list) or not isinstance(facts, list) or len(facts) != len(actions):
            return False
        current = self.table.remote_version()
        if current is None:
            return False
        mine = self.table.remote_actions()
        if actions[:len(mine)] != mine[:len(actions)]:
            log.error("the host's snapshot differs from the moves committed here: ignored")
            return False
        for version in range(current, len(actions)):
            if isinstance(actions[version], dict) and isinstance(facts[version], dict):
                self.ahead.setdefault(version, dict(facts[version], a=actions[version]))
        return self._catch_up()

    def _catch_up(self) -> bool:
        """Commit the moves that follow this box's version, in order (kept ones wait for their turn)."""
        changed = False
        while True:
            current = self.table.remote_version()
            if current is None:
                return changed
            for old in [v for v in self.ahead if v < current]:
                del self.ahead[old]  # a duplicate of a committed move
            move = self.ahead.pop(current, None)
            if move is None:
                break
            action = move.get("a")
            try:
                colour, left = move.get("id"), move.get("left")
                if not isinstance(action, dict):
                    raise ValueError("a move without its action")
                self.table.remote_learn(current, colour=colour if isinstance(colour, str) else None)
                if isinstance(left, int):
                    self.table.remote_learn(current + 1, left=left)
                self.table.remote_commit(current, action)
            except (IllegalAction, ValueError) as exc:
                log.error("the host's move %d cannot be played here (%s): waiting for its snapshot", current, exc)
                break
            self.last_remote_commit = (current, self.now())
            changed = True
            self.send_facts()
            self._after_commit()
        if self.pending is not None:
            current = self.table.remote_version()
            if current is not None and current > self.pending[0]:
                version, action = self.pending
                self.pending = None
                if self.table.remote_actions()[version] != action:  # the host's own move came first
                    self._refuse("StaleAction")
        return self._answer() or changed

    def _answer(self) -> bool:
        """The guest: answer seat A's guess when this box is at its move (it may still be catching up)."""
        if self.to_resolve is None:
            return False
        version, card = self.to_resolve
        current = self.table.remote_version()
        if current is None or current < version:
            return False  # answered after the moves before it
        self.to_resolve = None
        if current > version:
            return False  # an old request (a redelivery): that guess is played already
        colour = self.table.remote_resolve(version, card)
        if colour is not None:
            self._publish("resolved", {"k": "resolved", "v": version, "card": card, "id": colour})
        return True

    def _refuse(self, why: str) -> None:
        self.refusal = why
        self.refused_at = self.now()

    # -- both ------------------------------------------------------------------------------------------------
    def cursor(self, card: int) -> None:
        if self.transport.connected:
            self._publish(f"cursor/{self.role}", {"k": "cursor", "card": card}, qos=0)

    def close(self, *, clean: bool = True) -> None:
        """Leave: a clean close says offline first; ``clean=False`` dies like a killed box (the will speaks)."""
        if clean and self.transport.connected:
            self._publish(f"presence/{self.role}", {"k": "presence", "online": False}, retain=True)
        self.transport.close(clean=clean)
