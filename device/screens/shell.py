"""The screens around a game: menu, set-up, pause, attract, statistics, settings, admin (PIN + settings)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from device import modes, packs, solo
from device.degraded import oled_missing
from device.modes import Family, Mode
from device.render import models as m
from device.screens import flows
from device.screens.base import Frame, Host, Screen
from device.screens.help import ConfirmScreen, HelpIndexScreen, HelpScreen, SoloInfoScreen
from device.screens.play import LABELS
from device.version import version
from engine import languages
from engine.duet import MAX_TOKENS, STANDARD_TOKENS
from engine.seats import SEATS, Seat
from engine.session import ClassicSession, DuetSession
from hardware.base import DIRECTIONS, InputEvent


@dataclass
class Item:
    key: str  # message key of the label
    action: Callable[[], None] | None
    enabled: bool = True
    value: str | None = None
    reason: str | None = None  # why a disabled item is disabled: the hint line while it is selected
    info: Callable[[], None] | None = None  # OK on a disabled item: what to do about it (a page that says)


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
        self.host.switch(self.back or MenuScreen(self.host))

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


def saved_name(host: Host, row: Any) -> str:
    """What the saved game is, as the menu and the questions name it: its mode, and for a mission its team
    sheet and city ("Mission map · LES AS · Prague")."""
    kind = "missions" if row.kind == "mission" else str(row.kind)
    parts = [host.tr(f"menu.{kind}")]
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
        self.host.switch(MenuScreen(self.host))

    def _help(self) -> None:
        """The help of the game being played (its kind), back to this pause menu."""
        self.host.switch(HelpScreen(self.host, modes.by_kind(self.host.game.kind).help, self))

    def _abandon(self) -> None:
        def abandon() -> None:
            shown = revealed_frame(self.host)  # both keys, read before the game is closed
            self.host.game.abandon()
            self.host.switch(AbandonedScreen(self.host, shown) if shown is not None else MenuScreen(self.host))

        self.host.switch(ConfirmScreen(self.host, "abandon", act=abandon, safe=lambda: self.host.switch(self)))


def classic_labels(tr: Any) -> dict[str, str]:
    """The words a classic table's renderer needs: the team names, "Clues", and how a label and its value are
    joined in this language ("Rouges : ZEBRA 2", "Red: ZEBRA 2")."""
    return {"R": tr("team.R"), "B": tr("team.B"), "clues": tr("label.clues"), "pair": tr("common.pair")}


def revealed_frame(host: Host) -> Frame | None:
    """The game in play with every key shown (both Duet sides, the classic key), for the players to look at
    after they abandon it; None without a game."""
    session = host.game.session
    tr = host.tr
    options = host.game.options
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
        cards = tuple(m.ClassicCard(c, session.state.key.cards[i])  # type: ignore[arg-type]
                      for i, c in enumerate(session.state.cards))
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
            self.host.switch(MenuScreen(self.host))

    def frame(self) -> Frame:
        return self.shown


# -- set-up --------------------------------------------------------------------------------------------------

TOKENS = tuple(range(STANDARD_TOKENS, MAX_TOKENS + 1))  # 9, 10, 11: the box holds 11 timer tokens
#: In café mode the settings a guest may still change without the PIN (docs/kiosk.md, "Café mode"): the language
#: alone, whose values are written each in its own language, so a guest can always switch back. Everything else
#: (sound, volume, brightness, orientation, speech) is in the admin menu.
CAFE_PUBLIC: tuple[str, ...] = ("language",)


class OptionsScreen(Screen):
    """Rows of options before a game: up/down choose a row, left/right change it, OK starts, STOP/MENU go back.

    Subclasses set ``rows`` (the last one is "start"), ``values`` and ``_options(row)``, and say how to ``begin``."""

    back: Screen | None = None
    rows: list[str]
    values: dict[str, Any]
    selected: int = 0

    def _options(self, row: str) -> tuple[Any, ...]:
        raise NotImplementedError

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
            self.host.switch(self.back or MenuScreen(self.host))


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
        v = self.values["pack"]
        if self._pack is None or self._pack[0] != v:
            self._pack = (v, packs.pack_label(v, self.host.storage.directory))
        return self._pack[1]

    def handle(self, event: InputEvent) -> None:
        super().handle(event)
        self._read_pack()

    def _options(self, row: str) -> tuple[Any, ...]:
        table = {"tokens": TOKENS, "pack": packs.pack_names(self.host.storage.directory),
                 "clues": ("strict", "flexible"), "several": (False, True)}
        return table[row]

    def begin(self) -> None:
        flows.start_duet(self.host, self.mode, tokens=self.values["tokens"], pack=self.values["pack"],
                         clues=self.values["clues"], several=self.values["several"])

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


# -- attract -------------------------------------------------------------------------------------------------

#: How long the attract animation plays before it holds still.
ATTRACT_SECONDS = 600.0


class AttractScreen(Screen):
    """After the idle timeout: a gentle animation on the display and ring; any press returns."""

    name = "attract"
    attract = False
    wakes = True

    def __init__(self, host: Host, under: Screen) -> None:
        super().__init__(host)
        self.under = under
        self.start = host.clock.now()
        words = ("duet", "agent", "indice", "mission", "code", "ville", "fleuve", "lune")
        self.words = tuple(random.Random(0).sample(words, len(words)))

    def wake(self) -> None:
        self.host.woken()
        self.host.switch(self.under)

    def _animating(self, now: float) -> bool:
        return now - self.start < ATTRACT_SECONDS

    def deadline(self) -> float | None:
        now = self.host.clock.now()
        # 10 frames a second for a while, then a still picture: a box left on overnight sleeps
        return now + 0.1 if self._animating(now) else None

    def frame(self) -> Frame:
        now = self.host.clock.now()
        t = min(now - self.start, ATTRACT_SECONDS)
        shared = m.AttractUi(t=t, title="duetbox", prompt=self.tr("attract.prompt"), words=self.words)
        oled = m.OledTextUi("duetbox", (self.tr("attract.prompt"),))
        ring = (m.AttractEffect(self.start),) if self._animating(now) else ()
        return Frame(shared=shared, oleds={"A": oled, "B": oled}, ring=ring)


# -- statistics ----------------------------------------------------------------------------------------------

class StatsScreen(Screen):
    name = "stats"

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
        self.back = back
        self._stats: dict[str, Any] | None = None

    def enter(self) -> None:
        self._stats = self.host.storage.statistics()  # a query: once per visit, never per frame

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("ok", "stop", "menu"):
            self.host.switch(self.back or MenuScreen(self.host))

    def frame(self) -> Frame:
        if self._stats is None:
            self.enter()
        stats = self._stats or {}
        rows = []
        for kind, s in sorted(stats.items()):
            rows.append(m.StatsRow(self.tr(f"kind.{kind}"), (
                str(s["games"]), str(s["wins"]), "—" if s["best"] is None else str(s["best"]),
                f'{s["streak"]} / {s["best_streak"]}')))
        lines = () if rows else (self.tr("stats.none"),)
        ui = m.StatsUi(self.tr("stats.title"), (self.tr("stats.games"), self.tr("stats.wins"),
                                               self.tr("stats.best"), self.tr("stats.streak")),
                       tuple(rows), lines, self.tr("hint.back"))
        total = sum(s["games"] for s in stats.values())
        wins = sum(s["wins"] for s in stats.values())
        oled = m.OledTextUi(self.tr("stats.title"), (self.tr("stats.oled", games=total, wins=wins),))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


# -- settings (players) and admin (chord + PIN) --------------------------------------------------------------

BRIGHTNESS = (0.2, 0.4, 0.6, 0.8, 1.0)
IDLE = (0, 1, 2, 5, 10, 30)
ABANDON = (0, 1, 6, 24, 72)
VOLUME = (0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0)
SPEECH_OUTPUTS = ("speaker", "headphones")


class SettingsScreen(Screen):
    """Rows of settings: up/down choose, left/right change (saved at once), OK on an action row runs it."""

    name = "settings"
    admin = False

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
        self.back = back
        self.selected = 0
        self.status = ""
        self._files: tuple[str, str | None, str] | None = None  # (pack, its label, version): see _read_files

    def enter(self) -> None:
        self._read_files()

    def _read_files(self) -> tuple[str, str | None, str]:
        """What the rows show from files (the pack's label, the version): read when the screen opens and after
        a press, never per frame."""
        pack = str(self.host.settings.get("pack"))
        if self._files is None or self._files[0] != pack:
            label = packs.pack_label(pack, self.host.storage.directory) if "pack" in self.rows() else None
            self._files = (pack, label, version() if self.admin else "")
        return self._files

    @property
    def locked(self) -> bool:
        """The guests' settings of a café box: only ``CAFE_PUBLIC``, the rest behind the PIN."""
        return not self.admin and bool(self.host.settings.get("cafe_mode"))

    def rows(self) -> list[str]:
        if self.locked:
            return [*CAFE_PUBLIC, "back"]
        rows = ["language", "orientation", "brightness", "volume", "muted"]
        if self.admin:
            rows = ["language", "pack", "tokens", "brightness", "volume", "muted", "cafe_mode", "idle_minutes",
                    "abandon_hours", "orientation", "hourglass_seconds", "hourglass_enforced"]
        if self.host.audio.speaker is not None:  # spoken announcements need espeak-ng: hidden without it
            rows += ["speech_A", "speech_output_A", "speech_B", "speech_output_B"]
        if self.admin:
            rows += ["import_packs", "change_pin", "reset_stats", "shutdown", "reboot"]
        return rows + ["back"]

    def _options(self, row: str) -> tuple[Any, ...] | None:
        return {"language": languages.CODES, "pack": packs.pack_names(self.host.storage.directory), "tokens": TOKENS,
                "brightness": BRIGHTNESS, "volume": VOLUME,
                "muted": (False, True), "cafe_mode": (False, True), "speech_A": (False, True),
                "speech_B": (False, True), "speech_output_A": SPEECH_OUTPUTS, "speech_output_B": SPEECH_OUTPUTS,
                "hourglass_seconds": (30, 60, 90, 120, 180), "hourglass_enforced": (False, True),
                "idle_minutes": IDLE, "abandon_hours": ABANDON, "orientation": ("table", "upright")}.get(row)

    def handle(self, event: InputEvent) -> None:
        if event.kind != "press":
            return
        rows = self.rows()
        row = rows[self.selected]
        if event.button == "up":
            self.selected = (self.selected - 1) % len(rows)
        elif event.button == "down":
            self.selected = (self.selected + 1) % len(rows)
        elif event.button in ("left", "right"):
            options = self._options(row)
            if options:
                current = self.host.settings.get(row)
                i = options.index(current) if current in options else 0
                step = 1 if event.button == "right" else -1
                self.host.settings.set(row, options[(i + step) % len(options)])
                self.status = self.tr("settings.saved")
        elif event.button == "ok":
            self._run(row)
            if row == "import_packs":  # an imported pack may have new words: its label is read again
                self._files = None
        elif event.button in ("stop", "menu"):
            self.host.switch(self.back or MenuScreen(self.host))
        self._read_files()

    def _run(self, row: str) -> None:
        if row == "back":
            self.host.switch(self.back or MenuScreen(self.host))
        elif row == "reset_stats":
            self._confirm("reset_stats", self._reset_stats)
        elif row == "import_packs":
            self.status = packs.import_status(self.host)
        elif row == "change_pin":
            self.host.switch(PinScreen(self.host, self.back, mode="new"))
        elif row in ("shutdown", "reboot"):
            self._confirm(row, lambda: self._power(row))

    def _confirm(self, key: str, act: Callable[[], None]) -> None:
        """Ask first (the safe choice preselected), then come back to these settings."""
        def done() -> None:
            self.host.switch(self)
            act()

        def keep() -> None:
            self.status = ""
            self.host.switch(self)

        self.host.switch(ConfirmScreen(self.host, key, act=done, safe=keep))

    def _reset_stats(self) -> None:
        self.host.storage.reset_statistics()
        self.status = self.tr("settings.reset_done")

    def _power(self, what: str) -> None:
        self.status = self.tr(f"settings.{what}_now")
        self.host.request_power(what)

    def _value(self, row: str) -> str | None:
        v = self.host.settings.get(row)
        if row == "pack" and self._read_files()[1]:
            return self._read_files()[1]
        if row in ("language", "pack"):
            return self.tr(f"lang.{v}")
        if row == "orientation":
            return self.tr(f"settings.orientation_{v}")
        if row in ("brightness", "volume"):
            return f"{round(float(v or 0) * 100)} %"
        if row.startswith("speech_output_"):
            return self.tr(f"settings.output_{v}")
        if row == "idle_minutes":
            return self.tr("common.never") if not v else self.tr("settings.minutes", n=v)
        if row == "abandon_hours":
            return self.tr("common.never") if not v else self.tr("settings.hours", n=v)
        if row == "tokens":
            return str(v)
        if row in ("speech_A", "speech_B", "hourglass_enforced", "muted", "cafe_mode"):
            return self.tr("common.on" if v else "common.off")
        if row == "hourglass_seconds":
            return f"{v} s"
        return None

    def frame(self) -> Frame:
        rows = tuple(m.MenuItem(self.tr(f"settings.{r}"), True, self._value(r)) for r in self.rows())
        title = self.tr("admin.title" if self.admin else "settings.title")
        status = self.status or (f"duetbox {self._read_files()[2]}" if self.admin else "")  # device.version
        if self.locked:
            status = self.status or self.tr("settings.cafe_locked")
        ui = m.SettingsUi(title, rows, self.selected, False, self.tr("hint.settings"), status)
        oled = m.MenuUi(title, rows, self.selected, self.status or self.tr("hint.settings"))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


#: Admin and PIN screens left alone this long go back to the attract screen (a café guest finds no open admin).
ADMIN_IDLE = 180.0


class _Lapses:
    """Admin and PIN screens: back to the attract screen (over the menu or the game) after ADMIN_IDLE."""

    host: Host
    back: Screen | None
    _since: float

    def _touched(self, when: float) -> None:
        self._since = when

    def deadline(self) -> float | None:
        return self._since + ADMIN_IDLE

    def tick(self, now: float) -> None:
        if now - self._since >= ADMIN_IDLE:
            self.host.switch(AttractScreen(self.host, self.back or MenuScreen(self.host)))


class AdminScreen(_Lapses, SettingsScreen):
    name = "admin"
    admin = True
    attract = False

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host, back)
        self._since = host.clock.now()

    def handle(self, event: InputEvent) -> None:
        self._touched(event.time)
        super().handle(event)


class PinScreen(_Lapses, Screen):
    """The admin PIN: up/down choose a digit, right (or OK) enters it; the last digit checks the PIN.

    ``mode="new"`` asks for a new PIN and ``"confirm"`` for it again (the admin's "change PIN" row, and the
    first visit when no PIN was ever set: there is no default PIN). The PIN lives in ``host.pins``
    (device/pin.py: hashed, outside the database, wrong tries cost a growing wait). The digit being chosen is
    shown only on the OLED of the seat choosing it; the shared display and the other OLED show dots."""

    name = "pin"
    attract = False
    NEW_LENGTH = 4

    def __init__(self, host: Host, back: Screen | None, *, mode: str = "check", first: str | None = None) -> None:
        super().__init__(host)
        self.back = back
        pins = host.pins
        self.first_visit = mode == "check" and not pins.is_set and not pins.damaged
        self.mode = "new" if self.first_visit else mode
        self.first = first
        self.digits: list[int] = []
        self.current = 0
        self.seat: Seat | None = None  # the seat choosing digits (its OLED alone shows the digit)
        self.error: str | None = self.tr("pin.damaged") if mode == "check" and pins.damaged else None
        self._since = host.clock.now()

    @property
    def length(self) -> int:
        if self.mode != "check":
            return self.NEW_LENGTH
        return self.host.pins.length

    def handle(self, event: InputEvent) -> None:
        self._touched(event.time)
        if event.kind == "text" and event.text:
            for ch in event.text:
                if ch.isdigit():
                    self._enter(int(ch))
            return
        if event.kind != "press":
            return
        if event.seat is not None and event.button in (*DIRECTIONS, "ok"):
            self.seat = event.seat
        if event.button == "up":
            self.current = (self.current + 1) % 10
        elif event.button == "down":
            self.current = (self.current - 1) % 10
        elif event.button in ("right", "ok"):
            self._enter(self.current)
        elif event.button == "left" and self.digits:
            self.digits.pop()
        elif event.button in ("stop", "menu"):
            if self.mode == "check" or self.first_visit:
                self.host.switch(self.back or MenuScreen(self.host))
            else:
                self.host.switch(AdminScreen(self.host, self.back))

    def _wait(self) -> float:
        return self.host.pins.wait() if self.mode == "check" else 0.0

    def _enter(self, digit: int) -> None:
        if self._wait() > 0 or (self.mode == "check" and self.host.pins.damaged):
            return  # a wrong PIN's wait runs: digits are not even taken
        self.digits.append(digit)
        self.current = 0
        if len(self.digits) < self.length:
            return
        entered = "".join(str(d) for d in self.digits)
        self.digits = []
        if self.mode == "new":
            screen = PinScreen(self.host, self.back, mode="confirm", first=entered)
            screen.first_visit, screen.seat = self.first_visit, self.seat
            self.host.switch(screen)
        elif self.mode == "confirm":
            if entered == self.first:
                try:
                    self.host.pins.set(entered)
                except OSError:
                    self.mode, self.first, self.error = "new", None, self.tr("pin.not_saved")
                    return
                admin = AdminScreen(self.host, self.back)
                admin.status = self.tr("pin.changed")
                self.host.switch(admin)
            else:
                self.mode, self.first, self.error = "new", None, self.tr("pin.mismatch")
        else:
            answer = self.host.pins.check(entered)
            if answer.ok:
                self.host.switch(AdminScreen(self.host, self.back))
            else:
                self.error = self.tr("pin.wrong")

    def deadline(self) -> float | None:
        idle = super().deadline()
        wait = self._wait()
        if wait > 0:  # the countdown is shown: redraw each second
            return min(idle or float("inf"), self.host.clock.now() + min(1.0, wait))
        return idle

    def frame(self) -> Frame:
        titles = {"check": "pin.title", "new": "pin.first" if self.first_visit else "pin.new",
                  "confirm": "pin.confirm"}
        title = self.tr(titles[self.mode])
        wait = self._wait()
        error = self.tr("pin.wait", n=int(wait + 0.999)) if wait > 0 else self.error
        shared = m.PinUi(title, self.length, len(self.digits), None, error, self.tr("hint.pin"))
        dots = "*" * len(self.digits)
        oleds: dict[Seat, m.OledUi | None] = {}
        for seat in SEATS:
            shown = dots + (str(self.current) if seat == self.seat and wait <= 0 else "")
            oleds[seat] = m.OledTextUi(title, (shown or "-", error or ""))
        return Frame(shared=shared, oleds=oleds)


def back_to_menu(host: Host) -> None:
    host.switch(MenuScreen(host))


__all__ = ["AdminScreen", "AttractScreen", "ListScreen", "MenuScreen", "PauseScreen", "PinScreen",
           "OptionsScreen", "SettingsScreen", "SetupScreen", "StatsScreen", "back_to_menu", "Item", "Frame", "Any"]
