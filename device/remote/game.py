"""``RemoteGame``: the game controller of a box that can play a Duet with a remote box (docs/remote.md).

It is ``device.game.GameController`` (lifecycle, act → engine → commit → events → effects) plus one
``RemoteLink``. In a remote game, a move of the local seat goes through the link: the host commits it at once
(the ordinary path) and publishes it; the guest checks it with the engine, proposes it and shows it when the
host's move comes back. Moves of the partner arrive from the link (``remote_commit``) and take the same commit
path before anything shows them. A local game on the same box is the plain controller's.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

from device.game import GameController
from device.inputs import LoopHost
from device.modes import REMOTE
from device.remote.link import SEAT_OF, RemoteLink, Role
from device.remote.pairing import Pairing, new_code
from device.remote.screens import HostWaitingScreen, WaitingScreen
from device.remote.secret import RemoteSession, Unresolved, one_side, seal_to
from device.remote.transport import BrokerConfig
from device.screens.flows import deal_words
from engine.actions import Clue, Guess
from engine.duet import apply as duet_apply
from engine.duet import greens_left
from engine.errors import IllegalAction, NotYourTurn
from engine.events import Event
from engine.session import DuetSession, SetupError

log = logging.getLogger("duetbox.remote")

#: The ``kind`` of a remote game in storage.
KIND = REMOTE.kind


class PartnerAway(IllegalAction):
    """A move made while the other box is away: refused (nothing is stored), the screen says the game is paused."""


class RemoteGame(GameController):
    """The game controller of ``host``, with the link of the remote game in play (``link``, None without one)."""

    def __init__(self, host: LoopHost, *, broker: BrokerConfig, wake: Callable[[], None] | None = None) -> None:
        super().__init__(host.storage, host.settings, host.clock, show_game=host.nav.game,
                         ui_state=lambda: host.screen.ui_state() if host.screen is not None else None,
                         play_cue=host.audio.play_cue)
        self.host = host
        self.broker = broker
        self.wake = wake
        self.link: RemoteLink | None = None
        #: the host: the game it offers, dealt when the guest's box is there (pack, tokens, mission, sheet)
        self.offer: dict[str, Any] | None = None
        self.local_guess: tuple[int, Guess] | None = None  # the host: seat A's guess, its colour on the way

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
        self.offer, self.local_guess = None, None

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
        """Offer a Duet under a fresh code (this box plays seat A); returns the code. The card is dealt when the
        guest's box is there, so that seat B's side goes straight to it (``remote_hello``)."""
        host = self.host
        code = code or new_code(host.rng)
        self.open_link(code, "host", game=None, setup=None)
        self.offer = {"pack": pack or str(self.settings.get("pack", "fr")), "tokens": tokens, "mission": mission,
                      "sheet": sheet}
        host.switch(HostWaitingScreen(host))
        return code

    def join_game(self, code: str) -> None:
        """Look for the game of ``code`` (this box plays seat B); it begins when the host's set-up arrives."""
        self.open_link(code, "guest", game=None, setup=None)
        self.host.switch(WaitingScreen(self.host))

    def resume(self) -> bool:
        row = self.storage.current_game()
        remote = row.options.get("remote") if row is not None else None
        if row is None or row.kind != KIND or not isinstance(remote, dict):
            return super().resume()
        ui = self.storage.load_ui(row.id)
        facts, left = RemoteSession.remembered((ui or {}).get("remote"))
        try:
            session = RemoteSession(row.setup, seat=remote["seat"], language=str(row.options.get("language", "fr")),
                                    facts=facts, left=left)
            session.replay(self.storage.actions(row.id))
        except (SetupError, ValueError, IllegalAction, KeyError) as exc:
            log.error("the saved remote game %d cannot be resumed (%s): abandoned", row.id, exc)
            self.storage.abandon_game(row.id)
            return False
        self.session, self.id, self.kind = session, row.id, row.kind
        self.options, self.saved_ui = dict(row.options), ui
        self.hourglass.reset()
        self.show_game(ui)
        self.open_link(str(remote["code"]), remote["role"], game=remote.get("game"), setup=None)
        log.info("resumed remote game %d at move %d", row.id, session.version)
        return True

    def _snapshot(self) -> dict[str, Any] | None:
        """The screen state saved with each move, and what this box has learnt of the partner's side (so a
        restarted box replays its game without the partner's side)."""
        ui = super()._snapshot()
        if isinstance(self.session, RemoteSession) and self.id is not None:
            ui = dict(ui or {}, remote=self.session.memory())
        return ui

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
        session = RemoteSession(setup, seat="B", language=str(setup.get("language", "fr")))
        self.begin(session, kind=KIND, options=self.remote_options(self.link.pairing.code, "guest", game))

    def remote_hello(self, public: str) -> dict[str, Any] | None:
        """The host deals now: both sides are drawn together (the template couples them); seat A's is kept,
        seat B's is sealed to the guest's one-time key and the whole card dropped."""
        offer, link, host = self.offer, self.link, self.host
        if offer is None or link is None or self.linked:
            return None
        words, language = deal_words(host, str(offer["pack"]))
        # the key from the system's generator: no generator state is left behind that could replay B's side
        card = DuetSession.create(words, random.SystemRandom(), tokens=int(offer["tokens"]), mission=offer["mission"],
                                  language=language, clues=str(self.settings.get("clues", "strict")))
        dealt = {"setup": {k: v for k, v in card.setup.items() if k != "key"}, "to": public,
                 "side": seal_to(public, {"B": card.setup["key"]["B"]})}
        session = RemoteSession(one_side(card.setup, "A"), seat="A", language=language)
        del card
        options = self.remote_options(link.pairing.code, "host", link.game)
        sheet = offer["sheet"]
        if sheet is not None:
            options["sheet"] = sheet
        self.offer = None
        self.begin(session, kind=KIND, options=options, sheet=sheet)
        return dealt

    def _remote_session(self) -> RemoteSession | None:
        return self.session if self.linked and isinstance(self.session, RemoteSession) else None

    def remote_facts(self, version: int) -> dict[str, Any]:
        session = self._remote_session()
        if session is None or version >= len(session.state.history):
            return {}
        history = session.state.history
        out: dict[str, Any] = {}
        action = history[version]
        if isinstance(action, Guess) and action.seat != session.seat:  # read on this side
            out["id"] = session.own_side[action.card]
        # this side's greens left after that move: the greens found by then
        last = {a.card: i for i, a in enumerate(history) if isinstance(a, Guess)}  # a find is a card's last guess
        found = {c for c, i in last.items() if i <= version and c in session.state.found}
        out["left"] = sum(1 for c in range(REMOTE.board.cards) if session.own_side[c] == "G" and c not in found)
        return out

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        session = self._remote_session()
        if session is not None:
            session.learn(version=version, colour=colour, left=left)

    def remote_resolve(self, version: int, card: int) -> str | None:
        session = self._remote_session()
        if session is None or session.version != version:
            return None
        return session.own_side[card]

    def remote_resolved(self, version: int, card: int) -> None:
        pending, self.local_guess = self.local_guess, None
        if pending is None or pending[0] != version or pending[1].card != card or self.link is None:
            return
        GameController.act(self, pending[1], version)
        self.link.committed(version, pending[1].to_dict())
        self._after_partner_move(pending[1])  # shown now, like a move that came from the other box

    def remote_own_left(self) -> int | None:
        session = self._remote_session()
        return None if session is None else greens_left(session.state, session.seat)

    def remote_over(self) -> str | None:
        session = self._remote_session()
        return session.own_side if session is not None and session.over else None

    def remote_reveal(self, side: str) -> bool:
        session = self._remote_session()
        if session is None or not session.over:
            return False
        if session.complete:
            return True
        try:
            session.reveal(side)
        except ValueError as exc:
            log.error("the partner's side does not fit this card: %s", exc)
            return False
        if self.id is not None:
            self.storage.set_setup(self.id, session.setup)
        return True

    def _after_partner_move(self, action: Any) -> None:
        """A move made on the other box (or confirmed or resolved by it): the same screen changes as a local
        one."""
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
        if link.pending is not None or link.resolving is not None:
            raise PartnerAway(tr("remote.sending"))
        session = self.session
        if link.role == "host":
            need = session.needs(action, version) if isinstance(session, RemoteSession) else None
            if need == "colour":  # seat A's guess is read on B's side, on the other box
                duet_apply(session.state, action, version=version)  # refuse here what the rules refuse
                self.local_guess = (version, action)
                link.resolve(version, action.card)
                return []
            try:
                events = super().act(action, version, quiet=quiet)
            except Unresolved:
                raise PartnerAway(tr("remote.sending")) from None
            link.committed(version, action.to_dict())
            return events
        duet_apply(session.state, action, version=version)  # refuse here what the host would refuse
        link.propose(version, action.to_dict())
        return []
