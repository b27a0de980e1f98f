"""Degrade, don't die (the app's side): what the box says while a device is missing.

- An OLED missing or failing (``box.missing_oleds()``, see ``hardware.degrade``): a strip at the bottom of the
  shared display names the seat and points to hot-seat play, which needs no OLED (the key shows on the shared
  display behind the privacy screen); the menu lists Hot-seat first. When the OLED answers again the strip goes
  and the whole display is redrawn.
- No shared display at boot: ``DisplayWaitMessages`` is the pi backend's ``DisplayWait``: a message on both
  OLEDs, a slow amber chase on the ring, and systemd told the service is up and waiting (READY=1, a status
  line, the watchdog fed), so the unit never falls into its restart loop.

The app keeps one ``OledNotice`` and calls ``after_draw`` after each frame (one line in ``App.draw``).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from typing import Protocol

from device.i18n import Translator
from device.outputs import Outputs
from device.render.models import OledTextUi
from device.render.oled import render_oled
from device.render.text import ellipsize, pg_font
from device.screens.base import Frame
from device.services.notify import Notifier
from engine.seats import SEATS
from hardware.base import Clock, LedRing, Seat, SeatScreen
from hardware.box import Box

log = logging.getLogger("duetbox.degraded")

#: Height of the strip, as a share of the display's height.
STRIP = 0.075
STRIP_BG = (150, 30, 30)
STRIP_FG = (255, 255, 255)


def notice_text(tr: Translator, missing: Collection[str]) -> str | None:
    """The strip's text for the seats in ``missing`` (None when both OLEDs work)."""
    seats = sorted(missing)
    if not seats:
        return None
    if len(seats) == 1:
        return str(tr("degraded.oled_one", seat=seats[0]))
    return str(tr("degraded.oled_both"))


def oled_missing(app: object) -> bool:
    """True while an OLED is missing or failing (the menu then offers hot-seat first)."""
    missing = getattr(getattr(app, "box", None), "missing_oleds", None)
    return bool(missing()) if missing is not None else False


class NoticeHost(Protocol):
    """What the notice needs of the app: its box, words, outputs, clock and a fresh frame."""

    @property
    def box(self) -> Box: ...
    @property
    def tr(self) -> Translator: ...
    @property
    def outputs(self) -> Outputs: ...
    @property
    def clock(self) -> Clock: ...
    def frame(self) -> Frame: ...


class OledNotice:
    """Keeps the strip on the shared display while an OLED is missing."""

    def __init__(self, app: NoticeHost) -> None:
        self.app = app
        self.text: str | None = None
        self._drawn_over: object = None  # the outputs' last shared frame the strip was drawn over

    def after_draw(self) -> None:
        app = self.app
        missing = getattr(app.box, "missing_oleds", None)
        text = notice_text(app.tr, missing()) if missing is not None else None
        shared = app.outputs._last_shared
        if text != self.text:
            if text is None:
                log.info("both seat screens answer again")
            else:
                log.warning("%s", text)
            was, self.text = self.text, text
            if text is None and was is not None:
                self._drawn_over = None
                renderer = getattr(app.outputs, "_renderer", None)
                if renderer is not None:  # the strip was drawn past the renderer: it must repaint everything
                    renderer.invalidate()
                app.outputs.show(app.frame(), app.clock.now(), force=True)  # redraw under the strip
                return
        elif text is None or shared is self._drawn_over:
            return
        self._drawn_over = shared
        if text is not None:
            self._draw(text)

    def _draw(self, text: str) -> None:
        display = self.app.box.display
        if display is None:
            return
        try:
            import pygame  # only where a shared display exists (the notice module loads without pygame)

            w, h = display.surface.get_size()
            height = max(18, int(h * STRIP))
            rect = pygame.Rect(0, h - height, w, height)
            display.surface.fill(STRIP_BG, rect)
            font = pg_font(max(10, int(height * 0.5)), bold=True)
            line = ellipsize(text, w - 16, lambda s: font.size(s)[0])
            image = font.render(line, True, STRIP_FG)
            display.surface.blit(image, image.get_rect(center=rect.center))
            display.present([rect])
        except Exception:  # noqa: BLE001 - the notice must never take the box down
            log.exception("drawing the missing-OLED notice failed")


class DisplayWaitMessages:
    """A ``hardware.degrade.DisplayWait``: says on the OLEDs and the ring that the box waits for its shared
    display, and keeps systemd informed (``notifier`` may be None)."""

    def __init__(self, tr: Translator, notifier: Notifier | None = None) -> None:
        self.tr = tr
        self.notifier = notifier
        self.shown: list[OledTextUi] = []  # the OLED models shown (tests)

    def __call__(self, reason: str, attempt: int, oleds: Mapping[Seat, SeatScreen], ring: LedRing) -> None:
        tr = self.tr
        ui = OledTextUi(tr("degraded.display_title"),
                        (tr("degraded.display_line1"), tr("degraded.display_line2"), tr("degraded.display_line3")))
        self.shown.append(ui)
        image = render_oled(None, ui)
        for seat in SEATS:
            screen = oleds.get(seat)
            if screen is not None:
                if screen.size != image.size:
                    screen.show(image.rotate(90, expand=True))
                else:
                    screen.show(image)
        count = ring.count
        lit = attempt % count
        ring.show([(90, 45, 0) if i == lit else (8, 4, 0) for i in range(count)])
        if self.notifier is not None:
            status = f"waiting for the shared display: {reason}"
            if attempt == 1:
                # up and showing a message: READY now, so the start timeout cannot restart-loop the unit
                self.notifier.ready(status)
            else:
                self.notifier.status(status)
            self.notifier.tick()
