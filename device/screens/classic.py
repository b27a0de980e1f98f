"""Classic Codenames and Pictures on the box: the spymasters sit on seat A's side (its OLED shows the whole key),
the guessers of both teams use seat B's controls; duo's box opponent covers its card with a short animation."""

from __future__ import annotations

from dataclasses import dataclass

from common.jsonvalue import JsonMap, JsonObject
from device import modes
from device.modes import Mode
from device.render import models as m
from device.screens.base import Frame, Host, Screen, move_card
from device.screens.flows import deal_pictures, deal_words
from device.screens.parts import (
    ClueEntry,
    Cursors,
    EntryOutcome,
    Give,
    Holds,
    Notices,
    classic_labels,
    revealed_cards,
)
from device.screens.play import Moves, clue_word, entry_ui, letters_for, short_press_hint
from device.screens.saved import read_int, read_map, saved_for
from device.screens.setup import OptionValue, SetupScreen
from device.services.hourglass import enforced_action
from device.services.speech import clue_announcement
from engine import classic as cl
from engine.seats import Seat
from engine.session import ClassicSession
from hardware.base import DIRECTIONS, InputEvent

#: How long the duo opponent's cover is shown moving onto its card.
COVER_SECONDS = 1.2
#: The number picker's last value stands for "unlimited".
UNLIMITED_PICK = cl.MAX_NUMBER + 1


def open_setup(host: Host, back: Screen, mode: Mode | str) -> None:
    host.switch(ClassicSetupScreen(host, mode, back))


class ClassicSetupScreen(SetupScreen):
    """Variant (standard, duo, trio), words (classic), clue rules, Pictures key composition (the mode's rows)."""

    def __init__(self, host: Host, kind: Mode | str, back: Screen | None = None) -> None:
        super().__init__(host, kind, back)
        self.values["variant"] = "standard"
        self.values["pictures_key"] = "source"

    def _options(self, row: str) -> tuple[OptionValue, ...]:
        if row == "variant":
            return ("standard", "duo", "trio")
        if row == "pictures_key":
            return ("source", "printed")
        return super()._options(row)

    def _value(self, row: str) -> str:
        if row in ("variant", "pictures_key"):
            return self.tr(f"classic.{row}_{self.values[row]}")
        return super()._value(row)

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button == "ok":
            start_classic(self.host, self.mode, variant=self.text("variant"), pack=self.text("pack"),
                          clues=self.text("clues"), pictures_key=self.text("pictures_key"))
            return
        super().handle(event)

    def frame(self) -> Frame:
        rows = tuple(m.MenuItem(self.tr(f"classic.row_{r}" if r in ("variant", "pictures_key") else f"setup.{r}"),
                                True, None if r == "start" else self._value(r)) for r in self.rows)
        title = self.tr(self.mode.label)
        # the key row's values (9/8/2/1) say what they count on the hint line while it is chosen
        hint = self.tr("classic.pictures_key_hint" if self.rows[self.selected] == "pictures_key" else "hint.setup")
        ui = m.SetupUi(title, rows, self.selected, self.rows[self.selected] != "start", hint)
        oled = m.MenuUi(title, rows, self.selected, hint)
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


def start_classic(host: Host, kind: Mode | str, *, variant: str = "standard", pack: str = "fr",
                  clues: str = "strict", pictures_key: str = "source") -> None:
    """A new game of a mode of the classic family (classic, Pictures): ``kind`` is the mode or its kind."""
    mode = modes.by_kind(kind)
    language = str(host.settings.get("language", "fr"))
    if mode.pictures:
        size = sum(cl.composition(mode.classic_kind, pictures_key))
        cards = deal_pictures(host, size)
    else:
        cards, language = deal_words(host, pack, mode.board.cards)
    session = ClassicSession.create(mode.classic_kind, cards, host.rng, variant=variant, clues=clues,
                                    pictures_key=pictures_key, language=language)
    host.game.begin(session, kind=mode.kind, options=modes.classic_options(mode, variant, pack))


@dataclass(frozen=True)
class ClassicState:
    """What the classic play screen saves (``{"screen": "classic", ...}``): the guessers' cursor, the
    spymasters' clue entry that was open."""

    name = "classic"  # the screen it is saved by (its ``"screen"`` field)

    cursor: int = 0
    entry: ClueEntry | None = None

    def to_dict(self) -> JsonObject:
        return {"screen": self.name, "cursor": self.cursor, "entry": self.entry.to_dict() if self.entry else None}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> ClassicState:
        """The saved state (a fresh one for another screen's; a malformed field gives its fresh value)."""
        saved = saved_for(data, cls.name)
        return cls(read_int(saved.get("cursor"), 0), ClueEntry.from_dict(read_map(saved.get("entry"))))


@dataclass(frozen=True)
class ClassicOverState:
    """What the classic game-over screen saves: only that it is shown (``{"screen": "classic_over"}``)."""

    name = "classic_over"  # the screen it is saved by (its ``"screen"`` field)

    def to_dict(self) -> JsonObject:
        return {"screen": self.name}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> ClassicOverState:
        return cls()


@dataclass(frozen=True)
class CoverShown:
    """The duo opponent's cover moving onto ``card`` since ``start``, against state ``version``."""

    card: int
    start: float
    version: int


class ClassicPlayScreen(Screen):
    """Classic and Pictures play, built from the play parts (holds, the guessers' cursor, the spymasters' clue
    entry, notices) and the moves every play screen shares."""

    name = "classic"
    in_game = True
    enforces = True

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host)
        state = ClassicState.from_dict(ui)
        self.holds = Holds()
        # a saved cursor off this table starts on the first card, a letter beyond the picker on its last one
        self.cursors = Cursors(self.holds, {"B": state.cursor if state.cursor < len(self.session.state.cards)
                                            else 0})
        self.entry = state.entry
        if self.entry is not None:
            self.entry.letter = min(self.entry.letter, len(letters_for(self.session.language)) - 1)
        self.notices = Notices()
        self.moves = Moves(host, self.notices)
        self.cover: CoverShown | None = None

    @property
    def session(self) -> ClassicSession:
        session = self.host.game.session
        assert isinstance(session, ClassicSession)
        return session

    @property
    def pictures(self) -> bool:
        return modes.by_kind(self.session.mode).pictures

    def state(self) -> ClassicState:
        """What this screen saves (``ui_state``)."""
        return ClassicState(self.cursors["B"], self.entry)

    def ui_state(self) -> JsonObject | None:
        return self.state().to_dict()

    def exit(self) -> None:
        """Leaving the game screen: every pending hold is cancelled, so a tap never fires on return."""
        self.holds.cancel_all()

    def notice(self, to: Seat | None, key: str, **fields: object) -> None:
        self.moves.notice(to, key, **fields)

    # -- the spymasters' clue --------------------------------------------------------------------------------
    def _entry_outcome(self, outcome: EntryOutcome) -> None:
        if outcome == "close":
            self.entry = None
        elif isinstance(outcome, Give):
            self._give(outcome.word, override=outcome.override)

    def _give(self, word: str | None, *, override: bool = False) -> None:
        entry = self.entry
        assert entry is not None
        number = None if entry.number >= UNLIMITED_PICK else entry.number
        if self.moves.give(entry, cl.TeamClue(self.session.public_view().turn, clue_word(word), number, override)):
            self.entry = None

    # -- input ---------------------------------------------------------------------------------------------
    def handle(self, event: InputEvent) -> None:
        view = self.session.public_view()
        if event.kind == "touch":
            card = event.card
            if card is not None and 0 <= card < len(view.cards):
                self.cursors["B"] = card
            return
        if event.kind == "text":
            if self.entry is not None:
                self._entry_outcome(self.entry.type(event.text or "", letters_for(self.session.language),
                                                    UNLIMITED_PICK))
        elif event.seat == "A":
            self._spymasters(event, view)
        elif event.seat == "B":
            self._guessers(event, view)

    def _spymasters(self, event: InputEvent, view: cl.ClassicPublicView) -> None:
        """Seat A's side: OK opens the clue entry in the clue phase, a long STOP asks for the clue aloud."""
        if self.entry is not None:
            if event.kind == "press":
                self._entry_outcome(self.entry.press(event.button, letters_for(self.session.language),
                                                     UNLIMITED_PICK))
        elif event.kind == "press" and event.button == "ok":
            if view.phase == "clue":
                self.entry = ClueEntry("A")
            else:
                self.notice("A", "classic.spymaster_wait")
        elif event.kind == "press" and event.button == "stop" and self.host.audio.speech_for("A") is not None:
            # a long STOP on the spymasters' side asks the box to say the clue and the cards left
            self.holds.start("A", "speak", event.time, view.version)
        elif event.kind == "release" and event.button == "stop":
            self.holds.pop("A")

    def _guessers(self, event: InputEvent, view: cl.ClassicPublicView) -> None:
        """Seat B's controls, shared by the guessers of both teams: the cursor, OK held on a card, STOP held."""
        if event.kind == "release":
            hold = self.holds.release("B", event.button)
            if hold is not None and not hold.due(event.time):
                self.notice("B", short_press_hint(hold.what))
            return
        if event.kind != "press":
            return
        if event.button in DIRECTIONS:
            self.cursors["B"] = move_card(self.cursors["B"], event.button, "B", view.columns, view.rows,
                                          self.orientation)
        elif view.phase != "guess":
            self.notice("B", "classic.wait_clue")
        elif event.button == "ok":
            self.holds.start("B", "guess", event.time, view.version, self.cursors["B"])
        elif event.button == "stop":
            self.holds.start("B", "stop", event.time, view.version)

    def _speak(self, seat: Seat | None = None) -> None:
        """The clue in play (else the last one) and the cards the team to play still has to find; no bank."""
        speech = self.host.audio.speech_for(seat)
        view = self.session.public_view()
        clue = view.clue or (view.clues[-1] if view.clues else None)
        if speech is None or clue is None:
            return
        try:
            text = clue_announcement(speech.language, clue.word or "", clue.number, view.left.get(view.turn, 0),
                                     None)
        except ValueError:
            return
        self.host.audio.announce(text, seat)

    def enforce(self) -> None:
        view = self.session.public_view()
        todo = enforced_action(view.phase, "A" if view.phase == "clue" else "B",
                               self.session.state.guesses_made > 0, mode=view.mode)
        if todo.kind == "force_clue" and self.entry is None:
            self.entry = ClueEntry("A")
        elif todo.kind == "stop":
            self.moves.act("B", cl.TeamStop(view.turn), view.version)

    # -- timers --------------------------------------------------------------------------------------------
    def deadline(self) -> float | None:
        times = [t for t in (self.holds.deadline(), self.notices.deadline()) if t is not None]
        if self.holds:  # the ring and the grid show the hold filling
            times.append(self.host.clock.now() + 1 / 30)
        view = self.session.public_view()
        if view.phase == "cover":
            if self.cover is None:
                times.append(self.host.clock.now())
            else:
                times.append(min(self.cover.start + COVER_SECONDS, self.host.clock.now() + 1 / 30))
        return min(times) if times else None

    def tick(self, now: float) -> None:
        self.notices.expire(now)
        speak = self.holds.get("A")
        if speak is not None and speak.due(now):
            self.holds.pop("A")
            self._speak("A")
        hold = self.holds.get("B")
        if hold is not None and hold.due(now):
            self.holds.pop("B")
            team = self.session.public_view().turn
            if hold.what == "guess" and hold.card is not None:
                action: cl.ClassicAction = cl.TeamGuess(team, hold.card)
            else:
                action = cl.TeamStop(team)
            self.moves.act("B", action, hold.version)
            if self.host.screen is not self:
                return
        state = self.session.state
        if state.phase == "cover":
            if self.cover is None or self.cover.version != state.version:
                self.cover = CoverShown(cl.duo_cover_choice(state), now, state.version)
            elif now - self.cover.start >= COVER_SECONDS:
                cover, self.cover = self.cover, None
                self.moves.act(None, cl.Cover(state.turn, cover.card), cover.version)
        else:
            self.cover = None

    # -- drawing -------------------------------------------------------------------------------------------
    def frame(self) -> Frame:
        session = self.session
        view = session.public_view()
        tr = self.tr
        team = tr(f"team.{view.turn}")
        clue = view.clue
        clue_text = ""
        if clue is not None:
            clue_text = f"{clue.word or tr('label.no_word')} {'∞' if clue.number is None else clue.number}"
        if view.phase == "guess":
            guesses = (tr("classic.guesses_left", n=view.guesses_left) if view.guesses_left is not None
                       else tr("classic.guesses_free"))
        else:
            guesses = ""
        if view.phase == "guess":  # who guesses, with which buttons (both bars)
            message = tr("guide.classic_guess_stop" if self._can_stop() else "guide.classic_guess", team=team)
        else:
            message = tr(f"classic.msg_{view.phase}", team=team) if view.phase != "won" else ""
        if self.entry is not None:
            message = tr("classic.msg_entering", team=team)
        sand = self.hourglass_text()
        if sand:
            message = f"{message} — {sand}"
        history = tuple(tr("common.pair", label=tr("team." + c.team),
                           value=f"{c.word or tr('label.no_word')} {'∞' if c.number is None else c.number}")
                        for c in view.clues)
        cover = None
        if self.cover is not None:
            fraction = min(1.0, (self.host.clock.now() - self.cover.start) / COVER_SECONDS)
            cover = (self.cover.card, fraction)
        shared = m.ClassicPlayUi(team, view.turn, view.columns, view.rows, clue_text, guesses,
                                 {k: str(v) for k, v in view.left.items()}, message,
                                 self.notices.text("B"), (m.Cursor("B", self.cursors["B"]),),
                                 self.holds.model(self.host.clock.now()), cover, self.pictures, history, None,
                                 classic_labels(tr),
                                 self.orientation)
        return Frame(shared=shared, view=view, oleds={"A": self._spymaster_oled(view, team),
                                                      "B": self._guesser_oled(view, team, clue_text, guesses)},
                     ring=self.holds.fill(self.host.clock.now()), ring_view=view)

    def _spymaster_oled(self, view: cl.ClassicPublicView, team: str) -> m.OledUi:
        spy = self.session.spymaster_view()
        covered = tuple(c.index for c in view.cards if c.covered)
        if self.entry is not None:  # the key stays in sight while the number and the word are picked
            key = m.ClueEntryUi("word", key=spy.key, covered=covered, columns=view.columns, rows=view.rows)
            return entry_ui(self.tr, self.entry, self.session.language, "classic.number_title", None, key)
        status = self.notices.text("A") or self.tr(f"classic.spy_{view.phase}", team=team)
        return m.SpymasterUi(spy.key, covered, view.columns, view.rows, status,
                             legend=(self.tr("team.R"), self.tr("team.B")))

    def _guesser_oled(self, view: cl.ClassicPublicView, team: str, clue: str, guesses: str) -> m.OledUi:
        """The guessers' OLED (seat B): the clue, the guesses left and what to do with which button (or the
        notice that just came)."""
        notice = self.notices.text("B")
        if notice:
            todo: tuple[str, ...] = (notice,)
        elif view.phase == "guess":
            todo = (self.tr("guide.full_guess"),) + ((self.tr("guide.full_stop"),) if self._can_stop() else ())
        elif view.phase == "clue":
            todo = (self.tr("classic.wait_clue"),)
        else:
            todo = ()
        head = " · ".join(x for x in (clue, guesses) if x)
        return m.OledTextUi(team, tuple(x for x in (head,) + todo if x))

    def _can_stop(self) -> bool:
        """The guessing team may end its turn once it has touched a card (rules: at least one guess)."""
        return bool(self.session.state.guesses_made > 0)

    @property
    def orientation(self) -> m.Orientation:
        """Cards, bars and panel face both sides ("table": the guessers sit at seat B's side, across from the
        spymasters) unless the box is set to one upright screen."""
        value = self.host.game.opts.orientation or self.host.settings.get("orientation", "table")
        return "upright" if value == "upright" else "table"


class ClassicOverScreen(Screen):
    """The winner, the reason and the whole key on the grid; OK (either seat) goes back to the menu."""

    name = "classic_over"
    attract = False

    def __init__(self, host: Host, ui: JsonMap | None = None) -> None:
        super().__init__(host)  # nothing to restore (``ClassicOverState``)

    def ui_state(self) -> JsonObject | None:
        return ClassicOverState().to_dict()

    def handle(self, event: InputEvent) -> None:
        if (event.kind == "press" and event.button in ("ok", "menu")) or event.kind == "touch":
            self.host.nav.after_game()  # closes the game; "same settings again" preselected (screens/again.py)

    def frame(self) -> Frame:
        session = self.host.game.session
        assert isinstance(session, ClassicSession)
        view = session.public_view()
        tr = self.tr
        state = session.state
        winner = tr(f"team.{view.winner}") if view.winner else ""
        if state.rules.variant == "duo":
            title = tr("over.won" if view.winner == view.players else "over.lost")
        else:
            title = tr("classic.winner", team=winner)
        reason = tr(f"classic.reason_{view.reason}")
        cards = revealed_cards(state.cards, state.key.cards)
        shared = m.ClassicPlayUi(winner or title, view.winner or "R", view.columns, view.rows, "", "",
                                 {k: str(v) for k, v in view.left.items()}, tr("over.prompt_leave"),
                                 f"{title} — {reason}", (), None, None, modes.by_kind(session.mode).pictures, (),
                                 cards, classic_labels(tr), self.host.game.opts.orientation
                                 or ("upright" if self.host.settings.get("orientation") == "upright" else "table"))
        oled = m.OledTextUi(title, (reason, tr("over.prompt_leave")), invert=True)
        return Frame(shared=shared, view=view, oleds={"A": oled, "B": oled}, ring_view=view)
