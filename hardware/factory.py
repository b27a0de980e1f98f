"""``open_box``: build one backend's ``Box`` (mock, emulator or pi) from a configuration.

Apart from ``hardware.box`` (the base the backends subclass), so that nothing imports in a circle: this module
imports the backends, lazily (``import hardware`` must work without pygame or the Pi libraries), and they import
the base.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from hardware.base import Clock
from hardware.box import Box
from hardware.config import HardwareConfig, load_config
from hardware.degrade import DisplayWait

if TYPE_CHECKING:  # pragma: no cover - typing only (the backends import pygame or the Pi libraries)
    from hardware.emulator import EmulatorBox
    from hardware.mock import MockBox
    from hardware.pi import PiBox

Backend = Literal["pi", "mock", "emulator"]
BACKENDS: tuple[str, ...] = ("pi", "mock", "emulator")


@overload
def open_box(backend: Literal["mock"], config: HardwareConfig | None = None, *, clock: Clock | None = None,
             display_size: tuple[int, int] | None = None, degrade: bool = False,
             display_wait: DisplayWait | None = None) -> MockBox: ...
@overload
def open_box(backend: Literal["emulator"], config: HardwareConfig | None = None, *, clock: Clock | None = None,
             display_size: tuple[int, int] | None = None, degrade: bool = False,
             display_wait: DisplayWait | None = None) -> EmulatorBox: ...
@overload
def open_box(backend: Literal["pi"], config: HardwareConfig | None = None, *, clock: Clock | None = None,
             display_size: tuple[int, int] | None = None, degrade: bool = False,
             display_wait: DisplayWait | None = None) -> PiBox: ...
@overload
def open_box(backend: str, config: HardwareConfig | None = None, *, clock: Clock | None = None,
             display_size: tuple[int, int] | None = None, degrade: bool = False,
             display_wait: DisplayWait | None = None) -> Box: ...
def open_box(
    backend: Backend | str,
    config: HardwareConfig | None = None,
    *,
    clock: Clock | None = None,
    display_size: tuple[int, int] | None = None,
    degrade: bool = False,
    display_wait: DisplayWait | None = None,
) -> Box:
    """Build the box for ``backend`` ("pi", "mock" or "emulator").

    ``config`` defaults to the bundled default. ``clock`` defaults to a ``FakeClock`` for the mock and to
    monotonic time otherwise. ``display_size`` overrides the configured size of the shared display.
    Raises ValueError for an unknown backend; the pi backend raises ``hardware.pi.HardwareMissing`` (with the
    fix in the message) when a device is absent. With ``degrade`` it opens without a missing OLED (retried
    until it answers), and with ``display_wait`` (a ``hardware.degrade.DisplayWait``) it waits for a missing
    shared display instead of raising: see ``hardware.degrade``.
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

        return PiBox(cfg, clock=clock, display_size=display_size, degrade=degrade, display_wait=display_wait)
    raise ValueError(f"unknown hardware backend {backend!r} (use one of: {', '.join(BACKENDS)})")
