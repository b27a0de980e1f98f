"""The protocols every hardware backend implements (pi, mock, emulator).

The app only ever talks to these. Library threads (gpiozero callbacks) stop at an
``InputEvent`` put on a queue; only the main loop touches state, the engine or pygame.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, get_args

from engine.seats import SEATS, Seat

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pygame
    from PIL import Image

__all__ = ["SEATS", "Seat"]  # the seats are engine.seats' (one definition); re-exported for the backends

#: Physical buttons: per seat a 4-way joystick, OK and STOP; one MENU button (seat None). The one list of them:
#: every other (the configuration's pins, the emulator's keys, the script language, the layout) derives from it.
Direction = Literal["up", "down", "left", "right"]
SeatButton = Literal[Direction, "ok", "stop"]
Button = Literal[SeatButton, "menu"]
#: What an event that is not a button press carries instead of a button's name.
Source = Literal["touch", "keyboard", "quit"]
DIRECTIONS: tuple[Direction, ...] = get_args(Direction)
SEAT_BUTTONS: tuple[SeatButton, ...] = get_args(SeatButton)
BUTTONS: tuple[Button, ...] = get_args(Button)

#: press/release come from buttons (and the emulator's keys); touch/untouch from the shared display: a finger
#: (or the mouse's left button) coming down and lifting again (pos normalised 0..1 on the display, or card set
#: directly by the mock's ``touch(card)``; an untouch or drag off the grid has neither); drag: the finger moving
#: while down (a touch held on a card must stay on it); text from a USB keyboard (``text`` holds what was typed,
#: "\b" for backspace, "\n" for enter).
EventKind = Literal["press", "release", "touch", "untouch", "drag", "text", "quit"]
#: The event kinds of the touch screen.
TOUCH_KINDS: tuple[EventKind, ...] = ("touch", "untouch", "drag")

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class InputEvent:
    """One thing a person did to the box."""

    seat: Seat | None
    button: Button | Source
    kind: EventKind
    time: float
    pos: tuple[float, float] | None = None
    card: int | None = None
    text: str | None = None


class Clock(Protocol):
    def now(self) -> float:
        """Monotonic seconds."""
        ...


class ButtonPanel(Protocol):
    def set_ok_led(self, seat: Seat, on: bool) -> None: ...

    def close(self) -> None: ...


class SeatScreen(Protocol):
    """A 128x64 one-bit OLED facing one seat."""

    size: tuple[int, int]
    bytes_sent: int

    def show(self, image: Image.Image) -> None:
        """Send a mode "1" image (what differs from the glass; the app does not show an unchanged frame)."""
        ...

    def service(self) -> None:
        """Retry what a fault kept back (the box calls it before waiting for events)."""
        ...

    def close(self) -> None: ...


class LedRing(Protocol):
    count: int

    def show(self, pixels: Sequence[RGB]) -> None: ...

    def service(self) -> None:
        """Retry what a fault kept back (the box calls it before waiting for events)."""
        ...

    def close(self) -> None: ...


class SharedDisplay(Protocol):
    """The shared pygame screen: the app draws on ``surface`` then calls ``present``."""

    size: tuple[int, int]
    surface: pygame.Surface

    def present(self, rects: Sequence[pygame.Rect] | None = None) -> None: ...

    def close(self) -> None: ...
