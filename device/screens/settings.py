"""Settings (the players' rows; in café mode only the language) and the admin menu behind the chord and the
PIN: every row changes one setting (saved at once) or runs an action after a confirmation."""

from __future__ import annotations

from collections.abc import Callable

from device import packs
from device.render import models as m
from device.screens.base import Frame, Host, Screen, back_or_menu
from device.screens.help import ConfirmScreen
from device.screens.setup import TOKENS, OptionValue
from device.version import version
from engine import languages
from engine.seats import SEATS, Seat
from hardware.base import DIRECTIONS, InputEvent

#: In café mode the settings a guest may still change without the PIN (docs/kiosk.md, "Café mode"): the language
#: alone, whose values are written each in its own language, so a guest can always switch back. Everything else
#: (sound, volume, brightness, orientation, speech) is in the admin menu.
CAFE_PUBLIC: tuple[str, ...] = ("language",)

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

    def _options(self, row: str) -> tuple[OptionValue, ...] | None:
        options: dict[str, tuple[OptionValue, ...]] = {
            "language": languages.CODES, "pack": packs.pack_names(self.host.storage.directory), "tokens": TOKENS,
            "brightness": BRIGHTNESS, "volume": VOLUME,
            "muted": (False, True), "cafe_mode": (False, True), "speech_A": (False, True),
            "speech_B": (False, True), "speech_output_A": SPEECH_OUTPUTS, "speech_output_B": SPEECH_OUTPUTS,
            "hourglass_seconds": (30, 60, 90, 120, 180), "hourglass_enforced": (False, True),
            "idle_minutes": IDLE, "abandon_hours": ABANDON, "orientation": ("table", "upright")}
        return options.get(row)

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
            back_or_menu(self.host, self.back)
        self._read_files()

    def _run(self, row: str) -> None:
        if row == "back":
            back_or_menu(self.host, self.back)
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
            self.host.nav.attract(self.back)


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
                back_or_menu(self.host, self.back)
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


__all__ = ["ABANDON", "ADMIN_IDLE", "BRIGHTNESS", "CAFE_PUBLIC", "IDLE", "SPEECH_OUTPUTS", "VOLUME", "AdminScreen",
           "PinScreen", "SettingsScreen"]
