"""Help, about and confirmation screens (issue 15, the shell).

- ``HelpIndexScreen``: the main menu's "Help": one row per mode, then "About".
- ``HelpScreen``: one mode's help, two short pages illustrated with the game's own card faces
  (``device/render/help.py``); the pause menu opens the current game's mode directly.
- ``AboutScreen``: the version ``duetbox --version`` prints, the bundled assets' licences, the notice that
  duetbox is not affiliated with the publisher of Codenames.
- ``ConfirmScreen``: a question before something that cannot be undone (abandon a game, power off, erase the
  statistics, replace a saved game). The safe choice is first and preselected; STOP, MENU and a screen left
  alone all take it; only OK on the other choice acts.

Every page is printed for both seats on the shared display (``render.help``) and summed up on both OLEDs.
These screens never import ``shell`` (which imports them): each is given the screen to go back to.
"""

from __future__ import annotations

from collections.abc import Callable

from device import modes
from device.modes import HelpPage
from device.render import models as m
from device.render.models import AboutUi, ConfirmUi, Figure, HelpUi
from device.screens.base import Frame, Host, Screen
from device.version import version
from hardware.base import DIRECTIONS, InputEvent

#: The help pages, in the help index's order: the modes' (``device.modes``, with their figures).
MODES = tuple(page.name for page in modes.help_pages())
#: Paragraphs per page (two pages of two).
PER_PAGE = 2
PARAGRAPHS = 4


def _orientation(host: Host) -> str:
    return str(host.settings.get("orientation", "table"))


class HelpScreen(Screen):
    """One mode's help: left/right (or OK) turn the two pages; OK on the last page, STOP or MENU go back."""

    name = "help"

    def __init__(self, host: Host, mode: HelpPage | str, back: Screen) -> None:
        super().__init__(host)
        self.help = modes.help_page(mode)
        self.mode = self.help.name
        self.back = back
        self.page = 0

    @property
    def pages(self) -> int:
        return (PARAGRAPHS + PER_PAGE - 1) // PER_PAGE

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        if event.button in ("right", "down"):
            self.page = min(self.pages - 1, self.page + 1)
        elif event.button in ("left", "up"):
            self.page = max(0, self.page - 1)
        elif event.button == "ok":
            if self.page < self.pages - 1:
                self.page += 1
            else:
                self.host.switch(self.back)
        elif event.button in ("stop", "menu"):
            self.host.switch(self.back)

    def figures(self) -> tuple[Figure, ...]:
        out = []
        for kind, content, caption in self.help.figures[self.page]:
            word = self.tr(content[1:]) if content.startswith("@") else content
            out.append(Figure(kind, word, self.tr(caption) if caption else ""))
        return tuple(out)

    def frame(self) -> Frame:
        tr = self.tr
        first = self.page * PER_PAGE + 1
        lines = tuple(tr(f"help.{self.mode}_{k}") for k in range(first, min(first + PER_PAGE, PARAGRAPHS + 1)))
        title = tr("help.title", mode=tr(f"help.mode_{self.mode}"))
        page = tr("help.page", page=self.page + 1, pages=self.pages)
        hint = tr("help.hint_next" if self.page < self.pages - 1 else "help.hint_last")
        shared = HelpUi(title, lines, self.figures(), page, hint, _orientation(self.host))
        oled = m.OledTextUi(tr(f"help.mode_{self.mode}"), (tr("help.oled"), page))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})


class AboutScreen(Screen):
    """Version, licences, the notice; any of OK, STOP, MENU goes back."""

    name = "about"

    def __init__(self, host: Host, back: Screen) -> None:
        super().__init__(host)
        self.back = back
        self.version = version()  # a file: read when the page opens, never per frame

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("ok", "stop", "menu"):
            self.host.switch(self.back)

    def lines(self) -> tuple[str, ...]:
        tr = self.tr
        return (tr("about.version", version=self.version), tr("about.code"), tr("about.pictures"),
                tr("about.fonts"), tr("about.sounds"), tr("about.words"), tr("about.notice"))

    def frame(self) -> Frame:
        tr = self.tr
        shared = AboutUi(tr("about.title"), self.lines(), tr("hint.back"), _orientation(self.host))
        oled = m.OledTextUi(tr("about.title"), (f"duetbox {self.version}", tr("about.oled")))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})


class HelpIndexScreen(Screen):
    """The menu's "Help": a row per mode and "About"; up/down choose, OK opens, STOP or MENU go back."""

    name = "help_index"

    def __init__(self, host: Host, back: Screen) -> None:
        super().__init__(host)
        self.back = back
        self.selected = 0

    def rows(self) -> tuple[str, ...]:
        return (*(page.name for page in modes.help_pages()), "about")

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        rows = self.rows()
        if event.button == "up":
            self.selected = (self.selected - 1) % len(rows)
        elif event.button == "down":
            self.selected = (self.selected + 1) % len(rows)
        elif event.button == "ok":
            row = rows[self.selected]
            self.host.switch(AboutScreen(self.host, self) if row == "about" else HelpScreen(self.host, row, self))
        elif event.button in ("stop", "menu"):
            self.host.switch(self.back)

    def frame(self) -> Frame:
        tr = self.tr
        items = tuple(m.MenuItem(tr("about.title" if r == "about" else f"help.mode_{r}")) for r in self.rows())
        ui = m.MenuUi(tr("help.index_title"), items, self.selected, tr("hint.menu"))
        return Frame(shared=ui, oleds={"A": ui, "B": ui})


class SoloInfoScreen(Screen):
    """OK on the disabled Solo row: why Solo cannot be played here and what to do, in plain words (the
    menu's hint line has room for one short sentence only); any of OK, STOP, MENU goes back."""

    name = "solo_info"

    def __init__(self, host: Host, reason: str, back: Screen) -> None:
        super().__init__(host)
        self.reason = reason.rpartition(".")[2] if reason else "not_built"
        if self.reason not in ("not_built", "no_model", "no_numpy"):
            self.reason = "not_built"
        self.back = back

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("ok", "stop", "menu"):
            self.host.switch(self.back)

    def frame(self) -> Frame:
        tr = self.tr
        language = tr(f"help.name_{self.host.settings.get('language', 'fr')}")  # "en français", "in French"
        lines = (tr(f"help.solo_off_{self.reason}", language=language), tr("help.solo_off_then"))
        shared = AboutUi(tr("help.solo_off_title"), lines, tr("hint.back"), _orientation(self.host))
        oled = m.OledTextUi(tr("help.mode_solo"), (tr("solo.off"), tr("about.oled")))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})


#: A confirmation left alone this long takes its safe choice (a café guest finds no "power off?" waiting).
CONFIRM_IDLE = 120.0


class ConfirmScreen(Screen):
    """A yes/no question before an irreversible action. ``choices[0]`` is the safe one, preselected: OK on it,
    STOP, MENU or CONFIRM_IDLE seconds without a press run ``safe``; only OK on ``choices[1]`` runs ``act``.

    ``key`` names the question in the catalog: confirm.<key>_title, confirm.<key>_line, confirm.<key>_no
    (the safe choice) and confirm.<key>_yes."""

    name = "confirm"

    def __init__(self, host: Host, key: str, act: Callable[[], None], safe: Callable[[], None],
                 fields: dict[str, str] | None = None) -> None:
        super().__init__(host)
        self.key = key
        self.fields = dict(fields or {})  # what the title and the line name (the saved game)
        self.act = act
        self.safe = safe
        self.selected = 0
        self._since = host.clock.now()

    @property
    def choices(self) -> tuple[str, str]:
        return self.tr(f"confirm.{self.key}_no"), self.tr(f"confirm.{self.key}_yes")

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        self._since = event.time
        if event.button in DIRECTIONS:
            self.selected = 1 - self.selected
        elif event.button == "ok":
            (self.act if self.selected == 1 else self.safe)()
        elif event.button in ("stop", "menu"):
            self.safe()

    def deadline(self) -> float | None:
        return self._since + CONFIRM_IDLE

    def tick(self, now: float) -> None:
        if now - self._since >= CONFIRM_IDLE and self.host.screen is self:
            self.safe()

    def frame(self) -> Frame:
        tr = self.tr
        title, line = tr(f"confirm.{self.key}_title", **self.fields), tr(f"confirm.{self.key}_line", **self.fields)
        shared = ConfirmUi(title, (line,), self.choices, self.selected, tr("confirm.hint"), _orientation(self.host))
        oled = m.MenuUi(title, tuple(m.MenuItem(c) for c in self.choices), self.selected, tr("confirm.hint"))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})


__all__ = ["AboutScreen", "ConfirmScreen", "HelpIndexScreen", "HelpScreen", "MODES", "SoloInfoScreen"]
