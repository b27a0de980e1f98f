"""The suite is hermetic (tests/conftest.py): no test reads or writes the user's own duetbox directories, and what
this machine's user built or played there (a Solo partner after `make partner`, an unfinished game) changes no
result."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from hermetic_home import GUARDED, HERMETIC, TouchedUserData, guarded

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "partner"))

from tiny_space import export_tiny  # noqa: E402


def test_every_default_directory_is_the_tests_own() -> None:
    from device.storage import data_dir as box_dir
    from partner.paths import data_dir as partner_dir

    for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "DUETBOX_DATA_DIR"):
        assert Path(os.environ[name]).is_relative_to(HERMETIC.home), name
    assert "STATE_DIRECTORY" not in os.environ
    assert box_dir(None) == partner_dir() == HERMETIC.data
    assert Path.home() == HERMETIC.home
    # and what a child process finds
    out = subprocess.run([sys.executable, "-c", "from device.storage import data_dir; print(data_dir(None))"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert Path(out.stdout.strip()) == HERMETIC.data


def test_the_guard_fails_a_test_that_reaches_the_user_directory() -> None:
    real = GUARDED[0]
    assert guarded(real / "duetbox.db") == str(real)
    assert guarded(HERMETIC.data / "duetbox.db") is None
    with pytest.raises(TouchedUserData):
        open(real / "no-such-file.txt")  # noqa: SIM115 - the open itself is refused, before the file is looked up
    with pytest.raises(TouchedUserData):
        sqlite3.connect(str(real / "duetbox.db"))
    with pytest.raises(TouchedUserData):
        os.listdir(real)
    with pytest.raises(TouchedUserData):
        (real / "partner").mkdir(parents=True)


def test_the_resolvers_refuse_the_user_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    from device.storage import data_dir as box_dir
    from partner.paths import data_dir as partner_dir

    monkeypatch.setenv("DUETBOX_DATA_DIR", str(GUARDED[0]))
    with pytest.raises(TouchedUserData):
        partner_dir()
    with pytest.raises(TouchedUserData):
        box_dir(None)


def _files(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


@pytest.mark.slow
def test_the_suite_passes_on_a_machine_with_a_built_partner_and_a_game_in_progress(tmp_path: Path) -> None:
    """Part of the suite (the tests a built partner or an existing data directory used to change) run in a child
    pytest whose HOME holds ~/.local/share/duetbox with a built French partner and an unfinished game, and no
    XDG or DUETBOX variable set: everything passes, and nothing there is read or changed (the child's own guard
    fails any test that reaches it)."""
    home = tmp_path / "home"
    user = home / ".local" / "share" / "duetbox"
    export_tiny(user)
    from device.modes import GameOptions
    from device.storage import Storage
    from engine.session import session_from_record

    session, _ = session_from_record(json.loads((ROOT / "docs/scripts/records/duet.json").read_text("utf-8")))
    storage = Storage(user)
    storage.new_game(session.mode, session.setup, kind="duet", options=GameOptions(language="fr"))
    assert storage.current_game() is not None
    storage.close()
    before = _files(home)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("XDG_", "DUETBOX_", "PYTEST_", "STATE_DIRECTORY"))}
    env.update(HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", GPIOZERO_PIN_FACTORY="mock",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    tests = ["tests/device/render/test_shared_fit.py::test_docs_screens_cut_no_text_in_any_language[11-solo]",
             "tests/device/render/test_shared_fit.py::test_docs_screens_cut_no_text_in_any_language[01-menu]",
             "tests/device/test_docs_images.py", "tests/device/test_run_command.py", "tests/device/test_app_games.py",
             "tests/device/test_app_resume.py",
             "tests/test_hermetic.py::test_every_default_directory_is_the_tests_own",
             "tests/test_hermetic.py::test_the_guard_fails_a_test_that_reaches_the_user_directory"]
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist", *tests],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    tail = "\n".join((out.stdout + out.stderr).splitlines()[-25:])
    assert out.returncode == 0, tail
    assert " passed" in tail and "failed" not in tail and "error" not in tail, tail
    assert _files(home) == before


def test_make_docs_takes_a_partner_only_from_duetbox_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A partner built in the user's default directory does not make `make docs` run the solo script, nor show
    Solo on any other script's menu; DUETBOX_DATA_DIR=... make docs does run it, with that partner."""
    from device import docs

    default = tmp_path / "xdg"
    export_tiny(default / "duetbox")
    monkeypatch.setenv("XDG_DATA_HOME", str(default))
    monkeypatch.delenv("DUETBOX_DATA_DIR")
    solo_head = ["#! --seed 4", "#? solo fr"]
    assert docs.solo_language(solo_head) == "fr" and docs.solo_language(["#! --seed 4"]) is None
    assert not docs.solo_ready("fr", None)
    assert docs.solo_ready("fr", str(default / "duetbox"))
    with docs.partner_home(["#! --seed 4"], str(tmp_path / "run"), str(default / "duetbox")):
        assert os.environ["DUETBOX_DATA_DIR"] == str(tmp_path / "run")  # any other script: as on a new box
    with docs.partner_home(solo_head, str(tmp_path / "run"), str(default / "duetbox")):
        assert os.environ["DUETBOX_DATA_DIR"] == str(default / "duetbox")
    assert "DUETBOX_DATA_DIR" not in os.environ
    assert docs.main(["11-solo"]) == 0
    assert "11-solo.txt skipped" in capsys.readouterr().out
