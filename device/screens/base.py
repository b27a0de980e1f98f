"""What every screen is: a state machine the app feeds with input events and clock ticks.

Rules (Tuxemon's, kept): only the app loop reads events; ``frame()`` builds what is shown and never changes
state; ``enter``/``exit`` hooks run on every switch. A screen never touches a device: it returns models."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from device.screens.parts import HOLD_SECONDS, held_long_enough
from hardware.base import InputEvent

if TYPE_CHECKING:  # pragma: no cover
    from device.app import App


# Seat B sits across the table: its joystick moves the grid cursor the other way round.
_MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def move_card(card: int, button: str, seat: str | None, columns: int = 5, rows: int = 5) -> int:
    """The card a joystick press moves a cursor to (clamped at the edges)."""
    dr, dc = _MOVES[button]
    if seat == "B":
        dr, dc = -dr, -dc
    r, c = divmod(card, columns)
    r = min(rows - 1, max(0, r + dr))
    c = min(columns - 1, max(0, c + dc))
    return r * columns + c


@dataclass
class Frame:
    """What one screen shows: the shared display model (+ the public view it draws on), one model per OLED,
    and the ring effects (the ring's base layer comes from the public view)."""

    shared: Any
    view: Any = None
    oleds: dict[str, Any] = field(default_factory=dict)
    seat_views: dict[str, Any] = field(default_factory=dict)
    ring: tuple[Any, ...] = ()
    ring_view: Any = None
    ring_pixels: Any = None  # a whole ring picture that replaces the view's (the running hourglass)


__all__ = ["HOLD_SECONDS", "Frame", "Screen", "held_long_enough", "move_card"]


class Screen:
    """Base screen: ignores everything."""

    name = "screen"
    #: the idle timeout may bring up the attract screen over this one
    attract = True

    def __init__(self, app: App) -> None:
        self.app = app

    @property
    def tr(self) -> Any:
        return self.app.tr

    def enter(self) -> None:
        """Called when the screen becomes current."""

    def exit(self) -> None:
        """Called when another screen replaces it."""

    def handle(self, event: InputEvent) -> None:
        """One input event (after timers up to its time have run)."""

    def tick(self, now: float) -> None:
        """Timers: called with the clock time before each event and once per loop iteration."""

    def deadline(self) -> float | None:
        """When ``tick`` next has something to do (None: nothing pending)."""
        return None

    def frame(self) -> Frame:
        raise NotImplementedError

    def ui_state(self) -> dict[str, Any] | None:
        """What must survive a power cut to resume this screen exactly (game screens only)."""
        return None
