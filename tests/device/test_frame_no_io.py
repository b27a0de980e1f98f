"""No I/O in ``frame()``: a screen reads storage and files when it opens (``enter``) or when something changes,
never when it is drawn (the loop may draw many frames a second). Every SQL statement the storage runs is seen
through SQLite's trace callback; file-system calls through ``os``'s and ``open``'s entry points."""

from __future__ import annotations

import builtins
import io
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from boxscript import WORDS, make_record  # noqa: E402

from device.app import App  # noqa: E402
from device.screens import classic, help, missions, shell, solo  # noqa: E402
from device.screens.base import Screen  # noqa: E402
from device.storage import Storage  # noqa: E402
from engine.classic import random_classic_key  # noqa: E402
from hardware.factory import open_box  # noqa: E402

_FS = ("stat", "lstat", "scandir", "listdir", "open", "access")


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = App(open_box("mock"), Storage(tmp_path / "data"), seed=3)
    app.storage.new_sheet("Les As")
    yield app
    app.shutdown()


@contextmanager
def io_seen(app: App, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every SQL statement and file-system call made inside the block."""
    seen: list[str] = []

    def spy(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen.append(f"{name}{args[:1]}")
            return real(*args, **kwargs)
        return call

    with monkeypatch.context() as patch:
        for name in _FS:
            patch.setattr(os, name, spy(f"os.{name}", getattr(os, name)))
        patch.setattr(builtins, "open", spy("open", builtins.open))
        patch.setattr(io, "open", spy("io.open", io.open))
        app.storage.db.set_trace_callback(lambda sql: seen.append(f"sql {sql}"))
        try:
            yield seen
        finally:
            app.storage.db.set_trace_callback(None)


def _classic_record(kind: str) -> dict[str, Any]:
    key = random_classic_key(random.Random(4), kind, "source")  # type: ignore[arg-type]
    cards = list(WORDS) if kind == "classic" else [f"p{i:02d}" for i in range(20)]
    return {"format": "duetbox-record/1", "mode": kind, "language": "en", "cards": cards, "key": key.cards,
            "start": key.start, "variant": "standard", "pictures_key": "source", "rules": {"clues": "strict"},
            "seed": 4, "actions": []}


def _screens(app: App) -> Iterator[tuple[str, Callable[[], Screen]]]:
    menu = shell.MenuScreen(app)
    yield "menu", lambda: menu
    for kind in ("duet", "duet_pictures", "hotseat"):
        yield f"setup {kind}", lambda kind=kind: shell.SetupScreen(app, kind, menu)  # type: ignore[misc]
    for kind in ("classic", "pictures"):
        yield f"setup {kind}", lambda kind=kind: classic.ClassicSetupScreen(app, kind, menu)  # type: ignore[misc]
    yield "solo setup", lambda: solo.SoloSetupScreen(app, menu)
    yield "settings", lambda: shell.SettingsScreen(app, menu)
    yield "admin", lambda: shell.AdminScreen(app, menu)
    yield "stats", lambda: shell.StatsScreen(app, menu)
    yield "attract", lambda: shell.AttractScreen(app, menu)
    yield "pin", lambda: shell.PinScreen(app, menu)
    yield "sheets", lambda: missions.SheetScreen(app, menu)
    yield "sheet name", lambda: missions.NameScreen(app, menu)
    yield "map", lambda: missions.MapScreen(app, app.storage.sheets()[0][0])
    yield "help index", lambda: help.HelpIndexScreen(app, menu)
    for mode in help.MODES:
        yield f"help {mode}", lambda mode=mode: help.HelpScreen(app, mode, menu)  # type: ignore[misc]
    yield "about", lambda: help.AboutScreen(app, menu)
    yield "solo not ready", lambda: help.SoloInfoScreen(app, "not_built", menu)
    yield "confirm", lambda: help.ConfirmScreen(app, "reset_stats", act=lambda: None, safe=lambda: None)


def test_frame_of_every_shell_screen_reads_nothing(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    app.start()
    checked = []
    for name, make in _screens(app):
        screen = make()
        app.switch(screen)  # enter: reading storage and files is fine here
        with io_seen(app, monkeypatch) as seen:
            screen.frame()
            app.frame()
            screen.frame()
        assert seen == [], f"{name}: frame() did I/O: {seen[:5]}"
        checked.append(name)
    assert len(checked) == 15 + 4 + len(help.MODES)


@pytest.mark.parametrize("record", [make_record(5), _classic_record("classic")], ids=["duet", "classic"])
def test_frame_of_a_game_and_its_pause_menu_reads_nothing(app: App, monkeypatch: pytest.MonkeyPatch,
                                                          record: dict[str, Any]) -> None:
    app.start(record)
    game = app.screen
    assert game.in_game
    for screen in (game, shell.PauseScreen(app, game)):
        app.switch(screen)
        with io_seen(app, monkeypatch) as seen:
            screen.frame()
            app.frame()
        assert seen == [], f"{screen.name}: frame() did I/O: {seen[:5]}"


def test_io_seen_sees_what_the_old_frames_did(app: App, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spy is able to fail: the queries and probes the screens now make on enter are seen."""
    app.start()
    stats = shell.StatsScreen(app)
    with io_seen(app, monkeypatch) as seen:
        stats.enter()
        app.storage.statistics()
        Path(app.storage.directory).exists()
    assert any(s.startswith("sql ") for s in seen) and any(s.startswith("os.stat") for s in seen)
