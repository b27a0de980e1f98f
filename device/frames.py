"""What the loop draws each time: the current screen's frame (or the storage's message instead of it) with the
game's ring: its public view, the live effects, the running hourglass."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from device.game import GameController
from device.render import models as m
from device.screens.base import Frame, Screen
from device.storage_screen import StorageWatch
from engine.views import SeatView
from hardware.base import Clock, LedRing

#: The whole-screen pages that are printed for each seat in "table" orientation (help, about and confirmation
#: pages take the setting from their screen; play screens from the game's options).
PAGES = (m.MenuUi, m.SetupUi, m.SettingsUi, m.PinUi, m.StatsUi, m.MapUi, m.AttractUi, m.MessageUi)


def one_way_map(view: m.OledView, ui: m.OledUi | None) -> tuple[m.OledView, m.OledUi | None]:
    """Seat B's key map as seat A's is drawn (card 0 at its top left), for a picture everyone at the box reads
    one way (a box set upright, both players on one side; a remote guest's display, turned for seat B): B sees
    the grid as A does. The OLED renderer turns B's map for a seat across the table, so the cards are handed to
    it in reverse order (card i as 24 - i), and the small key beside a clue being spelt is drawn as A's
    (tests/seats: both were turned for B, on a box set upright and on a remote guest's box)."""
    if not isinstance(view, SeatView):
        return view, ui
    last = len(view.key) - 1
    public = replace(view.public, cards=tuple(reversed(view.public.cards)))
    if isinstance(ui, m.SeatKeyUi) and ui.cursor is not None:
        ui = replace(ui, cursor=last - ui.cursor)
    if isinstance(ui, m.ClueEntryUi) and ui.key:
        ui = replace(ui, key_seat="A")
    return replace(view, public=public, key=view.key[::-1]), ui


def compose(screen: Screen, game: GameController, watch: StorageWatch, tr: Callable[..., str], clock: Clock,
            ring: LedRing | None, orientation: str = "table") -> Frame:
    """The frame to show now (nothing is drawn here). With the box set "upright" (both players on one side),
    the pages are printed once, upright."""
    instead = watch.frame(tr)  # nothing can be saved: say so everywhere, show nothing else
    frame = instead if instead is not None else screen.frame()
    if orientation == "upright" and isinstance(frame.shared, PAGES):
        frame.shared = replace(frame.shared, orientation="upright")
    if instead is not None:
        return frame
    if getattr(frame.shared, "orientation", None) == "upright" and "B" in frame.seat_views:
        frame.seat_views = dict(frame.seat_views)
        frame.oleds = dict(frame.oleds)
        frame.seat_views["B"], frame.oleds["B"] = one_way_map(frame.seat_views["B"], frame.oleds.get("B"))
    session = game.session
    if frame.ring_view is None and session is not None and screen.in_game:
        frame.ring_view = session.public_view()
    now = clock.now()
    frame.ring = frame.ring + game.live_effects(now)
    hourglass = game.hourglass
    if hourglass.state(now) != "idle" and screen.in_game and not frame.ring and ring is not None:
        frame.ring_pixels = hourglass.ring_frame(now, ring.count)
    return frame
