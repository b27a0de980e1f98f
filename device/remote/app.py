"""``RemoteApp``: the box app for a Duet played on two boxes, one seat each (docs/remote.md).

It is the ordinary ``device.app.App`` composed with remote parts instead of the local ones:
- the game controller is a ``RemoteGame`` (``device/remote/game.py``): moves of the local seat go through the link,
  moves of the partner arrive from it and take the same commit path before anything shows them;
- the input interpreter is a ``RemoteInputs`` (``device/remote/inputs.py``): the link is polled with the timers,
  the remote seat's buttons do nothing here, a paused game only takes MENU;
- the navigator adds the "Duet à distance" row to the main menu;
- each frame passes through ``remote_frame``: the remote seat's OLED never shows its key (it says "remote
  partner" and where their cursor is); while either box is away every game screen says the game is paused.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from device.app import App
from device.navigation import Navigator
from device.remote.game import KIND, PartnerAway, RemoteGame
from device.remote.inputs import WAKE, RemoteInputs
from device.remote.link import RemoteLink
from device.remote.screens import menu_items
from device.remote.transport import BrokerConfig
from device.render import models as m
from device.screens.base import Frame, Screen
from engine.views import SeatView
from hardware.base import InputEvent

__all__ = ["KIND", "PartnerAway", "RemoteApp", "remote_frame"]

log = logging.getLogger("duetbox.remote")


class RemoteNavigator(Navigator):
    def menu_extras(self, menu: Screen) -> list[Any]:
        return menu_items(self.host, menu)


class RemoteApp(App):
    """A box that can host or join a remote Duet. ``broker``: where the MQTT broker is."""

    def __init__(self, box: Any, storage: Any, *, broker: BrokerConfig | None = None, **kwargs: Any) -> None:
        super().__init__(box, storage, **kwargs)
        # the remote parts in place of the local ones (nothing has used those yet: no game, no screen)
        self.nav = RemoteNavigator(self)
        self.remote_game = RemoteGame(self, broker=broker or BrokerConfig(), wake=self.wake_loop)
        self.game = self.remote_game
        self.input = RemoteInputs(self, self.remote_game)

    @property
    def link(self) -> RemoteLink | None:
        return self.remote_game.link

    @property
    def remote(self) -> dict[str, Any] | None:
        return self.remote_game.remote

    def host_game(self, **kwargs: Any) -> str:
        return self.remote_game.host_game(**kwargs)

    def join_game(self, code: str) -> None:
        self.remote_game.join_game(code)

    def wake_loop(self) -> None:
        """From paho's thread: wake the loop's wait at once (the interpreter only runs its timers for it)."""
        try:
            self.box.queue.put(InputEvent(seat=None, button=WAKE, kind=WAKE, time=self.clock.now()))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - best effort: the loop polls by itself within a second anyway
            pass

    def frame(self) -> Frame:
        frame = super().frame()
        game, screen = self.remote_game, self.screen
        guest = game.linked and game.link is not None and game.link.role == "guest"
        # the guest's seat B sits at the display's top edge: the whole picture turned for it (docs/remote.md)
        self.outputs.shared_rotation = 180 if guest and screen is not None and screen.in_game else 0
        if self.storage.problem is not None or self.storage.notice is not None:
            return frame  # the storage message comes first
        return remote_frame(self, frame)

    def kill(self) -> None:
        """Tests: die as a box whose power is cut (no goodbye on the broker, nothing saved beyond the commits)."""
        self.remote_game.close_link(clean=False)
        self.storage.close()

    def shutdown(self) -> None:
        self.remote_game.close_link()
        super().shutdown()


def unturned_map(view: m.OledView, ui: Any) -> tuple[SeatView, Any]:
    """Seat B's key map as seat A's is drawn (card 0 at its top-left): on a turned display B sees the grid as A
    does. The OLED renderer turns B's map, so the cards are handed to it in reverse order (card i as 24 - i)."""
    assert isinstance(view, SeatView), "remote play is Duet: a seat sees its Duet seat view"
    last = len(view.key) - 1
    public = replace(view.public, cards=tuple(reversed(view.public.cards)))
    if isinstance(ui, m.SeatKeyUi) and ui.cursor is not None:
        ui = replace(ui, cursor=last - ui.cursor)
    return replace(view, public=public, key=view.key[::-1]), ui


def remote_frame(app: RemoteApp, frame: Frame) -> Frame:
    """``frame`` as shown on a box in a remote game: the partner's OLED without the key, the paused message."""
    game, link, screen, tr = app.remote_game, app.remote_game.link, app.screen, app.tr
    session = game.session
    if link is None or session is None or not game.linked or screen is None or not screen.in_game:
        return frame
    if link.status != "ready" and not session.over:
        if link.status == "offline":
            title = tr("remote.offline")
        elif not link.partner_seen and session.version == 0:
            title = tr("remote.waiting_partner")
        else:
            title = tr("remote.partner_offline")
        lines: tuple[str, ...] = (tr("remote.paused_line"), tr("remote.back"))
        if link.role == "host":
            lines = (tr("remote.code_line", code=link.pairing.code),) + lines
        ui = m.MessageUi(title, lines, orientation="upright")  # one player per box; a guest's display is turned
        oled = m.OledTextUi(title, (tr("remote.back"),))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})
    partner = link.remote_seat
    at = link.partner_cursor
    partner_lines = (tr("remote.partner_at", card=at + 1),) if at is not None else ()
    frame.oleds = dict(frame.oleds)
    frame.oleds[partner] = m.OledTextUi(tr("remote.partner"), partner_lines)
    frame.seat_views = {k: v for k, v in frame.seat_views.items() if k != partner}
    if app.outputs.shared_rotation == 180 and link.seat in frame.seat_views:
        frame.seat_views[link.seat], frame.oleds[link.seat] = unturned_map(frame.seat_views[link.seat],
                                                                           frame.oleds.get(link.seat))
    waiting = link.pending is not None or link.resolving is not None
    if waiting or link.refusal is not None:
        text = tr("remote.sending") if waiting else tr("remote.refused")
        local = frame.oleds.get(link.seat)
        if isinstance(local, m.OledTextUi):
            frame.oleds[link.seat] = m.OledTextUi(local.title, local.lines + (text,), local.invert)
    return frame
