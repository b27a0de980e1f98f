"""Which screen comes next: the one module that imports every screen module, so screens never import each
other in a circle (they ask ``host.nav``), and the one place that picks a game's screen from its session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.screens import again, classic, flows, missions, play, shell, solo
from device.screens.base import Host, Screen
from engine.session import ClassicSession


class Navigator:
    """``Nav`` for one host: each method switches the host to a new screen."""

    def __init__(self, host: Host) -> None:
        self.host = host
        #: main-menu rows of optional features (``device.remote`` adds "Remote Duet" when the box has a broker)
        self.extras: list[Callable[[Screen], list[Any]]] = []

    def game_screen(self, ui: dict[str, Any] | None = None) -> Screen:
        """The screen of the open game: play or game over, by mode (classic/Pictures, solo, Duet)."""
        game = self.host.game
        session = game.session
        assert session is not None
        if isinstance(session, ClassicSession):
            return classic.ClassicOverScreen(self.host, ui) if session.over else classic.ClassicPlayScreen(
                self.host, ui)
        if game.options.get("solo"):  # the box plays seat B (device/screens/solo.py)
            return solo.SoloOverScreen(self.host, ui) if session.over else solo.SoloPlayScreen(self.host, ui)
        if session.over:
            return play.GameOverScreen(self.host, ui)
        return play.DuetPlayScreen(self.host, ui)

    def game(self, ui: dict[str, Any] | None = None) -> None:
        self.host.switch(self.game_screen(ui))

    def menu(self) -> None:
        self.host.switch(shell.MenuScreen(self.host))

    def pause(self, game: Screen) -> None:
        self.host.switch(shell.PauseScreen(self.host, game))

    def attract(self, under: Screen) -> None:
        self.host.switch(shell.AttractScreen(self.host, under))

    def pin(self, back: Screen | None) -> None:
        self.host.switch(shell.PinScreen(self.host, back))

    def missions(self, back: Screen) -> None:
        self.host.switch(missions.SheetScreen(self.host, back))

    def mission_map(self, sheet: int) -> None:
        self.host.switch(missions.MapScreen(self.host, sheet))

    def classic_setup(self, kind: str, back: Screen) -> None:
        classic.open_setup(self.host, back, kind)

    def solo_setup(self, back: Screen) -> None:
        self.host.switch(solo.SoloSetupScreen(self.host, back))

    def after_game(self) -> None:
        """The players leave a finished game: "same settings again" first (device/screens/again.py)."""
        starters: dict[str, Callable[..., None]] = {"duet": flows.start_duet, "classic": classic.start_classic,
                                                   "solo": solo.start_solo}
        again.after_game(self.host, starters, self.mission_map)

    def menu_extras(self, menu: Screen) -> list[Any]:
        """Rows the main menu adds for optional features (``extras``)."""
        return [item for extra in self.extras for item in extra(menu)]
