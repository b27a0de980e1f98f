"""``RemoteGame``: the game controller of a box that can play a Duet with a remote box (docs/remote.md).

It is ``device.game.GameController`` (lifecycle, act → engine → commit → events → effects) plus one
``RemoteLink``. In a remote game, a move of the local seat goes through the link: the host commits it at once
(the ordinary path) and publishes it; the guest checks it with the engine, proposes it and shows it when the
host's move comes back. Moves of the partner arrive from the link (``remote_commit``) and take the same commit
path before anything shows them. A local game on the same box is the plain controller's.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from device.game import GameController
from device.remote.link import SEAT_OF, RemoteLink, Role
from device.remote.pairing import Pairing, new_code
from device.remote.screens import WaitingScreen
from device.remote.transport import BrokerConfig
from device.screens.base import Host
from device.screens.flows import deal_words
from engine.actions import Clue
from engine.duet import apply as duet_apply
from engine.errors import IllegalAction, NotYourTurn
from engine.events import Event
from engine.session import DuetSession

log = logging.getLogger("duetbox.remote")

#: The ``kind`` of a remote game in storage.
KIND = "remote"


class PartnerAway(IllegalAction):
    """A move made while the other box is away: refused (nothing is stored), the screen says the game is paused."""


class RemoteGame(GameController):
    """The game controller of ``host``, with the link of the remote game in play (``link``, None without one)."""

    def __init__(self, host: Host, *, broker: BrokerConfig, wake: Callable[[], None] | None = None) -> None:
        super().__init__(host.storage, host.settings, host.clock, show_game=host.nav.game,
                         ui_state=lambda: host.screen.ui_state() if host.screen is not None else None,
                         play_cue=host.audio.play_cue)
        self.host = host
        self.broker = broker
        self.wake = wake
        self.link: RemoteLink | None = None

    # -- the link --------------------------------------------------------------------------------------------
    def open_link(self, code: str, role: Role, *, game: str | None, setup: dict[str, Any] | None) -> RemoteLink:
        self.close_link()
        self.link = RemoteLink(Pairing.derive(code), role, self, self.broker, game=game, setup=setup,
                               wake=self.wake)
        return self.link

    def close_link(self, *, clean: bool = True) -> None:
        if self.link is not None:
            self.link.close(clean=clean)
            self.link = None

    @property
    def remote(self) -> dict[str, Any] | None:
        """The remote options of the game in play here, None for a local game (or none)."""
        if self.session is None:
            return None
        value = self.options.get("remote")
        return value if isinstance(value, dict) else None

    @property
    def linked(self) -> bool:
        """The game in play is the remote game of the open link."""
        remote = self.remote
        return remote is not None and self.link is not None and remote.get("game") == self.link.game

    @staticmethod
    def remote_options(code: str, role: Role, game: str | None) -> dict[str, Any]:
        seat = SEAT_OF[role]
        # each word once, upright for the local seat: the guest's display is turned half a turn for seat B
        # (RemoteApp.frame), so both boxes show the same picture, each to its own player
        return {"remote": {"code": code, "role": role, "game": game, "seat": seat}, "orientation": "upright"}

    # -- starting a remote game ------------------------------------------------------------------------------
    def host_game(self, *, code: str | None = None, pack: str | None = None, tokens: int = 9,
                  mission: str | None = None, sheet: int | None = None) -> str:
        """Deal a Duet here (this box plays seat A), publish it under a fresh code; returns the code."""
        host = self.host
        code = code or new_code(host.rng)
        words, language = deal_words(host, pack or str(self.settings.get("pack", "fr")))
        session = DuetSession.create(words, host.rng, tokens=tokens, mission=mission, language=language,
                                     clues=str(self.settings.get("clues", "strict")))
        link = self.open_link(code, "host", game=None, setup=dict(session.setup))
        options = self.remote_options(code, "host", link.game)
        if sheet is not None:
            options["sheet"] = sheet
        self.begin(session, kind=KIND, options=options, sheet=sheet)
        link.publish_setup()
        return code

    def join_game(self, code: str) -> None:
        """Look for the game of ``code`` (this box plays seat B); it begins when the host's set-up arrives."""
        self.open_link(code, "guest", game=None, setup=None)
        self.host.switch(WaitingScreen(self.host))

    def resume(self) -> bool:
        if not super().resume():
            return False
        remote = self.remote
        if remote is not None and self.session is not None:
            setup = dict(self.session.setup) if remote.get("role") == "host" else None
            self.open_link(str(remote["code"]), remote["role"], game=remote.get("game"), setup=setup)
        return True

    # -- what the link asks of the box (device.remote.link.Table) ---------------------------------------------
    def remote_version(self) -> int | None:
        return int(self.session.version) if self.linked and self.session is not None else None

    def remote_actions(self) -> list[dict[str, Any]]:
        if not self.linked or not isinstance(self.session, DuetSession):
            return []
        return [a.to_dict() for a in self.session.state.history]

    def remote_commit(self, version: int, action: dict[str, Any]) -> None:
        assert self.session is not None
        parsed = self.session.action_from_dict(action)
        super().act(parsed, version)  # engine, then the commit, then the outputs
        self._after_partner_move(parsed)

    def remote_setup(self, game: str, setup: dict[str, Any]) -> None:
        if self.linked:
            return
        assert self.link is not None
        session = DuetSession(setup, language=str(setup.get("language", "fr")))
        self.begin(session, kind=KIND, options=self.remote_options(self.link.pairing.code, "guest", game))

    def _after_partner_move(self, action: Any) -> None:
        """A move made on the other box (or confirmed by it): the same screen changes as a local one."""
        host, screen = self.host, self.host.screen
        if self.session is not None and self.session.over and screen is not None and screen.in_game:
            host.nav.game(None)
        link = self.link
        if link is not None and isinstance(action, Clue) and action.seat == link.remote_seat:
            clue = f"{action.word} {action.number}" if action.word else str(action.number)
            host.audio.announce(host.tr("remote.clue", clue=clue), link.seat)

    # -- moves of the local seat -------------------------------------------------------------------------------
    def act(self, action: Any, version: int, *, quiet: bool = False) -> list[Event]:
        link = self.link
        if not self.linked or link is None or not isinstance(self.session, DuetSession):
            return super().act(action, version, quiet=quiet)
        tr = self.host.tr
        seat = getattr(action, "seat", None)
        if seat is not None and seat != link.seat:
            raise NotYourTurn(tr("remote.not_yours"))
        if not link.ready:
            raise PartnerAway(tr("remote.partner_offline"))
        if link.role == "host":
            events = super().act(action, version, quiet=quiet)
            link.committed(version, action.to_dict())
            return events
        if link.pending is not None:
            raise PartnerAway(tr("remote.sending"))
        duet_apply(self.session.state, action, version=version)  # refuse here what the host would refuse
        link.propose(version, action.to_dict())
        return []
