"""Starting games: words from a pack's deck (no repeats until the pack is used up), pictures, missions."""

from __future__ import annotations

import importlib.util
import logging
from typing import TYPE_CHECKING, Any

from device.cluewarm import warm as warm_clue_checker
from device.packs import load as load_custom_or_bundled
from engine.session import DuetSession
from engine.words import WordPackError, draw_words, load_pack

if TYPE_CHECKING:  # pragma: no cover
    from device.app import App
    from device.screens.base import Screen

log = logging.getLogger("duetbox.flows")


def deal_words(app: App, pack_name: str, n: int = 25) -> tuple[tuple[str, ...], str]:
    """Draw ``n`` words of ``pack_name`` avoiding the pack's deck of used words; returns (words, language)."""
    try:
        pack = load_custom_or_bundled(app.storage.directory, pack_name)
    except WordPackError as exc:
        log.error("word pack %s unusable (%s): using the French pack", pack_name, exc)
        pack = load_pack("fr")
    used = app.storage.deck_used(pack.name)
    words = draw_words(pack, app.rng, n, exclude=used)
    seen = used + [w for w in words if w not in used]
    if len(set(seen)) >= len(pack.words):  # the pack is used up: a new round of the deck starts
        seen = list(words)
    app.storage.set_deck_used(pack.name, seen)
    warm_clue_checker(pack.language, words)  # the checker readies this board
    return words, pack.language


def deal_pictures(app: App, n: int = 25) -> tuple[str, ...]:
    from engine.pictures_deck import draw_pictures, load_deck

    used = app.storage.deck_used("pictures")
    ids = draw_pictures(app.rng, n, exclude=used)
    seen = used + [p for p in ids if p not in used]
    if len(set(seen)) >= len(load_deck()):
        seen = list(ids)
    app.storage.set_deck_used("pictures", seen)
    return ids


def start_duet(app: App, kind: str, *, tokens: int = 9, pack: str = "fr", clues: str = "strict",
               several: bool = False, mission: str | None = None, sheet: int | None = None) -> None:
    """A new Duet game of ``kind`` ("duet", "duet_pictures", "hotseat", "mission")."""
    options: dict[str, Any] = {"orientation": app.settings.get("orientation", "table")}
    language = app.settings.get("language", "fr")
    if kind == "duet_pictures":
        words = deal_pictures(app)
        options["pictures"] = True
        clues = "flexible"  # pictures have no words to check a clue against
    else:
        words, language = deal_words(app, pack)
    if kind == "hotseat":
        options["hotseat"] = True
    if sheet is not None:
        options["sheet"] = sheet
    session = DuetSession.create(words, app.rng, tokens=tokens, clues=clues, several_clues=several,
                                 mission=mission, language=language)
    app.begin_game(session, kind=kind, options=options, sheet=sheet)


def resume(app: App) -> None:
    if app.session is not None and app.game_id is not None:
        app.switch(app.game_screen(app.storage.load_ui(app.game_id)))
    elif not app.resume():
        from device.screens.shell import MenuScreen

        app.switch(MenuScreen(app))


def classic_available() -> bool:
    return importlib.util.find_spec("engine.classic") is not None and _classic_screen() is not None


def _classic_screen() -> Any:
    try:
        from device.screens import classic  # noqa: F401
    except ImportError:
        return None
    return classic


def open_classic(app: App, back: Screen, mode: str) -> None:
    module = _classic_screen()
    if module is not None:
        module.open_setup(app, back, mode)


def open_missions(app: App, back: Screen) -> None:
    from device.screens.missions import SheetScreen

    app.switch(SheetScreen(app, back))
