"""The mission map campaign: pick (or create) a team sheet, pick a playable city, play it with its tokens and
mistakes; a win ticks the city; the map keeps wins and losses per city."""

from __future__ import annotations

from collections.abc import Callable

from device import modes
from device.render import models as m
from device.render.screens import city_label
from device.screens.base import Frame, Host, Screen
from device.screens.flows import start_duet
from device.screens.item import Item
from device.screens.lists import ListScreen
from device.screens.menu import MenuScreen
from device.screens.parts import DELETE, DONE, SKIP
from device.screens.play import letters_for, picked
from engine.missions import default_map, playable, ticked
from hardware.base import InputEvent

_DIRECTIONS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}

#: How a picked city is played: ``start(city, sheet)``; None = a game on this box (a remote game passes its own:
#: the host deals the mission for the partner's box, docs/remote.md).
Start = Callable[[str, int], None] | None


#: The joystick on the letter strip: left/right one letter, up/down a row of seven.
_LETTER_STEPS: dict[str, int] = {"right": 1, "left": -1, "down": 7, "up": -7}

class SheetScreen(ListScreen):
    name = "sheets"
    title_key = "missions.sheets"
    _sheets: list[tuple[int, str]] | None = None

    def __init__(self, host: Host, back: Screen | None = None, *, start: Start = None) -> None:
        super().__init__(host, back)
        self.start = start

    def enter(self) -> None:
        self._sheets = list(self.host.storage.sheets())  # a query: once per visit, never per frame

    def items(self) -> list[Item]:
        host = self.host
        out = [Item("missions.new_sheet", lambda: host.switch(NameScreen(host, self)))]
        if self._sheets is None:
            self.enter()
        for sheet, name in self._sheets or ():
            out.append(Item(name, self._opener(sheet)))
        return out

    def _opener(self, sheet: int) -> Callable[[], None]:
        """What OK on a sheet's row does: its mission map."""
        return lambda: self.host.switch(MapScreen(self.host, sheet, start=self.start))

    def model(self) -> m.MenuUi:
        items = tuple(m.MenuItem(self.tr(i.key) if i.key.startswith("missions.") else i.key, i.enabled)
                      for i in self.items())
        return m.MenuUi(self.tr(self.title_key), items, self.selected % len(items), self.tr("hint.menu"))


class NameScreen(Screen):
    """A team name with the letter picker on seat A's OLED (or a USB keyboard); ✓ creates the sheet."""

    name = "sheet_name"

    def __init__(self, host: Host, back: Screen) -> None:
        super().__init__(host)
        self.back = back
        self.word = ""
        self.letter = 0

    @property
    def letters(self) -> tuple[str, ...]:
        return letters_for(str(self.host.settings.get("language", "fr")))

    def handle(self, event: InputEvent) -> None:
        if event.kind == "text":
            self._typed(event.text or "")
            return
        if event.kind != "press":
            return
        if event.button in _LETTER_STEPS:
            self.letter = (self.letter + _LETTER_STEPS[event.button]) % len(self.letters)
        elif event.button == "ok":
            pick = self.letters[self.letter]
            if pick == DELETE:
                self.word = self.word[:-1]
            elif pick in (DONE, SKIP):
                self._done()
            else:
                self.word = (self.word + picked(pick))[:16]
        elif event.button in ("stop", "menu"):
            self.host.switch(self.back)

    def _typed(self, text: str) -> None:
        """A USB keyboard's text: letters and digits, backspace, enter (done)."""
        for ch in text:
            if ch == "\n":
                self._done()
                return
            if ch == "\b":
                self.word = self.word[:-1]
            elif ch.isalnum() or ch == " ":
                self.word = (self.word + ch.upper())[:16]
                self.letter = self.letters.index(DONE)

    def _done(self) -> None:
        name = self.word.strip() or self.tr("missions.default_name", n=len(self.host.storage.sheets()) + 1)
        sheet = self.host.storage.new_sheet(name)
        self.host.switch(MapScreen(self.host, sheet, start=getattr(self.back, "start", None)))

    def frame(self) -> Frame:
        title = self.tr("missions.name_title")
        shared = m.MessageUi(title, ((self.word or "") + "_", self.tr("missions.name_hint")))
        oled = m.ClueEntryUi("word", None, word=self.word, letters=self.letters, letter=self.letter, title=title,
                             hint=self.tr("clue.word_hint"))
        return Frame(shared=shared, oleds={"A": oled, "B": m.OledTextUi(title, (self.word,))})


class MapScreen(Screen):
    """The map: the joystick moves between cities, OK starts a playable one, STOP goes back."""

    name = "map"

    def __init__(self, host: Host, sheet: int, *, start: Start = None) -> None:
        super().__init__(host)
        self.sheet = sheet
        self.start = start
        self.map = default_map()
        log = host.storage.mission_log(sheet)
        open_cities = playable(self.map, log)
        # start on the first playable city not yet ticked (else the start city)
        done = ticked(log)
        fresh = [c.name for c in self.map.cities if c.name in open_cities and c.name not in done]
        self.selected = fresh[0] if fresh else self.map.start
        self._shown: tuple[frozenset[str], frozenset[str], dict[str, tuple[int, int]], str] | None = None

    def enter(self) -> None:
        """The sheet's log, record and name: storage queries, once per visit, never per frame (and the cities'
        names file, read once by ``city_label``)."""
        self._shown = (*self._state(), self.host.storage.sheet_name(self.sheet))
        city_label(self.selected, self.tr.language)

    def _state(self) -> tuple[frozenset[str], frozenset[str], dict[str, tuple[int, int]]]:
        log = self.host.storage.mission_log(self.sheet)
        return ticked(log), playable(self.map, log), self.host.storage.mission_history(self.sheet)

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        if event.button in _DIRECTIONS:
            self.selected = self._neighbour(self.selected, _DIRECTIONS[event.button])
        elif event.button == "ok":
            _, open_cities, _ = self._state()
            if self.selected in open_cities:
                city = self.map.city(self.selected)
                if self.start is not None:
                    self.start(city.name, self.sheet)
                    return
                start_duet(self.host, modes.MISSION, tokens=city.turns, pack=str(self.host.settings.get("pack", "fr")),
                           clues=str(self.host.settings.get("clues", "strict")), mission=city.name,
                           sheet=self.sheet)
        elif event.button in ("stop", "menu"):
            self.host.switch(SheetScreen(self.host, MenuScreen(self.host), start=self.start))

    def _neighbour(self, name: str, direction: tuple[int, int]) -> str:
        here = self.map.city(name)
        best: tuple[float, str] | None = None
        for city in self.map.cities:
            dx, dy = city.x - here.x, city.y - here.y
            along = dx * direction[0] + dy * direction[1]
            if city.name == name or along <= 0:
                continue
            across = abs(dx * direction[1]) + abs(dy * direction[0])
            score = along + 2 * across
            if best is None or score < best[0]:
                best = (score, city.name)
        return best[1] if best else name

    def frame(self) -> Frame:
        if self._shown is None:
            self.enter()
        assert self._shown is not None
        done, open_cities, tally, sheet_name = self._shown
        cities = []
        for c in self.map.cities:
            standing: m.CityStatus = ("ticked" if c.name in done else "playable" if c.name in open_cities
                                      else "locked")
            wins, losses = tally.get(c.name, (0, 0))
            cities.append(m.MapCity(c.name, c.name, c.turns, c.mistakes, standing, wins, losses, (c.x, c.y)))
        links = tuple((a, b) for a, b in (sorted(link) for link in sorted(self.map.links, key=sorted)))
        city = self.map.city(self.selected)
        wins, losses = tally.get(city.name, (0, 0))
        detail = (self.tr("missions.detail_rules", turns=city.turns, mistakes=city.mistakes),
                  self.tr("missions.detail_record", wins=wins, losses=losses))
        labels = {k: self.tr(f"missions.{k}") for k in ("ticked", "playable", "locked")}
        shared = m.MapUi(self.tr("missions.title"), sheet_name, tuple(cities), links,
                         self.selected, detail, self.tr("missions.hint"), labels, self.tr.language)
        state = "ticked" if city.name in done else "playable" if city.name in open_cities else "locked"
        status = self.tr(f"missions.{state}")
        oled = m.OledTextUi(city_label(city.name, self.tr.language), detail + (status,))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})
