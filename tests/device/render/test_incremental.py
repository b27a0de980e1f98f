"""Incremental drawing of a guess, measured benchmark-style: the numbers are printed (``-s`` shows them) and
only the untimed facts are asserted (which regions were redrawn, how much of the screen they cover)."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
import render_scenes as scenes

from device.render.models import Cursor, PlayUi
from device.render.shared import SharedRenderer
from engine import duet
from engine.actions import Guess
from engine.views import public_view


def measure_update_ratio(pg, size: tuple[int, int], rounds: int = 20) -> dict[str, float]:
    """Mean milliseconds of a cold full frame (a new renderer: nothing cached, as a naive redraw), a warm full
    frame (``full`` with the caches filled) and the incremental frame of one guess (alternating the states
    before and after it); their ratios; and the dirty share of the screen for the guess."""
    state = scenes.mid_game()
    card = next(i for i, c in enumerate(state.key.a) if c == "G" and i not in state.found)
    after, _ = duet.apply(state, Guess("B", card))
    before_view, after_view = public_view(state), public_view(after)
    ui = PlayUi(cursors=(Cursor("A", 3), Cursor("B", card)), message="B devine : royaume 3")
    ui_after = replace(ui, message="B devine encore")
    surface = pg.Surface(size)
    t0 = time.perf_counter()
    for _ in range(rounds):
        SharedRenderer().render(surface, before_view, ui)
    cold = (time.perf_counter() - t0) / rounds
    renderer = SharedRenderer()
    renderer.render(surface, before_view, ui)
    t0 = time.perf_counter()
    for _ in range(rounds):
        renderer.full(surface, before_view, ui)
    warm = (time.perf_counter() - t0) / rounds
    dirty = renderer.render(surface, after_view, ui_after)
    dirty_area = sum(r.width * r.height for r in dirty)
    t0 = time.perf_counter()
    for _ in range(rounds * 5):
        renderer.render(surface, before_view, ui)
        renderer.render(surface, after_view, ui_after)
    update = (time.perf_counter() - t0) / (rounds * 10)
    result = {"full_cold_ms": cold * 1000, "full_warm_ms": warm * 1000, "update_ms": update * 1000}
    result["update_vs_cold"] = update / cold
    result["update_vs_warm"] = update / warm
    result["dirty_share"] = dirty_area / (size[0] * size[1])
    return result


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_incremental_guess_update_is_a_small_part_of_a_full_frame(pg, size: tuple[int, int]) -> None:
    result = measure_update_ratio(pg, size)
    print(f"\n{size[0]}x{size[1]}: " + ", ".join(f"{k} {v:.3f}" for k, v in result.items()))
    # untimed: one card, the two panel parts and the two bars; well under half of the screen's pixels
    assert result["dirty_share"] < 0.45


def test_incremental_fitted_text_is_the_ellipsized_text() -> None:
    from device.render.shared import fitted
    from device.render.text import ellipsize, pg_font

    font = pg_font(20)
    for text in ("B devine", "un message beaucoup trop long pour la barre du bas de l'écran partagé"):
        for width in (40, 120, 600):
            assert fitted(text, width, 20) == ellipsize(text, width, lambda s: font.size(s)[0])


def test_incremental_sprites_put_the_pixels_drawing_puts(pg) -> None:
    """Timer tokens and the agents tile come from cached sprites: the frames equal frames drawn directly, over
    a game played to the end at two sizes."""
    import random

    rng = random.Random(6)
    state = scenes.mid_game()
    views = [public_view(state)]
    while not state.over and len(views) < 25:
        state = duet.apply(state, rng.choice(duet.legal_actions(state)))[0]
        views.append(public_view(state))
    ui = PlayUi(cursors=(Cursor("A", 3),), message="B devine")
    for size in ((800, 480), (1920, 1080)):
        fast, slow = pg.Surface(size), pg.Surface(size)
        with_sprites, direct = SharedRenderer(), SharedRenderer(sprites=False)
        for view in views:
            with_sprites.render(fast, view, ui)
            direct.render(slow, view, ui)
            assert pg.image.tobytes(fast, "RGB") == pg.image.tobytes(slow, "RGB")
        assert with_sprites._sprites and not direct._sprites  # the two really took different paths


def test_incremental_agent_faces_from_one_tile_equal_drawn_faces(pg) -> None:
    """A card covered by an agent is built from one cached tile and its label: the same pixels as drawing the
    whole face, for long, short and accented words, marks underneath, at several sizes, pictures too."""
    import device.render.cards as cards

    words = ("", "A", "royaume", "ÉCHELLE", "anticonstitutionnellement", "țară")
    for size in ((90, 60), (151, 97), (300, 190)):
        for word in words:
            for extra in ({}, {"marks": ("A",)}, {"picture": True}, {"orientation": "upright"}):
                face = cards.Face(content=word, size=size, agent=True, **extra)
                tiled, direct = SharedRenderer(), SharedRenderer(sprites=False)
                composed, drawn = tiled.face(face), direct.face(face)
                assert len(tiled._faces) == (2 if word else 1) == len(direct._faces) + bool(word)  # blank tile + label
                assert pg.image.tobytes(composed, "RGB") == pg.image.tobytes(drawn, "RGB"), (size, word, extra)
