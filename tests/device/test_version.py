"""The version shown in the admin screen and by ``duetbox --version``: the installer's VERSION file, else the
package's version."""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from device import version as version_mod  # noqa: E402
from device.cli import main  # noqa: E402


def test_the_installers_version_file_wins(tmp_path: Path) -> None:
    path = tmp_path / "VERSION"
    path.write_text("0.2.0 (git 1a2b3c4)\n")
    assert version_mod.version(path) == "0.2.0 (git 1a2b3c4)"


def test_without_a_file_the_package_version(tmp_path: Path) -> None:
    assert version_mod.version(tmp_path / "absent") == metadata.version("duetbox")
    (tmp_path / "empty").write_text("\n")
    assert version_mod.version(tmp_path / "empty") == metadata.version("duetbox")


def test_the_file_sits_next_to_the_virtualenv(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(version_mod.sys, "prefix", "/opt/duetbox/venv")
    assert version_mod.version_file() == Path("/opt/duetbox/VERSION")


def test_duetbox_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"duetbox {version_mod.version()}\n"


def test_the_admin_screen_shows_the_version(tmp_path: Path) -> None:
    from device.app import App
    from device.screens.shell import AdminScreen, SettingsScreen
    from device.storage import Storage
    from hardware.factory import open_box

    app = App(open_box("mock"), Storage(tmp_path / "data"), seed=1)
    try:
        app.start()
        admin = AdminScreen(app).frame().shared
        assert f"duetbox {version_mod.version()}" in admin.status
        assert "duetbox" not in SettingsScreen(app).frame().shared.status  # players' settings: no version
    finally:
        app.shutdown()
