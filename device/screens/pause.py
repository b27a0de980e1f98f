"""The pause menu (MENU during a game: resume, the hourglass, a penalty, help, leave, abandon) and the keys of an
abandoned game, shown once."""

from __future__ import annotations

from device import modes
from device.render import models as m
from device.screens.base import Frame, Host, Screen
from device.screens.help import ConfirmScreen, HelpScreen
from device.screens.item import Item
from device.screens.lists import ListScreen
from device.screens.parts import classic_labels, revealed_cards
from device.screens.play import LABELS
from engine.seats import SEATS
from engine.session import ClassicSession, DuetSession
from hardware.base import InputEvent


class PauseScreen(ListScreen):
    """MENU during a game: resume, penalty for an invalid clue, leave (saved), abandon."""

    name = "pause"
    title_key = "pause.title"

    def __init__(self, host: Host, game: Screen) -> None:
        super().__init__(host, back=game)
        self.game = game

    def items(self) -> list[Item]:
        host = self.host
        can_penalise = host.game.session is not None and host.game.session.penalty_action() is not None
        sand = host.game.hourglass.state(host.clock.now())
        items = [Item("pause.resume", self.go_back),
                 Item("pause.hourglass_start", lambda: self._hourglass("start"))]
        if sand in ("running", "warning"):
            items.append(Item("pause.hourglass_pause", lambda: self._hourglass("pause")))
        elif sand == "paused":
            items.append(Item("pause.hourglass_resume", lambda: self._hourglass("resume")))
        return items + [
            Item("pause.penalty", self._penalty, enabled=can_penalise,
                 reason=None if can_penalise else self.tr("pause.penalty_why")),
            Item("help.pause", self._help),
            Item("pause.leave", self._leave),
            Item("pause.abandon", self._abandon),
        ]

    def _hourglass(self, what: str) -> None:
        self.host.game.toggle_hourglass(what)
        self.go_back()

    def _penalty(self) -> None:
        session = self.host.game.session
        assert session is not None
        action = session.penalty_action()
        if action is not None:
            self.host.game.play(action, session.version)  # refused: nothing happens
        self.host.nav.game(self.game.ui_state())

    def _leave(self) -> None:
        self.host.game.leave()
        self.host.nav.menu()

    def _help(self) -> None:
        """The help of the game being played (its kind), back to this pause menu."""
        self.host.switch(HelpScreen(self.host, modes.by_kind(self.host.game.kind).help, self))

    def _abandon(self) -> None:
        def abandon() -> None:
            shown = revealed_frame(self.host)  # both keys, read before the game is closed
            self.host.game.abandon()
            if shown is not None:
                self.host.switch(AbandonedScreen(self.host, shown))
            else:
                self.host.nav.menu()

        self.host.switch(ConfirmScreen(self.host, "abandon", act=abandon, safe=lambda: self.host.switch(self)))




def revealed_frame(host: Host) -> Frame | None:
    """The game in play with every key shown (both Duet sides, the classic key), for the players to look at
    after they abandon it; None without a game."""
    session = host.game.session
    tr = host.tr
    options = host.game.opts
    orientation = options.orientation or ("upright" if host.settings.get("orientation") == "upright" else "table")
    title, prompt = tr("over.abandoned"), tr("over.prompt_leave")
    labels = {k: tr(f"label.{k}") for k in LABELS}
    oled = m.OledTextUi(title, (tr("over.abandoned_line"), prompt))
    if isinstance(session, DuetSession):
        view = session.public_view()
        keys = {"A": session.state.key.a, "B": session.state.key.b}
        shared: m.SharedUi = m.GameOverUi(title, tr("over.abandoned_line"), None, None, (), prompt, SEATS, keys,
                                   False, orientation, options.pictures, labels)
        return Frame(shared=shared, view=view, oleds={"A": oled, "B": oled}, ring_view=view)
    if isinstance(session, ClassicSession):
        cview = session.public_view()
        cards = revealed_cards(session.state.cards, session.state.key.cards)
        shared = m.ClassicPlayUi(title, "R", cview.columns, cview.rows, "", "",
                                 {k: str(v) for k, v in cview.left.items()}, prompt, title, (), None, None,
                                 modes.by_kind(session.mode).pictures, (), cards,
                                 classic_labels(tr), orientation)
        return Frame(shared=shared, view=cview, oleds={"A": oled, "B": oled}, ring_view=cview)
    return None


class AbandonedScreen(Screen):
    """An abandoned game's keys, shown once before the menu (OK, STOP, MENU or a touch goes on)."""

    name = "abandoned"
    attract = False

    def __init__(self, host: Host, shown: Frame) -> None:
        super().__init__(host)
        self.shown = shown

    def handle(self, event: InputEvent) -> None:
        if (event.kind == "press" and event.button in ("ok", "stop", "menu")) or event.kind == "touch":
            self.host.nav.menu()

    def frame(self) -> Frame:
        return self.shown


__all__ = ["AbandonedScreen", "PauseScreen", "revealed_frame"]
