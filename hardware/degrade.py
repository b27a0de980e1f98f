"""Degrade, don't die: what the pi backend does when a device is missing at start.

- A missing or failing OLED: the box opens anyway. The seat screen starts in fault, so ``FaultGuard`` retries
  it with its backoff (at most every 30 s) and it comes back by itself; ``missing_oleds`` tells the app which
  seat to mention on the shared display (and that hot-seat play works without it).
- No shared display (HDMI unplugged, screen off, no DRM card yet): the box opens its OLEDs and its ring first,
  then retries the display every ``DISPLAY_RETRY_S`` seconds for as long as it takes, calling a ``DisplayWait``
  each time (the app's shows a message on the OLEDs and the ring and keeps systemd's watchdog fed). It never
  exits, so systemd's restart loop, which would end on a login prompt, never starts.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from hardware.base import SEATS, LedRing, Seat, SeatScreen
from hardware.errors import HardwareMissing

log = logging.getLogger("duetbox.hardware")

#: Seconds between two tries of the shared display while it is missing.
DISPLAY_RETRY_S = 2.0


class DisplayWait(Protocol):
    """Called before each pause while the shared display is missing: ``reason`` is the last error's one-line
    fix, ``attempt`` counts from 1; the OLEDs and the ring are open (an OLED may be in fault itself)."""

    def __call__(self, reason: str, attempt: int, oleds: Mapping[Seat, SeatScreen], ring: LedRing) -> None: ...


def start_in_fault(screen: Any, exc: OSError) -> None:
    """Mark a seat screen whose panel could not be initialised as faulty: writes wait for the guard's backoff,
    which re-initialises the panel (and so finds it when it comes back). ``screen`` is an ``OledScreen``."""
    screen.missing_reason = str(exc)
    screen.guard._fail(exc)  # logs the warning once, starts the backoff


def missing_oleds(oleds: Mapping[Seat, Any]) -> dict[Seat, str]:
    """The seats whose OLED is in fault now (missing at start, or unplugged since), with the reason."""
    out: dict[Seat, str] = {}
    for seat in SEATS:
        screen = oleds.get(seat)
        if screen is not None and getattr(screen, "in_fault", False):
            out[seat] = str(getattr(screen, "missing_reason", "") or f"the OLED of seat {seat} is not responding")
    return out


def open_display_waiting(
    open_display: Callable[[], Any],
    wait: DisplayWait | None,
    oleds: Mapping[Seat, Any],
    ring: Any,
    *,
    retry_s: float = DISPLAY_RETRY_S,
    sleep: Callable[[float], None] = time.sleep,
) -> Any:
    """``open_display()``, retried until it works while ``wait`` is given; without one the first
    ``HardwareMissing`` propagates (tests, ``hw-test``)."""
    attempt = 0
    while True:
        try:
            display = open_display()
        except HardwareMissing as exc:
            if wait is None:
                raise
            attempt += 1
            if attempt == 1:
                log.warning("no shared display (%s): waiting for it, retrying every %.0f s", exc, retry_s)
            wait(str(exc), attempt, oleds, ring)
            sleep(retry_s)
            continue
        if attempt:
            log.info("the shared display is there after %d tries", attempt)
        return display
