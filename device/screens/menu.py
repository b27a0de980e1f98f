"""The main menu: resume the saved game, a row per game mode, statistics, help, settings, and the rows of
optional features (remote play); a new game while one is saved asks first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from device import modes, solo
from device.degraded import oled_missing
from device.modes import Family, Mode
from device.screens import flows
from device.screens.base import Host, Screen
from device.screens.help import ConfirmScreen, HelpIndexScreen, SoloInfoScreen
from device.screens.item import Item
from device.screens.lists import ListScreen
from device.screens.settings import SettingsScreen
from device.screens.setup import SetupScreen
from device.screens.stats import StatsScreen


class MenuScreen(ListScreen):
    name = "menu"
    title_key = "menu.title"

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host, back)
        self._items: list[Item] | None = None

    def enter(self) -> None:
        self._items = self._build()  # built again on every visit: a game may have been saved or ended meanwhile

    def items(self) -> list[Item]:
        """The rows, built once per visit (they read storage and probe the solo model: never per frame)."""
        if self._items is None:
            self._items = self._build()
        return self._items

    def _build(self) -> list[Item]:
        host = self.host
        out: list[Item] = []
        current = host.storage.current_game()
        if current is not None:
            out.append(Item("menu.resume", lambda: flows.resume(host), value=saved_name(host, current)))
        out += [
            *(_solo_item(host, self) if mode.solo else self._mode_item(mode) for mode in modes.modes()
              if not mode.remote),  # remote play adds its rows below (``host.nav.menu_extras``)
            Item("menu.stats", lambda: host.switch(StatsScreen(host, self))),
            Item("help.menu", lambda: host.switch(HelpIndexScreen(host, self))),
            Item("menu.settings", lambda: host.switch(SettingsScreen(host, self))),
            *(host.nav.menu_extras(self) or ()),  # entries of optional features (remote play, device/remote/)
        ]
        if current is not None:
            out = [self._asks_first(i) if i.key in NEW_GAME and i.enabled else i for i in out]
        # café mode, and a missing seat screen (device.degraded), suggest hot-seat: first after "resume"
        if host.settings.get("cafe_mode") or oled_missing(host):
            first = ("menu.resume", modes.HOTSEAT.label)
            out = [i for i in out if i.key == first[0]] + [i for i in out if i.key == first[1]] + \
                [i for i in out if i.key not in first]
        return out

    def _mode_item(self, mode: Mode) -> Item:
        """A game mode's row: its set-up (the mission map for a mission)."""
        host = self.host
        if mode.mission:
            return Item(mode.label, lambda: host.nav.missions(self))
        if mode.family is Family.CLASSIC:
            return Item(mode.label, lambda: host.nav.classic_setup(mode, self))
        return Item(mode.label, lambda: host.switch(SetupScreen(host, mode, self)))

    def go_back(self) -> None:
        pass  # the menu is the bottom of the stack

    def _asks_first(self, item: Item) -> Item:
        """A new game's row while a game is saved: a confirmation first, "keep the saved game" preselected."""
        return asking_before_replacing(self.host, self, item, forget=self._forget_items)

    def _forget_items(self) -> None:
        self._items = None


def asking_before_replacing(host: Host, back: Screen, item: Item,
                            forget: Callable[[], None] | None = None) -> Item:
    """`item` behind a confirmation when a game is saved: OK on "replace" abandons the saved game, then runs the
    row's action; the safe answer (keep it, back to `back`) is preselected."""
    start = item.action
    if host.storage.current_game() is None:
        return item

    def replace() -> None:
        current = host.storage.current_game()
        if current is not None:
            if host.game.id == current.id:
                host.game.abandon()
            else:
                host.storage.abandon_game(current.id)
        if forget is not None:
            forget()
        if start is not None:
            start()

    def ask() -> None:
        current = host.storage.current_game()
        game = saved_name(host, current) if current is not None else ""
        host.switch(ConfirmScreen(host, "replace", act=replace, safe=lambda: host.switch(back),
                                  fields={"game": game}))

    return Item(item.key, ask, item.enabled, item.value, item.reason, item.info)


class SavedGame(Protocol):
    """What the menu reads of the saved game's row (``Records.current_game()``) to name it."""

    @property
    def kind(self) -> str: ...
    @property
    def sheet(self) -> int | None: ...
    @property
    def mission(self) -> str | None: ...


def saved_name(host: Host, row: SavedGame) -> str:
    """What the saved game is, as the menu and the questions name it: its mode, and for a mission its team
    sheet and city ("Mission map · LES AS · Prague")."""
    parts = [host.tr(modes.by_kind(row.kind).label if modes.known(row.kind) else f"menu.{row.kind}")]
    if row.sheet is not None:
        parts += [name for sheet, name in host.storage.sheets() if sheet == row.sheet]
    if row.mission:
        parts.append(str(row.mission))
    return " · ".join(parts)


#: The main menu's rows that start a new game (after a confirmation while another game is saved).
NEW_GAME = modes.new_game_labels()



def _solo_item(host: Host, menu: Screen) -> Item:
    """Solo (the box as partner): disabled with a one-line reason where the box language has no built model."""
    language = str(host.settings.get("language", "fr"))
    found = solo.availability(language, host.storage.directory)

    def open_setup() -> None:
        host.nav.solo_setup(menu)

    reason = None if found.ok else host.tr(
        "help.solo_hint", reason=host.tr(found.reason, language=host.tr(f"help.name_{language}")))

    def explain() -> None:  # OK on the disabled row: a page that says what to do, in the box's language
        host.switch(SoloInfoScreen(host, found.reason, menu))

    return Item(modes.SOLO.label, open_setup, enabled=found.ok, value=None if found.ok else host.tr("solo.off"),
                reason=reason, info=None if found.ok else explain)


__all__ = ["MenuScreen", "NEW_GAME", "SavedGame", "asking_before_replacing", "saved_name"]
