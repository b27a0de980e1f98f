"""Issue 15 (the shell): help per mode, about, confirmations with the safe choice preselected, "same settings
again" at game over. Each test drives the real app on the mock box with button presses."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from boxscript import cards, make_record, mock_app  # noqa: E402

from device.app import App  # noqa: E402
from device.i18n import LANGUAGES, Translator  # noqa: E402
from device.render.help import AboutUi, ConfirmUi, HelpUi  # noqa: E402
from device.render.shared import SharedRenderer  # noqa: E402
from device.render.text import record_texts  # noqa: E402
from device.screens import flows  # noqa: E402
from device.screens.help import MODES, AboutScreen, ConfirmScreen, HelpIndexScreen, HelpScreen  # noqa: E402
from device.screens.parts import ClueEntry  # noqa: E402
from device.screens.shell import AdminScreen, MenuScreen, PauseScreen, SettingsScreen  # noqa: E402
from device.version import version  # noqa: E402
from engine.actions import Clue, Guess  # noqa: E402
from engine.classic import TeamClue, TeamGuess  # noqa: E402


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    app = mock_app(tmp_path, seed=3, language="fr")
    app.power = lambda what: None
    yield app
    app.shutdown()


def press(app: App, *buttons: str) -> None:
    for b in buttons:
        if b == "menu":  # in a game MENU acts on release (a short press: the pause menu)
            app.box.hold("menu", 100)
        else:
            app.box.press(b if "." in b else f"A.{b}")
        app.step(0)


def pick(app: App, key: str) -> None:
    """Move the list screen's selection to the row ``key`` and press OK."""
    screen = app.screen
    keys = [i.key for i in screen.items()]  # type: ignore[union-attr]
    screen.selected = keys.index(key)  # type: ignore[union-attr]
    press(app, "ok")


def selected_label(app: App) -> str:
    shared = app.frame().shared
    assert isinstance(shared, ConfirmUi)
    return shared.choices[shared.selected]


def texts_at(frame: Any, size: tuple[int, int]) -> list[Any]:
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, frame.view, frame.shared)
    return [t for t in surface.texts if t.text.strip()]


# -- help ----------------------------------------------------------------------------------------------------

def test_help_from_the_main_menu_covers_every_mode_with_pictures_for_both_seats(app: App) -> None:
    app.nav.menu()
    pick(app, "help.menu")
    assert isinstance(app.screen, HelpIndexScreen)
    index = app.screen
    for k, mode in enumerate(MODES):
        index.selected = k
        press(app, "ok")
        assert isinstance(app.screen, HelpScreen) and app.screen.mode == mode
        for page in range(app.screen.pages):
            frame = app.frame()
            ui = frame.shared
            assert isinstance(ui, HelpUi) and ui.lines and ui.figures, (mode, page)
            assert ui.page == f"{page + 1}/{app.screen.pages}"
            assert all(not line.startswith("help.") for line in ui.lines)  # every text in the catalog
            assert frame.oleds["A"] == frame.oleds["B"]  # both seats told where the help is
            for size in ((1280, 720), (800, 480)):
                drawn = texts_at(frame, size)
                first = ui.lines[0].split()[0]
                # printed twice on the table: once upright for A (lower half), once turned for B (upper half)
                mine = [t for t in drawn if t.text.startswith(first)]
                assert {t.turned for t in mine} == {False, True}, (mode, size)
                assert all((t.box[1] >= size[1] // 2) != t.turned for t in mine)
            press(app, "ok")
        assert app.screen is index  # OK on the last page goes back
    press(app, "stop")
    assert isinstance(app.screen, MenuScreen)


def test_help_upright_orientation_is_printed_once(app: App) -> None:
    app.settings.set("orientation", "upright")
    app.switch(HelpScreen(app, "duet", MenuScreen(app)))
    frame = app.frame()
    first = frame.shared.lines[0].split()[0]
    drawn = [t for t in texts_at(frame, (800, 480)) if t.text.startswith(first)]
    assert drawn and not any(t.turned for t in drawn)


@pytest.mark.parametrize("kind, mode", [("duet", "duet"), ("hotseat", "hotseat"), ("mission", "missions")])
def test_pause_menu_opens_the_current_modes_help_and_comes_back(app: App, kind: str, mode: str) -> None:
    flows.start_duet(app, kind, pack="fr", mission="Prague" if kind == "mission" else None,
                     sheet=None)
    game = app.screen
    press(app, "menu")
    assert isinstance(app.screen, PauseScreen)
    pause = app.screen
    pick(app, "help.pause")
    assert isinstance(app.screen, HelpScreen) and app.screen.mode == mode
    press(app, "stop")
    assert app.screen is pause
    press(app, "stop")
    assert app.screen is game


def test_pause_help_of_classic_and_pictures(app: App) -> None:
    from device.screens.classic import start_classic

    for kind in ("classic", "pictures"):
        start_classic(app, kind, pack="fr")
        press(app, "menu")
        pick(app, "help.pause")
        assert isinstance(app.screen, HelpScreen) and app.screen.mode == kind
        press(app, "stop", "stop")
        app.game.leave()


# -- about ---------------------------------------------------------------------------------------------------

def test_about_shows_the_version_the_licences_and_the_notice(app: App) -> None:
    app.nav.menu()
    pick(app, "help.menu")
    app.screen.selected = len(app.screen.rows()) - 1  # type: ignore[union-attr]
    press(app, "ok")
    assert isinstance(app.screen, AboutScreen)
    ui = app.frame().shared
    assert isinstance(ui, AboutUi)
    text = "\n".join(ui.lines)
    assert f"duetbox {version()}" == ui.lines[0]
    assert "Twemoji" in text and "CC BY 4.0" in text and "DejaVu" in text and "CC0" in text
    assert "Codenames" in text
    drawn = texts_at(app.frame(), (800, 480))
    assert {t.turned for t in drawn if t.text.startswith("duetbox")} == {False, True}
    press(app, "ok")
    assert isinstance(app.screen, HelpIndexScreen)


def test_about_version_is_the_one_the_command_line_prints(capsys: pytest.CaptureFixture[str]) -> None:
    from device import cli

    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"duetbox {version()}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_about_attributions_in_every_language(language: str) -> None:
    tr = Translator(language)
    assert "Twemoji" in tr("about.pictures") and "CC BY 4.0" in tr("about.pictures")
    assert "Codenames" in tr("about.notice") and "MIT" in tr("about.code")


# -- confirmations -------------------------------------------------------------------------------------------

def _in_game(app: App) -> None:
    flows.start_duet(app, "duet", pack="fr")
    assert app.game.playing


def test_abandon_asks_first_with_continue_preselected(app: App) -> None:
    _in_game(app)
    game_id = app.game.id
    press(app, "menu")
    pick(app, "pause.abandon")
    assert isinstance(app.screen, ConfirmScreen)
    assert selected_label(app) == app.tr("confirm.abandon_no")
    press(app, "ok")  # one OK on the preselected choice: nothing abandoned
    assert isinstance(app.screen, PauseScreen) and app.game.playing and app.game.id == game_id
    pick(app, "pause.abandon")
    press(app, "stop")  # STOP is the safe choice too
    assert app.game.playing
    pick(app, "pause.abandon")
    press(app, "right", "ok")
    assert not app.game.playing and app.storage.current_game() is None
    keys = app.frame().shared.keys  # both keys, once, before the menu
    assert keys is not None and set(keys) == {"A", "B"}
    press(app, "ok")
    assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize("row", ["shutdown", "reboot"])
def test_power_rows_ask_first_with_cancel_preselected(app: App, row: str) -> None:
    asked: list[str] = []
    app.power = asked.append
    admin = AdminScreen(app, MenuScreen(app))
    app.switch(admin)
    admin.selected = admin.rows().index(row)
    press(app, "ok")
    assert isinstance(app.screen, ConfirmScreen)
    assert selected_label(app) == app.tr(f"confirm.{row}_no")
    press(app, "ok")
    assert asked == [] and app.screen is admin and app.running
    admin.selected = admin.rows().index(row)
    press(app, "ok", "down", "ok")
    assert asked == [row] and not app.running


def test_reset_statistics_asks_first_with_keep_preselected(app: App) -> None:
    record = make_record(5)
    app.game.start_from_record(record)
    assassin = cards(record, "A", "X")[0]
    session = app.game.session
    assert session is not None
    app.game.act(Clue("A", None, 1), session.version)
    app.game.act(Guess("B", assassin), session.version)
    app.game.end()
    assert app.storage.statistics()
    admin = AdminScreen(app, MenuScreen(app))
    app.switch(admin)
    admin.selected = admin.rows().index("reset_stats")
    press(app, "ok")
    assert selected_label(app) == app.tr("confirm.reset_stats_no")
    press(app, "ok")
    assert app.storage.statistics() and app.screen is admin
    press(app, "ok", "left", "ok")
    assert not any(s["games"] for s in app.storage.statistics().values())


def test_idle_confirmation_takes_the_safe_choice(app: App) -> None:
    asked: list[str] = []
    app.power = asked.append
    settings = SettingsScreen(app)
    app.switch(ConfirmScreen(app, "shutdown", act=lambda: asked.append("shutdown"),
                             safe=lambda: app.switch(settings)))
    press(app, "right")  # the other choice chosen, then nobody presses OK
    app.box.advance(200)
    app.step(0)
    assert asked == [] and app.screen is settings


@pytest.mark.parametrize("row", ["menu.duet", "menu.hotseat", "menu.classic", "menu.missions"])
def test_new_game_over_a_saved_one_asks_first_with_keep_preselected(app: App, row: str) -> None:
    _in_game(app)
    saved = app.game.id
    app.game.leave()
    app.nav.menu()
    pick(app, row)
    assert isinstance(app.screen, ConfirmScreen)
    assert selected_label(app) == app.tr("confirm.replace_no")
    press(app, "ok")
    assert isinstance(app.screen, MenuScreen)
    current = app.storage.current_game()
    assert current is not None and current.id == saved
    pick(app, row)
    press(app, "down", "ok")  # replace: the saved game is abandoned, the set-up opens
    assert app.storage.current_game() is None and not isinstance(app.screen, (MenuScreen, ConfirmScreen))


def test_new_game_without_a_saved_one_asks_nothing(app: App) -> None:
    app.nav.menu()
    pick(app, "menu.duet")
    assert app.screen.name == "setup"


def test_refused_clue_defaults_to_changing_it(app: App) -> None:
    record = make_record(9)
    app.game.start_from_record(record)
    word = record["words"][3]
    press(app, "ok", "ok")  # seat A gives a clue: number 1, then the word
    app.box.type_text("A", word)
    app.step(0)
    press(app, "ok")
    entry = app.screen.entry  # type: ignore[union-attr]
    assert entry is not None and entry.step == "refusal"
    oled = app.frame().oleds["A"]
    assert oled.choices[oled.choice] == app.tr("clue.change")
    press(app, "ok")  # one OK: back to the word, no clue given
    session = app.game.session
    assert session is not None and not session.public_view().clues
    assert app.screen.entry.step == "word"  # type: ignore[union-attr]


# -- same settings again -------------------------------------------------------------------------------------

def _lose(app: App) -> None:
    """Seat B touches seat A's assassin, then both seats confirm and OK leaves the game over."""
    session = app.game.session
    assert session is not None
    key = session.seat_view("A").key
    assassin = next(i for i, c in enumerate(key) if c == "X")
    app.game.act(Clue("A", None, 1), session.version)
    app.game.act(Guess("B", assassin), session.version)
    app.nav.game()
    press(app, "A.ok", "B.ok", "A.ok")


@pytest.mark.parametrize("kind", ["duet", "hotseat", "duet_pictures"])
def test_same_settings_again_after_a_duet_game(app: App, kind: str) -> None:
    flows.start_duet(app, kind, tokens=11, pack="en", clues="flexible", several=True)
    first = app.game.id
    setup = dict(app.game.session.setup["rules"])  # type: ignore[union-attr]
    _lose(app)
    assert app.screen.name == "after_game"
    assert app.screen.items()[app.screen.selected].key == "again.same"  # type: ignore[union-attr]
    press(app, "ok")  # one press
    assert app.game.playing and app.game.id != first and app.game.kind == kind
    assert app.game.session.setup["rules"] == setup  # type: ignore[union-attr]
    assert app.game.options.pack == "en" and app.screen.name == "play"


def test_same_settings_again_after_classic(app: App) -> None:
    from device.screens.classic import start_classic

    start_classic(app, "classic", variant="duo", pack="en", clues="flexible")
    session = app.game.session
    assert session is not None
    assassin = session.setup["key"].index("X")
    team = session.setup["start"]
    app.game.act(TeamClue(team, None, 1), session.version)
    app.game.act(TeamGuess(team, assassin), session.version)
    app.nav.game()
    press(app, "ok")
    assert app.screen.name == "after_game"
    press(app, "ok")
    assert app.game.playing and app.game.kind == "classic" and app.game.options.variant == "duo"
    assert app.game.session.setup["rules"]["clues"] == "flexible"  # type: ignore[union-attr]


def test_after_a_mission_the_map_or_the_same_city(app: App) -> None:
    sheet = app.storage.new_sheet("Les Z")
    flows.start_duet(app, "mission", pack="fr", mission="Prague", sheet=sheet)
    _lose(app)
    assert app.screen.name == "after_game"
    keys = [i.key for i in app.screen.items()]  # type: ignore[union-attr]
    assert keys[app.screen.selected] == "again.same" and "again.map" in keys  # type: ignore[union-attr]
    press(app, "ok")
    assert app.game.playing and app.game.session.setup.get("mission") == "Prague"  # type: ignore[union-attr]
    assert app.game.options.sheet == sheet


# -- texts ---------------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
SHELL_SECTIONS = ("help.", "about.", "confirm.", "again.")


def _shell_texts(language: str) -> dict[str, str]:
    from device.i18n import catalog

    return {k: v for k, v in catalog(language).items() if k.startswith(SHELL_SECTIONS)}


@pytest.mark.parametrize("language, formal", [("fr", r"\b(vous|votre|vos)\b"), ("de", r"\b(Sie|Ihr|Ihre|Ihnen)\b"),
                                              ("it", r"\b(Lei|Suo|Sua)\b"),
                                              ("ro", r"\b(dumneavoastră|dvs)\b|\b\w+ați\b")])
def test_shell_texts_use_the_familiar_form(language: str, formal: str) -> None:
    import re

    texts = _shell_texts(language)
    assert len(texts) > 60
    assert [k for k, v in texts.items() if re.search(formal, v)] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_solo_not_installed_says_what_to_do_in_every_language(language: str) -> None:
    tr = Translator(language)
    page = tr("help.solo_off_then")
    assert "make partner" in page and "docs/usage.md" in page
    hint = tr("help.solo_hint", reason=tr("solo.not_built"))
    assert "`" not in hint and "partner build" not in hint and "OK" in hint  # plain words, not a command


def test_readme_and_tour_say_how_to_build_the_partner_and_the_form_of_address() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert "make partner" in readme
    usage = (ROOT / "docs" / "usage.md").read_text("utf-8")
    assert "make partner" in usage
    address = usage[usage.index("**Form of address.**"):][:600]
    for word in ("French\n*tu*", "German *du*", "Italian\n*tu*", "Romanian *tu*"):
        assert " ".join(word.split()) in " ".join(address.split()), word


@pytest.mark.parametrize("language", LANGUAGES)
def test_help_about_and_confirm_pages_fit_in_every_language(app: App, language: str) -> None:
    """Longer languages too: every help page, the about page and every question, at both sizes, keep their
    texts at the minimum size, whole and apart (the layout test's checks)."""
    import sys

    render = str(Path(__file__).parent / "render")  # test_layout imports its sibling docs_partner by name
    if render not in sys.path:
        sys.path.insert(0, render)
    from render.test_layout import _problems  # type: ignore[import-not-found]

    app.settings.set("language", language)  # the app's translator follows the setting
    assert app.tr.language == language
    menu = MenuScreen(app)
    screens: list[Any] = [AboutScreen(app, menu)]
    for mode in MODES:
        for page in range(2):
            screen = HelpScreen(app, mode, menu)
            screen.page = page
            screens.append(screen)
    screens += [ConfirmScreen(app, key, act=lambda: None, safe=lambda: None)
                for key in ("abandon", "shutdown", "reboot", "reset_stats", "replace")]
    problems = []
    for screen in screens:
        frame = screen.frame()
        for size in ((1280, 720), (800, 480)):
            problems += [f"{screen.name} {getattr(screen, 'mode', '')} {size}: {p}"
                         for p in _problems(texts_at(frame, size), size)]
    assert problems == []


@pytest.mark.parametrize("mode", ["classic", "hotseat"])
def test_refused_clue_defaults_to_changing_it_in_classic_and_hotseat(app: App, mode: str) -> None:
    from device.screens.classic import start_classic

    if mode == "classic":
        start_classic(app, "classic", pack="fr")
    else:
        flows.start_duet(app, "hotseat", pack="fr")
    session = app.game.session
    assert session is not None
    word = session.setup["words"][0] if mode == "hotseat" else session.state.cards[0]  # type: ignore[attr-defined]
    if mode == "hotseat":  # the clue entry as it stands once the giver has seen the key and let go
        app.screen.entry = ClueEntry("A")  # type: ignore[union-attr]
        press(app, "ok")
        assert app.screen.entry.step == "word"  # type: ignore[union-attr]
    else:
        press(app, "ok", "ok")
    app.box.type_text("A", word)
    app.step(0)
    press(app, "ok")
    entry = app.screen.entry  # type: ignore[union-attr]
    assert entry is not None and entry.step == "refusal" and entry.choice == 1  # "change"
    press(app, "ok")
    assert not session.public_view().clues and app.screen.entry.step == "word"  # type: ignore[union-attr]


def test_after_a_mission_won_the_map_is_preselected(app: App) -> None:
    from device.screens.again import AfterGameScreen, Recipe

    opened: list[str] = []
    won = AfterGameScreen(app, Recipe("duet", "mission", {}, won=True), lambda: opened.append("again"),
                          open_map=lambda: opened.append("map"))
    app.switch(won)
    assert won.items()[won.selected].key == "again.map"
    press(app, "ok")
    assert opened == ["map"]
    lost = AfterGameScreen(app, Recipe("duet", "mission", {}, won=False), lambda: opened.append("again"),
                           open_map=lambda: opened.append("map"))
    assert lost.items()[lost.selected].key == "again.same"
    plain = AfterGameScreen(app, Recipe("duet", "duet", {}, won=True), lambda: None)
    assert [i.key for i in plain.items()] == ["again.same", "again.menu"] and plain.selected == 0
