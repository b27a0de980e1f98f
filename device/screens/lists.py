"""A list screen: rows chosen with the joystick (either seat), OK picks, STOP or MENU goes back (the menu, the
pause menu, the mission sheets, "same settings again")."""

from __future__ import annotations

from device.render import models as m
from device.screens.base import Frame, Host, Screen, back_or_menu
from device.screens.item import Item
from hardware.base import InputEvent


class ListScreen(Screen):
    """A list: joystick up/down (either seat) chooses, OK picks, STOP or MENU goes back."""

    name = "list"
    title_key = ""

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
        self.back = back
        self.selected = 0

    def items(self) -> list[Item]:
        return []

    def go_back(self) -> None:
        back_or_menu(self.host, self.back)

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        items = self.items()
        if event.button == "up":
            self.selected = (self.selected - 1) % len(items)
        elif event.button == "down":
            self.selected = (self.selected + 1) % len(items)
        elif event.button == "ok":
            item = items[self.selected % len(items)]
            if item.enabled and item.action is not None:
                item.action()
            elif not item.enabled and item.info is not None:
                item.info()
        elif event.button in ("stop", "menu"):
            self.go_back()

    def title(self) -> str:
        return self.tr(self.title_key)

    def model(self) -> m.MenuUi:
        raw = self.items()
        items = tuple(m.MenuItem(self.tr(i.key), i.enabled, i.value) for i in raw)
        chosen = raw[self.selected % len(raw)] if raw else None
        hint = chosen.reason if chosen is not None and not chosen.enabled and chosen.reason else None
        return m.MenuUi(self.title(), items, self.selected % max(1, len(items)), hint or self.tr("hint.menu"))

    def frame(self) -> Frame:
        ui = self.model()
        return Frame(shared=ui, oleds={"A": ui, "B": ui})


__all__ = ["Item", "ListScreen"]
