"""Card words (issue 15, items 4-6): as large as the card allows, the same size with or without a bystander
token, never under a token, and covered-card labels with an ink that reads on their tile."""

from __future__ import annotations

import glob
from pathlib import Path

import pygame
import pytest

from device.render import cards as C
from device.render.shared import grid_layout
from device.render.text import TextBox, TextCache, pg_font, record_texts

ROOT = Path(__file__).resolve().parents[3]
SIZES = ((800, 480), (1280, 720))
#: Words of every list, chosen to cover the extremes: short and wide, long, with diacritics, all capitals.
SAMPLE = ("mer", "ours", "bureau", "désert", "pompier", "détective", "champignon", "télécommande",
          "Hubschrauber", "Eichhörnchen", "țăran", "WWW")
MARKS = ((("A",), False), (("B",), False), (("A",), True), (("B",), True), (("A", "B"), False))


def _cell(screen: tuple[int, int]) -> tuple[int, int]:
    return grid_layout(screen).cells[0].size  # type: ignore[no-any-return]


def _words_drawn(face: C.Face) -> list[TextBox]:
    cache = TextCache()
    like = record_texts(cache, face.size)
    surf = C.card_face(face, cache, lambda name, size: None, like)
    like.blit(surf, (0, 0))
    return [t for t in like.texts if t.text == face.content]  # type: ignore[attr-defined]


def _token_pixels(face: C.Face) -> set[tuple[int, int]]:
    """The pixels the bystander tokens of ``face`` paint (one seat at a time, so no veil)."""
    out: set[tuple[int, int]] = set()
    for seat in face.marks:
        alone = C.Face(face.content, face.size, face.orientation, marks=(seat,), double=face.double)
        surf = pygame.Surface(face.size)
        surf.fill((255, 0, 255))
        C._marks(surf, alone, surf.get_rect())
        w, h = face.size
        out |= {(x, y) for x in range(w) for y in range(h) if surf.get_at((x, y))[:3] != (255, 0, 255)}
    return out


@pytest.mark.parametrize("screen", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_token_neither_shrinks_nor_covers_the_word(screen: tuple[int, int]) -> None:
    size = _cell(screen)
    for word in SAMPLE:
        plain = _words_drawn(C.Face(word, size))
        assert len(plain) == 2 and plain[0].size == plain[1].size, word  # once for each seat
        for marks, double in MARKS:
            face = C.Face(word, size, marks=marks, double=double)
            drawn = _words_drawn(face)
            assert [t.size for t in drawn] == [t.size for t in plain], (word, marks, double)
            tokens = _token_pixels(face)
            assert tokens, (word, marks)
            for t in drawn:
                box = pygame.Rect(t.box)
                assert pygame.Rect((0, 0), size).contains(box), (word, marks, t.box)
                inside = [p for p in tokens if box.collidepoint(p)]
                assert inside == [], (word, marks, double, t.box, inside[:3])


def test_the_check_sees_a_word_under_a_token() -> None:
    """The pixel check can fail: a word drawn over the whole card is under its token."""
    face = C.Face("bureau", _cell((800, 480)), marks=("A",))
    tokens = _token_pixels(face)
    assert any(pygame.Rect((0, 0), face.size).collidepoint(p) for p in tokens)
    lower_right = pygame.Rect(face.size[0] // 2, face.size[1] // 2, face.size[0] // 2, face.size[1] // 2)
    assert any(lower_right.collidepoint(p) for p in tokens)


def test_words_fill_the_card_at_800x480() -> None:
    """At 800x480 (0.193 mm a pixel on the official 7" screen) a short word is at least 24 px (a capital
    about 17 px, 3.4 mm, against 13 px before), no card word of any list is under 14 px, and a word is as
    large as its half card allows: one size more and it no longer fits a place clear of the token corner."""
    size = _cell((800, 480))
    half = size[1] // 2
    assert C.word_size(C.Face("mer", size)) >= 24
    assert C.word_size(C.Face("bureau", size)) >= 22
    words: set[str] = set()
    for path in glob.glob(str(ROOT / "engine" / "data" / "words" / "*.txt")):
        words |= {w.strip() for w in Path(path).read_text("utf-8").splitlines() if w.strip() and w[0] != "#"}
    assert len(words) > 500
    for word in words:
        face = C.Face(word, size)
        s = C.word_size(face)
        assert s >= 14, word
        lw, lh = pg_font(s, False, True).size(word)
        assert lw <= size[0] and lh <= half, word
        assert C._word_fits(face, s + 1) is None, word


def _luminance(c: tuple[int, int, int]) -> float:
    def chan(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (chan(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_contrast_formula_matches_wcag() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


@pytest.mark.parametrize("kind", ["agent", "assassin", "R", "B", "N", "X"])
def test_covered_card_labels_read_on_their_tile(kind: str) -> None:
    """WCAG AA for text: at least 4.5:1 between a covered card's label ink and the tile under it, measured on
    the drawn card (the tile colour right beside the label; the label's own darkest/lightest pixel)."""
    size = _cell((800, 480))
    face = C.Face("cirque", size, agent=kind == "agent", assassin=kind == "assassin",
                  colour=None if kind in ("agent", "assassin") else kind, cover=1.0)
    cache = TextCache()
    like = record_texts(cache, size)
    surf = C.card_face(face, cache, lambda name, sz: None, like)
    labels = [t for t in _words_drawn(face)]
    assert len(labels) == 2
    for t in labels:
        box = pygame.Rect(t.box)
        pixels = [surf.get_at((x, y))[:3] for x in range(box.left, box.right) for y in range(box.top, box.bottom)]
        tile = max(set(pixels), key=pixels.count)  # what is under the label: the tile, or its plate
        best = max(contrast(tile, ink) for ink in set(pixels))
        assert best >= 4.5, (kind, tile, best)
