"""Solo Duet: the human at seat A, the box at seat B (``device/solo.py`` holds what the box may know).

The box thinks inside the loop (no thread): when it is its move, one frame first says "the box thinks…", the
next loop step computes (a clue or a guess takes well under a second; the first move also loads the model, about
1 s). Its guess is then played like a person's: seat B's cursor walks to the card (``MOVE_SECONDS``), the ring and
the card fill during a hold of ``HOLD_SECONDS``, and the touch goes through ``Host.act`` like any other.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from common.jsonvalue import JsonLike, JsonMap, JsonObject
from device import modes, solo
from device.render import models as m
from device.screens import flows
from device.screens.base import Frame, Host, Screen
from device.screens.play import DuetPlayScreen, GameOverScreen, GameOverState, PlayState, _card_at
from device.screens.saved import read_ints, read_map, read_strs, saved_for
from device.screens.setup import OptionsScreen, OptionValue
from device.seams import ClueRefused, Played
from engine.actions import Clue
from engine.board import Board
from engine.seats import Seat
from engine.session import DuetSession
from engine.views import PublicView
from hardware.base import InputEvent

if TYPE_CHECKING:  # the partner needs numpy (the ai extra): imported when the box first moves (``_box``)
    from partner import Partner

log = logging.getLogger("duetbox.solo")

#: seat B's cursor walks to its card in this time, then holds OK on it (HOLD_SECONDS, like a person)
MOVE_SECONDS = 1.0
#: after any move, the box waits this long before its next one (the ring's flash and the card are seen)
PAUSE_SECONDS = 1.2
#: the box's clue stays in the banner this long
CLUE_BANNER_SECONDS = 6.0
#: "what I meant" pages: about this many characters make one row on the shared display, this many rows a page
ROW_CHARS = 58
PAGE_ROWS = 6


@dataclasses.dataclass
class SoloContext:
    """What the solo screens share for one game: the box (loaded on its first move) and its explanations."""

    game_id: int | None
    box: solo.BoxSeat | None = None
    meant: dict[int, list[int]] = dataclasses.field(default_factory=dict)  # clue index → cards meant
    earlier: list[str] = dataclasses.field(default_factory=list)  # explanations saved before a restart
    failed: str | None = None

    def lines(self, view: PublicView) -> list[str]:
        now = self.box.explain(view, self.meant) if self.box is not None else []
        return list(self.earlier) + now


def context(host: Host, meant: Mapping[int, Sequence[int]] | None = None, lines: Sequence[str] = ()) -> SoloContext:
    """The open game's context, kept on the host across its screens; made for a new (or resumed) game with what
    a saved screen state had: the cards meant by each of the box's clues, the explanations already given."""
    ctx = host.game.keep.get("solo_context")
    if not isinstance(ctx, SoloContext) or ctx.game_id != host.game.id:
        ctx = SoloContext(host.game.id)
        ctx.meant = {k: list(v) for k, v in (meant or {}).items()}
        ctx.earlier = list(lines)
        host.game.keep["solo_context"] = ctx
    return ctx


def _read_meant(value: JsonLike) -> dict[int, tuple[int, ...]]:
    """The saved ``meant`` (clue index, written as a text → the cards meant); a malformed entry is dropped."""
    return {int(k): read_ints(v) for k, v in read_map(value).items() if k.isdigit() and isinstance(v, (list, tuple))}


@dataclasses.dataclass(frozen=True)
class SoloPlayState:
    """What the solo play screen saves: the Duet play screen's state, plus what the box meant with each of its
    clues and the explanations given so far (``"meant"``, ``"lines"``)."""

    play: PlayState = PlayState()
    meant: Mapping[int, tuple[int, ...]] = dataclasses.field(default_factory=dict)
    lines: tuple[str, ...] = ()

    def to_dict(self) -> JsonObject:
        return {**self.play.to_dict(), "meant": {str(k): list(v) for k, v in self.meant.items()},
                "lines": list(self.lines)}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> SoloPlayState:
        saved = saved_for(data, PlayState.name)
        return cls(PlayState.from_dict(data), _read_meant(saved.get("meant")), read_strs(saved.get("lines")))


@dataclasses.dataclass(frozen=True)
class SoloOverState:
    """What the solo game-over screen saves: the Duet game-over state, plus the explanations (``"lines"``)."""

    over: GameOverState = GameOverState()
    lines: tuple[str, ...] = ()

    def to_dict(self) -> JsonObject:
        return {**self.over.to_dict(), "lines": list(self.lines)}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> SoloOverState:
        return cls(GameOverState.from_dict(data), read_strs(saved_for(data, GameOverState.name).get("lines")))


@dataclasses.dataclass(frozen=True)
class BoxPlan:
    """The move the box is making: a stop, or a guess of ``card`` (its cursor walks ``path`` from ``start``
    from time ``t0``, then it holds OK: ``held``), against state ``version``."""

    kind: Literal["stop", "guess"]
    version: int
    card: int = 0
    t0: float = 0.0
    start: int = 0
    path: tuple[int, ...] = ()
    held: bool = False


# -- set-up --------------------------------------------------------------------------------------------------

class SoloSetupScreen(OptionsScreen):
    """Difficulty (normal: 11 tokens; hard: the rulebook's 9; easy: 11 and cautious clues) and clue strictness;
    OK plays."""

    name = "solo_setup"

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
        self.back = back
        self.values = {"difficulty": "normal", "clues": host.settings.get("clues", "strict")}
        self.rows = ["difficulty", "clues", "start"]
        self.selected = len(self.rows) - 1

    def _options(self, row: str) -> tuple[OptionValue, ...]:
        return tuple(solo.DIFFICULTIES) if row == "difficulty" else ("strict", "flexible")

    def begin(self) -> None:
        start_solo(self.host, self.text("difficulty"), self.text("clues"))

    def _value(self, row: str) -> str | None:
        if row == "difficulty":
            return self.tr(f"solo.difficulty_{self.values[row]}")
        if row == "clues":
            return self.tr(f"setup.clues_{self.values[row]}")
        return None

    def frame(self) -> Frame:
        labels = {"difficulty": self.tr("solo.difficulty"), "clues": self.tr("setup.clues"),
                  "start": self.tr("setup.start")}
        rows = tuple(m.MenuItem(labels[r], True, self._value(r)) for r in self.rows)
        title = self.tr("solo.title", language=self.tr(f"lang.{self.host.settings.get('language', 'fr')}"))
        ui = m.SetupUi(title, rows, self.selected, self.rows[self.selected] != "start", self.tr("hint.setup"),
                       orientation="upright")  # only seat A plays: its page gets the whole screen
        oled = m.MenuUi(title, rows, self.selected, self.tr("hint.setup"))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


def start_solo(host: Host, difficulty: str, clues: str = "strict") -> None:
    """A new solo game in the box's language (its word pack)."""
    language = str(host.settings.get("language", "fr"))
    words, language = flows.deal_words(host, language)
    session = DuetSession.create(words, host.rng, tokens=solo.TOKENS[difficulty], clues=clues,
                                 language=language)
    options = modes.solo_options(host.settings.get("orientation", "table"), solo.BOX, difficulty)
    host.game.begin(session, kind=modes.SOLO.kind, options=options)


# -- play ----------------------------------------------------------------------------------------------------

class SoloPlayScreen(DuetPlayScreen):
    """Duet play with seat B played by the box; seat B's buttons are not used."""

    name = "play"

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host, ui)
        saved = SoloPlayState.from_dict(ui)
        self.ctx = context(host, saved.meant, saved.lines)
        self.thinking: float | None = None
        self.plan: BoxPlan | None = None
        self.ask_box = False
        self.ready_at = 0.0
        self.seen_version = self.session.version

    @property
    def difficulty(self) -> str:
        return self.host.game.opts.difficulty or "normal"

    def ui_state(self) -> JsonObject | None:
        meant = {k: tuple(v) for k, v in self.ctx.meant.items()}
        lines = tuple(self.ctx.lines(self.session.public_view()))
        return SoloPlayState(self.state(), meant, lines).to_dict()

    # -- the box's moves -------------------------------------------------------------------------------------
    def box_todo(self, view: PublicView) -> str | None:
        """"clue" or "guess" when the box must move now, else None."""
        box = solo.BOX
        if view.phase == "clue" and self.entry is None:
            if view.clue_givers == (box,) or (box in view.clue_givers and self.ask_box):
                return "clue"
        elif view.phase == "guess" and view.guessers == (box,):
            return "guess"
        elif view.phase == "sudden_death" and box in view.guessers:
            if view.guessers == (box,) or self.ask_box:
                return "guess"
        return None

    def _box(self) -> solo.BoxSeat | None:
        ctx = self.ctx
        if ctx.box is None and ctx.failed is None:
            from partner import PartnerUnavailable  # lazy: optional, the partner needs numpy (the ai extra)

            language = self.session.language
            found = solo.availability(language, self.host.storage.directory)
            try:
                if not found.ok or found.directory is None:
                    raise PartnerUnavailable(self.tr(found.reason or "solo.not_built", language=language))
                ctx.box = solo.BoxSeat(_partner(self.host, language, found.directory, self.difficulty))
            except (PartnerUnavailable, ImportError, OSError) as exc:
                log.error("the solo partner cannot play: %s", exc)
                ctx.failed = str(exc)
        return ctx.box

    def exit(self) -> None:
        super().exit()
        self.plan, self.thinking = None, None  # its hold was cancelled: the box plans its move again on return

    def tick(self, now: float) -> None:
        super().tick(now)
        if self.host.screen is self:
            self._box_tick(now)

    def _box_tick(self, now: float) -> None:
        view = self.session.public_view()
        if view.version != self.seen_version:  # something was played: let it be seen before the next move
            self.seen_version = view.version
            self.ready_at = now + PAUSE_SECONDS
            self.plan, self.thinking, self.ask_box = None, None, False
        todo = self.box_todo(view)
        if todo is None or self.ctx.failed is not None:
            self.plan, self.thinking = None, None
            return
        if self.plan is not None:
            self._animate(now)
            return
        if now < self.ready_at:
            return
        if self.thinking is None:
            self.thinking = now  # this step's frame says so; the next step thinks
            return
        box = self._box()
        self.thinking = None
        if box is None:
            return
        mine = self.session.seat_view(solo.BOX)  # seat B's own side only
        if todo == "clue":
            self._give_box_clue(box.clue(view, mine, self.ctx.meant), view)
            return
        move = box.guess(view, mine, self.ctx.meant)
        if move.kind == "stop":
            self.plan = BoxPlan("stop", view.version)
            self.holds.start(solo.BOX, "stop", now, view.version)
            self.notices.show(None, self.tr("solo.box_stops"), now + PAUSE_SECONDS + 1.0)
            self.host.audio.announce(self.tr("solo.box_stops"), solo.HUMAN)
            return
        assert move.card is not None
        self.plan = BoxPlan("guess", view.version, move.card, now, self.cursors[solo.BOX],
                            tuple(_path(self.cursors[solo.BOX], move.card, self.board)))
        self._animate(now)

    def _animate(self, now: float) -> None:
        plan = self.plan
        assert plan is not None
        if plan.kind != "guess" or plan.held:
            return
        elapsed = now - plan.t0
        path = plan.path
        if elapsed < MOVE_SECONDS:
            steps = int(elapsed / MOVE_SECONDS * len(path))  # one card at a time, the last one at MOVE_SECONDS
            self.cursors[solo.BOX] = path[steps - 1] if steps > 0 else plan.start
            return
        self.cursors[solo.BOX] = plan.card
        self.plan = dataclasses.replace(plan, held=True)
        self.holds.start(solo.BOX, "guess", plan.t0 + MOVE_SECONDS, plan.version, plan.card)

    def _give_box_clue(self, move: solo.BoxMove, view: PublicView) -> None:
        box = solo.BOX
        index = len(view.clues)
        outcome = self.moves.play(box, Clue(box, move.word, move.number), view.version)
        if isinstance(outcome, ClueRefused):  # the partner runs the same checker; this should not happen
            log.warning("the engine refused the box's clue %s %s (%s): given as accepted", move.word,
                        move.number, outcome.problems)
            outcome = self.moves.play(box, Clue(box, move.word, move.number, True), view.version)
        if not isinstance(outcome, Played):
            return
        self.ctx.meant[index] = list(move.targets)
        word = (move.word or self.tr("label.no_word")).upper()
        self.notices.show(None, self.tr("solo.box_clue", word=word, number=move.number),
                          self.host.clock.now() + CLUE_BANNER_SECONDS)
        self._speak(solo.HUMAN)  # through seat A's speech setting (nothing when it is off)

    def deadline(self) -> float | None:
        times = [t for t in (super().deadline(),) if t is not None]
        view = self.session.public_view()
        if self.ctx.failed is None and self.box_todo(view) is not None:
            now = self.host.clock.now()
            if self.plan is not None and self.plan.kind == "guess" and not self.plan.held:
                times.append(now + 1 / 30)
            elif self.plan is None:
                times.append(max(now, self.ready_at))
        return min(times) if times else None

    # -- the human's input -----------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        if event.seat == solo.BOX:
            return  # nobody sits at seat B
        view = self.session.public_view()
        if event.kind == "press" and event.button == "stop" and event.seat == solo.HUMAN and self.entry is None:
            # only where the human chooses (either seat may move); otherwise a long STOP keeps its usual meaning
            both = (solo.HUMAN, solo.BOX)
            if (view.phase == "clue" and view.clue_givers == both) or (
                    view.phase == "sudden_death" and view.guessers == both):
                self.ask_box = True  # "your move, box"
                return
        super().handle(event)

    def _touch(self, event: InputEvent, view: PublicView) -> None:
        if view.guessers and solo.HUMAN not in view.guessers:
            return  # the box is guessing: a touch must not move its cursor
        card = event.card
        if card is None and event.pos is not None:
            card = _card_at(event.pos, self.host.display_size, self.pictures, self.board)
        if card is not None and self.board.has(card):
            self.cursors[solo.HUMAN] = card

    def _give(self, word: str | None, *, override: bool = False) -> None:
        if not word or not word.strip():
            self.notice(solo.HUMAN, "solo.word_required")  # the box reads the clue: a word is needed
            return
        super()._give(word, override=override)

    def enforce(self) -> None:
        view = self.session.public_view()
        if self.box_todo(view) is None and not (view.phase == "clue" and view.clue_givers == (solo.BOX,)):
            super().enforce()

    # -- drawing ---------------------------------------------------------------------------------------------
    def _message(self, view: PublicView) -> str:
        tr = self.tr
        if self.ctx.failed is not None:
            return tr("solo.failed", reason=self.ctx.failed)
        todo = self.box_todo(view)
        if todo is not None and self.ctx.box is None:
            return tr("solo.msg_loading")
        if todo == "guess" and view.phase == "guess" and view.current_clue is not None:
            clue = view.current_clue
            return tr("solo.msg_box_guess", word=(clue.word or tr("label.no_word")).upper(), number=clue.number)
        if todo is not None and self.plan is None:
            return tr("solo.msg_thinking")
        if self.entry is None and view.phase == "clue" and solo.BOX in view.clue_givers and len(
                view.clue_givers) > 1:
            return tr("solo.msg_either_clue")
        if view.phase == "sudden_death" and view.guessers == (solo.HUMAN, solo.BOX):
            return tr("solo.msg_sudden")
        return super()._message(view)

    def _oled(self, seat: Seat, view: PublicView) -> m.OledUi:
        if seat == solo.BOX:
            return m.OledTextUi(self.tr("solo.oled_title"), (self.tr("solo.oled_box"),))
        ui = super()._oled(seat, view)
        notice = self.notices.text(seat)
        if isinstance(ui, m.ClueEntryUi) and ui.stage == "word":  # the box reads the word: it is needed
            ui = dataclasses.replace(ui, title=self.tr("solo.word_title"), hint=notice or ui.hint)
        return ui

    def frame(self) -> Frame:
        frame = super().frame()
        frame.seat_views.pop(solo.BOX, None)  # the box's OLED shows no key (a person could walk round)
        return frame


@dataclasses.dataclass(frozen=True)
class _LoadedPartner:
    """The partner kept on the host (``keep["solo_partner"]``) and what it was loaded for."""

    key: tuple[str, str, str]  # language, the directory of its spaces, difficulty
    partner: Partner


def _partner(host: Host, language: str, directory: Path, difficulty: str) -> Partner:
    """The loaded partner, kept on the host for the next game of the same language and difficulty (loading takes
    about a second); only the last one is kept. Its memory of the previous game is cleared."""
    key = (language, str(directory), difficulty)
    cached = host.game.keep.get("solo_partner")
    if isinstance(cached, _LoadedPartner) and cached.key == key:
        cached.partner.new_game()
        return cached.partner
    partner: Partner = solo.load_partner(language, directory, difficulty)
    host.game.keep["solo_partner"] = _LoadedPartner(key, partner)
    return partner


def _path(start: int, end: int, board: Board = modes.SOLO.board) -> list[int]:
    """The cards a cursor passes from ``start`` to ``end`` (rows first, then columns), ``end`` included."""
    r, c = board.place(start)
    r1, c1 = board.place(end)
    out = []
    while r != r1:
        r += 1 if r1 > r else -1
        out.append(board.card(r, c))
    while c != c1:
        c += 1 if c1 > c else -1
        out.append(board.card(r, c))
    return out


# -- game over and "what I meant" ----------------------------------------------------------------------------

class SoloOverScreen(GameOverScreen):
    """Game over: the human presses OK for the keys (the box has already "confirmed"), OK again for what the box
    meant."""

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host, ui)
        if solo.BOX not in self.confirmed:
            self.confirmed.append(solo.BOX)
        self.ctx = context(host, lines=SoloOverState.from_dict(ui).lines)

    def _lines(self) -> list[str]:
        session = self.host.game.session
        return self.ctx.lines(session.public_view()) if isinstance(session, DuetSession) else []

    def ui_state(self) -> JsonObject | None:
        return SoloOverState(self.state(), tuple(self._lines())).to_dict()

    def handle(self, event: InputEvent) -> None:
        if event.seat == solo.BOX:
            return
        if self.revealed and (event.kind == "touch" or (event.kind == "press" and event.button == "ok")):
            self.host.switch(MeantScreen(self.host, self._lines(), self))
            return
        super().handle(event)

    def leave(self) -> None:
        self._leave()

    def frame(self) -> Frame:
        frame = super().frame()
        frame.oleds[solo.BOX] = m.OledTextUi(self.tr("solo.oled_title"), (self.tr("solo.oled_box"),))
        frame.seat_views.pop(solo.BOX, None)
        return frame


class MeantScreen(Screen):
    """"What I meant": for every clue the box gave, the cards it meant; for every clue it received, the cards it
    weighed and why it stopped. As many lines a page as fit (PAGE_ROWS); the joystick turns the pages, OK on the
    last one leaves."""

    name = "solo_meant"
    attract = False

    def __init__(self, host: Host, lines: list[str], over: SoloOverScreen) -> None:
        super().__init__(host)
        self.lines = lines or [self.tr("solo.meant_none")]
        self.over = over
        self.page = 0
        self.paged = paginate(self.lines)

    @property
    def pages(self) -> int:
        return len(self.paged)

    def handle(self, event: InputEvent) -> None:
        if event.kind == "touch" or (event.kind == "press" and event.button == "ok"):
            if self.page + 1 < self.pages:
                self.page += 1
            else:
                self.over.leave()
        elif event.kind == "press" and event.button in ("right", "down"):
            self.page = min(self.pages - 1, self.page + 1)
        elif event.kind == "press" and event.button in ("left", "up"):
            self.page = max(0, self.page - 1)
        elif event.kind == "press" and event.button in ("stop", "menu"):
            self.over.leave()

    def frame(self) -> Frame:
        title = self.tr("solo.meant_title")
        last = "solo.meant_hint_last" if self.page + 1 == self.pages else "solo.meant_hint"  # OK leaves on the last
        hint = self.tr(last, page=self.page + 1, pages=self.pages)
        shared = m.MessageUi(title, tuple(self.paged[self.page]) + (hint,), orientation="upright")  # seat A's
        oled = m.OledTextUi(self.tr("solo.meant_oled_title"), (self.tr("solo.meant_oled"), hint))
        return Frame(shared=shared, oleds={"A": oled, "B": oled})


__all__ = ["MeantScreen", "SoloContext", "SoloOverScreen", "SoloPlayScreen", "SoloSetupScreen", "start_solo"]


def paginate(lines: list[str]) -> list[list[str]]:
    """Lines in pages of at most PAGE_ROWS rows (one row of ROW_CHARS characters for the hint); a line longer
    than a page gets a page of its own."""
    pages: list[list[str]] = [[]]
    used = 1
    for line in lines:
        rows = max(1, -(-len(line) // ROW_CHARS))
        if pages[-1] and used + rows > PAGE_ROWS:
            pages.append([])
            used = 1
        pages[-1].append(line)
        used += rows
    return pages
