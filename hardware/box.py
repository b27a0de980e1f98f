"""``Box``: one backend's devices together, with one event source and one ``close``.

The backends (mock, emulator, pi) subclass it; ``hardware.factory.open_box`` picks and builds one, so this base
imports no backend (no import circle).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from hardware.base import SEATS, ButtonPanel, Clock, InputEvent, LedRing, Seat, SeatScreen, SharedDisplay
from hardware.config import HardwareConfig
from hardware.degrade import missing_oleds as _missing_oleds
from hardware.events import EventQueue

log = logging.getLogger("duetbox.hardware")

#: How often a backend with an SDL display pumps pygame's events while it waits: SDL 2 cannot sleep in
#: ``SDL_WaitEventTimeout`` with the dummy or KMSDRM video driver (it pumps and sleeps 1 ms in a loop, about
#: 2 % of a core for nothing), so the wait sleeps on the event queue's condition (button callbacks and signal
#: handlers wake it at once) and looks at SDL's queue at this bounded rate.
PUMP_IDLE_S = 0.05
#: ... and while a key, touch or button is down (a hold or a release is being timed).
PUMP_ACTIVE_S = 0.01


class Box:
    """The devices of one backend. Use as a context manager or call ``close()`` (idempotent)."""

    backend: str

    def __init__(
        self,
        *,
        config: HardwareConfig,
        clock: Clock,
        buttons: ButtonPanel,
        oleds: Mapping[Seat, SeatScreen],
        ring: LedRing,
        display: SharedDisplay | None,
        queue: EventQueue,
    ) -> None:
        self.config = config
        self.clock = clock
        self.buttons = buttons
        self.oleds: Mapping[Seat, SeatScreen] = dict(oleds)
        self.ring = ring
        self.display = display
        self.queue = queue
        self._closed = False
        #: the current screen takes typed text (a code, a name): a keyboard's letters type instead of pressing
        self.text_mode = False

    @property
    def closed(self) -> bool:
        return self._closed

    def want_text(self, on: bool) -> None:
        """The screen shown takes typed text or not (the emulator's letter keys then type; see ``EmulatorBox``)."""
        self.text_mode = on

    def missing_oleds(self) -> dict[Seat, str]:
        """The seats whose OLED is missing or failing now, with the reason (see ``hardware.degrade``)."""
        return _missing_oleds(self.oleds)

    def service(self) -> None:
        """Retry outputs that a fault kept back (their backoff is timed by the box clock)."""
        for seat in SEATS:
            self.oleds[seat].service()
        self.ring.service()

    def wait_events(self, timeout: float | None) -> list[InputEvent]:
        """The pending input events; when there are none, wait up to ``timeout`` seconds (None: no limit)."""
        if self._closed:
            raise RuntimeError("the box is closed")
        self.service()
        return self._collect(timeout)

    def _collect(self, timeout: float | None) -> list[InputEvent]:
        return self.queue.drain()

    def _sleep(self, seconds: float) -> None:
        """Sleep up to ``seconds``, waking at once when something is queued (tests replace it)."""
        self.queue.wait_for_item(seconds)

    def pump_interval(self) -> float:
        """Seconds between two looks at SDL's event queue while waiting (see ``PUMP_IDLE_S``)."""
        return PUMP_IDLE_S

    def _wait_pumping(
        self,
        timeout: float | None,
        pump: Callable[[], list[InputEvent]],
        next_deadline: Callable[[], float | None] = lambda: None,
    ) -> list[InputEvent]:
        """The queued events and what ``pump`` reads; when there are none, sleep on the queue and pump again
        every ``pump_interval()`` seconds (or at ``next_deadline()``) until something comes or ``timeout``
        seconds pass (by the box clock and by the time slept, so a fake clock cannot make it wait forever)."""
        deadline = None if timeout is None else self.clock.now() + timeout
        slept = 0.0
        while True:
            events = self.queue.drain()
            events += pump()
            events += self.queue.drain()
            if events or timeout == 0:
                return events
            now = self.clock.now()
            left: list[float] = [self.pump_interval()]
            if timeout is not None and deadline is not None:
                remaining = min(deadline - now, timeout - slept)
                if remaining <= 1e-6:  # float dust of the summed pauses
                    return events
                left.append(remaining)
            wake = next_deadline()
            if wake is not None:
                left.append(wake - now)
            pause = max(0.0, min(left))
            self._sleep(pause)
            slept += pause

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for part in (self.display, self.ring, self.oleds.get("A"), self.oleds.get("B"), self.buttons):
            if part is None:
                continue
            try:
                part.close()
            except Exception:  # noqa: BLE001 - closing must reach every device
                log.exception("closing %r failed", part)

    def __enter__(self) -> Box:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
