"""A game screen's saved state (the ``ui`` it is rebuilt from after a power cut) is a typed value per screen
(issue 25): it reads back what it wrote and what older boxes wrote, and a malformed one (a damaged file, a
hand-edited database) gives the fresh screen instead of a crash, for every kind of game screen."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import mock_app  # noqa: E402

from device import modes  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.classic import ClassicOverState, ClassicState, start_classic  # noqa: E402
from device.screens.parts import ClueEntry  # noqa: E402
from device.screens.play import GameOverState, PlayState  # noqa: E402
from device.screens.solo import SoloOverState, SoloPlayState, start_solo  # noqa: E402
from engine import classic as cl  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402
from engine.session import ClassicSession, DuetSession  # noqa: E402

#: Saved states no screen ever wrote: wrong types everywhere, unknown seats, steps and cards.
MALFORMED: list[Any] = [
    {"screen": "play", "cursors": [1, 2], "entry": "open", "hs_seat": 7, "meant": [3], "lines": "why"},
    {"screen": "play", "cursors": {"A": "3", "B": -1, "C": 4}, "entry": {"seat": "Z", "step": "word"},
     "hs_seat": "C", "meant": {"x": [1], "0": "12"}, "lines": [1, None]},
    {"screen": "gameover", "confirmed": "AB", "lines": {"A": 1}},
    {"screen": "gameover", "confirmed": [1, "C", None]},
    {"screen": "classic", "cursor": "7", "entry": []},
    {"screen": "classic", "cursor": True, "entry": {"step": "refusal"}},
    {"screen": 3},
    {"screen": "play", "cursors": None, "entry": None},
    {},
    {"cursors": {"A": 3}},  # no screen named: not this screen's
]

STATES = [PlayState, GameOverState, ClassicState, ClassicOverState, SoloPlayState, SoloOverState]


@pytest.mark.parametrize("kind", STATES, ids=lambda k: k.__name__)
@pytest.mark.parametrize("saved", MALFORMED)
def test_a_malformed_saved_state_reads_as_the_fresh_one(kind: Any, saved: Any) -> None:
    assert kind.from_dict(saved) == kind.from_dict(None) == kind()


def test_each_field_is_read_alone_a_good_one_kept_beside_a_bad_one() -> None:
    state = PlayState.from_dict({"screen": "play", "cursors": {"A": 3, "B": "x"}, "hs_seat": 4,
                                 "entry": {"seat": "B", "step": "spell", "number": "2", "word": "POM",
                                           "letter": -3, "refusal": 9, "choice": 1}})
    assert state == PlayState({"A": 3}, ClueEntry("B", "number", 1, "POM", 0, None, 1), None)
    assert GameOverState.from_dict({"screen": "gameover", "confirmed": ["B", "x", "B"]}) == GameOverState(("B",))
    solo = SoloPlayState.from_dict({"screen": "play", "meant": {"0": [4, "x", 7], "y": [1]}, "lines": ["a", 2]})
    assert (solo.meant, solo.lines) == ({0: (4, 7)}, ("a",))


def test_the_saved_json_is_the_one_older_boxes_wrote_and_read_back() -> None:
    # the JSON an older box saved (its ``ui`` table) is read by this one, and this one writes the same
    old_play = {"screen": "play", "cursors": {"A": 20, "B": 4},
                "entry": {"seat": "A", "step": "word", "number": 2, "word": "PO", "letter": 5, "refusal": None,
                          "choice": 0}, "hs_seat": "A"}
    old_solo = {**old_play, "hs_seat": None, "meant": {"0": [3, 8]}, "lines": ["I meant 3 and 8."]}
    old_over = {"screen": "gameover", "confirmed": ["A"]}
    old_classic = {"screen": "classic", "cursor": 12, "entry": None}
    for kind, old in [(PlayState, old_play), (SoloPlayState, old_solo), (GameOverState, old_over),
                      (SoloOverState, {**old_over, "lines": ["x"]}), (ClassicState, old_classic),
                      (ClassicOverState, {"screen": "classic_over"})]:
        assert kind.from_dict(old).to_dict() == old, kind.__name__


# -- every kind of game screen, built from a malformed saved state, is the fresh screen ----------------------

@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    app = mock_app(tmp_path, language="en")
    app.start()
    yield app
    app.shutdown()


def _duet(app: Any) -> None:
    flows.start_duet(app, modes.DUET)


def _hotseat(app: Any) -> None:
    flows.start_duet(app, modes.HOTSEAT)


def _classic(app: Any) -> None:
    start_classic(app, modes.CLASSIC, pack="en")


def _solo(app: Any) -> None:
    start_solo(app, "normal")


def _end(app: Any) -> None:
    """The open game lost at once: its assassin touched."""
    session = app.game.session
    if isinstance(session, ClassicSession):
        team = session.public_view().turn
        app.game.play(cl.TeamClue(team, None, 1), session.version)
        app.game.play(cl.TeamGuess(team, session.state.key.cards.index("X")), session.version)
    else:
        assert isinstance(session, DuetSession)
        app.game.play(Clue("A", None, 1), session.version)
        app.game.play(Guess("B", list(session.state.key.a).index("X")), session.version)
    assert session.over


@pytest.mark.parametrize("start", [_duet, _hotseat, _classic, _solo], ids=lambda f: f.__name__[1:])
@pytest.mark.parametrize("over", [False, True], ids=["playing", "over"])
def test_every_game_screen_comes_up_fresh_from_a_malformed_saved_state(
        app: Any, start: Callable[[Any], None], over: bool) -> None:
    start(app)
    if over:
        _end(app)
    fresh = app.nav.game_screen(None)
    for saved in MALFORMED:
        screen = app.nav.game_screen(saved)
        assert type(screen) is type(fresh)
        assert screen.ui_state() == fresh.ui_state(), saved
        app.switch(screen)
        screen.frame()  # it draws


def test_a_saved_cursor_off_the_board_or_a_letter_beyond_the_picker_is_brought_back(app: Any) -> None:
    _duet(app)
    saved = {"screen": "play", "cursors": {"A": 25, "B": 7},
             "entry": {"seat": "A", "step": "word", "number": 1, "word": "", "letter": 999}}
    screen = app.nav.game_screen(saved)
    assert screen.cursors["B"] == 7 and screen.cursors["A"] == app.nav.game_screen(None).cursors["A"]
    app.switch(screen)
    screen.frame()
    assert screen.entry is not None and screen.entry.letter < 999
    app.game.end()
    _classic(app)
    screen = app.nav.game_screen({"screen": "classic", "cursor": 99})
    assert screen.cursors["B"] == 0
