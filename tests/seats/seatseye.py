"""The seat's-eye harness: the real app on the mock box, played with the box's buttons and the touch screen the
way two people at a table would, and checked after every input and every clock step as each seat sees it.

A ``Table`` owns one app (on a mock box of one display size) and a record of what each seat's hands are doing
right now (buttons held down, a finger on the glass, since when, on which screen). After each step it takes the
frame the app shows and asks, for seat A and seat B:

- **secrecy** (every frame): a key side is on the shared display only while its giver holds OK or a finger
  there, on the screen where the hold began, for at most ``KEY_SECONDS`` (hot-seat); a seat's OLED draws only
  that seat's own key side; the classic guessers' OLED never gets the spymasters' key; the shared display of a
  classic game shows no team colour of an uncovered card before the game ends;
- **upright** (each distinct shared picture, drawn at the table's size on a recording surface): in the "table"
  orientation every text printed for seat A is printed, turned, for seat B and the other way round, and every
  picture of a card is drawn for both seats; in the "upright" orientation nothing is turned;
- **joystick** (each direction pressed on a grid): the seat's cursor moves to *that seat's* right, left, away
  or toward (seat B sits across the table: its right is the display's left; a box set upright turns nothing);
- **hints** (each notice after a short press): a "hold X" hint names the button that was pressed.

Nothing is read from pixels by OCR: texts and marks come from the renderers' recording surfaces
(``device.render.text.record_texts`` and ``note_mark``), as in the layout test.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from device.render import models as m  # noqa: E402
from device.render.shared import SharedRenderer, grid_layout  # noqa: E402
from device.render.text import record_texts  # noqa: E402

SIZES = ((1280, 720), (800, 480))
#: The tick the harness lets pass while a button or a finger is held (every one is checked).
STEP = 0.25

#: Texts a seat may be shown once, for one seat only (``turned`` False: for A): none on a table box, apart from
#: what the app itself prints for one seat on purpose. Filled per check by ``one_sided``.
Problem = str


@dataclass
class Held:
    """A button or a finger held down: since when, on which screen."""

    since: float
    screen: int  # the table's screen-change count when the hold began


@dataclass
class Table:
    """One box at one display size, played with its buttons; every frame checked (``problems``)."""

    tmp: Path
    size: tuple[int, int] = (1280, 720)
    language: str = "en"
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int = 5
    render: bool = True  # draw each distinct shared picture and check what each seat reads
    prepare: Callable[[Path], None] | None = None  # fills the data directory before the box starts

    def __post_init__(self) -> None:
        from device.app import App
        from device.storage import Storage
        from hardware.factory import open_box

        if self.prepare is not None:
            self.prepare(self.tmp / "data")
        storage = Storage(self.tmp / "data")
        storage.set_setting("language", self.language)
        for key, value in self.settings.items():
            storage.set_setting(key, value)
        self.app = App(open_box("mock", display_size=self.size), storage, seed=self.seed)
        self.app.start()
        self.down: dict[str, Held] = {}  # "A.ok", "B.stop", "finger"
        self.switches = 0  # screen changes seen so far (a pause and back counts two)
        self._last_screen: Any = None
        self.problems: list[Problem] = []
        self.frames = 0
        self.drawn = 0
        self._seen: set[str] = set()
        self.renderer = SharedRenderer()
        self.check()

    # -- hands ---------------------------------------------------------------------------------------------
    @property
    def box(self) -> Any:
        return self.app.box

    @property
    def now(self) -> float:
        return float(self.app.clock.now())

    @property
    def screen(self) -> Any:
        return self.app.screen

    def _step(self) -> None:
        self.app.step(0)
        self.check()

    def press(self, name: str) -> Table:
        """Press and release ``name`` ("A.ok", "B.left", "menu") at once (a short press), checking both."""
        return self.down_(name).up(name)

    def down_(self, name: str) -> Table:
        before = self._cursor_state()
        self.box.press(name)
        self.down[name] = Held(self.now, self.switches)
        self._step()
        self._joystick(name, before)
        return self

    def up(self, name: str) -> Table:
        seat = name.partition(".")[0]
        before = set(self._said(seat))
        self.box.release(name)
        held = self.down.pop(name, None)
        self._step()
        if held is not None and self.now - held.since < 0.6:
            self._hint(name, [t for t in self._said(seat) if t not in before])
        return self

    def _said(self, seat: str) -> list[str]:
        frame = self.frame()
        return _strings(frame.oleds.get(seat)) + _strings(getattr(frame.shared, "banner", None))

    def _hint(self, name: str, texts: list[str]) -> None:
        """After a short press of ``name``: a "hold X" hint that comes up on that seat's OLED or the display's
        banner names the button just pressed (a short STOP must not say "Hold OK")."""
        button = name.partition(".")[2]
        for text in texts:
            for said in HOLD_HINT.findall(text):
                if said.lower() != button.lower():
                    self.problems.append(f"a short {name} press, and the hint says {text!r}")

    def hold(self, name: str, seconds: float = 0.7) -> Table:
        self.down_(name)
        self.wait(seconds)
        return self.up(name)

    def touch_down(self, card: int) -> Table:
        self.box.touch_down(card)
        self.down["finger"] = Held(self.now, self.switches)
        self._step()
        return self

    def touch_up(self, card: int | None = None) -> Table:
        self.box.touch_up(card)
        self.down.pop("finger", None)
        self._step()
        return self

    def tap(self, card: int) -> Table:
        return self.touch_down(card).touch_up(card)

    def touch_hold(self, card: int, seconds: float = 0.7) -> Table:
        return self.touch_down(card).wait(seconds).touch_up(card)

    def wait(self, seconds: float) -> Table:
        """Let ``seconds`` pass, a check every ``STEP``."""
        left = seconds
        while left > 1e-9:
            dt = min(STEP, left)
            self.box.advance(dt)
            left -= dt
            self._step()
        return self

    def type(self, seat: str, text: str) -> Table:
        from hardware.base import InputEvent

        self.box.queue.put(InputEvent(seat=seat, button="text", kind="text", time=self.now, text=text))  # type: ignore[arg-type]
        self._step()
        return self

    # -- menus ---------------------------------------------------------------------------------------------
    def frame(self) -> Any:
        return self.app.frame()

    def choose(self, label: str, seat: str = "A") -> Table:
        """Move seat's highlight to the row labelled ``label`` (the translated text) and press OK."""
        return self.select(label, seat).press(f"{seat}.ok")

    def select(self, label: str, seat: str = "A") -> Table:
        for _ in range(40):
            ui = self.frame().shared
            rows = _rows(ui)
            labels = [r.label for r in rows]
            if label not in labels:
                raise AssertionError(f"no row {label!r} on {type(ui).__name__}: {labels}")
            if ui.selected == labels.index(label):
                return self
            self.press(f"{seat}.down")
        raise AssertionError(f"row {label!r} never selected")

    def tr(self, key: str, **fields: Any) -> str:
        return str(self.app.tr(key, **fields))

    # -- the checks ------------------------------------------------------------------------------------------
    def check(self) -> None:
        if self.screen is not self._last_screen:
            self.switches += 1
            self._last_screen = self.screen
        frame = self.frame()
        self.frames += 1
        where = f"{type(self.screen).__name__} t={self.now - 1000:.2f}"
        self.problems += [f"{where}: {p}" for p in secrecy(self, frame)]
        self.problems += [f"{where}: {p}" for p in disabled_rows(self, frame)]
        if self.render:
            self.problems += [f"{where}: {p}" for p in self._drawn(frame)]

    def _drawn(self, frame: Any) -> list[Problem]:
        ui = frame.shared
        view = frame.view
        token = f"{type(ui).__name__}|{ui!r}|{getattr(view, 'version', None)}|{view!r:.0}"
        if isinstance(view, object) and view is not None:
            token += repr(getattr(view, "cards", ""))
        if token in self._seen:
            return []
        self._seen.add(token)
        self.drawn += 1
        surface = record_texts(self.renderer.text, self.size)
        self.renderer.full(surface, view, ui)
        return upright(ui, surface.texts, surface.marks, one_sided(self, ui))

    def _cursor_state(self) -> tuple[Any, dict[str, int]] | None:
        ui = self.frame().shared
        if isinstance(ui, m.PlayUi | m.ClassicPlayUi):
            return ui, {c.seat: c.card for c in ui.cursors}
        return None

    def _joystick(self, name: str, before: tuple[Any, dict[str, int]] | None) -> None:
        seat, _, button = name.partition(".")
        if before is None or button not in ("up", "down", "left", "right"):
            return
        after = self._cursor_state()
        if after is None:
            return
        ui, cursors = before
        if seat not in cursors or seat not in after[1] or after[1][seat] == cursors[seat]:
            return  # at an edge, or not this seat's cursor (clue entry, a classic spymaster)
        columns, rows = (ui.columns, ui.rows) if isinstance(ui, m.ClassicPlayUi) else (5, 5)
        cells = grid_layout(self.size, columns, rows, ui.pictures and ui.orientation == "upright").cells
        a, b = cells[cursors[seat]].center, cells[after[1][seat]].center
        dx, dy = b[0] - a[0], b[1] - a[1]
        turned = seat == "B" and ui.orientation == "table"
        if turned:  # seat B's right is the display's left, its "up" (away from B) the display's bottom
            dx, dy = -dx, -dy
        want = {"right": dx > 0 and dy == 0, "left": dx < 0 and dy == 0,
                "up": dy < 0 and dx == 0, "down": dy > 0 and dx == 0}[button]
        if not want:
            self.problems.append(f"joystick {name} moved the cursor {cursors[seat]} -> {after[1][seat]}, "
                                 f"not to seat {seat}'s {button} ({ui.orientation})")

    def ok(self) -> None:
        """Fail with every problem seen (the first 40)."""
        assert self.frames > 0
        assert self.problems == [], "\n".join(self.problems[:40]) + f"\n({len(self.problems)} problems)"

    def close(self) -> None:
        self.app.shutdown()


#: "Hold OK", "hold STOP" in a hint (the harness plays in English).
HOLD_HINT = re.compile(r"\b[Hh]old (OK|STOP|MENU)\b")


def _strings(model: Any) -> list[str]:
    """Every string of a model (its fields, tuples of strings included)."""
    if model is None:
        return []
    if isinstance(model, str):
        return [model]
    out: list[str] = []
    for value in getattr(model, "__dict__", {}).values():
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, tuple):
            out += [v for v in value if isinstance(v, str)]
    return out


def _rows(ui: Any) -> tuple[Any, ...]:
    for name in ("items", "rows"):
        rows = getattr(ui, name, None)
        if isinstance(rows, tuple) and rows:
            return rows
    return ()


def disabled_rows(table: Table, frame: Any) -> list[Problem]:
    """A disabled (struck through) row, when chosen, says why on the hint line instead of the usual hint."""
    ui = frame.shared
    rows = _rows(ui)
    if not isinstance(ui, m.MenuUi) or not rows or rows[ui.selected % len(rows)].enabled:
        return []
    if ui.hint in ("", table.tr("hint.menu")):
        return [f"the disabled row {rows[ui.selected % len(rows)].label!r} does not say why"]
    return []


# -- secrecy ---------------------------------------------------------------------------------------------------

def secrecy(table: Table, frame: Any) -> list[Problem]:
    from device.screens import play

    key_seconds = getattr(play, "KEY_SECONDS", 20.0)
    out: list[Problem] = []
    ui = frame.shared
    session = table.app.game.session
    if isinstance(ui, m.HotSeatUi) and ui.key is not None:
        held = [h for name, h in table.down.items() if name in (f"{ui.seat}.ok", "finger")]
        if not held:
            out.append(f"seat {ui.seat}'s key on the display with no OK or finger held")
        for h in held:
            if h.screen != table.switches:
                out.append(f"seat {ui.seat}'s key on the display after a screen change")
            if table.now - h.since > 0.6 + key_seconds + 1e-6:
                out.append(f"seat {ui.seat}'s key on the display {table.now - h.since:.1f} s after the press")
    for seat, view in frame.seat_views.items():
        if getattr(view, "seat", seat) != seat:
            out.append(f"seat {seat}'s OLED is given seat {view.seat}'s key")
    out += _entry_keys(frame, session)
    oled_a = frame.oleds.get("A")
    if isinstance(oled_a, m.SpymasterUi) and len(oled_a.legend) != 2:
        out.append("the spymasters' OLED has no legend (which pattern is which team)")
    oled_b = frame.oleds.get("B")
    if isinstance(oled_b, m.SpymasterUi):
        out.append("the guessers' OLED (B) shows the spymasters' key")
    if isinstance(ui, m.ClassicPlayUi) and ui.cards is not None and session is not None and not session.over:
        out.append("the shared display shows the classic key before the end")
    if isinstance(ui, m.GameOverUi) and ui.keys is not None and session is not None and not session.over:
        out.append("both keys on the display of a game that is not over")
    return out


def _entry_keys(frame: Any, session: Any) -> list[Problem]:
    """A clue giver spells with its own key in sight on its OLED, and no clue entry on the shared display
    carries a key."""
    out: list[Problem] = []
    for seat, oled in frame.oleds.items():
        if not isinstance(oled, m.ClueEntryUi) or oled.number is None or session is None:
            continue  # (a team sheet's name is spelt with no key)
        own = session.seat_view(seat).key if hasattr(session, "seat_view") else (
            session.spymaster_view().key if seat == "A" else None)
        if not oled.key:
            out.append(f"seat {seat} spells its clue without its key in sight")
        elif oled.key != own:
            out.append(f"seat {seat}'s clue entry shows a key that is not its own")
    entry = getattr(frame.shared, "entry", None)
    if isinstance(entry, m.ClueEntryUi) and entry.key:
        out.append("a clue entry on the shared display carries a key")
    return out


# -- what each seat reads ------------------------------------------------------------------------------------

def one_sided(table: Table, ui: Any) -> Callable[[str], bool]:
    """Texts the app prints for one seat only on purpose (the harness does not ask for their twin)."""
    solo = type(table.screen).__module__.endswith(".solo")  # Solo's own pages: only seat A plays
    # the world map is one picture: its city names follow it (the city panel and the buttons line are twice)
    cities = {c.name for c in ui.cities} if isinstance(ui, m.MapUi) else set()
    return lambda text: solo or text in cities


def upright(ui: Any, texts: Iterable[Any], marks: Iterable[Any], exempt: Callable[[str], bool]) -> list[Problem]:
    """In "table" orientation, every text and every card picture printed for A has a turned twin for B (and the
    other way round); in "upright" orientation nothing is turned."""
    orientation = getattr(ui, "orientation", "table")
    shown = [t for t in texts if t.text.strip() and t.visible[2] > 0 and t.visible[3] > 0]
    out: list[Problem] = []
    if orientation == "upright":
        out += [f"turned text on an upright box: {t.text!r}" for t in shown if t.turned]
        return out
    a = Counter(t.text for t in shown if not t.turned and not exempt(t.text))
    b = Counter(t.text for t in shown if t.turned and not exempt(t.text))
    for text in sorted(set(a) | set(b)):
        if a[text] > b[text]:
            out.append(f"{type(ui).__name__}: {text!r} printed for seat A only ({a[text]} vs {b[text]})")
        elif b[text] > a[text]:
            out.append(f"{type(ui).__name__}: {text!r} printed for seat B only ({b[text]} vs {a[text]})")
    pics = Counter(mk.kind for mk in marks if mk.kind in ("picture", "picture turned"))
    if getattr(ui, "pictures", False) and isinstance(ui, m.PlayUi | m.ClassicPlayUi) and not pics:
        out.append(f"{type(ui).__name__}: a Pictures table with no picture drawn")
    if pics["picture"] != pics["picture turned"]:
        out.append(f"{type(ui).__name__}: {pics['picture']} pictures drawn for seat A, "
                   f"{pics['picture turned']} for seat B")
    return out


def rect_centre(rect: tuple[int, int, int, int]) -> tuple[float, float]:
    r = pygame.Rect(rect)
    return r.centerx, r.centery
