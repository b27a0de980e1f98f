"""One key side per box (docs/remote.md, "What is sent, and what is not").

A box in a remote game holds its own seat's side of the key card and never the partner's: not in its database,
not in memory. What it knows of the partner's side is what the table shows anyway, learnt move by move:

- ``facts``: the colour the partner's side gave to each guess of the local seat (a guess is read on the clue
  giver's side, rules §1, and that side is on the other box: the other box resolves it and says the colour);
- ``left``: how many greens the partner's side still has, after each move (who may give a clue and who guesses
  in sudden death depend on it; the partner's box says it, or it follows from the facts).

The engine (``engine.duet``) is pure and wants both sides, so ``RemoteSession`` hands it a *stand-in* for the
partner's side before each move: a side that follows the key-card template with the local side and agrees with
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
from typing import Any

from engine import duet
from engine.actions import Clue, DuetAction, Guess
from engine.errors import IllegalAction
from engine.events import Event
from engine.keycard import CARDS, GREENS_PER_SIDE, TEMPLATE, DuetKey, template_problem
from engine.seats import Seat, other
from engine.session import DuetSession, SetupError

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


class RemoteSession(DuetSession):
    """A Duet session that holds one side (``seat``'s) and the facts learnt of the other (see the module)."""

    def __init__(self, setup: dict[str, Any], *, seat: Seat, language: str = "fr",
                 facts: Mapping[int, str] | None = None, left: Mapping[int, int] | None = None) -> None:
        self.seat: Seat = seat
        self.partner: Seat = other(seat)
        self.facts: dict[int, str] = dict(facts or {})  # version -> the partner's side's colour of our guess
        self.left: dict[int, int] = {0: GREENS_PER_SIDE, **(left or {})}  # version -> partner's greens left
        key = setup.get("key")
        if not isinstance(key, dict) or not isinstance(key.get(seat), str):
            raise SetupError(f"a remote game's set-up holds seat {seat}'s side of the key")
        super().__init__(setup, language)

    def __post_init__(self) -> None:
        held = self.setup
        if len(held["key"]) == 2:  # both sides: the game is over and the card has been turned over
            super().__post_init__()
            return
        own = held["key"][self.seat]
        self.setup = dict(held, key={self.seat: own, self.partner: stand_in(self.seat, own, frozenset(), {}, 9)})
        try:
            super().__post_init__()
        finally:
            self.setup = held

    # -- what the partner's box told us ----------------------------------------------------------------------
    @property
    def own_side(self) -> str:
        return str(self.setup["key"][self.seat])

    @property
    def complete(self) -> bool:
        """Both sides are known (the game is over and the partner's side has come)."""
        return len(self.setup["key"]) == 2

    def needs(self, action: DuetAction, version: int) -> str | None:
        """What is missing to play ``action`` at ``version`` here: "colour" (our guess, resolved on the other
        box), "count" (the partner's greens left) or None."""
        if self.complete:
            return None
        reads_count = isinstance(action, Clue) or self.state.phase == "sudden_death"  # who may clue, or guess
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
        return duet.greens_left(self.state, self.seat)

    def revealed_keys(self) -> dict[str, str] | None:
        """Both sides on the game-over screen only once the partner's real side is here (never the stand-in)."""
        return super().revealed_keys() if self.complete else None

    def reveal(self, side: str) -> None:
        """The partner's side, when the game is over: both sides in the set-up and the state (ValueError when it
        does not fit ours)."""
        key = {self.seat: self.own_side, self.partner: side}
        problem = template_problem(key["A"], key["B"])
        if problem:
            raise ValueError(problem)
        self.setup = dict(self.setup, key={"A": key["A"], "B": key["B"]})
        self.state = replace(self.state, key=DuetKey(key["A"], key["B"]))

    # -- the engine with the stand-in ------------------------------------------------------------------------
    def _rekey(self, version: int, action: DuetAction | None = None) -> None:
        if self.complete:
            return
        known: dict[int, str] = {}
        for v, colour in self.facts.items():
            if v < len(self.state.history):
                guess = self.state.history[v]
                if isinstance(guess, Guess):
                    known[guess.card] = colour
        if isinstance(action, Guess) and action.seat == self.seat and version in self.facts:
            known[action.card] = self.facts[version]
        counts = [self.left[version]] if version in self.left else list(range(GREENS_PER_SIDE + 1))
        for count in counts:  # not known yet: nothing reads it before the partner's box says it (``needs``)
            try:
                side = stand_in(self.seat, self.own_side, self.state.found, known, count)
                break
            except ValueError:
                if count == counts[-1]:
                    raise
        a, b = (self.own_side, side) if self.seat == "A" else (side, self.own_side)
        self.state = replace(self.state, key=DuetKey(a, b))

    def apply(self, action: DuetAction, version: int | None = None) -> tuple[duet.DuetState, list[Event]]:
        at = self.state.version
        missing = self.needs(action, at)
        if missing is not None:
            raise Unresolved(f"move {at} waits for the partner's box ({missing})")
        try:
            self._rekey(at, action)
        except ValueError as exc:
            raise Unresolved(f"the partner's box said something that cannot be: {exc}") from None
        state, events = duet.apply(self.state, action, version=version)
        self.state = state
        self._follow(at, action)
        try:
            self._rekey(at + 1)
        except ValueError:  # pragma: no cover - the next move says so
            pass
        return state, events

    def _follow(self, at: int, action: DuetAction) -> None:
        """The partner's greens left after move ``at``, when it follows from what is known here."""
        if at + 1 in self.left or at not in self.left:
            return
        before = self.left[at]
        if not isinstance(action, Guess):
            self.left[at + 1] = before
        elif action.seat == self.seat:  # read on the partner's side: its colour is a fact
            self.left[at + 1] = before - (1 if self.facts.get(at) == "G" else 0)
        elif self.own_side[action.card] != "G":  # read on our side, not found: nothing changed over there
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
            if version == self.state.version:
                try:
                    self._rekey(version)
                except ValueError:
                    pass

    def replay(self, actions: Sequence[Mapping[str, Any]]) -> None:
        for item in actions:
            self.apply(self.action_from_dict(item))

    def memory(self) -> dict[str, Any]:
        """What to save with each move (the facts learnt so far), JSON-ready."""
        return {"facts": {str(k): v for k, v in self.facts.items()}, "left": {str(k): v for k, v in self.left.items()}}

    @staticmethod
    def remembered(saved: Mapping[str, Any] | None) -> tuple[dict[int, str], dict[int, int]]:
        if not isinstance(saved, Mapping):
            return {}, {}
        facts = saved.get("facts") if isinstance(saved.get("facts"), dict) else {}
        left = saved.get("left") if isinstance(saved.get("left"), dict) else {}
        return ({int(k): str(v) for k, v in facts.items()},  # type: ignore[union-attr]
                {int(k): int(v) for k, v in left.items()})  # type: ignore[union-attr]


def one_side(setup: Mapping[str, Any], seat: Seat) -> dict[str, Any]:
    """``setup`` with only ``seat``'s side of the key."""
    return dict(setup, key={seat: setup["key"][seat]})


# -- the guest's side, sealed to the guest's one-time key ------------------------------------------------------

def new_private_key() -> Any:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.generate()


def public_hex(private: Any) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = bytes(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))
    return raw.hex()


def _aead(shared: bytes) -> Any:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    return AESGCM(HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(shared))


def seal_to(public: str, message: dict[str, Any]) -> str:
    """``message`` readable only with the private key of ``public`` (X25519 + HKDF + AES-GCM), as hex."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    mine = X25519PrivateKey.generate()  # thrown away at once: not even the sender can open it afterwards
    shared = mine.exchange(X25519PublicKey.from_public_bytes(bytes.fromhex(public)))
    nonce = os.urandom(12)
    sealed = bytes(_aead(shared).encrypt(nonce, json.dumps(message).encode("utf-8"), None))
    return (mine.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw) + nonce + sealed).hex()


def open_sealed(private: Any, blob: str) -> dict[str, Any]:
    """The message of ``seal_to``; ValueError when it is not for this key."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey

    try:
        raw = bytes.fromhex(blob)
        shared = private.exchange(X25519PublicKey.from_public_bytes(raw[:32]))
        message = json.loads(_aead(shared).decrypt(raw[32:44], raw[44:], None).decode("utf-8"))
    except (ValueError, InvalidTag) as exc:
        raise ValueError(f"the sealed side is not for this box: {exc!r}") from None
    if not isinstance(message, dict):
        raise ValueError("the sealed side is not an object")
    return message
