"""Remote play's own screens: the "Duet à distance" menu (host, host a mission of the map, join, resume), the
code entry with the joystick, the host's and the guest's waits. Every wait says what it waits for, and MENU
leads back to the menu."""

from __future__ import annotations

from typing import Protocol, cast

from device.remote.link import RemoteLink
from device.remote.pairing import ALPHABET, CODE_LENGTH
from device.render import models as m
from device.screens import flows
from device.screens.base import Frame, Host, Screen
from device.screens.missions import SheetScreen
from device.screens.shell import Item, ListScreen, MenuScreen, asking_before_replacing
from hardware.base import InputEvent


class RemotePlay(Protocol):
    """What these screens ask of the host's game controller (``device.remote.game.RemoteGame``)."""

    link: RemoteLink | None

    def host_game(self, *, mission: str | None = None, sheet: int | None = None) -> str: ...
    def join_game(self, code: str) -> None: ...
    def close_link(self, *, clean: bool = True) -> None: ...


def remote_play(host: Host) -> RemotePlay:
    return cast(RemotePlay, host.game)


def menu_items(host: Host, menu: Screen) -> list[Item]:
    """The main menu's "Duet à distance" entry (on a box whose game controller can play remotely)."""
    if not hasattr(host.game, "host_game"):
        return []
    return [Item("remote.menu", lambda: host.switch(RemoteMenuScreen(host, menu)))]


class RemoteMenuScreen(ListScreen):
    name = "remote_menu"
    title_key = "remote.title"

    def items(self) -> list[Item]:
        host = self.host
        out: list[Item] = []
        current = host.storage.current_game()
        if current is not None and isinstance(current.options.get("remote"), dict):
            out.append(Item("remote.resume", lambda: flows.resume(host)))

        def host_game() -> None:
            remote_play(host).host_game()

        def host_mission(city: str, sheet: int) -> None:  # the host's sheet: the tick is recorded here
            remote_play(host).host_game(mission=city, sheet=sheet)

        new = [Item("remote.host", host_game),
               Item("remote.mission", lambda: host.switch(SheetScreen(host, self, start=host_mission))),
               Item("remote.join", lambda: host.switch(CodeEntryScreen(host, self)))]
        # a new remote game replaces the saved one (local or remote): ask first, "keep it" preselected
        return out + [asking_before_replacing(host, self, item) for item in new]


class CodeEntryScreen(Screen):
    """Six letters with the joystick of either local seat: up/down changes the letter, right/OK the next one,
    left/STOP the previous one; OK on the last letter joins. MENU goes back."""

    name = "remote_code"
    attract = False

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
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
            self.host.switch(self.back or MenuScreen(self.host))
        elif button in ("up", "down"):
            step = 1 if button == "down" else -1
            self.letters[self.at] = (self.letters[self.at] + step) % len(ALPHABET)
        elif button == "right" or (button == "ok" and self.at < CODE_LENGTH - 1):
            self.at = min(CODE_LENGTH - 1, self.at + 1)
        elif button in ("left", "stop"):
            self.at = max(0, self.at - 1)
        elif button == "ok":
            remote_play(self.host).join_game(self.code)

    def frame(self) -> Frame:
        shown = "".join(f"[{c}]" if i == self.at else f" {c} " for i, c in enumerate(self.code))
        ui = m.MessageUi(self.tr("remote.enter_title"), (shown, self.tr("remote.enter_line")))
        oled = m.OledTextUi(self.tr("remote.enter_title"), (shown,))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


class _LinkWaitScreen(Screen):
    """A box waiting for its partner's box: MENU or STOP closes the link and goes back to the menu."""

    attract = False

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("menu", "stop"):
            remote_play(self.host).close_link()
            self.host.nav.menu()

    def _link(self) -> tuple[str, bool]:
        """The pairing code, and whether the broker was reached once and is lost now."""
        link = remote_play(self.host).link
        code = link.pairing.code if link is not None else ""
        return code, link is not None and link.was_up and not link.connected

    def _frame(self, title: str, shared: tuple[str, ...], oled: tuple[str, ...]) -> Frame:
        text = m.OledTextUi(title, oled)
        return Frame(shared=m.MessageUi(title, shared), oleds={"A": text, "B": text})


class HostWaitingScreen(_LinkWaitScreen):
    """The host waits for the guest's box (the card is dealt when it comes), with the code to give. MENU: back."""

    name = "remote_host_wait"

    def frame(self) -> Frame:
        code, lost = self._link()
        title = self.tr("remote.offline") if lost else self.tr("remote.waiting_partner")
        back = self.tr("remote.back")
        return self._frame(title, (self.tr("remote.code_line", code=code), back), (code, back))


class WaitingScreen(_LinkWaitScreen):
    """The guest waits for the host's set-up (the app begins the game when it comes). MENU: back to the menu."""

    name = "remote_wait"

    def frame(self) -> Frame:
        code, lost = self._link()
        title = self.tr("remote.offline") if lost else self.tr("remote.waiting_host", code=code)
        back = self.tr("remote.back")
        return self._frame(title, (back,), (back,))
