"""Remote play's own screens: the "Duet à distance" menu (host, join, resume), the code entry with the joystick,
and the guest's wait for the host's game. Every wait says what it waits for, and MENU leads back to the menu."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from device.remote.pairing import ALPHABET, CODE_LENGTH
from device.render import models as m
from device.screens.base import Frame, Screen
from device.screens.shell import Item, ListScreen, MenuScreen
from hardware.base import InputEvent

if TYPE_CHECKING:  # pragma: no cover
    from device.remote.app import RemoteApp


def menu_items(app: Any, menu: Screen) -> list[Item]:
    """The main menu's "Duet à distance" entry: only on a box that can play remotely (a ``RemoteApp``)."""
    if not hasattr(app, "host_game"):
        return []
    return [Item("remote.menu", lambda: app.switch(RemoteMenuScreen(app, menu)))]


class RemoteMenuScreen(ListScreen):
    name = "remote_menu"
    title_key = "remote.title"

    def items(self) -> list[Item]:
        app: Any = self.app
        out: list[Item] = []
        current = app.storage.current_game()
        if current is not None and isinstance(current.options.get("remote"), dict):
            out.append(Item("remote.resume", self._resume))
        out += [Item("remote.host", lambda: app.host_game()),
                Item("remote.join", lambda: app.switch(CodeEntryScreen(app, self)))]
        return out

    def _resume(self) -> None:
        from device.screens import flows

        flows.resume(self.app)


class CodeEntryScreen(Screen):
    """Six letters with the joystick of either local seat: up/down changes the letter, right/OK the next one,
    left/STOP the previous one; OK on the last letter joins. MENU goes back."""

    name = "remote_code"
    attract = False

    def __init__(self, app: Any, back: Screen | None = None) -> None:
        super().__init__(app)
        self.back = back
        self.letters = [0] * CODE_LENGTH
        self.at = 0

    @property
    def code(self) -> str:
        return "".join(ALPHABET[i] for i in self.letters)

    def handle(self, event: InputEvent) -> None:
        if event.kind == "text" and event.text:  # a keyboard (the emulator): type the code
            typed = [ch for ch in event.text.upper() if ch in ALPHABET]
            for ch in typed:
                if self.at < CODE_LENGTH:
                    self.letters[self.at] = ALPHABET.index(ch)
                    self.at = min(CODE_LENGTH - 1, self.at + 1)
            return
        if event.kind != "press":
            return
        button = event.button
        if button == "menu":
            self.app.switch(self.back or MenuScreen(self.app))
        elif button in ("up", "down"):
            step = 1 if button == "down" else -1
            self.letters[self.at] = (self.letters[self.at] + step) % len(ALPHABET)
        elif button == "right" or (button == "ok" and self.at < CODE_LENGTH - 1):
            self.at = min(CODE_LENGTH - 1, self.at + 1)
        elif button in ("left", "stop"):
            self.at = max(0, self.at - 1)
        elif button == "ok":
            app: RemoteApp = self.app  # type: ignore[assignment]
            app.join_game(self.code)

    def frame(self) -> Frame:
        shown = "".join(f"[{c}]" if i == self.at else f" {c} " for i, c in enumerate(self.code))
        ui = m.MessageUi(self.tr("remote.enter_title"), (shown, self.tr("remote.enter_line")))
        oled = m.OledTextUi(self.tr("remote.enter_title"), (shown,))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


class WaitingScreen(Screen):
    """The guest waits for the host's set-up (the app begins the game when it comes). MENU: back to the menu."""

    name = "remote_wait"
    attract = False

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("menu", "stop"):
            app: Any = self.app
            if app.link is not None:
                app.link.close()
                app.link = None
            app.switch(MenuScreen(app))

    def frame(self) -> Frame:
        app: Any = self.app
        code = app.link.pairing.code if app.link is not None else ""
        lost = app.link is not None and app.link.was_up and not app.link.connected
        title = self.tr("remote.offline") if lost else self.tr("remote.waiting_host", code=code)
        ui = m.MessageUi(title, (self.tr("remote.back"),))
        oled = m.OledTextUi(title, (self.tr("remote.back"),))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})
