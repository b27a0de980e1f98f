"""``open_box``: one backend's devices together, with one event source and one ``close``."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal

from hardware.base import SEATS, Clock, InputEvent, Seat
from hardware.config import HardwareConfig, load_config
from hardware.events import EventQueue

log = logging.getLogger("duetbox.hardware")

Backend = Literal["pi", "mock", "emulator"]
BACKENDS: tuple[str, ...] = ("pi", "mock", "emulator")


class Box:
    """The devices of one backend. Use as a context manager or call ``close()`` (idempotent)."""

    backend: str

    def __init__(
        self,
        *,
        config: HardwareConfig,
        clock: Clock,
        buttons: Any,
        oleds: Mapping[Seat, Any],
        ring: Any,
        display: Any,
        queue: EventQueue,
    ) -> None:
        self.config = config
        self.clock = clock
        self.buttons = buttons
        self.oleds: dict[Seat, Any] = dict(oleds)
        self.ring = ring
        self.display = display
        self.queue = queue
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

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


def open_box(
    backend: Backend | str,
    config: HardwareConfig | None = None,
    *,
    clock: Clock | None = None,
    display_size: tuple[int, int] | None = None,
) -> Box:
    """Build the box for ``backend`` ("pi", "mock" or "emulator").

    ``config`` defaults to the bundled default. ``clock`` defaults to a ``FakeClock`` for the mock and to
    monotonic time otherwise. ``display_size`` overrides the configured size of the shared display.
    Raises ValueError for an unknown backend; the pi backend raises ``hardware.pi.HardwareMissing`` (with the
    fix in the message) when a device is absent.
    """
    cfg = config if config is not None else load_config(None)
    if backend == "mock":
        from hardware.mock import MockBox

        return MockBox(cfg, clock=clock, display_size=display_size)
    if backend == "emulator":
        from hardware.emulator import EmulatorBox

        return EmulatorBox(cfg, clock=clock, display_size=display_size)
    if backend == "pi":
        from hardware.pi import PiBox

        return PiBox(cfg, clock=clock, display_size=display_size)
    raise ValueError(f"unknown hardware backend {backend!r} (use one of: {', '.join(BACKENDS)})")
