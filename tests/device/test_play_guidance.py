"""Issue 15 on the play screens: the seat that must act is told what to do and with which button (its OLED and
its bar), the clue entry explains the picker, cursors start off the centre, game over says what comes next,
classic faces the guessers' side, and every OLED label fits its box in all five languages."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from boxscript import make_record, mock_app, step  # noqa: E402
from test_app_classic import _record as classic_record  # noqa: E402

from device.app import App  # noqa: E402
from device.i18n import LANGUAGES, Translator  # noqa: E402
from device.render import models as m  # noqa: E402
from device.render.oled import overflows  # noqa: E402
from device.render.shared import SharedRenderer  # noqa: E402
from device.render.text import record_texts  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.play import START_CURSORS, GameOverScreen, letters_for  # noqa: E402
from engine import classic as cl  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _layout_problems(texts: Any, size: tuple[int, int]) -> list[str]:
    """The layout checks of tests/device/render/test_layout.py (text size, clipping, overlap)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("layout_checks", ROOT / "tests/device/render/test_layout.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module._problems(texts, size))
RECORDS = ROOT / "docs" / "scripts" / "records"
SIZES = ((1280, 720), (800, 480))


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    app = mock_app(tmp_path, seed=5)
    yield app
    app.shutdown()




def _in(app: App, language: str) -> Any:
    """The current frame with the interface in ``language``."""
    saved = app.tr
    app.tr = Translator(language)
    try:
        return app.screen.frame()
    finally:
        app.tr = saved


# -- the scenes: every play screen in its states -------------------------------------------------------------

Scene = Callable[[App], Iterator[str]]


def _duet(app: App) -> Iterator[str]:
    app.start(make_record(31))
    yield "duet first clue"
    screen = app.screen
    step(app, "press A.ok", "release A.ok")
    yield "duet number"
    step(app, "press A.ok", "release A.ok")
    yield "duet word"
    app.box.type_text("A", "apple")
    step(app, "press A.ok")
    yield "duet refusal"
    step(app, "press A.right", "press A.ok")
    app.box.type_text("A", "\b\b\b\b\bfruit")
    app.step(0)
    yield "duet word typed"
    step(app, "press A.ok")
    assert app.game.session.public_view().phase == "guess"
    yield "duet guess"
    for key in ("play.cannot_stop", "play.hold_longer", "play.not_guessing", "play.not_your_clue",
                "error.NotYourTurn", "error.CardNotPlayable", "error.NotSaved"):
        for seat in ("A", "B"):
            screen.notice(seat, key)
        yield f"duet notice {key}"
    screen.notices.clear()
    key = app.game.session.state.key.a
    green = [i for i, c in enumerate(key) if c == "G"]
    app.game.act(Guess("B", green[0]), app.game.session.version)
    yield "duet guess may stop"
    screen.notice("A", "play.other_entering", seat="B")
    yield "duet other entering"


def _sudden(app: App) -> Iterator[str]:
    app.start(json.loads((RECORDS / "sudden.json").read_text("utf-8")))
    assert app.game.session.public_view().phase == "sudden_death"
    yield "sudden death"


def _over(app: App) -> Iterator[str]:
    app.start(make_record(31, actions=[{"type": "clue", "seat": "A", "word": None, "number": 3}]))
    app.screen.cursors["B"] = app.game.session.state.key.a.index("X")
    step(app, "press B.ok", advance=0.7)  # B touches the assassin
    step(app, "release B.ok")
    assert isinstance(app.screen, GameOverScreen)
    yield "over"
    step(app, "press A.ok")
    yield "over one confirmed"
    step(app, "press B.ok")
    assert app.screen.revealed
    yield "over keys shown"


def _hotseat(app: App) -> Iterator[str]:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    yield "hotseat privacy"
    step(app, "press A.ok", advance=0.7)
    step(app, "release A.ok")
    yield "hotseat number"
    step(app, "press A.ok")
    yield "hotseat word"
    app.game.act(Clue("A", None, 2), app.game.session.version)
    app.screen.entry = None
    yield "hotseat guess"


def _classic(kind: str, variant: str = "standard") -> Scene:
    def scene(app: App) -> Iterator[str]:
        record = classic_record(kind, variant, 9)
        app.start(record)
        yield f"{kind} clue"
        step(app, "press A.ok")
        yield f"{kind} number"
        step(app, "press A.ok")
        yield f"{kind} word"
        step(app, "press A.stop", "press A.stop")
        step(app, "press A.stop")
        team = app.game.session.public_view().turn
        app.game.act(cl.TeamClue(team, None, 3, True), app.game.session.version)
        app.screen.entry = None
        yield f"{kind} guess"
        mine = [i for i, c in enumerate(record["key"]) if c == team]
        app.game.act(cl.TeamGuess(team, mine[0]), app.game.session.version)
        yield f"{kind} guess may stop"
        app.screen.notice("B", "classic.wait_clue")
        app.screen.notice("A", "classic.spymaster_wait")
        yield f"{kind} notices"
    return scene


SCENES: dict[str, Scene] = {"duet": _duet, "sudden": _sudden, "over": _over, "hotseat": _hotseat,
                            "classic": _classic("classic"), "pictures": _classic("pictures"),
                            "duo": _classic("classic", "duo")}


def _frames(app: App, scene: Scene) -> Iterator[tuple[str, str, Any]]:
    for name in scene(app):
        for language in LANGUAGES:
            yield name, language, _in(app, language)


# -- every OLED label fits, in every language ----------------------------------------------------------------

def test_the_overflow_check_can_fail() -> None:
    # (a long title takes two lines of the OLED: this one needs three)
    assert overflows(None, m.OledTextUi("A title far too long to fit on a tiny OLED screen, even on two lines",
                                        ())) != []
    assert overflows(None, m.OledTextUi("OK", ("short",))) == []
    assert overflows(None, m.ClueEntryUi("word", title="Mot", letters=("A", "B"),
                                         hint="one line\ntwo lines\nthree lines: one too many")) != []


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_every_oled_label_fits_its_box_in_every_language(app: App, scene: str) -> None:
    problems = []
    seen = 0
    for name, language, frame in _frames(app, SCENES[scene]):
        for seat, ui in frame.oleds.items():
            seen += 1
            for text in overflows(frame.seat_views.get(seat), ui):
                problems.append(f"{name} [{language}] seat {seat}: {text!r}")
    assert seen >= 10
    assert problems == [], "\n".join(problems)


def test_solo_and_hotseat_oled_texts_fit_in_every_language() -> None:
    for language in LANGUAGES:
        tr = Translator(language)
        for ui in (m.OledTextUi(tr("solo.oled_title"), (tr("solo.oled_box"),)),
                   m.OledTextUi(tr("hotseat.title"), (tr("hotseat.oled"),)),
                   m.OledTextUi(tr("solo.meant_oled_title"), (tr("solo.meant_oled"),
                                                              tr("solo.meant_hint", page=9, pages=9))),
                   m.OledTextUi(tr("solo.meant_oled_title"), (tr("solo.meant_oled"),
                                                              tr("solo.meant_hint_last", page=9, pages=9))),
                   m.ClueEntryUi("word", number=2, word="CIEL", letters=letters_for(language),
                                 title=tr("solo.word_title"), hint=tr("clue.word_hint"))):
            assert overflows(None, ui) == [], (language, ui)


# -- the seat that must act is told what to do, with which button --------------------------------------------

def _bar_texts(frame: Any, size: tuple[int, int]) -> list[str]:
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, frame.view, frame.shared)
    return [t.text for t in surface.texts]


def _whole_in_bars(frame: Any, message: str) -> None:
    """``message`` is drawn whole (not cut with "…") in both bars, at both display sizes."""
    for size in SIZES:
        drawn = _bar_texts(frame, size)
        assert drawn.count(message) >= 2, (size, message, [t for t in drawn if t[:6] == message[:6]])


@pytest.mark.parametrize("language", LANGUAGES)
def test_duet_guesser_is_told_hold_ok_and_stop_on_its_oled_and_both_bars(app: App, language: str) -> None:
    tr = Translator(language)
    app.start(make_record(31, actions=[{"type": "clue", "seat": "A", "word": "fruit", "number": 2}]))
    frame = _in(app, language)
    assert frame.oleds["B"].role == tr("guide.oled_guess")  # no correct guess yet: STOP is not offered
    assert frame.oleds["A"].role == tr("role.wait")
    assert frame.shared.message.endswith(tr("guide.bar_guess"))
    _whole_in_bars(frame, frame.shared.message)
    green = app.game.session.state.key.a.index("G")
    app.game.act(Guess("B", green), app.game.session.version)
    frame = _in(app, language)
    assert frame.oleds["B"].role == tr("guide.oled_guess_stop")
    assert "OK" in frame.oleds["B"].role and "STOP" in frame.oleds["B"].role
    assert frame.shared.message.endswith(tr("guide.bar_guess_stop"))
    _whole_in_bars(frame, frame.shared.message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_sudden_death_tells_both_guessers(app: App, language: str) -> None:
    tr = Translator(language)
    app.start(json.loads((RECORDS / "sudden.json").read_text("utf-8")))
    frame = _in(app, language)
    for seat in ("A", "B"):
        assert frame.oleds[seat].role == tr("guide.oled_sudden")
    assert frame.shared.message.endswith(tr("guide.bar_guess"))
    _whole_in_bars(frame, frame.shared.message)


@pytest.mark.parametrize("language", LANGUAGES)
def test_clue_givers_are_told_which_button(app: App, language: str) -> None:
    tr = Translator(language)
    app.start(make_record(31))
    assert "OK" in _in(app, language).shared.message  # the first clue: whoever presses OK
    app.game.act(Clue("A", "fruit", 2), app.game.session.version)
    app.game.act(Guess("B", app.game.session.state.key.a.index("N")), app.game.session.version)  # a bystander
    frame = _in(app, language)
    view = frame.view
    giver = view.clue_givers[0] if len(view.clue_givers) == 1 else None
    assert "OK" in frame.shared.message
    if giver is not None:
        assert frame.oleds[giver].role == tr("role.give_clue")
    _whole_in_bars(frame, frame.shared.message)


def test_hotseat_guesser_is_told_about_ok_and_the_finger(app: App) -> None:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    app.game.act(Clue("A", None, 2), app.game.session.version)
    frame = app.screen.frame()
    assert frame.shared.message.endswith(app.tr("guide.bar_touch"))
    _whole_in_bars(frame, frame.shared.message)


@pytest.mark.parametrize("kind", ["classic", "pictures"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_classic_guessers_are_told_in_both_bars_and_on_their_oled(app: App, kind: str, language: str) -> None:
    tr = Translator(language)
    record = classic_record(kind, "standard", 9)
    app.start(record)
    frame = _in(app, language)
    assert "OK" in frame.shared.message and frame.oleds["B"].lines == (tr("classic.wait_clue"),)
    team = app.game.session.public_view().turn
    app.game.act(cl.TeamClue(team, None, 3, True), app.game.session.version)
    frame = _in(app, language)
    assert frame.shared.message == tr("guide.classic_guess", team=tr(f"team.{team}"))
    assert tr("guide.full_guess") in frame.oleds["B"].lines and tr("guide.full_stop") not in frame.oleds["B"].lines
    mine = [i for i, c in enumerate(record["key"]) if c == team]
    app.game.act(cl.TeamGuess(team, mine[0]), app.game.session.version)
    frame = _in(app, language)
    assert frame.shared.message == tr("guide.classic_guess_stop", team=tr(f"team.{team}"))
    assert "OK" in frame.shared.message and "STOP" in frame.shared.message
    assert tr("guide.full_stop") in frame.oleds["B"].lines
    # both bars carry the prompt, the one facing seat B turned: the team's name then the message, whole
    for size in SIZES:
        assert _bar_texts(frame, size).count(frame.shared.message) == 2, size


@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_classic_faces_the_guessers_side_as_set(app: App, orientation: str) -> None:
    app.settings.set("orientation", orientation)
    app.start(classic_record("classic", "standard", 9))
    assert app.screen.frame().shared.orientation == orientation


# -- the clue entry explains the picker ----------------------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_word_picker_hint_says_up_down_jump_seven_and_where_delete_and_done_are(app: App, language: str) -> None:
    app.start(make_record(31))
    step(app, "press A.ok", "press A.ok")
    ui = _in(app, language).oleds["A"]
    assert isinstance(ui, m.ClueEntryUi) and ui.stage == "word"
    assert "7" in ui.hint and "⌫" in ui.hint and "✓" in ui.hint
    assert overflows(None, ui) == []
    # what it says is what the picker does: down jumps 7 letters, ✓ and ⌫ are just left of A
    letters = letters_for(app.game.session.language)
    step(app, "press A.down")
    assert app.screen.entry.letter == 7
    step(app, "press A.up", "press A.left", "press A.left")
    assert letters[app.screen.entry.letter] == "✓"
    step(app, "press A.left")
    assert letters[app.screen.entry.letter] == "⌫"


def test_hotseat_clue_entry_draws_an_alphabet_strip_on_the_shared_display(app: App) -> None:
    app.start()
    flows.start_duet(app, "hotseat", pack="en")
    step(app, "press A.ok", advance=0.7)
    step(app, "release A.ok")
    frame = app.screen.frame()
    assert isinstance(frame.shared, m.PlayUi) and frame.shared.entry is not None
    assert frame.shared.entry.stage == "number"
    step(app, "press A.ok", "press A.right", "press A.right")
    frame = app.screen.frame()
    entry = frame.shared.entry
    assert entry.stage == "word" and entry.letters[entry.letter] == "C"
    for size in SIZES:
        drawn = _bar_texts(frame, size)
        strip = [t for t in drawn if t in ("A", "B", "C", "D", "E")]
        assert strip.count("C") >= 2 and {"B", "D"} <= set(strip), (size, drawn)  # both halves of the panel
        renderer = SharedRenderer()
        surface = record_texts(renderer.text, size)
        renderer.full(surface, frame.view, frame.shared)
        assert _layout_problems(surface.texts, size) == []  # large enough, whole, no overlap
    step(app, "press A.ok")  # a letter picked: the word grows on the display
    assert app.screen.frame().shared.entry.word == "C"


# -- cursors, game over ------------------------------------------------------------------------------------

def test_cursors_start_in_each_seats_near_corner_not_on_the_centre(app: App) -> None:
    app.start(make_record(31))
    cursors = {c.seat: c.card for c in app.screen.frame().shared.cursors}
    assert cursors == START_CURSORS
    assert 12 not in cursors.values() and cursors["A"] != cursors["B"]  # not stacked, not the centre
    assert cursors["A"] // 5 == 4 and cursors["B"] // 5 == 0  # each on the row nearest its own seat
    # on its own left hand: A looks up the grid (column 0 left), B looks down it (column 4 on its left)
    assert cursors["A"] % 5 == 0 and cursors["B"] % 5 == 4


@pytest.mark.parametrize("language", LANGUAGES)
def test_game_over_oleds_say_what_comes_next_once_the_keys_are_shown(app: App, language: str) -> None:
    tr = Translator(language)
    scenes = _over(app)
    next(scenes)
    next(scenes)
    frame = _in(app, language)
    assert tr("over.oled_done") in frame.oleds["A"].lines and tr("over.oled_press") in frame.oleds["B"].lines
    next(scenes)
    frame = _in(app, language)
    for seat in ("A", "B"):
        assert tr("over.oled_done") not in frame.oleds[seat].lines
        assert frame.oleds[seat].lines[-1] == tr("guide.over_next") and "OK" in tr("guide.over_next")
