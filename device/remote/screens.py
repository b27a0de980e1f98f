"""Remote play's own screens: the "Duet à distance" menu (host, host a mission of the map, join, resume), the
code entry with the joystick (or a keyboard), the host's and the guest's waits, and the end of a remote game on
the partner's word. Every wait says what it waits for (and when the broker cannot be reached, or nothing answers
under the code), and MENU leads back to the menu."""

from __future__ import annotations

from typing import Protocol

from device.remote.link import RemoteLink
from device.remote.pairing import ALPHABET, CODE_LENGTH
from device.remote.rendezvous import Ended
from device.render import models as m
from device.screens import flows
from device.screens.base import Frame, Host, Screen
from device.screens.missions import SheetScreen
from device.screens.shell import Item, ListScreen, MenuScreen, asking_before_replacing
from hardware.base import InputEvent


class RemotePlay(Protocol):
    """What these screens ask of the box's remote play (``device.remote.play.RemotePlay``)."""

    link: RemoteLink | None

    def host_game(self, *, mission: str | None = None, sheet: int | None = None) -> str: ...
    def join_game(self, code: str) -> None: ...
    def close_link(self, *, clean: bool = True) -> None: ...


def menu_items(host: Host, menu: Screen, play: RemotePlay) -> list[Item]:
    """The main menu's "Duet à distance" entry (on a box with remote play)."""
    return [Item("remote.menu", lambda: host.switch(RemoteMenuScreen(host, menu, play)))]


class RemoteMenuScreen(ListScreen):
    name = "remote_menu"
    title_key = "remote.title"

    def __init__(self, host: Host, back: Screen | None, play: RemotePlay) -> None:
        super().__init__(host, back)
        self.play = play

    def items(self) -> list[Item]:
        host = self.host
        out: list[Item] = []
        current = host.storage.current_game()
        if current is not None and current.options.remote is not None:
            out.append(Item("remote.resume", lambda: flows.resume(host)))

        play = self.play

        def host_game() -> None:
            play.host_game()

        def host_mission(city: str, sheet: int) -> None:  # the host's sheet: the tick is recorded here
            play.host_game(mission=city, sheet=sheet)

        new = [Item("remote.host", host_game),
               Item("remote.mission", lambda: host.switch(SheetScreen(host, self, start=host_mission))),
               Item("remote.join", lambda: host.switch(CodeEntryScreen(host, play, self)))]
        # a new remote game replaces the saved one (local or remote): ask first, "keep it" preselected
        return out + [asking_before_replacing(host, self, item) for item in new]


class CodeEntryScreen(Screen):
    """Six letters with the joystick of either local seat: up/down changes the letter, right/OK the next one,
    left the previous one, STOP erases (the letter, then the one before); OK on the last letter joins. A
    keyboard (the emulator's, a USB one) types the letters, Backspace erases, Enter joins. MENU goes back."""

    name = "remote_code"
    attract = False
    wants_text = True  # the emulator's letter keys type instead of moving (``App`` asks the box for text)

    def __init__(self, host: Host, play: RemotePlay, back: Screen | None = None) -> None:
        super().__init__(host)
        self.play = play
        self.back = back
        self.letters = [0] * CODE_LENGTH
        self.typed = 0  # letters typed or set so far (the ones after are blanks)
        self.at = 0

    @property
    def code(self) -> str:
        return "".join(ALPHABET[i] for i in self.letters)

    def _type(self, text: str) -> None:
        for ch in text.upper():
            if ch == "\b":
                self._erase()
            elif ch == "\n":
                self._join()
            elif ch in ALPHABET and self.at < CODE_LENGTH:
                self.letters[self.at] = ALPHABET.index(ch)
                self.typed = max(self.typed, self.at + 1)
                self.at = min(CODE_LENGTH - 1, self.at + 1)

    def _erase(self) -> None:
        """STOP or Backspace: the letter under the cursor goes; on a blank, the one before it."""
        if self.at >= self.typed and self.at > 0:
            self.at -= 1
        self.letters[self.at] = 0
        self.typed = min(self.typed, self.at)

    def _join(self) -> None:
        if self.typed >= CODE_LENGTH:
            self.play.join_game(self.code)

    def handle(self, event: InputEvent) -> None:
        if event.kind == "text" and event.text:  # a keyboard: type the code
            self._type(event.text)
            return
        if event.kind != "press":
            return
        button = event.button
        if button == "menu":
            self.host.switch(self.back or MenuScreen(self.host))
        elif button in ("up", "down"):
            step = 1 if button == "down" else -1
            self.letters[self.at] = (self.letters[self.at] + step) % len(ALPHABET)
            self.typed = max(self.typed, self.at + 1)
        elif button == "right" or (button == "ok" and self.at < CODE_LENGTH - 1):
            self.typed = max(self.typed, self.at + 1)
            self.at = min(CODE_LENGTH - 1, self.at + 1)
        elif button == "left":
            self.at = max(0, self.at - 1)
        elif button == "stop":
            self._erase()
        elif button == "ok":
            self.typed = CODE_LENGTH
            self._join()

    def frame(self) -> Frame:
        letters = [c if i < max(self.typed, self.at + 1) else "_" for i, c in enumerate(self.code)]
        shown = "".join(f"[{c}]" if i == self.at else f" {c} " for i, c in enumerate(letters))
        ui = m.MessageUi(self.tr("remote.enter_title"), (shown, self.tr("remote.enter_line")))
        oled = m.OledTextUi(self.tr("remote.enter_title"), (shown,))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


class _LinkWaitScreen(Screen):
    """A box waiting for its partner's box: MENU or STOP closes the link and goes back to the menu."""

    attract = False

    def __init__(self, host: Host, play: RemotePlay) -> None:
        super().__init__(host)
        self.play = play

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("menu", "stop"):
            self.play.close_link()
            self.host.nav.menu()

    def _trouble(self) -> str | None:
        """What keeps the pairing from going on, said on screen: the broker lost or never reached."""
        link = self.play.link
        if link is None:
            return None
        if link.unreachable:
            return self.tr("remote.no_broker", broker=link.broker.describe())
        if link.was_up and not link.connected:
            return self.tr("remote.offline")
        return None

    def _frame(self, title: str, shared: tuple[str, ...], oled: tuple[str, ...]) -> Frame:
        text = m.OledTextUi(title, oled)
        return Frame(shared=m.MessageUi(title, shared), oleds={"A": text, "B": text})


class HostWaitingScreen(_LinkWaitScreen):
    """The host waits for the guest's box (the card is dealt when it has paired), with the code to give; once
    paired, the verifier instead of the code. MENU: back."""

    name = "remote_host_wait"

    def frame(self) -> Frame:
        link = self.play.link
        back = self.tr("remote.back")
        if link is not None and link.verifier is not None:
            check = self.tr("remote.check", digits=link.verifier)
            return self._frame(self.tr("remote.waiting_partner"), (check, back), (check, back))
        code = link.code or "" if link is not None else ""
        title = self._trouble() or self.tr("remote.waiting_partner")
        return self._frame(title, (self.tr("remote.code_line", code=code), back), (code, back))


class WaitingScreen(_LinkWaitScreen):
    """The guest pairs with the host of its code and waits for the set-up (the game begins when it comes).
    MENU: back to the menu."""

    name = "remote_wait"

    def frame(self) -> Frame:
        link = self.play.link
        back = self.tr("remote.back")
        code = (link.code or "") if link is not None else ""
        title = self._trouble() or self.tr("remote.waiting_host", code=code)
        lines: tuple[str, ...] = (back,)
        if link is not None and link.verifier is not None:
            lines = (self.tr("remote.check", digits=link.verifier), back)
        elif link is not None and link.no_game:
            lines = (self.tr("remote.no_game"), back)
        return self._frame(title, lines, lines)


class EndedScreen(Screen):
    """A remote game ended on the other box's word, or the pairing failed: said once; any press (OK, STOP or
    MENU) leads back to the menu."""

    name = "remote_ended"
    attract = False

    def __init__(self, host: Host, why: Ended) -> None:
        super().__init__(host)
        self.why = why

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("menu", "ok", "stop"):
            self.host.nav.menu()

    def frame(self) -> Frame:
        title = self.tr(f"remote.{self.why}")
        line = self.tr(f"remote.{self.why}_line")
        back = self.tr("remote.ended_back")
        text = m.OledTextUi(title, (back,))
        return Frame(shared=m.MessageUi(title, (line, back)), oleds={"A": text, "B": text})
