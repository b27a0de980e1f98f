"""Solo Duet on the mock box: the box at seat B plays with the tiny vector space of tests/partner."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "partner"))

from tiny_space import BOARD, OTHER_CLUES, THEMES, export_tiny  # noqa: E402

from device import solo  # noqa: E402
from device.app import App  # noqa: E402
from device.render import models as m  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.play import START_CURSORS  # noqa: E402
from device.screens.shell import MenuScreen  # noqa: E402
from device.screens.solo import MOVE_SECONDS, MeantScreen, SoloOverScreen, SoloPlayScreen  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine import duet  # noqa: E402
from hardware.factory import open_box  # noqa: E402
from partner.paths import space_path  # noqa: E402

CLUES = [clue for clue, _ in THEMES.values()]


class Spy:
    """A partner that records every argument it is given."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.real, name)
        if not callable(target):
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, args, kwargs))
            return target(*args, **kwargs)

        return call


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty default partner directory (the machine's own build must not leak into the tests)."""
    monkeypatch.setenv("DUETBOX_DATA_DIR", str(tmp_path / "nowhere"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    return tmp_path


def _app(data: Path, language: str = "fr") -> App:
    storage = Storage(data)
    storage.set_setting("language", language)
    app = App(open_box("mock"), storage, seed=3)
    app.start()
    return app


def _run(app: App, seconds: float, dt: float = 0.05) -> None:
    for _ in range(int(round(seconds / dt))):
        app.box.advance(dt)
        app.step(0)


def _menu_item(app: App) -> tuple[int, Any]:
    assert isinstance(app.screen, MenuScreen)
    items = app.screen.items()
    index = [i.key for i in items].index("menu.solo")
    return index, items[index]


def test_solo_menu_disabled_with_the_reason_when_no_model_is_built(env: Path) -> None:
    app = _app(env / "data")
    try:
        index, item = _menu_item(app)
        assert not item.enabled
        app.screen.selected = index
        hint = app.screen.model().hint
        # plain words in the interface language, one line, no shell command as the only hint
        assert hint == app.tr("help.solo_hint", reason=app.tr("solo.not_built"))
        assert "\n" not in hint and "`" not in hint
        app.box.press("A.ok")  # OK on the disabled row says what to do: a page, nothing started
        app.step(0)
        assert app.screen.name == "solo_info" and app.game.session is None
        page = " ".join(app.frame().shared.lines)
        assert "make partner" in page and "docs/usage.md" in page
        app.box.press("A.ok")
        app.step(0)
        assert isinstance(app.screen, MenuScreen)
    finally:
        app.shutdown()


def test_solo_menu_not_offered_in_romanian_even_when_built(env: Path) -> None:
    data = env / "data"
    export_tiny(data)
    app = _app(data, "ro")
    try:
        index, item = _menu_item(app)
        assert not item.enabled
        app.screen.selected = index
        assert app.screen.model().hint == app.tr("help.solo_hint",
                                                 reason=app.tr("solo.no_model", language=app.tr("help.name_ro")))
    finally:
        app.shutdown()
    assert solo.availability("fr", data).ok and not solo.availability("ro", data).ok


def _solo_game(env: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 4) -> tuple[App, Spy | None, dict]:
    data = env / "data"
    export_tiny(data)
    words = list(BOARD)
    random.Random(seed).shuffle(words)
    monkeypatch.setattr(flows, "deal_words", lambda app, pack, n=25: (tuple(words), "fr"))
    spies: dict[str, Spy] = {}
    real_load = solo.load_partner

    def load(language: str, directory: Path, difficulty: str) -> Spy:
        spies["p"] = Spy(real_load(language, directory, difficulty))
        return spies["p"]

    monkeypatch.setattr(solo, "load_partner", load)
    app = _app(data)
    index, item = _menu_item(app)
    assert item.enabled
    app.screen.selected = index
    app.box.press("A.ok")  # Solo → set-up
    app.step(0)
    app.box.press("A.ok")  # start (normal)
    app.step(0)
    assert isinstance(app.screen, SoloPlayScreen)
    return app, spies, app.game.session.setup


def _box_clue(app: App) -> Any:
    """A lets the box give the first clue, and waits for it."""
    view = app.game.session.public_view()
    if view.clue_givers == ("A", "B"):
        app.box.press("A.stop")
        app.step(0)
    _run(app, 3.0)
    view = app.game.session.public_view()
    assert view.phase == "guess" and view.clues[-1].seat == "B"
    return view.clues[-1]


def _human_guesses(app: App) -> None:
    """A touches the cards the box meant with its last clue, then stops."""
    for card in app.screen.ctx.meant.get(len(app.game.session.public_view().clues) - 1, []):
        view = app.game.session.public_view()
        if view.phase != "guess" or view.cards[card].covered:
            break
        app.box.touch(card)
        app.step(0)
        app.box.hold("A.ok", 700)
        app.step(0)
        _run(app, 0.2)
    view = app.game.session.public_view()
    if view.phase == "guess" and view.can_stop:
        app.box.hold("A.stop", 700)
        app.step(0)
        _run(app, 0.2)


def _human_clue_then_box_guesses(app: App, view: Any, key_a: str) -> None:
    # the human's clue: an empty word is refused, then a theme word of one of A's greens
    app.box.press("A.ok")
    app.step(0)
    app.box.type_text("A", "\n\n")
    app.step(0)
    assert app.game.session.version == view.version
    assert app.screen.notices.text("A") == app.tr("solo.word_required")
    greens = [i for i, c in enumerate(key_a) if c == "G" and not view.cards[i].agent]
    word = next((clue for clue, group in THEMES.values()
                 if app.game.session.state.words[greens[0]] in group), "zoo")
    app.box.type_text("A", f"{word}\n")
    app.step(0)
    view = app.game.session.public_view()
    assert view.clues[-1].seat == "A" and view.clues[-1].word == word
    # the box guesses: seat B's cursor walks, then the ring fills before the touch
    start_version = view.version
    cursors, fills = [], []
    for _ in range(200):
        app.box.advance(0.05)
        app.step(0)
        if app.game.session.version != start_version or not isinstance(app.screen, SoloPlayScreen):
            break
        cursors.append(app.screen.cursors["B"])
        frame = app.screen.frame()
        fills += [fx.fraction for fx in frame.ring if isinstance(fx, m.HoldFill) and fx.seat == "B"]
    assert fills and max(fills) > 0.5 and fills == sorted(fills)
    assert app.game.session.over or app.game.session.state.history[-1].seat == "B"
    _run(app, 20.0)  # the box goes on guessing, then stops (or the game ends)


def _play_a_turn(app: Any, key_a: str) -> None:
    """One turn of the solo game, whoever's it is (the human plays through the box's buttons and screen)."""
    view = app.game.session.public_view()
    human_turn = "A" in view.clue_givers and (view.clue_givers == ("A",) or view.clues[-1].seat == "B")
    if view.phase == "guess" and view.guessers == ("A",):
        _human_guesses(app)
    elif view.phase == "clue" and human_turn:
        _human_clue_then_box_guesses(app, view, key_a)
    elif view.phase == "clue":
        _box_clue(app)
        _human_guesses(app)
    elif view.phase == "sudden_death" and "B" in view.guessers:
        app.box.press("A.stop")
        app.step(0)
        _run(app, 5.0)
    elif view.phase == "sudden_death":
        free = [i for i in range(len(view.cards)) if not view.cards[i].covered and "A" not in view.cards[i].marks]
        app.box.touch(free[0])
        app.box.hold("A.ok", 700)
        app.step(0)
    else:
        _run(app, 2.0)


def test_solo_whole_game_box_clues_and_guesses_with_visible_moves(
        env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, spies, setup = _solo_game(env, monkeypatch)
    key_a, key_b = setup["key"]["A"], setup["key"]["B"]
    try:
        screen = app.screen
        assert isinstance(screen, SoloPlayScreen)
        # the box's clue: on the shared display's banner, word and number
        clue = _box_clue(app)
        assert clue.word and clue.word.upper() in screen.notices.banner_text()
        assert str(clue.number) in screen.notices.banner_text()
        # the human guesses the cards the box meant (A's guesses, on B's side)
        for card in screen.ctx.meant[0]:
            if app.game.session.public_view().phase != "guess":
                break
            app.box.touch(card)
            app.step(0)
            app.box.press("A.ok")
            app.step(0)
            _run(app, 0.7)
        view = app.game.session.public_view()
        if view.phase == "guess":  # the human stops
            app.box.press("A.stop")
            app.step(0)
            _run(app, 0.7)
        view = app.game.session.public_view()
        assert view.phase == "clue" and view.clue_givers[0] == "A" or view.over
        turns = 0
        while not app.game.session.over and turns < 30:
            turns += 1
            _play_a_turn(app, key_a)
        assert app.game.session.over, " | ".join(str(a) for a in app.game.session.state.history)
        # game over: A presses OK for the keys, then OK for "what I meant"
        assert isinstance(app.screen, SoloOverScreen)
        app.box.press("A.ok")
        app.step(0)
        assert app.screen.revealed
        app.box.press("A.ok")
        app.step(0)
        assert isinstance(app.screen, MeantScreen)
        text = " ".join(app.screen.lines)
        # the interface (and the partner) speak French here
        assert f"J'ai dit {clue.word.upper()} {clue.number} : je pensais à" in text
        assert "Tu as dit" in text  # tu, as everywhere in French
        shared = app.screen.frame().shared
        assert shared.title == app.tr("solo.meant_title")
        hint = "solo.meant_hint" if app.screen.pages > 1 else "solo.meant_hint_last"  # the last page: OK leaves
        assert shared.lines[-1] == app.tr(hint, page=1, pages=app.screen.pages)
        assert [line for page in app.screen.paged for line in page] == app.screen.lines
        for _ in range(app.screen.pages):
            app.box.press("A.ok")
            app.step(0)
        # then "same settings again", preselected: one OK deals a new solo game with the same difficulty
        assert app.screen.name == "after_game" and app.screen.items()[app.screen.selected].key == "again.same"
        first = app.game.id
        app.box.press("A.ok")
        app.step(0)
        assert app.game.playing and app.game.kind == "solo" and app.game.options.solo == "B"
        assert app.game.options.difficulty == "normal" and app.game.id != first
    finally:
        app.shutdown()
    # secrecy: the partner only ever saw seat B's side, never seat A's, never the engine state
    calls = spies["p"].calls
    assert any(name == "give_clue" for name, _, _ in calls) and any(name == "next_guess" for name, _, _ in calls)
    for name, args, kwargs in calls:
        for value in list(args) + list(kwargs.values()):
            assert value != key_a
            assert not isinstance(value, duet.DuetState)
        if name in ("give_clue", "next_guess"):
            assert args[1] == key_b


def test_solo_box_cursor_moves_over_the_grid_before_its_touch(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, setup = _solo_game(env, monkeypatch, seed=6)
    try:
        app.box.press("A.ok")
        app.step(0)
        app.box.type_text("A", "2\nfruit\n")
        app.step(0)
        view = app.game.session.public_view()
        assert view.phase == "guess" and view.guessers == ("B",)
        screen = app.screen
        assert screen.message(view) == app.tr("solo.msg_loading")  # the first move loads the model
        app.box.press("B.ok")  # nobody sits at B: its buttons do nothing
        app.step(0)
        seen = []
        messages: set[str] = set()
        t0 = app.clock.now()
        while app.game.session.version == view.version and app.clock.now() - t0 < 10:
            app.box.advance(0.05)
            app.step(0)
            if app.screen.plan is not None:
                seen.append((round(app.clock.now() - t0, 2), app.screen.cursors["B"]))
                messages.add(app.screen.message(app.game.session.public_view()))
        assert app.game.session.version == view.version + 1
        assert app.tr("solo.msg_box_guess", word="FRUIT", number=2) in messages
        guessed = app.game.session.state.history[-1].card
        positions = [c for _, c in seen]
        assert positions[-1] == guessed
        start = START_CURSORS["B"]
        distance = abs(guessed // 5 - start // 5) + abs(guessed % 5 - start % 5)
        assert positions[0] == start and len(set(positions)) == distance + 1
        for here, there in zip(positions, positions[1:], strict=False):  # one card at a time
            assert abs(here // 5 - there // 5) + abs(here % 5 - there % 5) <= 1
        took = seen[-1][0] - seen[0][0]
        assert took >= MOVE_SECONDS + 0.5  # the walk, then the hold
        # the move is paced: the first thought shows "thinking…" before the work is done
    finally:
        app.shutdown()


def test_solo_thinking_is_shown_before_the_box_moves(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, _ = _solo_game(env, monkeypatch)
    try:
        app.box.press("A.stop")  # the box gives the first clue
        app.step(0)  # this step's frame says "getting ready"; the work waits for the next step
        view = app.game.session.public_view()
        assert view.phase == "clue"
        assert app.screen.message(view) in (app.tr("solo.msg_loading"), app.tr("solo.msg_thinking"))
        assert app.screen.deadline() <= app.clock.now()  # the loop comes back at once to think
        app.step(0)
        assert app.game.session.public_view().phase == "guess"
    finally:
        app.shutdown()


def test_solo_resumes_with_what_the_box_meant(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, _ = _solo_game(env, monkeypatch)
    data = app.storage.directory
    clue = _box_clue(app)
    meant = dict(app.screen.ctx.meant)
    app.shutdown()
    again = App(open_box("mock"), Storage(data), seed=3)
    again.start()
    try:
        assert isinstance(again.screen, SoloPlayScreen)
        assert again.screen.ctx.meant == meant
        assert any(line.startswith(f"J'ai dit {clue.word.upper()}") for line in again.screen.ctx.lines(
            again.game.session.public_view()))
    finally:
        again.shutdown()


class FakeSpeaker:
    def __init__(self) -> None:
        self.language = "fr"
        self.output = "speaker"
        self.said: list[str] = []

    def say(self, text: str) -> bool:
        self.said.append(text)
        return True


def test_solo_box_clue_is_spoken_when_speech_is_on(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = env / "data"
    export_tiny(data)
    words = list(BOARD)
    monkeypatch.setattr(flows, "deal_words", lambda app, pack, n=25: (tuple(words), "fr"))
    storage = Storage(data)
    storage.set_setting("speech_A", True)
    speaker = FakeSpeaker()
    app = App(open_box("mock"), storage, seed=3, speech=speaker)
    app.start()
    try:
        from device.screens.solo import start_solo

        start_solo(app, "easy")
        assert app.game.session.public_view().bank == 11
        clue = _box_clue(app)
        assert any(clue.word in text.lower() for text in speaker.said)
    finally:
        app.shutdown()


def test_solo_meant_pages_fit_the_display() -> None:
    from device.screens.solo import PAGE_ROWS, ROW_CHARS, paginate

    lines = ["short"] * 7 + ["x" * (ROW_CHARS * (PAGE_ROWS + 2))] + ["y" * ROW_CHARS * 2] * 3
    pages = paginate(lines)
    assert [line for page in pages for line in page] == lines
    for page in pages:
        rows = 1 + sum(-(-len(line) // ROW_CHARS) for line in page)
        assert rows <= PAGE_ROWS or len(page) == 1


def test_solo_scripted_run_box_clue_then_human_guess(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boxscript import exported, run_box

    data = env / "data"
    export_tiny(data)
    words = list(BOARD)
    random.Random(2).shuffle(words)
    monkeypatch.setattr(flows, "deal_words", lambda app, pack, n=25: (tuple(words), "fr"))
    script = "\n".join(["press A.down"] * 6 + ["press A.ok", "press A.ok", "press A.stop"] + ["wait 250"] * 8
                       + ["snapshot clue"]) + "\n"
    code, snaps, data = run_box(env / "run", script, data=data)
    assert code == 0
    record = exported(data)
    clue = record["actions"][0]
    # a clue word of the tiny space (issue 28's giver may prefer a one-card clue of the other words)
    assert clue["seat"] == "B" and clue["word"] in CLUES + OTHER_CLUES
    theme = [k for k, v in THEMES.items() if v[0] == clue["word"]]
    cards = [words.index(w) for w in THEMES[theme[0]][1]] if theme else list(range(len(words)))
    touch = [c for c in cards if record["key"]["B"][c] == "G"][0]
    script2 = f"touch {touch}\nhold A.ok 700\nwait 500\nsnapshot guessed\n"
    code, snaps, data = run_box(env / "run", script2, data=data)
    assert code == 0
    actions = exported(data)["actions"]
    assert actions[1] == {"type": "guess", "seat": "A", "card": touch}
    assert (snaps / "guessed-oled-B.png").exists()


def test_solo_partner_is_loaded_once_for_two_games(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, spies, _ = _solo_game(env, monkeypatch)
    try:
        _box_clue(app)
        first = spies["p"]
        app.game.abandon()
        from device.screens.solo import start_solo

        start_solo(app, "normal")
        _box_clue(app)
        assert spies["p"] is first  # not loaded again
        assert sum(1 for name, _, _ in first.calls if name == "new_game") == 1
        assert len([line for line in app.screen.ctx.lines(app.game.session.public_view()) if "J'ai dit" in line]) == 1
    finally:
        app.shutdown()


class StopAfterOne:
    """A stand-in partner: one guess on the human's clue (the card it is told), then it stops."""

    def __init__(self, card: int) -> None:
        self.card = card

    def prepare_board(self, board: Any, covered: Any = ()) -> None:
        pass

    def new_game(self) -> None:
        pass

    def next_guess(self, board: Any, my_side: str, word: Any, number: Any, covered: Any, marks: Any,
                   history: Any = (), sudden_death: bool = False, turn_guesses: Any = (), **_: Any) -> Any:
        from partner import GuessChoice

        return None if turn_guesses else GuessChoice(self.card, 0.9, 0.0, 1.0)

    def explain(self, history: Any = ()) -> list[str]:
        return []


def test_solo_box_says_when_it_stops(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, setup = _solo_game(env, monkeypatch)
    green = [i for i, c in enumerate(setup["key"]["A"]) if c == "G"][0]
    monkeypatch.setattr(solo, "load_partner", lambda language, directory, difficulty: StopAfterOne(green))
    try:
        app.box.press("A.ok")
        app.step(0)
        app.box.type_text("A", "1\nzoo\n")
        app.step(0)
        said, stop_fill = False, False
        for _ in range(300):
            app.box.advance(0.05)
            app.step(0)
            if app.game.session.state.phase != "guess":
                break
            notice = app.screen.notices.banner
            said = said or bool(notice and notice[0] == app.tr("solo.box_stops"))
            hold = app.screen.holds.get("B")
            stop_fill = stop_fill or bool(hold and hold.what == "stop")
        history = [str(a) for a in app.game.session.state.history]
        assert history[-2:] == [f"B guess {green}", "B stop"], history
        assert said and stop_fill
    finally:
        app.shutdown()


def test_solo_model_gone_says_why_and_the_game_waits(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app, _, _ = _solo_game(env, monkeypatch)
    try:
        space_path("fr", "spacy", app.storage.directory).unlink()
        app.box.press("A.stop")  # the box should give the first clue
        app.step(0)
        _run(app, 1.0)
        view = app.game.session.public_view()
        assert view.phase == "clue" and not view.clues
        message = app.screen.message(view)
        assert message == app.tr("solo.failed", reason=app.tr("solo.not_built"))
        app.box.press("menu")
        app.box.release("menu")
        app.step(0)
        assert app.screen.name == "pause"  # the player can leave; the game is saved
    finally:
        app.shutdown()
