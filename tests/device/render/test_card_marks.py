"""Marks over cards never hide a word (issue 15): a cursor's ring and a hold's progress stay clear of both
copies of every word, the hold still reads as progress from the holding seat's edge, and a revealed card's
words are as large as their half allows clear of its badge and bystander tokens."""

from __future__ import annotations

import glob
from pathlib import Path

import pygame
import pytest
import render_scenes as scenes

from device.render import cards as C
from device.render.models import Cursor, Hold, PlayUi
from device.render.shared import SharedRenderer, grid_layout
from device.render.text import MarkBox, TextBox, TextCache, pg_font, record_texts

ROOT = Path(__file__).resolve().parents[3]
SIZES = ((800, 480), (1280, 720))
SAMPLE = ("mer", "jeu", "cirque", "Agent", "parachute", "champignon", "télécommande", "Eichhörnchen",
          "Hubschrauber", "țăran", "Öl", "WWW", "afiș", "quipu")


def _words() -> list[str]:
    words: set[str] = set()
    for path in glob.glob(str(ROOT / "engine" / "data" / "words" / "*.txt")):
        words |= {w.strip() for w in Path(path).read_text("utf-8").splitlines() if w.strip() and w[0] != "#"}
    return sorted(words)


def _over_ink(texts: list[TextBox], marks: list[MarkBox]) -> list[tuple[str, str]]:
    """(mark kind, text) of every mark drawn over the cards whose box meets a text's ink: no slack at all (a
    tried half's tint and a picture are drawn under the word: not marks over it)."""
    return [(m.kind, t.text) for t in texts if t.ink for m in marks
            if m.kind not in ("tint", "picture", "picture turned") and pygame.Rect(t.ink).colliderect(m.box)]


def _card_with(face: C.Face, ring: int, draw: object) -> pygame.Surface:
    cache = TextCache()
    w, h = face.size
    surface = record_texts(cache, (w + 2 * ring, h + 2 * ring))
    card = pygame.Rect(ring, ring, w, h)
    surface.blit(C.card_face(face, cache, lambda name, size: None, surface), card)
    draw(surface, card)  # type: ignore[operator]
    return surface


@pytest.mark.parametrize("screen", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("orientation", ["table", "upright"])
def test_no_cursor_and_no_hold_over_any_word(screen: tuple[int, int], orientation: str) -> None:
    """Every word of every list, with or without a bystander token: seat A's and seat B's cursors (active
    and waiting, one or both on the card) and a hold of either seat at any stage meet no word's ink."""
    layout = grid_layout(screen)
    size, ring = layout.cells[0].size, layout.ring
    draws = {
        "A": lambda s, c: C.cursor(s, c, "A", ring),
        "B": lambda s, c: C.cursor(s, c, "B", ring),
        "both": lambda s, c: (C.cursor(s, c, "A", ring), C.cursor(s, c, "B", ring)),
        "quiet": lambda s, c: C.cursor(s, c, "A", ring, quiet=True),
        "hold A": lambda s, c: C.hold(s, c, "A", 0.6, ring),
        "hold B": lambda s, c: C.hold(s, c, "B", 1.0, ring),
    }
    seen = 0
    for n, word in enumerate(_words()):
        marks = (("A",), ("B",), ())[n % 3]
        name = list(draws)[n % len(draws)]
        surface = _card_with(C.Face(word, size, orientation, marks=marks), ring, draws[name])
        words = [t for t in surface.texts if t.text == word]  # type: ignore[attr-defined]
        assert len(words) == (2 if orientation == "table" else 1), word
        assert any(m.kind in ("frame", "hold") for m in surface.marks), (word, name)  # type: ignore[attr-defined]
        assert _over_ink(words, surface.marks) == [], (word, name, marks)  # type: ignore[attr-defined]
        seen += 1
    assert seen > 500


def test_the_ink_check_sees_a_ring_drawn_into_the_word() -> None:
    """The check above can fail: the same ring drawn 12 px into the card runs through the words."""
    face = C.Face("cirque", grid_layout((800, 480)).cells[0].size)
    surface = _card_with(face, 3, lambda s, c: C.cursor(s, c.inflate(-24, -24), "B", 3))
    assert ("frame", "cirque") in _over_ink(surface.texts, surface.marks)  # type: ignore[attr-defined]


def _lit(surface: pygame.Surface, rect: pygame.Rect, seat: str) -> set[tuple[int, int]]:
    colour = C.SEAT_COLOUR[seat]
    return {(x, y) for x in range(rect.left, rect.right) for y in range(rect.top, rect.bottom)
            if tuple(surface.get_at((x, y)))[:3] == colour}


@pytest.mark.parametrize("seat", ["A", "B"])
def test_a_hold_fills_the_ring_from_the_holding_seats_edge(seat: str) -> None:
    """Seen as progress: the lit part of the ring grows with the hold, starts in the middle of the holding
    seat's edge (A: the bottom, B: the top), reaches the far edge only at the end, and is the whole ring when
    full; and it is drawn on the ring, so the card's words are untouched whatever the stage."""
    layout = grid_layout((800, 480))
    size, ring = layout.cells[0].size, layout.ring
    face = C.Face("cirque", size)
    plain = _card_with(face, ring, lambda s, c: None)
    card = pygame.Rect(ring, ring, *size)
    region = card.inflate(2 * ring, 2 * ring)
    near = region.bottom - 2 if seat == "A" else region.top + 1
    far = region.top + 1 if seat == "A" else region.bottom - 2
    before = 0
    for fraction in (0.1, 0.3, 0.5, 0.7, 0.9, 1.0):
        surface = _card_with(face, ring, lambda s, c, f=fraction: C.hold(s, c, seat, f, ring))
        lit = _lit(surface, region, seat)
        assert len(lit) > before, fraction
        before = len(lit)
        xs = [x for x, y in lit if y == near]
        assert xs and min(xs) <= region.centerx <= max(xs), fraction  # from the middle of the seat's edge
        if fraction <= 0.5:
            assert not [p for p in lit if p[1] == far], fraction
        inside = card.inflate(-2 * C.RING_IN, -2 * C.RING_IN)
        assert all(surface.get_at(p) == plain.get_at(p) for p in
                   ((x, y) for x in range(inside.left, inside.right, 2) for y in range(inside.top, inside.bottom, 2)))
    frame, thick, radius = C.ring(card, ring)
    full = _card_with(face, ring, lambda s, c: C._ring(s, C.SEAT_COLOUR[seat], frame, radius, thick))
    assert _lit(surface, region, seat) == _lit(full, region, seat)  # the whole ring at the end


def test_the_shared_grid_draws_cursors_and_holds_in_the_gap_around_the_cards() -> None:
    """On the whole screen: a cursor's ring reaches into the gap around its card (not beyond half of it)
    and a moving cursor still redraws only the two cards."""
    view = scenes.new_state()
    from engine.views import public_view

    layout = grid_layout((800, 480))
    surface = pygame.Surface((800, 480))
    renderer = SharedRenderer()
    renderer.render(surface, public_view(view), PlayUi(cursors=(Cursor("A", 7),)))
    cell = layout.cells[7]
    assert tuple(surface.get_at((cell.centerx, cell.top - 1)))[:3] == C.SEAT_COLOUR["A"]
    assert tuple(surface.get_at((cell.centerx, cell.top - layout.ring - 1)))[:3] == C.BG
    renderer.render(surface, public_view(view), PlayUi(cursors=(Cursor("A", 8),), hold=Hold("A", 8, 0.5)))
    assert set(renderer.last_regions) == {"card7", "card8"}
    assert tuple(surface.get_at((cell.centerx, cell.top - 1)))[:3] == C.BG  # the old ring is gone


# --- revealed cards ---------------------------------------------------------------------------------------

REVEALS = (("G", "N"), ("N", "G"), ("X", "N"), ("G", "X"), ("X", "G"), ("G", "G"))
MARKS = ((), ("A",), ("B",), ("A", "B"))


def _revealed(word: str, size: tuple[int, int], reveal: tuple[str, str], marks: tuple[str, ...],
              double: bool) -> pygame.Surface:
    cache = TextCache()
    like = record_texts(cache, size)
    face = C.Face(word, size, reveal=reveal, marks=marks, double=double)
    like.blit(C.card_face(face, cache, lambda name, sz: None, like), (0, 0))
    return like


def _longest(n: int) -> list[str]:
    return sorted(_words(), key=lambda w: -pg_font(20, False, True).size(w)[0])[:n]


@pytest.mark.parametrize("screen", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_revealed_words_are_large_and_clear_of_badges_and_tokens(screen: tuple[int, int]) -> None:
    """At game over, every word (the longest of every list included), on every mix of identities, bystander
    tokens and badges: at least ``MIN_TEXT_PX``, its whole line box clear of every badge and token (none
    touches), inside the card; and as large as fits: one size more finds no place in its half clear of the
    tokens and of a badge at its smallest (a brute-force scan of every position)."""
    size = grid_layout(screen).cells[0].size
    w, h = size
    inset = max(2, min(w, h) // 30)
    card = pygame.Rect((0, 0), size)
    for n, word in enumerate([*SAMPLE, *_longest(40)]):
        for k, reveal in enumerate(REVEALS):
            marks = MARKS[(n + k) % len(MARKS)]
            double = len(marks) == 1 and (n + k) % 2 == 0
            surface = _revealed(word, size, reveal, marks, double)
            drawn = [t for t in surface.texts if t.text == word]  # type: ignore[attr-defined]
            assert len(drawn) == 2, word
            badges = [m for m in surface.marks if m.kind in ("badge", "token")]  # type: ignore[attr-defined]
            assert len([m for m in badges if m.kind == "badge"]) == sum(1 for i in reveal if i != "N")
            for t in drawn:
                assert t.size >= C.MIN_TEXT_PX, (word, reveal, marks, t.size)
                assert card.contains(pygame.Rect(t.box)), (word, t.box)
                touching = [m for m in badges if pygame.Rect(t.box).colliderect(m.box)]
                assert touching == [], (word, reveal, marks, t.box, touching)
            if n % 3:
                continue  # the scan below on a third of the words (it is slow)
            for t in drawn:
                upper = t.turned
                half = pygame.Rect(0, 0, w, h // 2) if upper else pygame.Rect(0, h // 2, w, h - h // 2)
                area = half.inflate(-4 * inset, -3 * inset)
                identity = reveal[1] if upper else reveal[0]
                obstacles = [pygame.Rect(m.box).inflate(2 * inset, 2 * inset) for m in badges
                             if m.kind == "token" and pygame.Rect(m.box).colliderect(half)]
                if identity != "N":  # the badge at the smallest it takes for a word of this size or more:
                    inner = half.inflate(-2 * inset, -2 * inset)  # two thirds of its full 62 % of the half
                    drawn_badge = next(pygame.Rect(m.box) for m in badges
                                       if m.kind == "badge" and pygame.Rect(m.box).colliderect(inner))
                    side = min(drawn_badge.width, max(C.MIN_TEXT_PX, int(inner.height * 0.62) * 2 // 3))
                    small = pygame.Rect(0, 0, side, side)
                    small.center = ((inner.right - side // 2 - 2 * inset) if upper
                                    else (inner.left + side // 2 + 2 * inset), inner.centery)
                    obstacles.append(small.inflate(2 * inset, 2 * inset))
                lw, lh = pg_font(t.size + 1, False, True).size(word)
                free = [(x, y) for x in range(area.left, area.right - lw + 1)
                        for y in range(area.top, area.bottom - lh + 1)
                        if pygame.Rect(x, y, lw, lh).collidelist(obstacles) < 0]
                assert free == [], (word, reveal, marks, t.size, free[:2])


def test_a_long_word_beside_a_badge_and_a_token_keeps_its_size_at_800x480() -> None:
    """The case of the docs' game-over screen: "télécommande" on an agent's or the assassin's half with a
    bystander token was drawn at 8 to 10 px beside a full badge; now at least 12 px and no smaller than on
    the same half without the token, less one size."""
    size = grid_layout((800, 480)).cells[0].size
    for reveal in (("G", "X"), ("X", "G"), ("G", "G")):
        for marks in (("A",), ("B",)):
            with_token = _revealed("télécommande", size, reveal, marks, False)
            without = _revealed("télécommande", size, reveal, (), False)
            got = sorted(t.size for t in with_token.texts)  # type: ignore[attr-defined]
            plain = sorted(t.size for t in without.texts)  # type: ignore[attr-defined]
            assert min(got) >= C.MIN_TEXT_PX and got[0] >= plain[0] - 1, (reveal, marks, got, plain)
