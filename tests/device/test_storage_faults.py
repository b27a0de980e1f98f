"""Storage faults, injected (tests/device/storage_faults.py), not hoped for: a full disk, a read-only card, an I/O
error on a write and on the fsync, the WAL removed, a second box on the same data, an empty database file.

For each: the loop runs on, the message is on every screen, nothing acknowledged is lost, nothing refused comes
back after a restart, and play goes on by itself once storage works again. Finishing a game is one transaction."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import cards, make_record  # noqa: E402
from storage_faults import MODES, Faults  # noqa: E402

from device.app import App, NotSaved  # noqa: E402
from device.render import models as m  # noqa: E402
from device.storage import DB_NAME, Storage, StorageError  # noqa: E402
from engine.actions import Clue, Guess, Stop  # noqa: E402
from engine.session import session_from_record  # noqa: E402
from hardware.factory import open_box  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def new_app(directory: Path, faults: Faults | None = None) -> App:
    factory = faults.factory() if faults is not None else sqlite3.Connection
    return App(open_box("mock"), Storage(directory, factory=factory), seed=3)


def guessing(app: App, seed: int = 31) -> dict[str, Any]:
    record = make_record(seed, actions=[{"type": "clue", "seat": "A", "word": None, "number": 3}])
    app.start(record)
    return record


def saved_actions(directory: Path) -> list[dict[str, Any]]:
    storage = Storage(directory)
    try:
        row = storage.last_game()
        assert row is not None
        return storage.actions(row.id)
    finally:
        storage.close()


@pytest.mark.parametrize("mode", MODES)
def test_storage_fault_refuses_the_move_says_so_and_goes_on(mode: str, tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    record = guessing(app)
    greens = cards(record, "A", "G")
    app.game.act(Guess("B", greens[0]), app.game.session.version)  # acknowledged
    acknowledged = saved_actions(tmp_path)
    faults.mode = mode
    version = app.game.session.version
    with pytest.raises(NotSaved):
        app.game.act(Guess("B", greens[1]), version)
    assert app.game.session.version == version  # refused in memory too
    assert app.storage.problem in ("full", "readonly", "io")
    # the loop runs on and shows the message on the shared display and both OLEDs, nothing else
    for _ in range(3):
        app.box.advance(1.0)
        app.step(0)
    frame = app.frame()
    assert isinstance(frame.shared, m.MessageUi) and frame.shared.title == app.tr("storage.title")
    assert all(isinstance(frame.oleds[s], m.OledTextUi) for s in "AB")
    assert not frame.seat_views  # no key is drawn meanwhile
    assert app.running
    # storage works again: the box sees it by itself, the move can be made
    faults.mode = None
    app.box.advance(3.0)
    app.step(0)
    assert app.storage.problem is None
    assert not isinstance(app.frame().shared, m.MessageUi)
    app.game.act(Guess("B", greens[1]), app.game.session.version)
    app.shutdown()
    after = saved_actions(tmp_path)
    assert after[: len(acknowledged)] == acknowledged  # nothing acknowledged lost
    assert after[len(acknowledged):] == [{"type": "guess", "seat": "B", "card": greens[1]}]


@pytest.mark.parametrize("mode", MODES)
def test_storage_fault_refused_move_does_not_come_back_after_a_restart(mode: str, tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    record = guessing(app)
    acknowledged = saved_actions(tmp_path)
    faults.mode = mode
    with pytest.raises(NotSaved):
        app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    faults.mode = None  # the card works again, then the box restarts before anything else is played
    app.shutdown()
    assert saved_actions(tmp_path) == acknowledged
    again = new_app(tmp_path)
    again.start()
    assert again.game.session is not None and again.game.session.version == len(acknowledged)
    again.shutdown()


def test_storage_fault_wal_removed_while_playing_loses_nothing(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    record = guessing(app)
    greens = cards(record, "A", "G")
    app.game.act(Guess("B", greens[0]), app.game.session.version)
    (tmp_path / f"{DB_NAME}-wal").unlink()
    app.game.act(Guess("B", greens[1]), app.game.session.version)  # folded into the database, reopened
    app.shutdown()
    actions = saved_actions(tmp_path)
    assert [a.get("card") for a in actions[1:]] == greens[:2]


def test_storage_fault_finishing_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = new_app(tmp_path)
    sheet = app.storage.new_sheet("us")
    record = make_record(5, mission="Prague")
    app.start(record)
    app.game.options = replace(app.game.options, sheet=sheet)
    assassin = cards(record, "A", "X")[0]
    app.game.act(Clue("A", None, 1), app.game.session.version)
    writes: list[tuple[str, list[str]]] = []
    real = app.storage._write

    def counted(sql: str, args: Any = (), more: Any = (), durable: bool = True, undo: Any = ()) -> Any:
        more = list(more)
        writes.append((sql.split()[0], [extra.split()[0] for extra, _ in more]))
        return real(sql, args, more, durable, undo)

    monkeypatch.setattr(app.storage, "_write", counted)
    app.game.act(Guess("B", assassin), app.game.session.version)  # the last move: the game is lost
    assert app.game.session.over
    assert writes == [("INSERT", ["INSERT", "UPDATE", "INSERT"])]  # action, screen, result, mission: one commit
    monkeypatch.undo()
    row = app.storage.game(app.game.id)
    assert row is not None and row.status == "over" and row.result == "lost"
    assert app.storage.mission_log(sheet) == [("Prague", False)]
    app.shutdown()


@pytest.mark.parametrize("mode", MODES)
def test_storage_fault_on_the_last_move_leaves_the_game_playing_and_untouched(mode: str, tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    sheet = app.storage.new_sheet("us")
    record = make_record(5, mission="Prague")
    app.start(record)
    app.game.options = replace(app.game.options, sheet=sheet)
    app.game.act(Clue("A", None, 1), app.game.session.version)
    faults.mode = mode
    with pytest.raises(NotSaved):
        app.game.act(Guess("B", cards(record, "A", "X")[0]), app.game.session.version)
    faults.mode = None
    game = app.game.id
    app.shutdown()
    storage = Storage(tmp_path)
    row = storage.game(game)
    assert row is not None and row.status == "playing" and row.result is None
    assert storage.mission_log(sheet) == [] and len(storage.actions(game)) == 1
    storage.close()


def test_storage_fault_reset_statistics_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = Storage(tmp_path)
    calls: list[str] = []
    real = storage._write
    monkeypatch.setattr(storage, "_write", lambda sql, *a, **k: calls.append(sql) or real(sql, *a, **k))
    storage.reset_statistics()
    assert len(calls) == 1
    storage.close()


def test_storage_fault_new_game_on_a_full_disk_keeps_the_menu(tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    app.start()
    menu = app.screen
    faults.mode = "full"
    session, _ = session_from_record(make_record(8), "en")
    app.game.begin(session, kind="duet")
    assert app.screen is menu and app.game.id is None
    assert isinstance(app.frame().shared, m.MessageUi)
    faults.mode = None
    app.shutdown()
    storage = Storage(tmp_path)
    assert storage.current_game() is None  # the refused new game did not come back
    storage.close()


def test_storage_fault_screen_state_on_a_failing_disk_does_not_end_the_loop(tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    guessing(app)
    faults.mode = "eio_write"
    app.box.press("B.right")
    app.box.release("B.right")
    app.step(0)  # saving the cursor move fails: logged, shown, the loop goes on
    assert app.running and app.storage.problem == "io"
    faults.mode = None
    app.shutdown()


def test_storage_second_instance_on_the_same_data_says_so_and_exits_2(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from device.storage import Storage; s = Storage(sys.argv[1]); "
         "print('ok', flush=True); time.sleep(60)", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
        with pytest.raises(StorageError, match="another duetbox is already using"):
            Storage(tmp_path)
        script = tmp_path / "s.txt"
        script.write_text("press A.ok\n")
        result = subprocess.run([sys.executable, "-m", "device.cli", "run", "--hardware", "mock", "--script",
                                 str(script), "--data-dir", str(tmp_path)], cwd=ROOT, capture_output=True,
                                text=True, timeout=60, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert result.returncode == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and "another duetbox is already using" in lines[0]
        assert f"process {holder.pid}" in lines[0]
    finally:
        holder.kill()
        holder.wait()
    Storage(tmp_path).close()  # the lock dies with its process


def test_storage_empty_database_file_is_logged_and_said_on_screen(tmp_path: Path,
                                                                 caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / DB_NAME).write_bytes(b"")
    app = new_app(tmp_path)
    assert app.storage.notice == "empty"
    assert "empty file" in caplog.text
    app.start()
    frame = app.frame()
    assert isinstance(frame.shared, m.MessageUi) and frame.shared.title == app.tr("storage.fresh_title")
    app.box.press("A.ok")
    app.box.release("A.ok")
    app.step(0)
    assert app.storage.notice is None and not isinstance(app.frame().shared, m.MessageUi)
    app.shutdown()


def test_storage_export_works_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    guessing(app)
    app.shutdown()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from device.storage import Storage; s = Storage(sys.argv[1]); "
         "print('ok', flush=True); time.sleep(60)", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ok"
        result = subprocess.run([sys.executable, "-m", "device.cli", "export", "--data-dir", str(tmp_path)],
                                cwd=ROOT, capture_output=True, text=True, timeout=60,
                                env=dict(os.environ, PYTHONPATH=str(ROOT)))
        assert result.returncode == 0, result.stderr
        assert '"duetbox-record/1"' in result.stdout
    finally:
        holder.kill()
        holder.wait()


def test_storage_stop_is_refused_too(tmp_path: Path) -> None:
    faults = Faults()
    app = new_app(tmp_path, faults)
    record = guessing(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    faults.mode = "full"
    with pytest.raises(NotSaved):
        app.game.act(Stop("B"), app.game.session.version)
    faults.mode = None
    app.shutdown()


# -- every entry point with the storage failing: start, resume, new game, --start ---------------------------------

def _goes_on_with_the_message(app: App, faults: Faults) -> None:
    """One message on every screen while it fails, the loop runs, and the box goes on once storage works."""
    for _ in range(3):
        app.box.advance(1.0)
        app.step(0)
    frame = app.frame()
    assert isinstance(frame.shared, m.MessageUi) and frame.shared.title == app.tr("storage.title")
    assert all(isinstance(frame.oleds[s], m.OledTextUi) for s in "AB")
    assert app.running
    faults.mode = None
    app.box.advance(3.0)
    app.step(0)
    assert app.storage.problem is None and not isinstance(app.frame().shared, m.MessageUi)


def _unfinished_game_with_one_guess(directory: Path) -> list[dict[str, Any]]:
    app = new_app(directory)
    record = guessing(app)
    app.game.act(Guess("B", cards(record, "A", "G")[0]), app.game.session.version)
    app.shutdown()
    return saved_actions(directory)


@pytest.mark.parametrize("actions", [0, 2], ids=["no-actions", "two-actions"])
@pytest.mark.parametrize("mode", MODES)
def test_storage_fault_start_from_a_record_shows_the_menu_and_the_message(mode: str, actions: int,
                                                                           tmp_path: Path) -> None:
    """`duetbox run --start REC` on a full (read-only, failing) card: no AssertionError from a screenless draw;
    the menu with the storage message, the box goes on, the unfinished game already there is kept as it was,
    and nothing of the refused record stays."""
    before = _unfinished_game_with_one_guess(tmp_path)
    faults = Faults()
    app = new_app(tmp_path, faults)
    faults.mode = mode
    record = make_record(12)
    record["actions"] = [{"type": "clue", "seat": "A", "word": None, "number": 2},
                         {"type": "guess", "seat": "B", "card": cards(record, "A", "G")[0]}][:actions]
    app.start(record)  # used to raise AssertionError (App.start -> draw: no screen)
    assert app.screen is not None and app.screen.name == "menu"
    assert app.game.session is None and app.game.id is None
    _goes_on_with_the_message(app, faults)
    app.shutdown()
    storage = Storage(tmp_path)
    try:
        row = storage.current_game()
        assert row is not None and storage.actions(row.id) == before  # the earlier game, untouched
        assert storage.last_game().id == row.id  # the refused one is not there
    finally:
        storage.close()


def test_storage_fault_start_from_a_record_failing_half_way_takes_the_game_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card fills up after the record's game was created, before its actions: the game is taken back (when
    storage works again, before anything else is written) and the menu says why."""
    faults = Faults()
    app = new_app(tmp_path, faults)
    real = app.storage.new_game

    def new_game(*args: Any, **kwargs: Any) -> int:
        game = real(*args, **kwargs)
        faults.mode = "full"
        return game

    monkeypatch.setattr(app.storage, "new_game", new_game)
    app.start(make_record(13, actions=[{"type": "clue", "seat": "A", "word": None, "number": 2}]))
    assert app.screen is not None and app.screen.name == "menu" and app.game.session is None
    _goes_on_with_the_message(app, faults)
    app.shutdown()
    storage = Storage(tmp_path)
    try:
        assert storage.current_game() is None and storage.last_game() is None
    finally:
        storage.close()


@pytest.mark.parametrize("mode", MODES)
def test_storage_fault_resume_on_a_failing_card_plays_on_where_it_stood(mode: str, tmp_path: Path) -> None:
    """A restart (power back) while the card refuses writes: the game resumes where it stood, the first write
    that fails shows the message, and the game goes on once the card works; nothing lost."""
    before = _unfinished_game_with_one_guess(tmp_path)
    faults = Faults()
    app = new_app(tmp_path, faults)
    faults.mode = mode
    app.start()
    assert app.game.session is not None and app.game.session.version == len(before)
    app.box.press("B.right")  # a cursor move: its screen state cannot be saved
    app.box.release("B.right")
    app.step(0)
    assert app.storage.problem is not None
    _goes_on_with_the_message(app, faults)
    assert app.game.session is not None and app.screen is not None and app.screen.in_game
    app.shutdown()
    assert saved_actions(tmp_path) == before


def test_storage_fault_a_game_that_cannot_be_resumed_nor_abandoned_stays(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A saved game the engine refuses, on a full card: the menu (abandoning it could not be written), the box
    goes on."""
    _unfinished_game_with_one_guess(tmp_path)
    faults = Faults()
    app = new_app(tmp_path, faults)
    faults.mode = "full"

    def broken(*args: Any, **kwargs: Any) -> Any:
        from engine.session import SetupError

        raise SetupError("not a game this box can play")

    monkeypatch.setattr("device.game.session_from_record", broken)
    app.start()
    assert app.screen is not None and app.screen.name == "menu"
    _goes_on_with_the_message(app, faults)
    app.shutdown()


def test_storage_fault_every_start_has_a_screen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the game controller does, App.start never draws without a screen."""
    app = new_app(tmp_path)
    monkeypatch.setattr(app.game, "start_from_record", lambda record: False)
    app.start(make_record(14))
    assert app.screen is not None and app.screen.name == "menu"
    app.shutdown()


def test_storage_fault_run_start_on_a_full_card_exits_0_with_one_message(tmp_path: Path) -> None:
    """The command itself: `duetbox run --start REC --script` on a full card (the shim loaded by a sitecustomize
    of the test) prints no traceback, ends its script, exit 0, and the snapshot shows the storage message."""
    record = tmp_path / "rec.json"
    record.write_text(json.dumps(make_record(15)), "utf-8")
    script = tmp_path / "s.txt"
    script.write_text("wait 100\nsnapshot full\n", "utf-8")
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sitecustomize.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "import device.storage as st\n"
        "from storage_faults import Faults\n"
        "faults = Faults()\n"
        "real = st.Storage.__init__\n"
        "def init(self, *a, **k):\n"
        "    k['factory'] = faults.factory()\n"
        "    real(self, *a, **k)\n"
        "    faults.mode = 'full'\n"
        "st.Storage.__init__ = init\n", "utf-8")
    data = tmp_path / "data"
    env = dict(os.environ, PYTHONPATH=f"{shim}:{ROOT}", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    result = subprocess.run([sys.executable, "-m", "device.cli", "run", "--hardware", "mock", "--start", str(record),
                             "--script", str(script), "--data-dir", str(data), "--snapshots", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-1500:]
    assert "Traceback" not in result.stderr
    assert "database or disk is full" in result.stderr
    assert (tmp_path / "full-shared.png").exists()
