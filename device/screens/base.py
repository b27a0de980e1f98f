"""What every screen is: a state machine the host feeds with input events and clock ticks.

Rules (Tuxemon's, kept): only the host loop reads events; ``frame()`` builds what is shown and never changes
state; ``enter``/``exit`` hooks run on every switch. A screen never touches a device: it returns models."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from common.jsonvalue import JsonMap, JsonObject
from device.i18n import Translator
from device.modes import Mode
from device.pin import PinStore
from device.render.models import OledUi, OledView, RingEffect, SharedUi, SharedView
from device.screens.item import Item
from device.screens.parts import HOLD_SECONDS, held_long_enough
from device.seams import GameApi, Records, SettingsApi
from device.services.audio import Audio
from engine.board import DUET as DUET_BOARD
from engine.seats import Seat
from hardware.base import RGB, Clock, InputEvent

# Seat B sits across the table: its joystick moves the grid cursor the other way round. On a box set upright
# both seats face the one screen, and nothing is turned for B: its joystick moves the cursor as A's does.
_MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def move_card(card: int, button: str, seat: str | None, columns: int = DUET_BOARD.columns,
              rows: int = DUET_BOARD.rows, orientation: str = "table") -> int:
    """The card a joystick press moves a cursor to (clamped at the edges): to that seat's right, left, away
    from it (up) or toward it (down)."""
    dr, dc = _MOVES[button]
    if seat == "B" and orientation == "table":
        dr, dc = -dr, -dc
    r, c = divmod(card, columns)
    r = min(rows - 1, max(0, r + dr))
    c = min(columns - 1, max(0, c + dc))
    return r * columns + c


@dataclass
class Frame:
    """What one screen shows: the shared display model (+ the public view it draws on), one model per OLED,
    and the ring effects (the ring's base layer comes from the public view)."""

    shared: SharedUi
    view: SharedView | None = None
    oleds: dict[Seat, OledUi | None] = field(default_factory=dict)
    seat_views: dict[Seat, OledView] = field(default_factory=dict)
    ring: tuple[RingEffect, ...] = ()
    ring_view: SharedView | None = None
    ring_pixels: Sequence[RGB] | None = None  # a whole ring picture that replaces the view's (the hourglass)


__all__ = ["HOLD_SECONDS", "Frame", "Screen", "back_or_menu", "held_long_enough", "move_card"]


class Nav(Protocol):
    """The screens one screen module may open in another (``device/navigation.py`` builds them): screens never
    import each other in a circle, nor the host."""

    def menu(self) -> None: ...
    def game(self, ui: JsonMap | None = None) -> None:
        """Show the open game's screen, rebuilt from ``ui`` (a saved ``Screen.ui_state()``; None: fresh)."""
        ...
    def pause(self, game: Screen) -> None: ...
    def attract(self, under: Screen | None) -> None:
        """The attract screen over ``under`` (None: over the main menu), which a press brings back."""
        ...
    def pin(self, back: Screen | None) -> None: ...
    def missions(self, back: Screen) -> None: ...
    def mission_map(self, sheet: int) -> None: ...
    def classic_setup(self, kind: Mode | str, back: Screen) -> None: ...
    def solo_setup(self, back: Screen) -> None: ...
    def after_game(self) -> None:
        """Close the finished game; then "same settings again", the mission map or the menu."""
        ...
    def menu_extras(self, menu: Screen) -> list[Item]:
        """The main menu's rows of optional features (remote play adds its own)."""
        ...


class Host(Protocol):
    """What a screen may ask of the box (the host implements it; tests use a fake)."""

    clock: Clock
    rng: random.Random
    audio: Audio
    nav: Nav
    tr: Translator
    pins: PinStore

    @property
    def settings(self) -> SettingsApi:
        """The settings (``device.seams``: read them, and change one from a settings screen)."""
        ...
    @property
    def storage(self) -> Records:
        """The saved data a screen may use (``device.seams``: never the database itself)."""
        ...
    @property
    def game(self) -> GameApi:
        """The open game: views in, moves out with typed outcomes (``device.seams``: never the controller)."""
        ...
    @property
    def screen(self) -> Screen | None: ...
    @property
    def display_size(self) -> tuple[int, int]: ...
    def switch(self, screen: Screen) -> None: ...
    def woken(self) -> None: ...
    def request_power(self, what: str) -> None: ...


def back_or_menu(host: Host, back: Screen | None) -> None:
    """Back to the screen ``back`` (the one a screen was opened from), or to the main menu without one."""
    if back is not None:
        host.switch(back)
    else:
        host.nav.menu()


class Screen:
    """Base screen: ignores everything. Capabilities are class attributes the loop reads."""

    name = "screen"
    #: the idle timeout may bring up the attract screen over this one
    attract = True
    #: a game screen: MENU is the pause menu (short) or the hourglass (long), the ring shows the game
    in_game = False
    #: an enforced hourglass that ran out is applied by ``enforce`` on this screen
    enforces = False
    #: any press only wakes the box (the attract screen)
    wakes = False
    #: it takes typed text (a code): the box's keyboard types letters instead of pressing buttons (the emulator)
    wants_text = False

    def __init__(self, host: Host) -> None:
        self.host = host

    @property
    def tr(self) -> Translator:
        return self.host.tr

    def hourglass_text(self) -> str | None:
        return self.host.game.hourglass_text(self.host.tr)

    def enforce(self) -> None:
        """The enforced hourglass ran out (screens with ``enforces``)."""

    def wake(self) -> None:
        """A press on a screen that ``wakes``."""

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

    def ui_state(self) -> JsonObject | None:
        """What must survive a power cut to resume this screen exactly (game screens only: each has a frozen
        state dataclass whose ``to_dict`` this is, and whose ``from_dict`` reads it back, see saved.py)."""
        return None
