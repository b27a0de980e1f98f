"""The shared display cuts no text in any language (issue 15): every docs screen (docs/scripts/*.txt), its
frame asked for in each of the five catalogs, drawn at 1280x720 and 800x480 on a recording surface. A drawn
text with "…" must be a text of the screen's model as it is (a catalog's own "A choisit un indice…"), not one
cut to fit: a long prompt in a bar steps down to MIN_TEXT_PX first (German guess prompts at 800x480 were cut)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from test_oled_fit import ROOT, _frames

from device.render.shared import SharedRenderer
from device.render.text import record_texts

SCRIPTS = sorted((ROOT / "docs" / "scripts").glob("*.txt"))
SIZES = ((1280, 720), (800, 480))


def _strings(value: Any) -> Iterator[str]:
    """Every string a screen's model holds (its dataclass fields, tuples and mappings, all the way down)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))
    elif isinstance(value, Mapping):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (tuple, list)):
        for v in value:
            yield from _strings(v)


def cuts(frame: Any, size: tuple[int, int]) -> list[str]:
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, frame.view, frame.shared)
    model = list(_strings(frame.shared))
    return [t.text for t in surface.texts  # type: ignore[attr-defined]
            if "…" in t.text and not any(t.text in s for s in model)]


def test_the_check_sees_a_cut_prompt(pg: Any) -> None:
    from device.render.models import PlayUi

    class Frame:
        view = None
        shared = PlayUi(message="B rät — „musique“ 2 — " + "halte OK auf einer Karte gedrückt " * 6)

    assert cuts(Frame(), (800, 480))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_docs_screens_cut_no_text_in_any_language(script: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    problems = []
    for name, language, frame in _frames(script, tmp_path, monkeypatch):
        for size in SIZES:
            problems += [f"{name} [{language}] {size[0]}x{size[1]}: {text!r}" for text in cuts(frame, size)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("difficulty", ["normal", "easy"])
def test_solo_setup_cuts_no_text_whatever_is_chosen(difficulty: str, pg: Any) -> None:
    """The Solo set-up with each difficulty and clue rule chosen, each row selected, in every language, at both
    sizes ("Schwierigkeit" and "Difficoltà" were cut beside a long difficulty, seen only with a partner built)."""
    from device.i18n import LANGUAGES, Translator
    from device.render import models as m

    problems = []
    for language in LANGUAGES:
        tr = Translator(language)
        for clues in ("strict", "flexible"):
            rows = (m.MenuItem(tr("solo.difficulty"), True, tr(f"solo.difficulty_{difficulty}")),
                    m.MenuItem(tr("setup.clues"), True, tr(f"setup.clues_{clues}")),
                    m.MenuItem(tr("setup.start"), True, None))
            title = tr("solo.title", language=tr(f"lang.{language}"))
            for selected in range(len(rows)):
                class Frame:
                    view = None
                    shared = m.SetupUi(title, rows, selected, selected < 2, tr("hint.setup"), orientation="upright")

                for size in SIZES:
                    problems += [f"[{language}] {clues} row {selected} {size}: {t!r}" for t in cuts(Frame(), size)]
    assert problems == [], "\n".join(problems)
