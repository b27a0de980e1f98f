"""Playing Duet on the box: clue entry on the giver's OLED, hold-to-confirm guesses, STOP, sudden death, game
over with both keys, and the hot-seat kiosk (privacy screen, key on the display while OK is held)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from common.jsonvalue import JsonMap, JsonObject
from device.i18n import Translator
from device.render import models as m
from device.render.shared import grid_layout, square_cells
from device.screens.base import HOLD_SECONDS, Frame, Host, Screen, move_card
from device.screens.parts import (
    DELETE,
    DONE,
    SKIP,
    SPACE,
    ClueEntry,
    Cursors,
    EntryOutcome,
    Give,
    HoldKind,
    Holds,
    Notices,
)
from device.screens.parts import picked as picked  # re-exported: the missions screen picks team names alike
from device.screens.saved import read_int, read_list, read_map, read_seat, saved_for
from device.seams import ClueRefused, Move, MoveOutcome, Played, Refused
from device.services.hourglass import enforced_action
from device.services.speech import clue_announcement, key_announcement, key_summary
from engine.actions import MAX_CLUE_NUMBER, Clue, Guess, Stop
from engine.board import DUET as DUET_BOARD
from engine.board import Board
from engine.keyboard import picker_letters
from engine.seats import SEATS, Seat, other
from engine.session import DuetSession
from engine.views import PublicView
from hardware.base import DIRECTIONS, TOUCH_KINDS, InputEvent

ALPHABET = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
NOTICE_SECONDS = 2.0
#: Hot-seat: the longest a held OK (or finger) keeps the key on the display; then it is hidden and the clue entry
#: opens, so a key is never left up by a forgotten finger or a stuck button.
KEY_SECONDS = 20.0
#: Where the cursors start: each seat's near corner on its left hand (seat A sits at the bottom edge, seat B at
#: the top, turned half a turn), not the centre card, where the two frames would stack on the first card both
#: seats look at.
def start_cursors(board: Board) -> dict[Seat, int]:
    """Where each seat's cursor starts: the corner nearest its left hand (seat B sits across the table)."""
    return {"A": board.corner(bottom=True, right=False), "B": board.corner(bottom=False, right=True)}


START_CURSORS: dict[Seat, int] = start_cursors(DUET_BOARD)
LABELS = ("clues", "bank", "taken", "agents", "mistakes", "mission", "stop", "seat_A", "seat_B", "no_word")


def short_press_hint(what: str) -> str:
    """The hint after a hold let go too soon: it names the button that was held (OK to guess, STOP to stop)."""
    return "play.hold_stop_longer" if what == "stop" else "play.hold_longer"


def letters_for(language: str) -> tuple[str, ...]:
    """A-Z, the language's letters (Œ in French), an apostrophe and a space (engine.keyboard), then the actions."""
    letters = tuple(SPACE if ch == " " else ch for ch in picker_letters(language))
    return letters + (DELETE, DONE, SKIP)


#: What a presentation makes of a Duet frame: the shared display's model, each OLED's, each seat's view.
PresentedFrame = tuple[m.SharedUi, dict[Seat, m.OledUi | None], dict[Seat, m.OledView]]


class Moves:
    """What every play screen does with a move: play it through the host (a stale double press is dropped, an
    illegal one becomes a notice on the seat's OLED), give a clue from a clue entry (a refusal turns the entry to
    accept-or-change), and leave for game over when the move ends the game."""

    def __init__(self, host: Host, notices: Notices) -> None:
        self.host = host
        self.notices = notices

    def notice(self, to: Seat | None, key: str, **fields: object) -> None:
        """A short message on seat ``to``'s OLED (None: the banner of the shared display)."""
        self.notices.show(to, self.host.tr(key, **fields), self.host.clock.now() + NOTICE_SECONDS)

    def play(self, seat: Seat | None, action: Move, version: int) -> MoveOutcome:
        """Play a move through the host; an illegal one becomes a notice on ``seat``'s OLED, a stale one (a
        double press: the first one already counted) is dropped, a game that ends shows its game over."""
        outcome = self.host.game.play(action, version)
        if isinstance(outcome, Refused):
            self.notice(seat, f"error.{outcome.name}")
        elif isinstance(outcome, Played):
            session = self.host.game.session
            if session is not None and session.over:
                self.host.nav.game(None)
        return outcome

    def act(self, seat: Seat | None, action: Move, version: int) -> bool:
        """``play``; True when the move was played."""
        return isinstance(self.play(seat, action, version), Played)

    def give(self, entry: ClueEntry, action: Move) -> bool:
        """Give the clue ``entry`` built (``action``); True when it was played. A refused clue turns the entry
        to accept-or-change, with the checker's reasons."""
        session = self.host.game.session
        assert session is not None
        outcome = self.play(entry.seat, action, session.version)
        if isinstance(outcome, ClueRefused):
            entry.refuse(self.reasons(outcome))
            self.host.audio.play_cue("clue_refused")
        return isinstance(outcome, Played)

    def reasons(self, refused: ClueRefused) -> str:
        parts = []
        for problem in refused.problems:
            code = getattr(problem, "code", "")
            word = getattr(problem, "word", "")
            parts.append(self.host.tr(f"clue.problem.{code}", word=word))
        return "; ".join(parts) or refused.message


def clue_word(word: str | None) -> str | None:
    """The word a clue entry gives, as the engine takes it (lower case, typed spaces kept single)."""
    return " ".join(word.split()).lower() if word and word.strip() else None


def entry_ui(tr: Translator, entry: ClueEntry, language: str, number_title: str, notice: str | None,
             key: m.ClueEntryUi | None = None) -> m.ClueEntryUi:
    """The clue entry as the picker shows it (the giver's OLED, or the shared display in hot-seat). ``key``: a
    model whose key fields (the giver's own key side, its covered cards) the giver's OLED keeps in sight while
    the clue is spelt; never given for the shared display."""
    if entry.step == "refusal":
        return m.ClueEntryUi("refusal", number=entry.number, word=entry.word, refusal=entry.refusal,
                             choices=(tr("clue.accept"), tr("clue.change")), choice=entry.choice,
                             title=tr("clue.refused_title"))
    if entry.step == "number":
        ui = m.ClueEntryUi("number", number=entry.number, title=tr(number_title),
                           hint=notice or tr("clue.number_hint"))
    else:
        ui = m.ClueEntryUi("word", number=entry.number, word=entry.word, letters=letters_for(language),
                           letter=entry.letter, title=tr("clue.word_title"), hint=tr("clue.word_hint"))
    return ui if key is None else replace(ui, key=key.key, covered=key.covered, columns=key.columns,
                                          rows=key.rows, key_seat=key.key_seat)


@dataclass(frozen=True)
class PlayState:
    """What a Duet play screen saves (``{"screen": "play", ...}``) to come back after a power cut: each seat's
    cursor, the clue entry that was open, the hot-seat giver who opened it."""

    name = "play"  # the screen it is saved by (its ``"screen"`` field)

    cursors: Mapping[Seat, int] = field(default_factory=dict)
    entry: ClueEntry | None = None
    hs_seat: Seat | None = None

    def to_dict(self) -> JsonObject:
        return {"screen": self.name, "cursors": {str(seat): card for seat, card in self.cursors.items()},
                "entry": self.entry.to_dict() if self.entry else None, "hs_seat": self.hs_seat}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> PlayState:
        """The saved state (a fresh one for another screen's; a malformed field gives its fresh value)."""
        saved = saved_for(data, cls.name)
        cursors: dict[Seat, int] = {}
        for key, card in read_map(saved.get("cursors")).items():
            seat, at = read_seat(key), read_int(card, -1)
            if seat is not None and at >= 0:
                cursors[seat] = at
        return cls(cursors, ClueEntry.from_dict(read_map(saved.get("entry"))), read_seat(saved.get("hs_seat")))


class DuetPlayScreen(Screen):
    name = "play"
    in_game = True
    enforces = True
    #: the clue numbers the picker offers (0..max)
    max_number = MAX_CLUE_NUMBER
    #: the number picker's title (classic: 10 stands for "unlimited")
    number_title = "clue.number_title"

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host)
        state = PlayState.from_dict(ui)
        self.holds = Holds()
        self.board = host.game.mode.board
        self.cursors = Cursors(self.holds, start_cursors(self.board))
        self.cursors.update({seat: card for seat, card in state.cursors.items() if self.board.has(card)})
        self.entry = state.entry
        if self.entry is not None:  # a saved letter beyond this language's picker starts at its last one
            self.entry.letter = min(self.entry.letter, len(letters_for(self.session.language)) - 1)
        self.notices = Notices()
        self.moves = Moves(host, self.notices)
        #: how the game is shown: the seats' OLEDs (the usual box) or the shared display alone (hot-seat)
        self.present: TablePresentation = (
            HotSeatPresentation(self, state.hs_seat) if host.game.opts.hotseat
            else TablePresentation(self))

    # -- helpers ---------------------------------------------------------------------------------------------
    @property
    def session(self) -> DuetSession:
        session = self.host.game.session
        assert isinstance(session, DuetSession)
        return session

    @property
    def hotseat(self) -> bool:
        return self.present.hotseat

    @property
    def pictures(self) -> bool:
        return self.host.game.opts.pictures

    def state(self) -> PlayState:
        """What this screen saves (``ui_state``)."""
        return PlayState(dict(self.cursors), self.entry, self.present.hs_seat)

    def ui_state(self) -> JsonObject | None:
        return self.state().to_dict()

    def exit(self) -> None:
        """Leaving the game screen (pause menu, attract, game over): every pending hold is cancelled, so a tap
        never fires on return, and a hot-seat key shown on the display is hidden."""
        self.holds.cancel_all()
        self.present.exit()

    def notice(self, to: Seat | None, key: str, **fields: object) -> None:
        """A short message on seat ``to``'s OLED (None: the banner of the shared display)."""
        self.moves.notice(to, key, **fields)

    def _act(self, seat: Seat | None, action: Move, version: int) -> bool:
        return self.moves.act(seat, action, version)

    # -- input -----------------------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        view = self.session.public_view()
        seat = event.seat
        if event.kind in TOUCH_KINDS:
            self._touch(event, view)
            return
        if event.kind == "text":
            self._text(event, view)
            return
        if seat is None:
            return
        if self.entry is not None and self.entry.seat == seat:
            self._entry_input(event, view)
            return
        if event.kind == "release":
            self._release(seat, event.button, event.time)
            return
        if event.kind == "press":
            self._press(seat, event, view)

    def _press(self, seat: Seat, event: InputEvent, view: PublicView) -> None:
        button = event.button
        if button in DIRECTIONS:
            orientation = self.host.game.options.orientation or "table"
            self.cursors[seat] = move_card(self.cursors[seat], button, seat, self.board.columns, self.board.rows,
                                           orientation)
        elif button == "ok":
            self._ok(seat, view, event.time)
        elif button == "stop":
            if seat in view.guessers and view.can_stop:
                self.holds.start(seat, "stop", event.time, view.version)
            elif seat in view.guessers:
                self.notice(seat, "play.cannot_stop")
            elif self.host.audio.speech_for(seat) is not None and seat not in self.holds:
                # a long press asks the box to say the clue and the bank; in hot-seat the clue giver hears
                # their key instead (through headphones only, see _speak_key)
                self.holds.start(seat, self.present.speech(view, seat), event.time, view.version)

    def _ok(self, seat: Seat, view: PublicView, now: float) -> None:
        if view.phase == "clue":
            if self.present.clue_ok(seat, view, now):
                return
            if self.entry is not None:
                self.notice(seat, "play.other_entering", seat=self.entry.seat)
            elif seat in view.clue_givers:
                self.entry = ClueEntry(seat)
            else:
                self.notice(seat, "play.not_your_clue")
        elif seat in view.guessers:
            held = self.holds.get(seat)
            if held is None or held.by != "touch":  # a finger already holding the card keeps its hold
                self.holds.start(seat, "guess", now, view.version, self.cursors[seat])
        else:
            self.notice(seat, "play.not_guessing")

    def _release(self, seat: Seat, button: str, now: float) -> None:
        hold = self.holds.release(seat, button)
        if hold is None:
            return
        if hold.what == "key":
            if hold.shown:  # the key was seen: clue entry opens on the display
                self.present.open_entry(seat)
        elif not hold.due(now) and hold.what not in ("speak", "speak_key"):
            self.notice(seat, short_press_hint(hold.what))

    def _touched_card(self, event: InputEvent) -> int | None:
        card = event.card
        if card is None and event.pos is not None:
            orientation = self.host.game.options.orientation or "table"
            card = _card_at(event.pos, self.host.display_size, square_cells(self.pictures, orientation), self.board)
        return card if self.board.has(card) else None

    def _touch(self, event: InputEvent, view: PublicView) -> None:
        if event.kind == "untouch":
            for seat, hold in self.holds.lifted():
                if hold.what == "key":
                    if hold.shown:  # the finger that showed the key lifted: hidden, the clue entry opens
                        self.present.open_entry(seat)
                elif not hold.due(event.time):
                    self.notice(None, "guide.hold_touch")
            return
        card = self._touched_card(event)
        if event.kind == "drag":
            self.holds.dragged(card)  # a finger sliding off the held card cancels the guess
            return
        if view.phase == "clue" and self.entry is None and self.present.clue_touch(view, event.time):
            return
        if card is None:
            return
        # A touch does not say whose finger it was: it moves every guesser's cursor (both seats' outside a
        # guess), and the seat that then holds OK guesses that card.
        seats = list(view.guessers) or list(SEATS)
        if self.present.touch_guesses and len(seats) == 1 and self.cursors[seats[0]] == card:
            # hot-seat: a finger held on the chosen card guesses it, like OK, after the same hold
            if seats[0] not in self.holds:
                self.holds.start(seats[0], "guess", event.time, view.version, card, by="touch")
            return
        for seat in seats:
            self.cursors[seat] = card

    def enforce(self) -> None:
        """The enforced hourglass ran out (issue 9): the clue must come now, or the guesser's turn ends as a
        stop when it may; a guesser without a correct guess keeps the turn."""
        view = self.session.public_view()
        if view.phase == "clue":
            seat = self.entry.seat if self.entry else (view.clue_givers[0] if len(view.clue_givers) == 1
                                                          else None)
        else:
            seat = view.guessers[0] if len(view.guessers) == 1 else None
        todo = enforced_action(view.phase, seat, bool(view.can_stop))
        if todo.kind == "force_clue" and todo.seat and self.entry is None:
            self.entry = ClueEntry(todo.seat)
        elif todo.kind == "stop" and todo.seat:
            self._act(todo.seat, Stop(todo.seat), view.version)

    def _text(self, event: InputEvent, view: PublicView) -> None:
        if self.entry is not None:
            self._entry_outcome(self.entry.type(event.text or "", letters_for(self.session.language),
                                                self.max_number))

    def _entry_input(self, event: InputEvent, view: PublicView) -> None:
        assert self.entry is not None
        if event.kind == "press":
            self._entry_outcome(self.entry.press(event.button, letters_for(self.session.language),
                                                 self.max_number))

    def _entry_outcome(self, outcome: EntryOutcome) -> None:
        if outcome == "close":
            self.entry = None
        elif isinstance(outcome, Give):
            self._give(outcome.word, override=outcome.override)

    def _give(self, word: str | None, *, override: bool = False) -> None:
        entry = self.entry
        assert entry is not None
        if self.moves.give(entry, self._clue_action(entry.seat, clue_word(word), entry.number, override)):
            self.entry = None
            self.present.hs_seat = None

    def _speak(self, seat: Seat | None = None) -> None:
        speech = self.host.audio.speech_for(seat) if seat is not None else self.host.audio.speech
        view = self.session.public_view()
        last = view.clues[-1] if view.clues else None
        if last is None or speech is None:  # speech may have been switched off meanwhile
            return
        try:
            text = clue_announcement(speech.language, last.word or "", last.number,
                                     view.agents_total - view.agents_found, view.bank)
        except ValueError:
            return
        self.host.audio.announce(text, seat)

    def _speak_key(self, seat: Seat) -> None:
        """Hot-seat: read ``seat``'s key (its agents still to find, the assassins, the bystanders) into its
        headphones. With the output on the speaker the key is never spoken: the public announcement comes
        instead and the banner says why."""
        speech = self.host.audio.speech_for(seat)
        if speech is None:
            return
        if self.host.audio.speech_output(seat) != "headphones" or self.pictures:  # pictures have no words to read
            self.notice(None, "play.key_headphones_only")
            self._speak(seat)
            return
        view = self.session.public_view()
        words = [card.word for card in view.cards]
        covered = [card.agent for card in view.cards]
        try:
            text = key_announcement(speech.language,
                                    key_summary(words, self.session.seat_view(seat).key, covered))
        except ValueError:
            return
        self.host.audio.announce_key(text, seat)

    def _clue_action(self, seat: Seat, word: str | None, number: int, override: bool) -> Move:
        return Clue(seat, word, number, override)

    # -- timers ----------------------------------------------------------------------------------------------
    def deadline(self) -> float | None:
        times = [t for t in (self.holds.deadline(), self.notices.deadline()) if t is not None]
        times += [h.start + HOLD_SECONDS + KEY_SECONDS for _, h in self.holds.items() if h.what == "key"]
        if self.holds:  # the ring and the grid show the hold filling
            times.append(self.host.clock.now() + 1 / 30)
        return min(times) if times else None

    def tick(self, now: float) -> None:
        self.notices.expire(now)
        for seat, hold in self.holds.items():
            if hold.what == "key" and hold.shown and now >= hold.start + HOLD_SECONDS + KEY_SECONDS - 1e-6:
                self.holds.pop(seat)  # held too long: the key is hidden, the clue entry opens
                self.present.open_entry(seat)
                continue
            if not hold.due(now) or hold.shown:
                continue
            if hold.what == "key":
                hold.shown = True
                continue
            self.holds.pop(seat)
            if hold.what == "guess" and hold.card is not None:
                self._act(seat, Guess(seat, hold.card), hold.version)
            elif hold.what == "stop":
                self._act(seat, Stop(seat), hold.version)
            elif hold.what == "speak":
                self._speak(seat)
            elif hold.what == "speak_key":
                self._speak_key(seat)
            if self.host.screen is not self:
                return

    # -- drawing ---------------------------------------------------------------------------------------------
    def _labels(self) -> dict[str, str]:
        return {k: self.tr(f"label.{k}") for k in LABELS}

    def message(self, view: PublicView) -> str:
        text = self._message(view)
        sand = self.hourglass_text()
        return f"{text} — {sand}" if sand else text

    def _message(self, view: PublicView) -> str:
        tr = self.tr
        if self.entry is not None:
            return tr("play.msg_entering", seat=self.entry.seat)
        if view.phase == "clue":
            if len(view.clue_givers) > 1:
                return tr("play.msg_first_clue") if not view.clues else tr("play.msg_either_clue")
            return tr("play.msg_clue", seat=view.clue_givers[0]) if view.clue_givers else ""
        if view.phase == "guess":
            clue = view.current_clue
            number = clue.number if clue else 0
            if clue is None or not clue.word:
                text = tr("play.msg_guess_spoken", seat=view.guessers[0], number=number)
            else:
                text = tr("play.msg_guess", seat=view.guessers[0], word=clue.word, number=number)
            return f"{text} — {self._bar_help(view)}"
        if view.phase == "sudden_death":
            return f"{tr('play.msg_sudden', seats=' + '.join(view.guessers))} — {self._bar_help(view)}"
        return ""

    def _bar_help(self, view: PublicView) -> str:
        """What the guesser does, for the bars: hold OK (in hot-seat: or a finger) on a card, and STOP when the
        turn may end."""
        key = "guide.bar_touch" if self.present.touch_guesses else "guide.bar_guess"
        return self.tr(key + ("_stop" if view.phase == "guess" and view.can_stop else ""))

    def _oled_help(self, view: PublicView) -> str:
        """The same for the guesser's own OLED (short lines: the key map takes half of it)."""
        if view.phase == "sudden_death":
            return self.tr("guide.oled_sudden")
        return self.tr("guide.oled_guess_stop" if view.can_stop else "guide.oled_guess")

    def frame(self) -> Frame:
        session = self.session
        view = session.public_view()
        banner = self.notices.banner_text()
        if view.sudden_death and banner is None:
            banner = self.tr("play.sudden_death")
        orientation = self.host.game.opts.orientation or "table"
        cursors = tuple(m.Cursor(s, c) for s, c in self.cursors.items())
        now = self.host.clock.now()
        play = m.PlayUi(cursors, self.holds.model(now), self.message(view), banner, orientation, self.pictures,
                        self._labels())
        shared, oleds, seat_views = self.present.frame(view, play)
        return Frame(shared=shared, view=view, oleds=oleds, seat_views=seat_views, ring=self.holds.fill(now),
                     ring_view=view)

    def _oled(self, seat: Seat, view: PublicView) -> m.OledUi:
        notice = self.notices.text(seat)
        entry = self.entry
        if entry is not None and entry.seat == seat:
            own = self.session.seat_view(seat)  # the giver's own key stays in sight, small, while it spells
            key = m.ClueEntryUi("word", key=own.key, covered=tuple(c.index for c in view.cards if c.agent),
                                key_seat=seat)
            return entry_ui(self.tr, entry, self.session.language, self.number_title, notice, key)
        if notice:
            role = notice
        elif view.phase == "clue":
            if entry is not None:
                role = self.tr("role.other_entering", seat=entry.seat)
            elif seat in view.clue_givers:
                role = self.tr("role.give_clue")
            else:
                role = self.tr("role.wait")
        elif seat in view.guessers:
            role = self._oled_help(view)
        else:
            role = self.tr("role.wait")
        cursor = self.cursors[seat] if seat in view.guessers else None
        return m.SeatKeyUi(role=role, cursor=cursor)


    def _entry_model(self, entry: ClueEntry, notice: str | None) -> m.ClueEntryUi:
        return entry_ui(self.tr, entry, self.session.language, self.number_title, notice)


class TablePresentation:
    """The usual box: each seat's key, prompts and clue entry on its own OLED; the shared display shows the table
    (nothing secret on it)."""

    hotseat = False
    #: a finger held on the chosen card guesses (hot-seat only: with OLEDs a touch only moves the cursors)
    touch_guesses = False

    def __init__(self, screen: DuetPlayScreen) -> None:
        self.screen = screen
        self.hs_seat: Seat | None = None

    def frame(self, view: PublicView, play: m.PlayUi) -> PresentedFrame:
        s = self.screen
        seat_views: dict[Seat, m.OledView] = {seat: s.session.seat_view(seat) for seat in SEATS}
        return play, {seat: s._oled(seat, view) for seat in SEATS}, seat_views

    def speech(self, view: PublicView, seat: Seat) -> HoldKind:
        """What a long STOP of a seat that does not guess asks for: the clue and the bank, said aloud."""
        return "speak"

    def clue_ok(self, seat: Seat, view: PublicView, now: float) -> bool:
        """OK in the clue phase, when this presentation takes it (True); else the screen opens the OLED entry."""
        return False

    def clue_touch(self, view: PublicView, now: float) -> bool:
        return False

    def open_entry(self, seat: Seat) -> None:
        self.screen.entry = ClueEntry(seat)

    def exit(self) -> None:
        pass


class HotSeatPresentation(TablePresentation):
    """Hot-seat (a kiosk without OLEDs): the privacy screen, the clue giver's key on the display only while OK or
    a finger is held (at most KEY_SECONDS), the clue entry on the display; the OLEDs only say to look at the
    display."""

    hotseat = True
    touch_guesses = True

    def __init__(self, screen: DuetPlayScreen, hs_seat: Seat | None) -> None:
        super().__init__(screen)
        self.hs_seat = hs_seat  # the giver who opened clue entry (saved)

    def frame(self, view: PublicView, play: m.PlayUi) -> PresentedFrame:
        s = self.screen
        oled = m.OledTextUi(s.tr("hotseat.title"), (s.tr("hotseat.oled"),))
        return self.shared(view, play), {"A": oled, "B": oled}, {}

    def speech(self, view: PublicView, seat: Seat) -> HoldKind:
        """The clue giver hears their key instead (through headphones only, see DuetPlayScreen._speak_key)."""
        return "speak_key" if view.phase == "clue" and seat in view.clue_givers else "speak"

    def clue_ok(self, seat: Seat, view: PublicView, now: float) -> bool:
        giver = self.giver(view, seat)
        if giver is not None:
            self.screen.holds.start(giver, "key", now, view.version)
        return True

    def clue_touch(self, view: PublicView, now: float) -> bool:
        """Without buttons: a finger held on the screen shows the clue giver's key, like OK held, and lifting it
        hides the key and opens the clue entry (typed on a keyboard)."""
        giver = self.giver(view, "A") or "A"
        if giver not in self.screen.holds:
            self.screen.holds.start(giver, "key", now, view.version, by="touch")
        return True

    def open_entry(self, seat: Seat) -> None:
        self.hs_seat = seat
        self.screen.entry = ClueEntry(seat)

    def giver(self, view: PublicView, seat: Seat) -> Seat | None:
        if self.hs_seat in view.clue_givers:
            return self.hs_seat
        if len(view.clue_givers) == 1:
            return view.clue_givers[0]
        return seat if seat in view.clue_givers else None

    def shared(self, view: PublicView, play: m.PlayUi) -> m.SharedUi:
        s = self.screen
        orientation = play.orientation
        for seat, hold in s.holds.items():
            if hold.what == "key":
                if hold.shown:
                    key = s.session.seat_view(seat).key
                    return m.HotSeatUi("key", seat, (s.tr("hotseat.release"),), 1.0, key,
                                       orientation, s.pictures, s._labels())
                fraction = hold.fraction(s.host.clock.now())
                return m.HotSeatUi("privacy", seat, self.privacy_lines(seat), fraction,
                                   None, orientation, s.pictures, s._labels())
        if view.phase == "clue" and s.entry is None:
            seat = self.giver(view, "A") or "A"
            return m.HotSeatUi("privacy", seat, self.privacy_lines(seat), 0.0, None,
                               orientation, s.pictures, s._labels())
        if s.entry is not None:
            return self.entry_panel(play)
        return play

    def entry_panel(self, play: m.PlayUi) -> m.PlayUi:
        """Hot-seat clue entry on the shared display: the picker in the side panel, one line in the bars."""
        s = self.screen
        if s.entry is not None:
            e = s.entry
            if e.step == "number":
                text = s.tr("hotseat.number", seat=e.seat, number=e.number)
            elif e.step == "word":
                pick = letters_for(s.session.language)[e.letter]
                text = s.tr("hotseat.word", seat=e.seat, number=e.number, word=e.word, letter=pick)
            else:
                choice = s.tr("clue.accept" if e.choice == 0 else "clue.change")
                text = s.tr("hotseat.refused", reason=e.refusal or "", choice=choice)
            sand = s.hourglass_text()
            text = f"{text} — {sand}" if sand else text
            entry = s._entry_model(e, s.notices.banner_text())
            entry = replace(entry, title=s.tr("common.pair", label=e.seat, value=entry.title) if entry.title
                            else e.seat)
            return m.PlayUi(play.cursors, None, text, play.banner, play.orientation, s.pictures, play.labels,
                            entry)
        return play

    def privacy_lines(self, seat: Seat) -> tuple[str, ...]:
        s = self.screen
        sand = s.hourglass_text()  # the small hourglass stays in sight on the privacy screen
        return (s.tr("hotseat.look_away", seat=other(seat)),
                s.tr("hotseat.hold_ok", seat=seat)) + ((sand,) if sand else ())


def _card_at(pos: tuple[float, float], size: tuple[int, int], pictures: bool,
             board: Board = DUET_BOARD) -> int | None:
    """The card under a normalised touch position, by the renderer's grid layout."""
    x, y = pos
    cells = grid_layout(size, board.columns, board.rows, pictures=pictures).cells
    px, py = x * size[0], y * size[1]
    for index, rect in enumerate(cells):
        if rect.collidepoint(px, py):
            return index
    return None


@dataclass(frozen=True)
class GameOverState:
    """What a Duet game-over screen saves (``{"screen": "gameover", ...}``): the seats that pressed OK."""

    name = "gameover"  # the screen it is saved by (its ``"screen"`` field)

    confirmed: tuple[Seat, ...] = ()

    def to_dict(self) -> JsonObject:
        return {"screen": self.name, "confirmed": list(self.confirmed)}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> GameOverState:
        """The saved state (a fresh one for another screen's; what is not a seat is dropped, each seat once)."""
        seats = (read_seat(x) for x in read_list(saved_for(data, cls.name).get("confirmed")))
        return cls(tuple(dict.fromkeys(seat for seat in seats if seat is not None)))


class GameOverScreen(Screen):
    """Win or loss with its reason and score; both seats press OK, then both keys show; OK again leaves."""

    name = "gameover"
    attract = False

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host)
        self.confirmed: list[Seat] = list(GameOverState.from_dict(ui).confirmed)

    def state(self) -> GameOverState:
        """What this screen saves (``ui_state``)."""
        return GameOverState(tuple(self.confirmed))

    def ui_state(self) -> JsonObject | None:
        return self.state().to_dict()

    @property
    def revealed(self) -> bool:
        return len(set(self.confirmed)) == 2

    def handle(self, event: InputEvent) -> None:
        if event.kind == "touch" and not self.revealed:
            seat = next(s for s in SEATS if s not in self.confirmed)
            self.confirmed.append(seat)
            return
        if event.kind not in ("press", "touch"):
            return
        if event.button == "menu" or (self.revealed and event.button in ("ok", "touch")):
            self._leave()
            return
        if event.button == "ok" and event.seat and event.seat not in self.confirmed:
            self.confirmed.append(event.seat)

    def _leave(self) -> None:
        self.host.nav.after_game()  # closes the game; "same settings again" preselected (screens/again.py)

    def frame(self) -> Frame:
        session = self.host.game.session
        assert isinstance(session, DuetSession)
        view = session.public_view()
        tr = self.tr
        won = view.phase == "won"
        reason = tr(f"over.reason_{view.reason}") if view.reason else tr("over.reason_won")
        score_line = tr("over.score", score=view.score) if view.score is not None else None
        verdict = tr(f"verdict.{view.verdict}") if view.verdict else None
        summary = (
            tr("over.summary_clues", n=len(view.clues)),
            tr("over.summary_agents", found=view.agents_found, total=view.agents_total),
            tr("over.summary_tokens", left=view.bank, taken=view.taken),
        )
        prompt = tr("over.prompt_leave") if self.revealed else tr("over.prompt_confirm")
        keys = session.revealed_keys() if self.revealed else None
        options = self.host.game.opts
        shared = m.GameOverUi(tr("over.won" if won else "over.lost"), reason, score_line, verdict, summary,
                              prompt,
                              tuple(self.confirmed), keys, won,
                              options.orientation or "table", options.pictures,
                              {k: tr(f"label.{k}") for k in LABELS})
        oleds: dict[Seat, m.OledUi | None] = {}
        seat_views: dict[Seat, m.OledView] = {}
        for seat in SEATS:
            seat_views[seat] = session.seat_view(seat)
            lines = [reason]
            if score_line:
                lines.append(score_line)
            if self.revealed:  # both keys are shown: what comes next, not "wait for the other"
                lines.append(tr("guide.over_next"))
            else:
                lines.append(tr("over.oled_done") if seat in self.confirmed else tr("over.oled_press"))
            oleds[seat] = m.OledTextUi(tr("over.won" if won else "over.lost"), tuple(lines), invert=won)
        return Frame(shared=shared, view=view, oleds=oleds, seat_views=seat_views, ring_view=view)
