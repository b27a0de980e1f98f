"""Layout over every screen of ``make docs``: each docs/scripts/*.txt is played on the mock box; at each of its
snapshots the frame the app shows is drawn again, at 1280x720 and at 800x480 (the official 7" screen), on a
surface that records every text the shared renderer draws (``device.render.text.record_texts``). Then:

- no text is smaller than ``MIN_TEXT_PX`` (docs/usage.md gives it in mm);
- no text is clipped (cut by its region, its card or the screen edge);
- no two texts overlap;
- no mark drawn over a card (a cursor's frame or notch, a hold's progress, a bystander token, a key badge;
  ``device.render.text.note_mark``) sits over a text's ink;
- on each seat's OLED (128x64, one bit), no text's ink runs past the panel's edges (an accent cut off at the
  top, a word cut at the side).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest
from docs_partner import solo_partner
from PIL import ImageDraw

from device.render import oled
from device.render.cards import MIN_TEXT_PX
from device.render.shared import SharedRenderer
from device.render.text import MarkBox, TextBox, record_texts

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted((ROOT / "docs" / "scripts").glob("*.txt"))
SIZES = ((1280, 720), (800, 480))

#: Overlap allowed between two text boxes, in px: a text surface is a line box (ascent + descent), so the
#: descender room of a line may touch the ascender room of the next line of a paragraph.
SLACK = 3
#: Overlap allowed between a mark's box and a text's ink box, in px (antialiased edge pixels).
MARK_SLACK = 1


def _frames(script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """(snapshot name, frame) at each snapshot of ``script``."""
    import shlex

    from device import docs
    from device.commands import run

    head = script.read_text("utf-8").splitlines()[:2]
    partner = solo_partner(head, tmp_path)
    extra = shlex.split(head[0][2:]) if head and head[0].startswith("#!") else []
    extra = [str(ROOT / a) if a.startswith("docs/") else a for a in extra]
    frames: list[tuple[str, Any]] = []

    def capture(app: Any, directory: Path, name: str) -> None:
        frames.append((name, app.frame()))

    monkeypatch.setattr(run, "snapshot", capture)
    with docs.partner_home(head, str(tmp_path), partner):  # ``#? no-solo``: as on a box without a solo model
        code = run.main(["--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path),
                         "--size", "800x480", *extra])
    assert code == 0
    return frames


def _problems(texts: list[TextBox], size: tuple[int, int]) -> list[str]:
    out = []
    screen = pygame.Rect((0, 0), size)
    shown = [t for t in texts if t.text.strip()]
    for t in shown:
        box, seen = pygame.Rect(t.box), pygame.Rect(t.visible)
        if t.size < MIN_TEXT_PX:
            out.append(f"too small ({t.size} px): {t.text!r}")
        if seen.size != box.size or not screen.contains(box):
            out.append(f"clipped: {t.text!r} box {tuple(box)} visible {tuple(seen)}")
    for i, a in enumerate(shown):
        ra = pygame.Rect(a.visible).inflate(-2 * SLACK, -2 * SLACK)
        for b in shown[i + 1:]:
            rb = pygame.Rect(b.visible).inflate(-2 * SLACK, -2 * SLACK)
            if ra.colliderect(rb):
                out.append(f"overlap: {a.text!r} {a.visible} and {b.text!r} {b.visible}")
    return out


def _mark_problems(texts: list[TextBox], marks: list[MarkBox]) -> list[str]:
    """Every mark whose box runs into a text's ink (beyond ``MARK_SLACK``)."""
    out = []
    for t in texts:
        if not t.text.strip() or t.ink is None:
            continue
        ink = pygame.Rect(t.ink).inflate(-2 * MARK_SLACK, -2 * MARK_SLACK)
        for m in marks:
            if ink.colliderect(pygame.Rect(m.box)):
                out.append(f"{m.kind} over {'turned ' if t.turned else ''}{t.text!r}: mark {m.box} ink {t.ink}")
    return out


def test_recording_sees_clipped_small_and_overlapping_text() -> None:
    """The checks can fail: a deliberately bad drawing is caught on each count."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, (200, 100))
    surface.blit(renderer.text.get("tiny", 8, (255, 255, 255)), (10, 10))
    surface.blit(renderer.text.get("over the edge", 20, (255, 255, 255)), (150, 50))
    surface.blit(renderer.text.get("one", 16, (255, 255, 255)), (10, 60))
    surface.blit(renderer.text.get("two", 16, (255, 255, 255)), (14, 62))
    problems = _problems(surface.texts, (200, 100))
    assert any("too small" in p and "tiny" in p for p in problems)
    assert any("clipped" in p and "over the edge" in p for p in problems)
    assert any("overlap" in p and "one" in p for p in problems)


def test_recording_sees_marks_over_words() -> None:
    """The mark check can fail: seat B's ring through a turned word at the card's top edge, a hold's progress
    through the same word, a bystander token on a word are caught; a word clear of them is not."""
    from device.render import cards as C

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    renderer = SharedRenderer()
    card = pygame.Rect(10, 10, 150, 100)

    def drawn(word: str, at: tuple[int, int], mark: Any) -> list[str]:
        surface = record_texts(renderer.text, (300, 200))
        label = renderer.text.get(word, 24, (0, 0, 0), flip=True)
        surface.blit(label, label.get_rect(midtop=at))
        mark(surface)
        return _mark_problems(surface.texts, surface.marks)

    assert any(p.startswith("frame over turned 'cirque'")
               for p in drawn("cirque", (85, 8), lambda s: C.cursor(s, card, "B", 3))), "ring over a word"
    assert any(p.startswith("hold over turned 'cirque'")
               for p in drawn("cirque", (85, 8), lambda s: C.hold(s, card, "B", 0.5, 3))), "hold over a word"
    assert any(p.startswith("token over turned 'bureau'")
               for p in drawn("bureau", (50, 12),
                              lambda s: C._marks(s, C.Face("bureau", card.size, marks=("B",)), card))), "token"
    assert drawn("cirque", (85, 30), lambda s: (C.cursor(s, card, "A", 3), C.hold(s, card, "B", 1.0, 3))) == []


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_docs_screens_keep_text_large_whole_and_apart(
    script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = _frames(script, tmp_path, monkeypatch)
    assert frames, f"{script.name} takes no snapshot"
    problems = []
    for name, frame in frames:
        for size in SIZES:
            renderer = SharedRenderer()
            surface = record_texts(renderer.text, size)
            renderer.full(surface, frame.view, frame.shared)
            assert surface.texts, (name, size)
            problems += [f"{name} at {size[0]}x{size[1]}: {p}" for p in _problems(surface.texts, size)]
            problems += [f"{name} at {size[0]}x{size[1]}: {p}"
                         for p in _mark_problems(surface.texts, surface.marks)]
    assert problems == [], "\n".join(problems[:60]) + f"\n({len(problems)} problems)"


def _oled_texts(view: Any, ui: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[int, int, int, int]]]:
    """(text, ink box) of every text drawn on a seat's OLED frame, drawn directly (no cached tiles)."""
    drawn: list[tuple[str, tuple[int, int, int, int]]] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, string: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_image", None) is not None and self._image.size == (oled.WIDTH, oled.HEIGHT):
            box = self.textbbox(xy, string, font=kwargs.get("font"), anchor=kwargs.get("anchor"))
            drawn.append((str(string), tuple(int(v) for v in box)))  # type: ignore[misc]
        real(self, xy, string, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(ImageDraw.ImageDraw, "text", text)
        oled.render_oled(view, ui, fast=False)
    return drawn


def _oled_problems(texts: list[tuple[str, tuple[int, int, int, int]]]) -> list[str]:
    return [f"clipped on the OLED: {t!r} ink {box}" for t, box in texts
            if t.strip() and (box[0] < 0 or box[1] < 0 or box[2] > oled.WIDTH or box[3] > oled.HEIGHT)]


def test_oled_check_sees_an_accent_cut_by_the_top_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OLED check can fail: a title with a circumflex drawn at y=0 loses its accent."""
    from device.render.models import MenuItem, MenuUi

    def draw_at_top(draw: ImageDraw.ImageDraw, ui: Any) -> None:
        draw.text((2, 0), ui.title, font=oled.pil_font(oled.SMALL, bold=True), fill=1)

    monkeypatch.setattr(oled, "_menu", draw_at_top)
    ui = MenuUi("Éteindre la boîte ?", (MenuItem("Annuler"),))
    problems = _oled_problems(_oled_texts(None, ui, monkeypatch))
    assert any("boîte" in p for p in problems), problems


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_docs_oleds_keep_every_text_inside_the_panel(
    script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = _frames(script, tmp_path, monkeypatch)
    problems, seen = [], 0
    for name, frame in frames:
        for seat, ui in frame.oleds.items():
            texts = _oled_texts(frame.seat_views.get(seat), ui, monkeypatch)
            seen += len(texts)
            problems += [f"{name} OLED {seat}: {p}" for p in _oled_problems(texts)]
    assert seen, script.name
    assert problems == [], "\n".join(problems[:60]) + f"\n({len(problems)} problems)"
