"""The set-up before a game: rows of options (up/down a row, left/right its value), OK deals; the Duet family's
set-up (tokens, words, clue rules), which the classic and solo set-ups extend."""

from __future__ import annotations

from device import modes, packs
from device.modes import Mode
from device.render import models as m
from device.screens import flows
from device.screens.base import Frame, Host, Screen, back_or_menu
from engine.duet import MAX_TOKENS, STANDARD_TOKENS
from hardware.base import InputEvent

TOKENS = tuple(range(STANDARD_TOKENS, MAX_TOKENS + 1))  # 9, 10, 11: the box holds 11 timer tokens
#: A value a set-up or settings row may take (a language, a count of tokens, a brightness, on or off).
OptionValue = str | int | float | bool


class OptionsScreen(Screen):
    """Rows of options before a game: up/down choose a row, left/right change it, OK starts, STOP/MENU go back.

    Subclasses set ``rows`` (the last one is "start"), ``values`` and ``_options(row)``, and say how to ``begin``."""

    back: Screen | None = None
    rows: list[str]
    values: dict[str, OptionValue]
    selected: int = 0

    def _options(self, row: str) -> tuple[OptionValue, ...]:
        raise NotImplementedError

    def text(self, row: str) -> str:
        """The value chosen on ``row`` (a row of words: a pack, clue rules, a difficulty)."""
        return str(self.values[row])

    def number(self, row: str) -> int:
        """The value chosen on ``row`` (a row of counts: the tokens)."""
        return int(self.values[row])

    def flag(self, row: str) -> bool:
        """The value chosen on ``row`` (an on/off row)."""
        return bool(self.values[row])

    def begin(self) -> None:
        raise NotImplementedError

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        row = self.rows[self.selected]
        if event.button == "up":
            self.selected = (self.selected - 1) % len(self.rows)
        elif event.button == "down":
            self.selected = (self.selected + 1) % len(self.rows)
        elif event.button in ("left", "right") and row != "start":
            options = self._options(row)
            i = options.index(self.values[row]) if self.values[row] in options else 0
            self.values[row] = options[(i + (1 if event.button == "right" else -1)) % len(options)]
        elif event.button == "ok":
            self.begin()
        elif event.button in ("stop", "menu"):
            back_or_menu(self.host, self.back)


class SetupScreen(OptionsScreen):
    """Game options. The first seat to press OK in the game gives the first clue (decided at the table)."""

    name = "setup"

    def __init__(self, host: Host, kind: Mode | str, back: Screen | None = None) -> None:
        super().__init__(host)
        self.mode = modes.by_kind(kind)
        self.kind = self.mode.kind
        self.back = back
        s = host.settings
        self.values = {
            "tokens": int(s["tokens"]) if int(s["tokens"]) in TOKENS else 9,
            "pack": s["pack"] if s["pack"] in packs.pack_names(host.storage.directory) else "fr",
            "clues": s["clues"],
            "several": bool(s["several_clues"]),
        }
        self.rows = list(self.mode.setup_rows)
        self.selected = len(self.rows) - 1
        self._pack: tuple[str, str | None] | None = None  # (pack, its label): read on enter and on change

    def enter(self) -> None:
        self._read_pack()

    def _read_pack(self) -> str | None:
        """The pack row's label (it reads the pack's file): when the screen opens or the pack changes, never
        per frame."""
        v = self.text("pack")
        if self._pack is None or self._pack[0] != v:
            self._pack = (v, packs.pack_label(v, self.host.storage.directory))
        return self._pack[1]

    def handle(self, event: InputEvent) -> None:
        super().handle(event)
        self._read_pack()

    def _options(self, row: str) -> tuple[OptionValue, ...]:
        table: dict[str, tuple[OptionValue, ...]] = {
            "tokens": TOKENS, "pack": packs.pack_names(self.host.storage.directory),
            "clues": ("strict", "flexible"), "several": (False, True)}
        return table[row]

    def begin(self) -> None:
        flows.start_duet(self.host, self.mode, tokens=self.number("tokens"), pack=self.text("pack"),
                         clues=self.text("clues"), several=self.flag("several"))

    def _value(self, row: str) -> str:
        v = self.values[row]
        if row == "pack":
            return self._read_pack() or self.tr(f"lang.{v}")
        if row == "clues":
            return self.tr(f"setup.clues_{v}")
        if row == "several":
            return self.tr("common.on" if v else "common.off")
        return str(v)

    def frame(self) -> Frame:
        rows = tuple(m.MenuItem(self.tr(f"setup.{r}"), True, None if r == "start" else self._value(r))
                     for r in self.rows)
        title = self.tr(self.mode.setup_title)
        ui = m.SetupUi(title, rows, self.selected, self.rows[self.selected] != "start", self.tr("hint.setup"))
        oled = m.MenuUi(title, rows, self.selected, self.tr("hint.setup"))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


__all__ = ["OptionValue", "OptionsScreen", "SetupScreen", "TOKENS"]
