"""``RemoteApp``: the box app for a Duet played on two boxes, one seat each (docs/remote.md).

It is the ordinary ``device.app.App`` with a ``RemoteLink``: moves of the local seat go through the link (the
host commits them at once and publishes them; the guest proposes them and shows them when the host's move comes
back), moves of the partner arrive from the link and are committed here before anything shows them. The remote
seat's OLED never shows its key (it says "remote partner" and where their cursor is); while either box is away
every screen says the game is paused, and MENU leads back to the menu (the game stays saved).
"""

from __future__ import annotations

import logging
from typing import Any

from device.app import App
from device.remote.link import SEAT_OF, RemoteLink, Role
from device.remote.pairing import Pairing, new_code
from device.remote.transport import BrokerConfig
from device.render import models as m
from device.screens.base import Frame
from engine.duet import apply as duet_apply
from engine.errors import IllegalAction, NotYourTurn
from hardware.base import InputEvent

log = logging.getLogger("duetbox.remote")

KIND = "remote"


class PartnerAway(IllegalAction):
    """A move made while the other box is away: refused (nothing is stored), the screen says the game is paused."""


class RemoteApp(App):
    """A box that can host or join a remote Duet. ``broker``: where the MQTT broker is."""

    def __init__(self, box: Any, storage: Any, *, broker: BrokerConfig | None = None, **kwargs: Any) -> None:
        self.broker = broker or BrokerConfig()
        self.link: RemoteLink | None = None
        self._sent_cursor: int | None = None
        super().__init__(box, storage, **kwargs)

    # -- starting a remote game ------------------------------------------------------------------------------
    def _open_link(self, code: str, role: Role, *, game: str | None, setup: dict[str, Any] | None) -> RemoteLink:
        if self.link is not None:
            self.link.close()
        self.link = RemoteLink(Pairing.derive(code), role, self, self.broker, game=game, setup=setup,
                               wake=self._wake)
        return self.link

    def _wake(self) -> None:
        """From paho's thread: wake the loop's wait at once (the event itself is dropped by ``_input``)."""
        try:
            self.box.queue.put(InputEvent(seat=None, button=KIND, kind=KIND, time=self.clock.now()))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - best effort: the loop polls by itself within a second anyway
            pass

    def host_game(self, *, code: str | None = None, pack: str | None = None, tokens: int = 9,
                  mission: str | None = None, sheet: int | None = None) -> str:
        """Deal a Duet here (this box plays seat A), publish it under a fresh code; returns the code."""
        from device.screens.flows import deal_words
        from device.session import DuetSession

        code = code or new_code(self.rng)
        words, language = deal_words(self, pack or str(self.settings.get("pack", "fr")))
        session = DuetSession.create(words, self.rng, tokens=tokens, mission=mission, language=language,
                                     clues=str(self.settings.get("clues", "strict")))
        link = self._open_link(code, "host", game=None, setup=dict(session.setup))
        options = self._remote_options(code, "host", link.game)
        if sheet is not None:
            options["sheet"] = sheet
        self.begin_game(session, kind=KIND, options=options, sheet=sheet)
        link.publish_setup()
        return code

    def join_game(self, code: str) -> None:
        """Look for the game of ``code`` (this box plays seat B); it begins when the host's set-up arrives."""
        from device.remote.screens import WaitingScreen

        self._open_link(code, "guest", game=None, setup=None)
        self.switch(WaitingScreen(self))

    def _remote_options(self, code: str, role: Role, game: str | None) -> dict[str, Any]:
        seat = SEAT_OF[role]
        # the shared display turned so that the local seat reads it upright (seat B: the renderer's table mode
        # already prints every word the right way up for B)
        orientation = "upright" if seat == "A" else "table"
        return {"remote": {"code": code, "role": role, "game": game, "seat": seat}, "orientation": orientation}

    @property
    def remote(self) -> dict[str, Any] | None:
        """The remote options of the game in play here, None for a local game."""
        if self.session is None:
            return None
        value = self.game_options.get("remote")
        return value if isinstance(value, dict) else None

    def resume(self) -> bool:
        if not super().resume():
            return False
        remote = self.remote
        if remote is not None:
            setup = dict(self.session.setup) if remote.get("role") == "host" else None
            self._open_link(str(remote["code"]), remote["role"], game=remote.get("game"), setup=setup)
        return True

    # -- what the link asks of the box (device.remote.link.Table) ---------------------------------------------
    def _remote_game(self) -> bool:
        remote = self.remote
        return remote is not None and self.link is not None and remote.get("game") == self.link.game

    def remote_version(self) -> int | None:
        return int(self.session.version) if self._remote_game() else None

    def remote_actions(self) -> list[dict[str, Any]]:
        if not self._remote_game():
            return []
        return [a.to_dict() for a in self.session.state.history]

    def remote_commit(self, version: int, action: dict[str, Any]) -> None:
        parsed = self.session.action_from_dict(action)
        App.act(self, parsed, version)  # engine, then the commit, then the outputs
        self._after_move(parsed)

    def remote_setup(self, game: str, setup: dict[str, Any]) -> None:
        from device.session import DuetSession

        if self._remote_game():
            return
        assert self.link is not None
        session = DuetSession(setup, language=str(setup.get("language", "fr")))
        self.begin_game(session, kind=KIND,
                        options=self._remote_options(self.link.pairing.code, "guest", game))

    def _after_move(self, action: Any) -> None:
        """A move made on the other box (or confirmed by it): the same screen changes as a local one."""
        if self.session.over and self.screen is not None and getattr(self.screen, "in_game", False):
            self.switch(self.game_screen(None))
        if self.link is not None and getattr(action, "seat", None) == self.link.remote_seat \
                and type(action).__name__ == "Clue":
            clue = f"{action.word} {action.number}" if action.word else str(action.number)
            self.announce(self.tr("remote.clue", clue=clue), self.link.seat)

    # -- moves of the local seat -------------------------------------------------------------------------------
    def act(self, action: Any, version: int, *, quiet: bool = False) -> list[Any]:
        link = self.link
        if not self._remote_game() or link is None:
            return super().act(action, version, quiet=quiet)
        seat = getattr(action, "seat", None)
        if seat is not None and seat != link.seat:
            raise NotYourTurn(self.tr("remote.not_yours"))
        if not link.ready:
            raise PartnerAway(self.tr("remote.partner_offline"))
        if link.role == "host":
            events = super().act(action, version, quiet=quiet)
            link.committed(version, action.to_dict())
            return events
        if link.pending is not None:
            raise PartnerAway(self.tr("remote.sending"))
        duet_apply(self.session.state, action, version=version)  # refuse here what the host would refuse
        link.propose(version, action.to_dict())
        return []

    # -- the loop --------------------------------------------------------------------------------------------
    def _tick(self, now: float) -> None:
        if self.link is not None and self.link.poll() and self.screen is not None:
            self._follow_partner()
        super()._tick(now)

    def _follow_partner(self) -> None:
        cursors = getattr(self.screen, "cursors", None)
        if self.link is not None and isinstance(cursors, dict) and self.link.partner_cursor is not None:
            cursors[self.link.remote_seat] = self.link.partner_cursor

    def _input(self, event: InputEvent) -> None:
        if event.kind == KIND:  # only a wake-up
            self._tick(event.time)
            return
        link = self.link
        if link is not None and self._remote_game():
            if event.seat == link.remote_seat:
                return  # that seat is played on the other box
            if link.status != "ready" and not (self.session.over or event.button == "menu"):
                return  # paused: only MENU (back to the menu, the game stays saved)
            if link.status != "ready" and event.button == "menu" and event.kind == "press":
                from device.screens.shell import MenuScreen

                self.switch(MenuScreen(self))
                return
        super()._input(event)

    def step(self, timeout: float | None = 0.0) -> None:
        super().step(timeout)
        link, cursors = self.link, getattr(self.screen, "cursors", None)
        if link is not None and self._remote_game() and isinstance(cursors, dict):
            card = cursors.get(link.seat)
            if isinstance(card, int) and card != self._sent_cursor and link.ready:
                self._sent_cursor = card
                link.cursor(card)

    def _frame(self) -> Frame:
        frame = super()._frame()
        link = self.link
        if link is None or not self._remote_game() or not getattr(self.screen, "in_game", False):
            return frame
        if link.status != "ready" and not self.session.over:
            if link.status == "offline":
                title = self.tr("remote.offline")
            elif not link.partner_seen and self.session.version == 0:
                title = self.tr("remote.waiting_partner")
            else:
                title = self.tr("remote.partner_offline")
            lines = (self.tr("remote.paused_line"), self.tr("remote.back"))
            if link.role == "host":
                lines = (self.tr("remote.code_line", code=link.pairing.code),) + lines
            ui = m.MessageUi(title, lines)
            oled = m.OledTextUi(title, (self.tr("remote.back"),))
            return Frame(shared=ui, oleds={"A": oled, "B": oled})
        partner = link.remote_seat
        at = link.partner_cursor
        lines = (self.tr("remote.partner_at", card=at + 1),) if at is not None else ()
        frame.oleds = dict(frame.oleds)
        frame.oleds[partner] = m.OledTextUi(self.tr("remote.partner"), lines)
        frame.seat_views = {k: v for k, v in frame.seat_views.items() if k != partner}
        if link.pending is not None or link.refusal is not None:
            text = self.tr("remote.sending") if link.pending is not None else self.tr("remote.refused")
            local = frame.oleds.get(link.seat)
            if isinstance(local, m.OledTextUi):
                frame.oleds[link.seat] = m.OledTextUi(local.title, local.lines + (text,), local.invert)
        return frame

    def kill(self) -> None:
        """Tests: die as a box whose power is cut (no goodbye on the broker, nothing saved beyond the commits)."""
        if self.link is not None:
            self.link.close(clean=False)
            self.link = None
        self.storage.close()

    def shutdown(self) -> None:
        if self.link is not None:
            self.link.close()
            self.link = None
        super().shutdown()
