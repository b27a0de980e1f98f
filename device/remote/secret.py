"""One key side per box (docs/remote.md, "What is sent, and what is not").

A box in a remote game holds its own seat's side of the key card and never the partner's: not in its database,
not in memory. What it knows of the partner's side is what the table shows anyway, learnt move by move:

- ``facts``: the colour the partner's side gave to each guess of the local seat (a guess is read on the clue
  giver's side, rules §1, and that side is on the other box: the other box resolves it and says the colour);
- ``left``: how many greens the partner's side still has, after each move (who may give a clue and who guesses
  in sudden death depend on it; the partner's box says it, or it follows from the facts).

The engine (``engine.duet``) is pure and wants both sides, so ``RemoteSession``, the key holder
(``engine.session.KeyHolder``) of the plain ``DuetSession`` it holds, hands it a *stand-in* for the partner's side
before each move: a side that follows the key-card template with the local side and agrees with
every fact and every count known here. Whatever the engine reads of it during that move is then what the real
side would have given, so both boxes reach the same state. The stand-in is not the partner's side (it is made
from public facts; its unknown cards are placed in a fixed order) and is replaced by the real side only when the
game is over, when both boxes show both sides, as the players turn the card over on one table.

The dealing box (the host) must draw both sides together (the template couples them): it does so only when the
guest's box is there, seals the guest's side to the guest's one-time X25519 key (``seal_to``) and keeps only its
own side and that sealed copy, which it cannot open.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from common.jsonvalue import Json, JsonMap, JsonObject
from engine import duet
from engine.actions import Clue, DuetAction, Guess
from engine.errors import IllegalAction
from engine.events import Event
from engine.keycard import CARDS, GREENS_PER_SIDE, TEMPLATE, DuetKey, template_problem
from engine.seats import Seat, other
from engine.session import DuetSession, SetupError

if TYPE_CHECKING:  # the crypto library is imported where used: only a remote game pays its import
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

#: The HKDF label of the guest's side sealed to its one-time key.
_INFO = b"duetbox-remote/1 guest side"


class Unresolved(IllegalAction):
    """A move that needs something only the partner's box knows yet (the colour of a guess, a count)."""


def stand_in(own_seat: Seat, own: str, found: frozenset[int], known: Mapping[int, str], left: int) -> str:
    """A partner side that follows the template with ``own``, gives ``known[card]`` to each card in ``known``
    and leaves exactly ``left`` of its greens uncovered (``found`` = the cards covered by agents).
    ValueError when no such side exists (the facts contradict each other)."""
    out = [""] * CARDS
    plan: list[tuple[list[int], list[int], Counter[str]]] = []
    want = GREENS_PER_SIDE - left - sum(1 for c, v in known.items() if v == "G" and c in found)
    for colour in "GNX":
        pairs = {p: n for p, n in TEMPLATE.items() if (p[0] if own_seat == "A" else p[1]) == colour}
        rest: Counter[str] = Counter({(p[1] if own_seat == "A" else p[0]): n for p, n in pairs.items()})
        cards = [i for i in range(CARDS) if own[i] == colour]
        for i in cards:
            if i in known:
                out[i] = known[i]
                rest[known[i]] -= 1
        if any(n < 0 for n in rest.values()):
            raise ValueError("the partner's colours contradict the key-card template")
        hidden_found = [i for i in cards if i not in known and i in found]
        hidden_open = [i for i in cards if i not in known and i not in found]
        plan.append((hidden_found, hidden_open, rest))
    lows = [max(0, rest["G"] - len(hidden_open)) for hidden_found, hidden_open, rest in plan]
    highs = [min(rest["G"], len(hidden_found)) for hidden_found, hidden_open, rest in plan]
    if not sum(lows) <= want <= sum(highs):
        raise ValueError("the partner's count of greens contradicts the key-card template")
    extra = want - sum(lows)
    for (hidden_found, hidden_open, rest), low, high in zip(plan, lows, highs, strict=True):
        greens = low + min(extra, high - low)
        extra -= greens - low
        on_found = ["G"] * greens + ["N"] * rest["N"] + ["X"] * rest["X"]
        on_found = on_found[:len(hidden_found)]
        left_over = rest - Counter(on_found)
        on_open = ["G"] * left_over["G"] + ["N"] * left_over["N"] + ["X"] * left_over["X"]
        for i, colour in zip(hidden_found + hidden_open, on_found + on_open, strict=True):
            out[i] = colour
    return "".join(out)


class RemoteSession:
    """One box's Duet in a remote game: ``duet``, the engine's session that the controller and the screens play
    (a plain ``DuetSession``), holds ``seat``'s side only; this object is its key holder (``engine.session.
    KeyHolder``): it keeps the facts learnt of the partner's side and hands the engine the stand-in (see the
    module). A remote session is made for the seat of its link (``device.remote.play``)."""

    def __init__(self, setup: JsonMap, *, seat: Seat, language: str = "fr",
                 facts: Mapping[int, str] | None = None, left: Mapping[int, int] | None = None) -> None:
        self.seat: Seat = seat
        self.partner: Seat = other(seat)
        self.facts: dict[int, str] = dict(facts or {})  # version -> the partner's side's colour of our guess
        self.left: dict[int, int] = {0: GREENS_PER_SIDE, **(left or {})}  # version -> partner's greens left
        key = setup.get("key")
        own = key.get(seat) if isinstance(key, Mapping) else None
        if not isinstance(key, Mapping) or not isinstance(own, str):
            raise SetupError(f"a remote game's set-up holds seat {seat}'s side of the key")
        self._own = own
        self._complete = len(key) == 2  # both sides: the game is over and the card has been turned over
        self.duet = DuetSession(dict(setup), language, holder=self)

    # -- the engine's session ----------------------------------------------------------------------------------
    @property
    def setup(self) -> JsonObject:
        return self.duet.setup

    @property
    def state(self) -> duet.DuetState:
        return self.duet.state

    @property
    def version(self) -> int:
        return self.duet.version

    @property
    def over(self) -> bool:
        return self.duet.over

    def apply(self, action: DuetAction, version: int | None = None) -> tuple[duet.DuetState, list[Event]]:
        return self.duet.apply(action, version)

    def replay(self, actions: Sequence[JsonMap]) -> None:
        self.duet.replay(actions)

    def revealed_keys(self) -> dict[str, str] | None:
        """Both sides on the game-over screen only once the partner's real side is here (never the stand-in)."""
        return self.duet.revealed_keys()

    # -- the key holder (engine.session.KeyHolder) -------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """Both sides are known (the game is over and the partner's side has come)."""
        return self._complete

    def first(self, setup: JsonMap) -> JsonMap:
        if self._complete:
            return setup
        return dict(setup, key={self.seat: self._own,
                                self.partner: stand_in(self.seat, self._own, frozenset(), {}, GREENS_PER_SIDE)})

    def before(self, state: duet.DuetState, action: DuetAction) -> duet.DuetState:
        at = state.version
        missing = self._needs(state, action, at)
        if missing is not None:
            raise Unresolved(f"move {at} waits for the partner's box ({missing})")
        try:
            return self._rekeyed(state, at, action)
        except ValueError as exc:
            raise Unresolved(f"the partner's box said something that cannot be: {exc}") from None

    def after(self, at: int, action: DuetAction, state: duet.DuetState) -> duet.DuetState:
        self._follow(at, action)
        try:
            return self._rekeyed(state, at + 1)
        except ValueError:  # pragma: no cover - the next move says so
            return state

    # -- what the partner's box told us ----------------------------------------------------------------------
    @property
    def own_side(self) -> str:
        return self._own

    def needs(self, action: DuetAction, version: int) -> str | None:
        """What is missing to play ``action`` at ``version`` here: "colour" (our guess, resolved on the other
        box), "count" (the partner's greens left) or None."""
        return self._needs(self.duet.state, action, version)

    def _needs(self, state: duet.DuetState, action: DuetAction, version: int) -> str | None:
        if self._complete:
            return None
        reads_count = isinstance(action, Clue) or state.phase == "sudden_death"  # who may clue, or guess
        if version not in self.left and reads_count:
            return "count"
        if isinstance(action, Guess) and action.seat == self.seat and version not in self.facts:
            return "colour"
        return None

    def counts(self) -> dict[int, int]:
        """The partner's greens left, by version, as far as known."""
        return dict(self.left)

    def own_left(self) -> int:
        """Greens left on the local side (what the partner's box needs to know of it)."""
        return duet.greens_left(self.duet.state, self.seat)

    def reveal(self, side: str) -> None:
        """The partner's side, when the game is over: both sides in the set-up and the state (ValueError when it
        does not fit ours)."""
        key = {self.seat: self._own, self.partner: side}
        problem = template_problem(key["A"], key["B"])
        if problem:
            raise ValueError(problem)
        held = self.duet
        held.setup = dict(held.setup, key={"A": key["A"], "B": key["B"]})
        held.restore(replace(held.state, key=DuetKey(key["A"], key["B"])))
        self._complete = True

    # -- the engine with the stand-in ------------------------------------------------------------------------
    def _rekeyed(self, state: duet.DuetState, version: int, action: DuetAction | None = None) -> duet.DuetState:
        """``state`` with the stand-in for what is known at ``version`` (ValueError: the facts contradict)."""
        if self._complete:
            return state
        known: dict[int, str] = {}
        for v, colour in self.facts.items():
            if v < len(state.history):
                guess = state.history[v]
                if isinstance(guess, Guess):
                    known[guess.card] = colour
        if isinstance(action, Guess) and action.seat == self.seat and version in self.facts:
            known[action.card] = self.facts[version]
        counts = [self.left[version]] if version in self.left else list(range(GREENS_PER_SIDE + 1))
        for count in counts:  # not known yet: nothing reads it before the partner's box says it (``needs``)
            try:
                side = stand_in(self.seat, self._own, state.found, known, count)
                break
            except ValueError:
                if count == counts[-1]:
                    raise
        a, b = (self._own, side) if self.seat == "A" else (side, self._own)
        return replace(state, key=DuetKey(a, b))

    def _follow(self, at: int, action: DuetAction) -> None:
        """The partner's greens left after move ``at``, when it follows from what is known here."""
        if at + 1 in self.left or at not in self.left:
            return
        before = self.left[at]
        if not isinstance(action, Guess):
            self.left[at + 1] = before
        elif action.seat == self.seat:  # read on the partner's side: its colour is a fact
            self.left[at + 1] = before - (1 if self.facts.get(at) == "G" else 0)
        elif self._own[action.card] != "G":  # read on our side, not found: nothing changed over there
            self.left[at + 1] = before
        # else: found on our side; whether it was green over there too, only the partner's box knows

    def learn(self, *, version: int, colour: str | None = None, left: int | None = None) -> None:
        """Record what the partner's box said: the colour of our guess at ``version``, its greens left at
        ``version``."""
        if colour is not None:
            if colour not in ("G", "N", "X"):
                raise ValueError(f"not a colour: {colour!r}")
            self.facts[version] = colour
        if left is not None:
            if not 0 <= left <= GREENS_PER_SIDE:
                raise ValueError(f"not a count of greens: {left!r}")
            self.left[version] = left
            if version == self.duet.state.version:
                try:
                    self.duet.restore(self._rekeyed(self.duet.state, version))
                except ValueError:
                    pass

    def memory(self) -> JsonObject:
        """What to save with each move (the facts learnt so far), JSON-ready."""
        return {"facts": {str(k): v for k, v in self.facts.items()}, "left": {str(k): v for k, v in self.left.items()}}

    @staticmethod
    def remembered(saved: object) -> tuple[dict[int, str], dict[int, int]]:
        """The facts of ``memory`` read back (nothing from what is not such an object)."""
        if not isinstance(saved, Mapping):
            return {}, {}
        facts, left = saved.get("facts"), saved.get("left")
        return ({int(k): str(v) for k, v in facts.items()} if isinstance(facts, Mapping) else {},
                {int(k): int(v) for k, v in left.items()} if isinstance(left, Mapping) else {})


def one_side(setup: Mapping[str, Json], seat: Seat) -> JsonObject:
    """``setup`` with only ``seat``'s side of the key (SetupError when it has no such side)."""
    key = setup.get("key")
    side = key.get(seat) if isinstance(key, Mapping) else None
    if not isinstance(side, str):
        raise SetupError(f"the set-up has no side of seat {seat}")
    return dict(setup, key={seat: side})


# -- the guest's side, sealed to the guest's one-time key ------------------------------------------------------

def new_private_key() -> X25519PrivateKey:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.generate()


def public_hex(private: X25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def _aead(shared: bytes) -> AESGCM:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return AESGCM(HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(shared))


def seal_to(public: str, message: JsonMap) -> str:
    """``message`` readable only with the private key of ``public`` (X25519 + HKDF + AES-GCM), as hex."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    mine = X25519PrivateKey.generate()  # thrown away at once: not even the sender can open it afterwards
    shared = mine.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(public)))
    nonce = os.urandom(12)
    sealed = _aead(shared).encrypt(nonce, json.dumps(message).encode("utf-8"), None)
    return (mine.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) + nonce + sealed).hex()


def open_sealed(private: X25519PrivateKey, blob: str) -> JsonObject:
    """The message of ``seal_to``; ValueError when it is not for this key."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey

    try:
        raw = bytes.fromhex(blob)
        shared = private.exchange(X25519PublicKey.from_public_bytes(raw[:32]))
        message: Json = json.loads(_aead(shared).decrypt(raw[32:44], raw[44:], None).decode("utf-8"))
    except (ValueError, InvalidTag) as exc:
        raise ValueError(f"the sealed side is not for this box: {exc!r}") from None
    if not isinstance(message, dict):
        raise ValueError("the sealed side is not an object")
    return message
