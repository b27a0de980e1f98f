"""Get the clue checker ready without blocking a frame: load a language's lemma table, and work out a new
board's words, in a daemon thread (engine.lemmas, engine.clues.prepare).

Hooks: ``device.app.App`` calls ``warm(language)`` at start for the interface language; dealing words
(``device.screens.flows.deal_words``) calls ``warm(language, words)`` for the game's pack and board. A clue given
before the thread is done still gets the same answer: the checker then waits for the table (engine.lemmas).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from engine import lemmas
from engine.clues import STEMMER_LANGUAGES, prepare

log = logging.getLogger("duetbox.cluewarm")


def warm(language: str, words: Sequence[str] = ()) -> threading.Thread | None:
    """Start loading ``language``'s table and preparing ``words``; the thread (None for an unknown language)."""
    if language not in STEMMER_LANGUAGES:
        return None
    lemmas.preload(language)

    def run() -> None:
        try:
            prepare(tuple(words), language)
        except Exception:  # noqa: BLE001 - warming is an optimisation; the checker works without it
            log.exception("could not prepare the clue checker for %s", language)

    thread = threading.Thread(target=run, name=f"cluewarm-{language}", daemon=True)
    thread.start()
    return thread
