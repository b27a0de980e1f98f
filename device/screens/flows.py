"""Starting games: words from a pack's deck (no repeats until the pack is used up), pictures, missions."""

from __future__ import annotations

import logging

from device import modes
from device.modes import Mode
from device.packs import load as load_custom_or_bundled
from device.screens.base import Host
from device.services.cluewarm import warm as warm_clue_checker
from engine.board import DUET as DUET_BOARD
from engine.pictures_deck import draw_pictures, load_deck
from engine.words import WordPackError, draw_words, load_pack

log = logging.getLogger("duetbox.flows")
#: The used-cards deck of the picture deck (kept as "pictures" in the database, like a pack's by its name).
PICTURE_DECK = modes.PICTURES.kind


def deal_words(host: Host, pack_name: str, n: int = DUET_BOARD.cards) -> tuple[tuple[str, ...], str]:
    """Draw ``n`` words of ``pack_name`` avoiding the pack's deck of used words; returns (words, language)."""
    try:
        pack = load_custom_or_bundled(host.storage.directory, pack_name)
    except WordPackError as exc:
        log.error("word pack %s unusable (%s): using the French pack", pack_name, exc)
        pack = load_pack("fr")
    used = host.storage.deck_used(pack.name)
    words = draw_words(pack, host.rng, n, exclude=used)
    seen = used + [w for w in words if w not in used]
    if len(set(seen)) >= len(pack.words):  # the pack is used up: a new round of the deck starts
        seen = list(words)
    host.storage.set_deck_used(pack.name, seen)
    warm_clue_checker(pack.language, words)  # the checker readies this board
    return words, pack.language


def deal_pictures(host: Host, n: int = DUET_BOARD.cards) -> tuple[str, ...]:
    used = host.storage.deck_used(PICTURE_DECK)
    ids = draw_pictures(host.rng, n, exclude=used)
    seen = used + [p for p in ids if p not in used]
    if len(set(seen)) >= len(load_deck()):
        seen = list(ids)
    host.storage.set_deck_used(PICTURE_DECK, seen)
    return ids


def start_duet(host: Host, kind: Mode | str, *, tokens: int = 9, pack: str = "fr", clues: str = "strict",
               several: bool = False, mission: str | None = None, sheet: int | None = None) -> None:
    """A new game of a mode of the Duet family (Duet, Duet with pictures, hot-seat, a mission): ``kind`` is the
    mode or its kind."""
    mode = modes.by_kind(kind)
    options = modes.duet_options(mode, host.settings.get("orientation", "table"), pack, sheet)
    language = str(host.settings.get("language", "fr"))
    if mode.pictures:
        words = deal_pictures(host, mode.board.cards)
        clues = "flexible"  # pictures have no words to check a clue against
    else:
        words, language = deal_words(host, pack, mode.board.cards)
    session = mode.session(words, host.rng, tokens=tokens, clues=clues, several_clues=several, mission=mission,
                           language=language)
    host.game.begin(session, kind=mode.kind, options=options, sheet=sheet)


def resume(host: Host) -> None:
    if host.game.session is not None and host.game.id is not None:
        host.game.show()
    elif not host.game.resume():
        host.nav.menu()
