"""The box on a laptop (issue 27): the first language from the desktop's locale, a window that fits a 1366x768
screen, a redraw when the window is uncovered, one clear line without a desktop, no ALSA noise, a bounded
``--size``."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from device.commands import run
from device.storage import Storage


def _clear_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(("lang", "want"), [("de_DE.UTF-8", "de"), ("it_IT.UTF-8", "it"), ("en_GB.UTF-8", "en"),
                                            ("ja_JP.UTF-8", None), ("C", None)])
def test_desktop_language_is_the_locale_when_the_box_speaks_it(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                               want: str | None) -> None:
    _clear_locale(monkeypatch)
    monkeypatch.setenv("LANG", lang)
    assert run.desktop_language() == want


def test_first_start_takes_the_desktop_language_and_keeps_a_chosen_one(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _clear_locale(monkeypatch)
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    storage = Storage(tmp_path / "data")
    try:
        run.first_language(storage)
        assert storage.settings()["language"] == "en" and storage.settings()["pack"] == "en"
        storage.set_setting("language", "ro")
        run.first_language(storage)  # a later start: the players' choice stays
        assert storage.settings()["language"] == "ro"
    finally:
        storage.close()


def test_size_is_bounded_with_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = run.main(["--hardware", "mock", "--size", "100000x100000", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "at most 7680x4320" in err[0]


def test_emulator_without_a_desktop_says_so_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    code = run.main(["--hardware", "emulator", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "no desktop" in err[0], err


def test_window_fits_a_1366x768_laptop() -> None:
    from hardware.emulator import _fit

    for size in ((1240, 876), (1560, 1104)):  # the emulator at 960x540 and at 1280x720
        fit = _fit(size, [(1366, 768)], "x11")
        assert round(size[0] * fit) <= 1366 and round(size[1] * fit) <= 768 - 70
    assert _fit((1240, 876), [(2560, 1440)], "x11") == 1.0  # a large desktop: full size
    assert _fit((1240, 876), [(1366, 768)], "dummy") == 1.0  # tests and screenshots: full size


def test_emulator_redraws_when_uncovered(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.emulator import EmulatorBox
    from hardware.factory import open_box
    from hardware.mock import FakeClock

    box = open_box("emulator", clock=FakeClock(), display_size=(800, 480))
    assert isinstance(box, EmulatorBox)
    try:
        shown: list[int] = []
        monkeypatch.setattr(box, "_show", lambda: shown.append(1))
        pygame.event.clear()
        box._pump()
        assert shown == []  # nothing changed, nothing drawn
        pygame.event.post(pygame.event.Event(pygame.WINDOWEXPOSED))
        box._pump()
        assert shown == [1]
    finally:
        box.close()


def test_alsa_lines_are_kept_off_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    from device.services.sound import _quiet_stderr

    with _quiet_stderr():
        os.write(2, b"ALSA lib confmisc.c:767:(parse_card) cannot find card '0'\n")
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"
