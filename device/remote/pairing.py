"""Pairing: the code the host shows, a password-authenticated key exchange (SPAKE2), and sealed messages.

The code is 6 letters from an alphabet without look-alikes (no I, L, O, Q), typable with the joystick. Its first
two letters are the **nameplate**: they only name the rendezvous topic (``duetbox/pair/<nameplate>/…``), as a
phone number names a line. The whole code is the password of one SPAKE2 exchange (the ``spake2`` package, the
PAKE of magic-wormhole): each box sends one message there, and both get the same 32-byte secret only when they
used the same code. A recording of the exchange gives nothing to test a code against offline (SPAKE2's
property), someone who learns the code afterwards gets nothing (the exchange is done), and a box that tries a
wrong code makes the exchange fail at once: one guess, seen by both boxes (the host's code is then spent).

From the secret (HKDF-SHA256): the game topic (random to anyone without the secret), one AES-256-GCM key per
direction (host → guest, guest → host), a key-confirmation key and the short **verifier** both boxes show (four
digits to compare on the phone). Every message of the game is ``nonce (12) ‖ AES-GCM(key of its sender,
nonce, padded JSON, aad = its topic)``, padded to one of a few sizes so that its length says little.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from dataclasses import dataclass
from typing import Literal, Protocol

from common.jsonvalue import Json, JsonMap, JsonObject

#: 22 letters: A-Z without I, L (like 1), O, Q (like 0).
ALPHABET = "ABCDEFGHJKMNPRSTUVWXYZ"
CODE_LENGTH = 6
#: The code's first letters name the rendezvous topic (public); the whole code is the PAKE's password.
NAMEPLATE = 2
TOPIC_ROOT = "duetbox"
NONCE = 12
TAG = 16
#: Padded plaintext sizes (the length prefix included): a sealed message is one of these + 28 bytes, at most
#: 64 KiB; anything else on a game topic is dropped before any decryption.
SIZES = (256, 1024, 4096, 16384, 65536 - NONCE - TAG)
SEALED_SIZES = frozenset(s + NONCE + TAG for s in SIZES)
MAX_PAYLOAD = 65536
#: A rendezvous message (plain JSON: a SPAKE2 message and a confirmation, both hex) is small.
MAX_RENDEZVOUS = 1024
_HOST_ID, _GUEST_ID = b"duetbox host", b"duetbox guest"
_INFO = b"duetbox-remote/2 session"

Role = Literal["host", "guest"]


class BadCode(ValueError):
    """Not a pairing code (the message says why, in one line)."""


class Rejected(ValueError):
    """A message the boxes do not accept: not sealed by the partner, malformed, too big, or a replay."""


def new_code() -> str:
    """A fresh code (the system's generator: a code is a password)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise(code: str) -> str:
    """The code as typed (any case, spaces or dashes ignored); BadCode when it cannot be one."""
    text = "".join(ch for ch in code.upper() if ch not in " -")
    if len(text) != CODE_LENGTH:
        raise BadCode(f"a code has {CODE_LENGTH} letters, not {len(text)}")
    wrong = sorted({ch for ch in text if ch not in ALPHABET})
    if wrong:
        raise BadCode(f"a code uses only the letters {ALPHABET} (not {''.join(wrong)})")
    return text


def rendezvous(code: str) -> str:
    """The pairing topic of ``code``: named by its nameplate alone (it tells nothing of the rest)."""
    return f"{TOPIC_ROOT}/pair/{normalise(code)[:NAMEPLATE]}"


@dataclass(frozen=True)
class Session:
    """What both boxes derive from the exchange's secret."""

    topic: str  # duetbox/g/<32 hex>
    host_key: bytes
    guest_key: bytes
    confirm_key: bytes
    verifier: str  # four digits, shown on both boxes

    @classmethod
    def derive(cls, secret: bytes) -> Session:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        out = HKDF(algorithm=hashes.SHA256(), length=116, salt=None, info=_INFO).derive(secret)
        verifier = f"{int.from_bytes(out[112:116], 'big') % 10000:04d}"
        return cls(f"{TOPIC_ROOT}/g/{out[96:112].hex()}", out[:32], out[32:64], out[64:96], verifier)

    def confirmation(self, role: Role, transcript: bytes) -> str:
        """What ``role``'s box sends to show it holds the secret (HMAC-SHA256 over both SPAKE2 messages)."""
        return hmac.new(self.confirm_key, role.encode() + transcript, hashlib.sha256).hexdigest()


class _Spake2(Protocol):
    """What is used of a ``spake2`` side (the package has no type hints)."""

    def start(self) -> bytes: ...
    def finish(self, inbound_message: bytes) -> bytes: ...


class Pake:
    """One SPAKE2 exchange of one box: ``message`` to send, ``finish`` with the other box's (once)."""

    def __init__(self, code: str, role: Role) -> None:
        from spake2 import SPAKE2_A, SPAKE2_B  # type: ignore[import-untyped]

        password = normalise(code).encode("ascii")
        side = SPAKE2_A if role == "host" else SPAKE2_B
        self._spake: _Spake2 = side(password, idA=_HOST_ID, idB=_GUEST_ID)
        self.message: bytes = self._spake.start()

    def finish(self, theirs: bytes) -> bytes:
        """The shared secret (the same on both boxes only if both used the same code); Rejected when the other
        message is not one (a second call, a message of the wrong side, garbage)."""
        try:
            return bytes(self._spake.finish(theirs))
        except Exception as exc:  # noqa: BLE001 - spake2 raises its own errors and ValueErrors: all one refusal
            raise Rejected(f"not a SPAKE2 message of the other side ({type(exc).__name__})") from None


def plain(payload: bytes, limit: int = MAX_RENDEZVOUS) -> JsonObject:
    """A rendezvous message (plain JSON object); Rejected when it is not one."""
    if len(payload) > limit:
        raise Rejected(f"{len(payload)} bytes: too big for a rendezvous message")
    try:
        message: Json = json.loads(payload.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Rejected("not JSON") from None
    if not isinstance(message, dict):
        raise Rejected("not an object")
    return message


def seal(key: bytes, topic: str, body: JsonMap) -> bytes:
    """``body`` sealed with ``key`` for ``topic``, padded to the next of SIZES (ValueError when too big)."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # only a remote game pays its import

    data = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    size = next((s for s in SIZES if s >= len(data) + 4), None)
    if size is None:
        raise ValueError(f"a message of {len(data)} bytes is too big to send")
    padded = len(data).to_bytes(4, "big") + data + bytes(size - 4 - len(data))
    nonce = os.urandom(NONCE)
    return nonce + AESGCM(key).encrypt(nonce, padded, topic.encode("ascii"))


def open_sealed(key: bytes, topic: str, payload: bytes) -> JsonObject:
    """The message sealed in ``payload`` for ``topic`` with ``key``; Rejected when it is not one (its size is
    checked before any decryption; any parse error, nesting too deep included, is a refusal)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    if len(payload) not in SEALED_SIZES:
        raise Rejected(f"{len(payload)} bytes: not the size of a sealed message")
    try:
        padded = AESGCM(key).decrypt(payload[:NONCE], payload[NONCE:], topic.encode("ascii"))
    except InvalidTag:
        raise Rejected("not sealed by the partner's box") from None
    length = int.from_bytes(padded[:4], "big")
    if length > len(padded) - 4:
        raise Rejected("sealed but its length is wrong")
    try:
        message: Json = json.loads(padded[4:4 + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Rejected("sealed but not JSON") from None
    if not isinstance(message, dict):
        raise Rejected("sealed but not an object")
    return message
