"""The attract screen: after the idle timeout, a gentle animation on the display and the ring; any press
returns to the screen under it."""

from __future__ import annotations

import random

from device.render import models as m
from device.screens.base import Frame, Host, Screen

#: How long the attract animation plays before it holds still.
ATTRACT_SECONDS = 600.0


class AttractScreen(Screen):
    """After the idle timeout: a gentle animation on the display and ring; any press returns."""

    name = "attract"
    attract = False
    wakes = True

    def __init__(self, host: Host, under: Screen) -> None:
        super().__init__(host)
        self.under = under
        self.start = host.clock.now()
        words = ("duet", "agent", "indice", "mission", "code", "ville", "fleuve", "lune")
        self.words = tuple(random.Random(0).sample(words, len(words)))

    def wake(self) -> None:
        self.host.woken()
        self.host.switch(self.under)

    def _animating(self, now: float) -> bool:
        return now - self.start < ATTRACT_SECONDS

    def deadline(self) -> float | None:
        now = self.host.clock.now()
        # 10 frames a second for a while, then a still picture: a box left on overnight sleeps
        return now + 0.1 if self._animating(now) else None

    def frame(self) -> Frame:
        now = self.host.clock.now()
        t = min(now - self.start, ATTRACT_SECONDS)
        shared = m.AttractUi(t=t, title="duetbox", prompt=self.tr("attract.prompt"), words=self.words)
        oled = m.OledTextUi("duetbox", (self.tr("attract.prompt"),))
        ring = (m.AttractEffect(self.start),) if self._animating(now) else ()
        return Frame(shared=shared, oleds={"A": oled, "B": oled}, ring=ring)


__all__ = ["ATTRACT_SECONDS", "AttractScreen"]
