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
- **hints** (each notice after a short press): a "hold X" hint names the button that was pressed; a disabled
  (struck through) menu row, when chosen, says why;
- **the giver's key**: a clue giver spells with its own key in sight on its OLED, no clue entry on the shared
  display carries a key, the classic spymasters' OLED has its legend;
- **legibility** (on the grids): both seats' card words at the same contrast, at least 7:1; a card where a seat
  touched a bystander carries a mark of at least 19 px; the hot-seat picker's symbols as tall as its letters;
  the mission map keeps its legend for each seat; no French " :" outside French.

``Table.press``, ``hold``, ``touch_down``/``touch_up``, ``wait`` and ``type`` are the hands; ``choose`` picks a
menu row by its translated label. ``Table.ok()`` fails with every problem seen. Settings reachability and the
café mode's public rows are checked by tests/seats/test_seats_settings.py with the same hands.

The remote host and guest are two tables (tests/seats/remoteseats.py): each box's one seat and where it sits
(``chairs``: the guest's seat B at its display's top edge, the display turned for it), the other box's side as
what the box must never show (``foreign``), both boxes stepped together over an in-process broker. There, and on
every box, two more checks run at every frame:

- **the chair**: a picture printed one way ("upright") is upright for each seat that reads it, from its chair
  and with the display's rotation; a seat's OLED key map (and the small key while it spells) lays out the cards
  as that seat sees them on the display, its cursor bracket where it sees its cursor;
- **foreign keys** (a remote box): no key view, key map or clue entry for the other box's seat, its OLED
  naming none of that seat's buttons (they do nothing there), and the other side's 25 letters (either way
  round) in no model of the frame before the game is over; no message key printed for want of its message.

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

#: One thing a seat would see wrong, with where and when (the table collects them; ``ok`` fails on any).
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
    #: builds the box app (box, storage, seed) -> an App not started yet; a plain local App without it
    make_app: Callable[[Any, Any, int], Any] | None = None
    #: the seats that play at this box and where each sits: 0 at the display's bottom edge, 180 at its top
    #: edge (None: a local box, seat B across the table in "table" orientation, beside A on a box set upright)
    chairs: dict[str, int] | None = None
    #: the key side this box must never show (the other box's, in a remote game) while the game goes on
    foreign: Callable[[], str | None] | None = None
    #: runs after each step of this box's hands (a remote game: the other box takes its turn)
    linked: Callable[[], Any] | None = None
    #: lets time pass instead of this box's own clock alone (a remote game: both boxes and their links)
    waits: Callable[[float], Any] | None = None

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
        box = open_box("mock", display_size=self.size)
        self.app = (self.make_app or (lambda b, st, seed: App(b, st, seed=seed)))(box, storage, self.seed)
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
        if self.linked is not None:
            self.linked()

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
        if self.waits is not None:
            self.waits(seconds)
            return self
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

    # -- the chairs ------------------------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        """The seats that play at this box (both on a local box; one on each box of a remote game)."""
        return tuple(self.chairs) if self.chairs is not None else ("A", "B")

    def turned_for(self, seat: str, ui: Any) -> bool:
        """Whether ``seat``, from its chair, sees the shared picture ``ui`` turned half a turn (its right is the
        picture's left, its "up" the picture's bottom): its chair at the display's top edge, or the whole
        display turned for it (a remote guest's), but not both."""
        if self.chairs is not None:
            chair = self.chairs.get(seat, 0)
        else:
            chair = 180 if seat == "B" and getattr(ui, "orientation", "table") == "table" else 0
        return (chair + int(self.app.outputs.shared_rotation)) % 360 == 180

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
        self.problems += [f"{where}: {p}" for p in foreign_keys(self, frame)]
        self.problems += [f"{where}: {p}" for p in oled_maps(self, frame)]
        if self.render:
            self.problems += [f"{where}: {p}" for p in self._drawn(frame)]

    def _drawn(self, frame: Any) -> list[Problem]:
        ui = frame.shared
        view = frame.view
        # one drawing per distinct picture: the model, and the public cards it is drawn over
        token = f"{type(ui).__name__}|{ui!r}|{getattr(view, 'version', None)}|{getattr(view, 'cards', '')!r}"
        if token in self._seen:
            return []
        self._seen.add(token)
        self.drawn += 1
        surface = record_texts(self.renderer.text, self.size)
        self.renderer.full(surface, view, ui)
        readers = {seat: self.turned_for(seat, ui) for seat in self.seats}
        return (upright(ui, surface.texts, surface.marks, one_sided(self, ui), readers)
                + legibility(self, ui, view, surface)
                + typography(str(self.app.tr.language), [t.text for t in surface.texts])
                + untranslated([t.text for t in surface.texts])
                + map_legend(ui, surface.texts))

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
        if self.turned_for(seat, ui):  # its right is the display's left, its "up" (away from it) the display's bottom
            dx, dy = -dx, -dy
        want = {"right": dx > 0 and dy == 0, "left": dx < 0 and dy == 0,
                "up": dy < 0 and dx == 0, "down": dy > 0 and dx == 0}[button]
        if not want:
            self.problems.append(f"joystick {name} moved the cursor {cursors[seat]} -> {after[1][seat]}, "
                                 f"not to seat {seat}'s {button} ({ui.orientation}, "
                                 f"display turned {self.app.outputs.shared_rotation})")

    def ok(self) -> None:
        """Fail with every problem seen (the first 40)."""
        assert self.frames > 0
        assert self.problems == [], "\n".join(self.problems[:40]) + f"\n({len(self.problems)} problems)"

    def close(self) -> None:
        self.app.shutdown()


#: A seat's own button named in a hint (the harness plays in English).
SEAT_BUTTON = re.compile(r"\b(OK|STOP|[Jj]oystick)\b")
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


def _key_strings(model: Any, depth: int = 0) -> Iterable[str]:
    """Every string of ``model`` and of the models, tuples and dicts in it (a key side is 25 letters)."""
    if depth > 6 or model is None:
        return
    if isinstance(model, str):
        yield model
    elif isinstance(model, tuple | list):
        for value in model:
            yield from _key_strings(value, depth + 1)
    elif isinstance(model, dict):
        for value in model.values():
            yield from _key_strings(value, depth + 1)
    elif hasattr(model, "__dataclass_fields__"):
        for name in model.__dataclass_fields__:
            yield from _key_strings(getattr(model, name, None), depth + 1)


def foreign_keys(table: Table, frame: Any) -> list[Problem]:
    """A box of a remote game shows only its own seat's key: no seat of the other box has a key view, a key
    map or a clue entry on this box, and the other box's side (either way round) is in no model of the frame,
    not the shared display's nor an OLED's, until the game is over."""
    if table.chairs is None:
        return []
    out: list[Problem] = []
    others = [s for s in ("A", "B") if s not in table.chairs]
    for seat in others:
        if seat in frame.seat_views:
            out.append(f"seat {seat}'s key view is on the other box's frame")
        if isinstance(frame.oleds.get(seat), m.SeatKeyUi | m.ClueEntryUi | m.SpymasterUi):
            out.append(f"seat {seat}'s OLED on this box draws a key ({type(frame.oleds[seat]).__name__})")
        # in the game, that seat's buttons do nothing on this box: its OLED names none of them (MENU is the box's
        # own; in the menus either seat's buttons work)
        screen = table.screen
        playing = table.app.game.session is not None and (screen.in_game or type(screen).__name__ == "GameOverScreen")
        named = [t for t in _strings(frame.oleds.get(seat)) if playing and SEAT_BUTTON.search(t)]
        if named:
            out.append(f"seat {seat}'s OLED on this box names a button that does nothing here: {named[0]!r}")
    side = table.foreign() if table.foreign is not None else None
    session = table.app.game.session
    if side and not (session is not None and session.over):
        models = (frame.shared, frame.view, *frame.oleds.values(), *frame.seat_views.values())
        if any(side in text or side[::-1] in text for model in models for text in _key_strings(model)):
            out.append("the other box's key side is in this box's frame")
    return out


def _seen_cell(index: int, turned: bool, columns: int = 5, rows: int = 5) -> int:
    """Where ``seat`` sees card ``index`` of the grid, as a position in its own reading order (row by row from
    its top left): the same when it sees the grid upright, the mirror when it sees it turned."""
    return columns * rows - 1 - index if turned else index


def oled_maps(table: Table, frame: Any) -> list[Problem]:
    """A seat's key map on its OLED (the OLED faces its seat) lays out the cards as that seat sees them on the
    shared display from its chair: for every hidden card, the map cell at the place where the seat sees that
    card is lit for an agent or the assassin of its side and dark for a bystander (read from the OLED image,
    as the test of the remote display does); its cursor bracket is where it sees its cursor. The small key of a
    clue entry the same. Checked while the display shows the grid."""
    from device.render import oled as o

    ui = frame.shared
    session = table.app.game.session
    if not isinstance(ui, m.PlayUi) or session is None or not hasattr(session, "seat_view"):
        return []
    out: list[Problem] = []
    for seat in table.seats:
        view, screen = frame.seat_views.get(seat), frame.oleds.get(seat)
        if view is None or not isinstance(screen, m.SeatKeyUi | m.ClueEntryUi) or len(view.key) != 25:
            continue
        full = isinstance(screen, m.SeatKeyUi) or screen.stage == "number"  # the picker's number: the whole map
        if not full and (screen.stage != "word" or not screen.key):
            continue
        own = session.seat_view(seat).key
        cards = session.public_view().cards
        covered = set(getattr(screen, "covered", ()))
        hidden = [i for i, c in enumerate(cards) if not c.agent and not c.assassin and not c.marks and i not in covered]
        turned = table.turned_for(seat, ui)
        image = o.render_oled(view, screen, fast=True)
        wrong = 0
        for i in hidden:
            row, col = divmod(_seen_cell(i, turned), 5)
            if full:
                x, y = o.cell_origin(row * 5 + col, "A")
                x, y = x + o.CELL // 2, y + o.CELL // 2
            else:
                x, y = o.WIDTH - 5 * o.MINI_PITCH + 1 + col * o.MINI_PITCH + 1, row * o.MINI_PITCH + 1
            wrong += int(bool(image.getpixel((x, y))) != (own[i] in "GX"))
        if wrong:
            kind = "key map" if full else "small key of its clue entry"
            out.append(f"seat {seat}'s {kind} is not laid out as it sees the table ({wrong} of {len(hidden)} "
                       f"hidden cards elsewhere; display turned {table.app.outputs.shared_rotation})")
        mine = next((c.card for c in ui.cursors if c.seat == seat), None)
        if isinstance(screen, m.SeatKeyUi) and screen.cursor is not None and mine is not None:
            row, col = divmod(_seen_cell(mine, turned), 5)
            x, y = o.cell_origin(row * 5 + col, "A")
            if not image.getpixel((x - 2, y - 2)):
                out.append(f"seat {seat}'s OLED cursor is not where it sees its cursor on the display (card {mine})")
    return out


# -- what each seat reads ------------------------------------------------------------------------------------

def one_sided(table: Table, ui: Any) -> Callable[[str], bool]:
    """Texts the app prints for one seat only on purpose (the harness does not ask for their twin)."""
    solo = type(table.screen).__module__.endswith(".solo")  # Solo's own pages: only seat A plays
    # the world map is one picture: its city names follow it (the city panel and the buttons line are twice)
    cities = {c.name for c in ui.cities} if isinstance(ui, m.MapUi) else set()
    return lambda text: solo or text in cities


def upright(ui: Any, texts: Iterable[Any], marks: Iterable[Any], exempt: Callable[[str], bool],
            readers: dict[str, bool] | None = None) -> list[Problem]:
    """In "table" orientation, every text and every card picture printed for A has a turned twin for B (and the
    other way round); in "upright" orientation (one way for everyone at the box) every text is upright for each
    seat that reads it from its chair: ``readers`` says, for each, whether it sees the picture turned (a text
    printed turned reads upright only for a seat that sees the picture turned); without ``readers``, nothing
    may be turned."""
    orientation = getattr(ui, "orientation", "table")
    shown = [t for t in texts if t.text.strip() and t.visible[2] > 0 and t.visible[3] > 0]
    out: list[Problem] = []
    if orientation == "upright":
        for seat, turned in (readers or {"A": False}).items():
            wrong = [t.text for t in shown if t.turned != turned]
            if wrong:
                out.append(f"{type(ui).__name__}: upside down for seat {seat} from its chair: {wrong[:3]!r}")
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


def map_legend(ui: Any, texts: Iterable[Any]) -> list[Problem]:
    """The mission map keeps the legend of its three markers for each seat, at every size."""
    if not isinstance(ui, m.MapUi):
        return []
    words = [ui.labels.get(st, st) for st in ("ticked", "playable", "locked")]
    drawn = Counter(t.text for t in texts)
    want = 2 if ui.orientation == "table" else 1
    return [f"the map's legend lacks {w!r}" for w in words if drawn[w] < want]


def typography(language: str, texts: list[str]) -> list[Problem]:
    """French sets a space before ":" (" : "); no other language of the box does."""
    if language == "fr":
        return []
    return [f"a French ' :' in {language}: {t!r}" for t in sorted(set(texts)) if " :" in t]


#: A message key printed as it is ("menu.remote"): the translator had no message for it.
MESSAGE_KEY = re.compile(r"^[a-z][a-z_]*(\.[a-z_]+)+$")


def untranslated(texts: list[str]) -> list[Problem]:
    """No text on the display is a message key the catalogs lack."""
    return [f"a message key on the display, not its message: {t!r}" for t in sorted(set(texts))
            if MESSAGE_KEY.match(t.strip())]


def picker_glyphs(ui: Any, texts: Iterable[Any]) -> list[Problem]:
    """The hot-seat letter strip on the display: its action symbols ("✓" give, "⊔" space) are as tall as its
    letters (at least 70 % of a capital's ink beside the highlighted letter; a symbol's growth stops at its
    cell's width)."""
    if not isinstance(getattr(ui, "entry", None), m.ClueEntryUi) or ui.entry.stage != "word":
        return []
    shown = [t for t in texts if t.ink]
    capitals = sorted(t.ink[3] for t in shown if len(t.text) == 1 and t.text.isupper())
    if not capitals:
        return []
    usual = capitals[len(capitals) // 2]  # a letter beside the highlighted one
    return [f"the picker's {t.text!r} is {t.ink[3]} px tall, its letters {usual} px"
            for t in shown if t.text in ("✓", "⊔") and t.ink[3] < 0.7 * usual]


#: The smallest mark that may carry meaning (a tried card's): about 4 mm on the official 7" screen at 800x480.
MIN_MARK_PX = 19
#: WCAG's AAA contrast, asked of both seats' card words.
MIN_CONTRAST = 7.0


def _luminance(rgb: Any) -> Any:
    import numpy as np

    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c[..., 0] * 0.2126 + c[..., 1] * 0.7152 + c[..., 2] * 0.0722


def word_contrast(surface: Any, ink: tuple[int, int, int, int]) -> float:
    """The contrast (WCAG) between a text's darkest and lightest pixels in its ink box: its ink and its ground."""
    x, y, w, h = ink
    pixels = pygame.surfarray.array3d(surface)[x:x + w, y:y + h]
    lum = _luminance(pixels)
    return float((lum.max() + 0.05) / (lum.min() + 0.05))


def legibility(table: Table, ui: Any, view: Any, surface: Any) -> list[Problem]:
    """On a grid: each seat's card words at the same contrast, at least 7:1 (checked on the first drawings of
    each table), and every card a seat touched a bystander on carries a mark of at least MIN_MARK_PX."""
    if not isinstance(ui, m.PlayUi | m.ClassicPlayUi) or view is None:
        return []
    out: list[Problem] = picker_glyphs(ui, surface.texts)
    words = {getattr(c, "word", None) or getattr(c, "content", None) for c in getattr(view, "cards", ())}
    if table.drawn <= 3:
        by_seat: dict[bool, list[float]] = {False: [], True: []}
        for t in surface.texts:
            if t.text in words and t.ink:
                by_seat[t.turned].append(word_contrast(surface, t.ink))
        for turned, values in by_seat.items():
            if values and min(values) < MIN_CONTRAST:
                out.append(f"seat {'B' if turned else 'A'}'s card words at {min(values):.1f}:1 (under 7:1)")
        if by_seat[False] and by_seat[True]:
            a, b = sorted(by_seat[False])[len(by_seat[False]) // 2], sorted(by_seat[True])[len(by_seat[True]) // 2]
            if abs(a - b) > 0.15 * max(a, b):
                out.append(f"card words at {a:.1f}:1 for seat A and {b:.1f}:1 for seat B")
    # (a card found an agent later is covered by its green tile, as the agent card covers the token on a table)
    tried = [c.index for c in getattr(view, "cards", ()) if getattr(c, "marks", ()) and not getattr(c, "agent", False)]
    if tried:
        columns, rows = (getattr(view, "columns", 5), getattr(view, "rows", 5))
        cells = grid_layout(table.size, columns, rows, ui.pictures and ui.orientation == "upright").cells
        big = [pygame.Rect(mk.box) for mk in surface.marks
               if mk.kind in ("tint", "token", "badge") and min(mk.box[2], mk.box[3]) >= MIN_MARK_PX]
        for index in tried:
            if not any(cells[index].colliderect(r) for r in big):
                out.append(f"card {index}: its bystander mark is under {MIN_MARK_PX} px ({ui.orientation})")
    return out


def rect_centre(rect: tuple[int, int, int, int]) -> tuple[float, float]:
    r = pygame.Rect(rect)
    return r.centerx, r.centery
