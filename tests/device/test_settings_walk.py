"""Every value of every setting can be reached from the box's buttons (issue 25: the Settings kept its own language
list, "fr", "en", "ro", so German and Italian could not be chosen on the box)."""

from __future__ import annotations

from pathlib import Path

from boxscript import mock_app, step

from device.screens.shell import AdminScreen, MenuScreen, SettingsScreen
from engine.duet import MAX_TOKENS, STANDARD_TOKENS
from engine.languages import CODES
from engine.words import bundled_packs


def _walk(app: object, screen: SettingsScreen) -> dict[str, set[object]]:
    """Each row's values seen while pressing seat A's right (then left) through it, row by row with down."""
    seen: dict[str, set[object]] = {}
    rows = screen.rows()
    for index, row in enumerate(rows):
        assert app.screen is screen and screen.selected == index  # type: ignore[attr-defined]
        options = screen._options(row)
        if options:
            values = {app.settings.get(row)}  # type: ignore[attr-defined]
            for _ in range(len(options) + 1):
                step(app, "press A.right", "release A.right")
                values.add(app.settings.get(row))  # type: ignore[attr-defined]
            for _ in range(len(options) + 1):
                step(app, "press A.left", "release A.left")
                values.add(app.settings.get(row))  # type: ignore[attr-defined]
            seen[row] = values
        step(app, "press A.down", "release A.down")
        screen = app.screen  # type: ignore[attr-defined,assignment]  # a language change keeps this screen
    return seen


def test_the_players_settings_reach_every_language_from_the_menu(tmp_path: Path) -> None:
    app = mock_app(tmp_path)
    try:
        app.start()
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        keys = [item.key for item in menu.items()]
        for _ in range(keys.index("menu.settings")):
            step(app, "press A.down", "release A.down")
        step(app, "press A.ok", "release A.ok")
        assert isinstance(app.screen, SettingsScreen)
        seen = _walk(app, app.screen)
        assert seen["language"] == set(CODES) >= {"de", "it"}
        assert seen["orientation"] == {"table", "upright"}
    finally:
        app.shutdown()


def test_the_admin_settings_reach_every_language_pack_and_token_count(tmp_path: Path) -> None:
    app = mock_app(tmp_path)
    try:
        app.start()
        app.switch(AdminScreen(app))
        seen = _walk(app, app.screen)
        assert seen["language"] == set(CODES)
        assert seen["pack"] == set(bundled_packs()) >= {"de", "it"}
        assert seen["tokens"] == set(range(STANDARD_TOKENS, MAX_TOKENS + 1)) == {9, 10, 11}
        for row, values in seen.items():  # every row cycles through all its values
            assert values >= set(app.screen._options(row)), row
    finally:
        app.shutdown()
