"""Which screen comes next: the one module that imports every screen module, so screens never import each
other in a circle (they ask ``host.nav``), and the one place that picks a game's screen from its session."""

from __future__ import annotations

from collections.abc import Callable

from common.jsonvalue import JsonMap
from device.modes import Family, Mode
from device.screens import again, classic, flows, missions, play, solo
from device.screens.attract import AttractScreen
from device.screens.base import Host, Screen
from device.screens.item import Item
from device.screens.menu import MenuScreen
from device.screens.pause import PauseScreen
from device.screens.settings import PinScreen
from engine.session import ClassicSession

#: A game screen: built for a host from a saved state (``Screen.ui_state()``; None: a fresh screen).
ScreenClass = Callable[[Host, "JsonMap | None"], Screen]
#: Each family's play and game-over screens.
SCREENS: dict[Family, tuple[ScreenClass, ScreenClass]] = {
    Family.DUET: (play.DuetPlayScreen, play.GameOverScreen),
    Family.CLASSIC: (classic.ClassicPlayScreen, classic.ClassicOverScreen),
    Family.SOLO: (solo.SoloPlayScreen, solo.SoloOverScreen),
}
#: Modes with screens of their own (``add_screens``), by kind.
OWN_SCREENS: dict[str, tuple[ScreenClass, ScreenClass]] = {}


def add_screens(mode: Mode, playing: ScreenClass, over: ScreenClass) -> Callable[[], None]:
    """Give ``mode`` its own play and game-over screens; returns what takes them away again."""
    OWN_SCREENS[mode.kind] = (playing, over)
    return lambda: OWN_SCREENS.pop(mode.kind, None) and None


#: How each family deals a new game (``again``: the same settings again), by ``Family.value``.
STARTERS: dict[str, Callable[..., None]] = {Family.DUET.value: flows.start_duet,
                                            Family.CLASSIC.value: classic.start_classic,
                                            Family.SOLO.value: solo.start_solo}


class Navigator:
    """``Nav`` for one host: each method switches the host to a new screen."""

    def __init__(self, host: Host) -> None:
        self.host = host
        #: main-menu rows of optional features (``device.remote`` adds "Remote Duet" when the box has a broker)
        self.extras: list[Callable[[Screen], list[Item]]] = []

    def game_screen(self, ui: JsonMap | None = None) -> Screen:
        """The screen of the open game: play or game over, by its mode's family (or the mode's own screens)."""
        game = self.host.game
        session = game.session
        assert session is not None
        own = OWN_SCREENS.get(game.mode.kind)
        if own is not None:
            playing, over = own
            return over(self.host, ui) if session.over else playing(self.host, ui)
        if isinstance(session, ClassicSession):  # the session decides (a record's game whatever its kind)
            family = Family.CLASSIC
        else:  # the box plays seat B when the options say so (device/screens/solo.py)
            family = Family.SOLO if game.opts.solo else Family.DUET
        playing, over = SCREENS[family]
        return over(self.host, ui) if session.over else playing(self.host, ui)

    def game(self, ui: JsonMap | None = None) -> None:
        self.host.switch(self.game_screen(ui))

    def menu(self) -> None:
        self.host.switch(MenuScreen(self.host))

    def pause(self, game: Screen) -> None:
        self.host.switch(PauseScreen(self.host, game))

    def attract(self, under: Screen | None) -> None:
        self.host.switch(AttractScreen(self.host, under or MenuScreen(self.host)))

    def pin(self, back: Screen | None) -> None:
        self.host.switch(PinScreen(self.host, back))

    def missions(self, back: Screen) -> None:
        self.host.switch(missions.SheetScreen(self.host, back))

    def mission_map(self, sheet: int) -> None:
        self.host.switch(missions.MapScreen(self.host, sheet))

    def classic_setup(self, kind: Mode | str, back: Screen) -> None:
        classic.open_setup(self.host, back, kind)

    def solo_setup(self, back: Screen) -> None:
        self.host.switch(solo.SoloSetupScreen(self.host, back))

    def after_game(self) -> None:
        """The players leave a finished game: "same settings again" first (device/screens/again.py)."""
        again.after_game(self.host, STARTERS, self.mission_map)

    def menu_extras(self, menu: Screen) -> list[Item]:
        """Rows the main menu adds for optional features (``extras``)."""
        return [item for extra in self.extras for item in extra(menu)]
