"""The messages of the remote-play protocol, typed (docs/remote.md; the topics are listed in ``link``).

What arrives from the network is JSON (``common.jsonvalue.Json``); each kind of message is parsed here, once, at
the boundary, into a frozen dataclass (``from_dict``), and made back into JSON to be sent (``to_dict``). A message
that is not what its name says is refused by ``Malformed`` with one line (the link counts it as dropped and goes
on); nothing past this module reads a raw message. The actions inside moves stay JSON objects: the link carries
them, the box's table parses them (``engine.actions.action_from_dict``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from common.jsonvalue import Json, JsonObject
from engine.board import DUET as DUET_BOARD

#: The largest version a message may name (a Duet is far shorter), and the largest card number.
LAST_VERSION = 10_000
LAST_CARD = DUET_BOARD.cards - 1
#: A count of greens is at most the board's cards.
MOST_GREENS = DUET_BOARD.cards
#: The longest reason of a refusal kept (a longer one is shown as "IllegalAction").
WHY_LIMIT = 40

Colour = Literal["G", "N", "X"]
COLOURS: tuple[Colour, ...] = ("G", "N", "X")


class Malformed(ValueError):
    """A message that is not what its name says (the message says what is wrong, in one line)."""


def number(value: Json | None, low: int, high: int) -> int | None:
    """``value`` when it is an integer (not a bool) from ``low`` to ``high``, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def _need(body: JsonObject, name: str, low: int, high: int) -> int:
    value = number(body.get(name), low, high)
    if value is None:
        raise Malformed(f"{name} is not a number from {low} to {high}")
    return value


def _count(body: JsonObject, name: str = "left") -> int | None:
    """An optional count of greens (absent or null: not said)."""
    value = body.get(name)
    if value is None:
        return None
    return _need(body, name, 0, MOST_GREENS)


def as_colour(value: Json | None) -> Colour:
    """``value`` as a colour of the key ("G", "N", "X"); Malformed when it is not one."""
    for colour in COLOURS:
        if value == colour:
            return colour
    raise Malformed("not a colour of the key")


def _object(value: Json | None, what: str) -> JsonObject:
    if not isinstance(value, dict):
        raise Malformed(f"{what} is not an object")
    return value


def _text(value: Json | None, what: str) -> str:
    if not isinstance(value, str):
        raise Malformed(f"{what} is not text")
    return value


def _hex(value: Json | None, length: int, what: str) -> str:
    if not isinstance(value, str) or len(value) != length:
        raise Malformed(f"{what} is not {length} hex digits")
    try:
        bytes.fromhex(value)
    except ValueError:
        raise Malformed(f"{what} is not {length} hex digits") from None
    return value


# -- the envelope ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Envelope:
    """What every sealed message carries: its sender's epoch ``e`` and sequence number ``n``."""

    epoch: int
    seq: int

    @classmethod
    def from_dict(cls, body: JsonObject) -> Envelope:
        return cls(_need(body, "e", 0, 2**62), _need(body, "n", 0, 2**62))


# -- the guest's -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """The guest's one-time X25519 public key (hex), until the set-up sealed to it comes."""

    NAME = "hello"
    pub: str

    @classmethod
    def from_dict(cls, body: JsonObject) -> Hello:
        return cls(_hex(body.get("pub"), 64, "the public key"))

    def to_dict(self) -> JsonObject:
        return {"pub": self.pub}


@dataclass(frozen=True)
class Propose:
    """A move of the guest's seat (the action as JSON) made at version ``v``, and the guest's greens left."""

    NAME = "propose"
    v: int
    a: JsonObject
    left: int | None = None

    @classmethod
    def from_dict(cls, body: JsonObject) -> Propose:
        return cls(_need(body, "v", 0, LAST_VERSION), _object(body.get("a"), "the action"), _count(body))

    def to_dict(self) -> JsonObject:
        return {"v": self.v, "a": self.a, "left": self.left}


@dataclass(frozen=True)
class Resolved:
    """The guest's answer: the colour ``id`` of seat A's guess of ``card`` at version ``v`` on B's side."""

    NAME = "resolved"
    v: int
    card: int
    id: Colour

    @classmethod
    def from_dict(cls, body: JsonObject) -> Resolved:
        return cls(_need(body, "v", 0, LAST_VERSION), _need(body, "card", 0, LAST_CARD), as_colour(body.get("id")))

    def to_dict(self) -> JsonObject:
        return {"v": self.v, "card": self.card, "id": self.id}


@dataclass(frozen=True)
class Facts:
    """The guest's side's greens left at version ``v``."""

    NAME = "facts"
    v: int
    left: int

    @classmethod
    def from_dict(cls, body: JsonObject) -> Facts:
        return cls(_need(body, "v", 0, LAST_VERSION), _need(body, "left", 0, MOST_GREENS))

    def to_dict(self) -> JsonObject:
        return {"v": self.v, "left": self.left}


# -- the host's ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setup:
    """The host's deal: the set-up without the key, seat B's side sealed (hex) to the guest's key ``to``."""

    NAME = "setup"
    setup: JsonObject
    to: str
    side: str

    @classmethod
    def from_dict(cls, body: JsonObject) -> Setup:
        return cls(_object(body.get("setup"), "the set-up"), _text(body.get("to"), "the key it is for"),
                   _text(body.get("side"), "the sealed side"))

    def to_dict(self) -> JsonObject:
        return {"setup": self.setup, "to": self.to, "side": self.side}


@dataclass(frozen=True)
class MoveFacts:
    """What the host's side says of one move: the colour ``id`` of the guest's guess there (read on A's side; None
    for any other move) and A's greens left after it."""

    id: Colour | None = None
    left: int | None = None

    @classmethod
    def from_dict(cls, body: JsonObject) -> MoveFacts:
        colour = body.get("id")
        return cls(None if colour is None else as_colour(colour), _count(body))

    def to_dict(self) -> JsonObject:
        out: JsonObject = {} if self.id is None else {"id": self.id}
        if self.left is not None:
            out["left"] = self.left
        return out


@dataclass(frozen=True)
class Move:
    """A move the host committed: the action at version ``v`` and its facts."""

    NAME = "move"
    v: int
    a: JsonObject
    facts: MoveFacts = MoveFacts()

    @classmethod
    def from_dict(cls, body: JsonObject) -> Move:
        return cls(_need(body, "v", 0, LAST_VERSION), _object(body.get("a"), "the action"), MoveFacts.from_dict(body))

    def to_dict(self) -> JsonObject:
        return dict(self.facts.to_dict(), v=self.v, a=self.a)


@dataclass(frozen=True)
class Snapshot:
    """Every move of the game with its facts (retained: a box that was away catches up from it)."""

    NAME = "snapshot"
    actions: tuple[JsonObject, ...]
    facts: tuple[MoveFacts, ...]

    @classmethod
    def from_dict(cls, body: JsonObject) -> Snapshot:
        actions, facts = body.get("actions"), body.get("facts")
        if not isinstance(actions, list) or not isinstance(facts, list) or len(facts) != len(actions):
            raise Malformed("not as many facts as moves")
        return cls(tuple(_object(a, "an action") for a in actions),
                   tuple(MoveFacts.from_dict(_object(f, "a move's facts")) for f in facts))

    def move(self, version: int) -> Move:
        return Move(version, self.actions[version], self.facts[version])

    def to_dict(self) -> JsonObject:
        return {"actions": list(self.actions), "facts": [f.to_dict() for f in self.facts]}


@dataclass(frozen=True)
class Refuse:
    """The host did not play the guest's proposal made at ``v`` (``why``: the refusal's name, e.g. OutOfStep)."""

    NAME = "refuse"
    v: int
    why: str

    @classmethod
    def from_dict(cls, body: JsonObject) -> Refuse:
        why = body.get("why")
        return cls(_need(body, "v", 0, LAST_VERSION),
                   why if isinstance(why, str) and len(why) <= WHY_LIMIT else "IllegalAction")

    def to_dict(self) -> JsonObject:
        return {"v": self.v, "why": self.why}


@dataclass(frozen=True)
class Resolve:
    """The host asks the colour of seat A's guess of ``card`` at version ``v`` on B's side."""

    NAME = "resolve"
    v: int
    card: int

    @classmethod
    def from_dict(cls, body: JsonObject) -> Resolve:
        return cls(_need(body, "v", 0, LAST_VERSION), _need(body, "card", 0, LAST_CARD))

    def to_dict(self) -> JsonObject:
        return {"v": self.v, "card": self.card}


# -- both boxes' -----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Beat:
    """A heartbeat: a fresh ``nonce`` and the partner's last one (``echo``; None before any came)."""

    NAME = "beat"
    nonce: str | None
    echo: str | None

    @classmethod
    def from_dict(cls, body: JsonObject) -> Beat:
        nonce, echo = body.get("nonce"), body.get("echo")
        return cls(nonce if isinstance(nonce, str) and len(nonce) <= 32 else None,
                   echo if isinstance(echo, str) else None)

    def to_dict(self) -> JsonObject:
        return {"nonce": self.nonce, "echo": self.echo}


@dataclass(frozen=True)
class Cursor:
    """Where the sender's seat's cursor is."""

    NAME = "cursor"
    card: int

    @classmethod
    def from_dict(cls, body: JsonObject) -> Cursor:
        return cls(_need(body, "card", 0, LAST_CARD))

    def to_dict(self) -> JsonObject:
        return {"card": self.card}


@dataclass(frozen=True)
class Reveal:
    """The sender's side of the key, once the game is over (the card turned over)."""

    NAME = "reveal"
    side: str

    @classmethod
    def from_dict(cls, body: JsonObject) -> Reveal:
        side = body.get("side")
        if not (isinstance(side, str) and len(side) == DUET_BOARD.cards and set(side) <= set(COLOURS)):
            raise Malformed("not a side of a key")
        return cls(side)

    def to_dict(self) -> JsonObject:
        return {"side": self.side}


@dataclass(frozen=True)
class Signal:
    """A message that says one thing by its name alone: ``gone`` (the will), ``got`` (the partner's side came),
    ``abandon``."""

    name: Literal["gone", "got", "abandon"]

    def to_dict(self) -> JsonObject:
        return {}


# -- the pairing (plain JSON on the rendezvous topic: anyone may write there) ----------------------------------

@dataclass(frozen=True)
class PakeMessage:
    """One box's SPAKE2 message (33 bytes, hex) and, from the guest, its key confirmation."""

    pake: bytes
    confirm: str | None = None

    @classmethod
    def parse(cls, body: JsonObject) -> PakeMessage | None:
        """The message, None when it is not one."""
        value, confirm = body.get("pake"), body.get("confirm")
        if not isinstance(value, str) or len(value) != 66:
            return None
        try:
            pake = bytes.fromhex(value)
        except ValueError:
            return None
        return cls(pake, confirm if isinstance(confirm, str) else None)

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"pake": self.pake.hex()}
        if self.confirm is not None:
            out["confirm"] = self.confirm
        return out


@dataclass(frozen=True)
class Done:
    """The host's last word of the pairing: ``ok`` and its own confirmation, or not ok (a wrong code)."""

    ok: bool | None
    confirm: str | None = None

    @classmethod
    def parse(cls, body: JsonObject) -> Done:
        ok, confirm = body.get("ok"), body.get("confirm")
        return cls(ok if isinstance(ok, bool) else None, confirm if isinstance(confirm, str) else None)

    def to_dict(self) -> JsonObject:
        out: JsonObject = {"ok": self.ok}
        if self.confirm is not None:
            out["confirm"] = self.confirm
        return out
