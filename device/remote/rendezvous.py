"""The pairing of two boxes under a code, on the code's rendezvous topic (``link``'s docstring, **Pairing**).

The host publishes its SPAKE2 message there (retained); the guest answers with its own and a key confirmation;
the host checks it and confirms in turn. Either box that finds the other did not use its code says so at once
(``failed("wrong_code")``) and the code is spent: one exchange per code, right or wrong. The messages are plain
JSON (``pairing.plain``): anyone on the broker may write there, and learns nothing from what is written.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from typing import Literal, Protocol

from common.jsonvalue import JsonObject
from device.remote.messages import Done, PakeMessage
from device.remote.pairing import Pake, Rejected, Role, Session, plain, rendezvous

log = logging.getLogger("duetbox.remote")

#: Why a remote game ended on the link's word: the partner abandoned it, or the pairing found a wrong code.
Ended = Literal["abandoned", "wrong_code"]


class Publish(Protocol):
    """How the rendezvous sends (the link's transport of the moment)."""

    def __call__(self, topic: str, payload: bytes, *, retain: bool = False, wait: float = 0.0) -> None: ...


class Rendezvous:
    """One box's side of the exchange under ``code``: ``handle`` each message of the ``topics``; ``paired`` is
    called with the session once the other box has shown it holds the same, ``failed`` when it used another code;
    ``garbage`` counts what is not a pairing message."""

    def __init__(self, role: Role, code: str, *, publish: Publish, garbage: Callable[[str], None],
                 paired: Callable[[Session], None], failed: Callable[[Ended], None]) -> None:
        self.role = role
        self.topic = rendezvous(code)
        self._publish = publish
        self._garbage = garbage
        self._paired = paired
        self._failed = failed
        self._pake: Pake | None = Pake(code, role)
        self._session: Session | None = None  # the guest: derived, waiting for the host's confirmation
        self._transcript = b""

    @property
    def topics(self) -> list[str]:
        """What this box listens to: the other box's part, and (the guest) the host's last word."""
        theirs = "guest" if self.role == "host" else "host"
        return [f"{self.topic}/{theirs}"] + ([f"{self.topic}/done"] if self.role == "guest" else [])

    def on_up(self) -> None:
        """(Re)connected: the host puts its part back (retained) while the exchange is not done."""
        if self.role == "host" and self._pake is not None:
            self._publish(f"{self.topic}/host", _json(PakeMessage(self._pake.message).to_dict()), retain=True)

    def close(self) -> None:
        """Leaving before the pairing: the host takes its part away (nobody can try a code on it any more)."""
        if self.role == "host":
            self._publish(f"{self.topic}/host", b"", retain=True, wait=0.5)

    def handle(self, topic: str, payload: bytes) -> bool:
        """One message of the rendezvous; True when something changed."""
        try:
            message = plain(payload)
        except Rejected as exc:
            self._garbage(str(exc))
            return False
        if self.role == "host" and topic == f"{self.topic}/guest":
            return self._host_pairs(PakeMessage.parse(message))
        if self.role == "guest" and topic == f"{self.topic}/host":
            return self._guest_pairs(PakeMessage.parse(message))
        if self.role == "guest" and topic == f"{self.topic}/done":
            return self._guest_confirmed(Done.parse(message))
        return False

    def _host_pairs(self, message: PakeMessage | None) -> bool:
        pake = self._pake
        if message is None or message.confirm is None or pake is None:
            self._garbage("not a pairing message")
            return False
        theirs, confirm = message.pake, message.confirm
        self._pake = None  # one exchange per code: right or wrong, it is spent
        transcript = pake.message + theirs
        try:
            session: Session | None = Session.derive(pake.finish(theirs))
        except Rejected:
            session = None
        if session is None or not hmac.compare_digest(confirm, session.confirmation("guest", transcript)):
            log.warning("a box tried a wrong code: the code is spent")
            self._publish(f"{self.topic}/done", _json(Done(False).to_dict()), wait=1.0)
            self._publish(f"{self.topic}/host", b"", retain=True)
            self._failed("wrong_code")
            return True
        self._publish(f"{self.topic}/done", _json(Done(True, session.confirmation("host", transcript)).to_dict()),
                      wait=1.0)
        self._publish(f"{self.topic}/host", b"", retain=True, wait=1.0)
        self._paired(session)
        return True

    def _guest_pairs(self, message: PakeMessage | None) -> bool:
        pake = self._pake
        if message is None or pake is None or self._session is not None:
            return False
        theirs = message.pake
        self._pake = None
        self._transcript = theirs + pake.message
        try:
            self._session = Session.derive(pake.finish(theirs))
        except Rejected:
            self._failed("wrong_code")
            return True
        self._publish(f"{self.topic}/guest", _json(
            PakeMessage(pake.message, self._session.confirmation("guest", self._transcript)).to_dict()))
        return True

    def _guest_confirmed(self, message: Done) -> bool:
        session = self._session
        if session is None:
            return False
        if message.ok is False:
            self._failed("wrong_code")
            return True
        confirm = message.confirm
        if confirm is None or not hmac.compare_digest(confirm, session.confirmation("host", self._transcript)):
            self._garbage("a pairing confirmation that is not the host's")
            return False
        self._session = None
        self._paired(session)
        return True


def _json(body: JsonObject) -> bytes:
    import json

    return json.dumps(body, separators=(",", ":")).encode("utf-8")
