"""Surviving I/O faults of the OLEDs and the ring: log once per burst, back off, re-initialise on return.

An unplugged OLED or a glitch on the I2C bus must never end the game. The guard is shared by the pi and mock
backends, so its behaviour is tested on the mock with a fake clock.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from hardware.base import Clock

log = logging.getLogger("duetbox.hardware")


class FaultGuard:
    """Run device writes; after an OSError, skip writes until a backoff expires, then re-open and retry.

    ``reopen`` re-initialises the device (it may raise OSError too). The first error of a burst is logged as a
    warning, later ones of the same burst are not; the recovery is logged once.
    """

    def __init__(
        self,
        name: str,
        clock: Clock,
        reopen: Callable[[], None],
        *,
        first_delay: float = 0.5,
        max_delay: float = 30.0,
        logger: logging.Logger = log,
    ) -> None:
        self.name = name
        self.clock = clock
        self.reopen = reopen
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.log = logger
        self.failed = False
        self.delay = 0.0
        self.next_try = 0.0
        self.faults = 0  # bursts seen
        self.errors = 0  # OSErrors seen

    def ready(self) -> bool:
        """True when a write may be attempted now (healthy, or the backoff has expired)."""
        return not self.failed or self.clock.now() >= self.next_try

    def run(self, write: Callable[[], None]) -> bool:
        """Try ``write``; returns True when it went through, False when it failed or was skipped."""
        if not self.ready():
            return False
        try:
            if self.failed:
                self.reopen()
            write()
        except OSError as exc:
            self._fail(exc)
            return False
        if self.failed:
            self.failed = False
            self.log.info("%s is back after %d error(s)", self.name, self.errors)
        return True

    def _fail(self, exc: OSError) -> None:
        self.errors += 1
        if not self.failed:
            self.failed = True
            self.faults += 1
            self.delay = self.first_delay
            self.log.warning("%s: I/O error (%s); the game goes on, retrying with backoff", self.name, exc)
        else:
            self.delay = min(self.delay * 2, self.max_delay)
        self.next_try = self.clock.now() + self.delay
