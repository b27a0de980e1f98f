"""Pairing: the code the host shows, what both boxes derive from it, and sealed (authenticated, encrypted) messages.

The code is 6 letters from an alphabet without look-alikes (no I, L, O, Q), typable with the joystick. scrypt (the
standard library's, memory-hard) turns the code and a fixed application salt into 48 bytes: a 32-byte AES-GCM key
and a 16-byte game topic. Every message on the broker is ``nonce (12 bytes) || AES-GCM(key, nonce, JSON, aad=topic)``:
a client without the code reads nothing (no key side, no word) and cannot make a message the boxes accept.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from typing import Any

#: 22 letters: A-Z without I, L (like 1), O, Q (like 0).
ALPHABET = "ABCDEFGHJKMNPRSTUVWXYZ"
CODE_LENGTH = 6
#: Fixed application salt: the code is the only secret; the salt keeps our derivation apart from any other use.
SALT = b"duetbox-remote/1 game code"
#: scrypt cost: about 16 MiB and a tenth of a second on a Pi, once per pairing.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
TOPIC_ROOT = "duetbox"
NONCE = 12


class BadCode(ValueError):
    """Not a pairing code (the message says why, in one line)."""


class Rejected(ValueError):
    """A message the boxes do not accept: not sealed with the game's key, malformed, or a replay."""


def new_code(rng: Any = None) -> str:
    """A fresh code (``secrets`` unless a seeded ``random.Random`` is given, for tests)."""
    if rng is None:
        return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
    return "".join(rng.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalise(code: str) -> str:
    """The code as typed (any case, spaces or dashes ignored); BadCode when it cannot be one."""
    text = "".join(ch for ch in code.upper() if ch not in " -")
    if len(text) != CODE_LENGTH:
        raise BadCode(f"a code has {CODE_LENGTH} letters, not {len(text)}")
    wrong = sorted({ch for ch in text if ch not in ALPHABET})
    if wrong:
        raise BadCode(f"a code uses only the letters {ALPHABET} (not {''.join(wrong)})")
    return text


@functools.lru_cache(maxsize=8)  # a box derives once per game; a resumed game does not pay it again
def _scrypt(code: str) -> bytes:
    return hashlib.scrypt(code.encode("ascii"), salt=SALT, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=48,
                          maxmem=64 * 1024 * 1024)


@dataclass(frozen=True)
class Pairing:
    """What both boxes derive from the code."""

    code: str
    key: bytes = b""
    topic: str = ""

    @classmethod
    def derive(cls, code: str) -> Pairing:
        code = normalise(code)
        out = _scrypt(code)
        return cls(code, out[:32], f"{TOPIC_ROOT}/{out[32:].hex()}")

    def sub(self, name: str) -> str:
        return f"{self.topic}/{name}"

    def seal(self, message: dict[str, Any]) -> bytes:
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM  # only a remote game pays its import

        nonce = os.urandom(NONCE)
        plain = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return nonce + AESGCM(self.key).encrypt(nonce, plain, self.topic.encode("ascii"))

    def open(self, payload: bytes) -> dict[str, Any]:
        """The message sealed in ``payload``; Rejected when it is not one of ours."""
        from cryptography.exceptions import InvalidTag
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        if len(payload) < NONCE + 16:
            raise Rejected("too short to be sealed")
        try:
            plain = AESGCM(self.key).decrypt(payload[:NONCE], payload[NONCE:], self.topic.encode("ascii"))
        except InvalidTag:
            raise Rejected("not sealed with this game's key") from None
        try:
            message = json.loads(plain.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise Rejected("sealed but not JSON") from None
        if not isinstance(message, dict):
            raise Rejected("sealed but not an object")
        return message
