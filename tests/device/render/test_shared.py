"""Shared display: every screen draws at the smallest and largest supported sizes, dirty rects are honest,
and the display shows exactly what its models say (keys only when a model carries them)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import render_samples as samples
import render_scenes as scenes

from device.render.models import Cursor, GameOverUi, Hold, PlayUi
from device.render.shared import SharedRenderer, grid_layout, render_shared
from engine import duet
from engine.actions import Guess
from engine.views import public_view, revealed_keys

SIZES = [(800, 480), (1920, 1080)]


def _surface(pg, size):
    return pg.Surface(size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", sorted(samples.ALL))
def test_shared_every_screen_draws_at_size(pg, name: str, size: tuple[int, int]) -> None:
    view, ui = samples.ALL[name]()
    surface = _surface(pg, size)
    renderer = SharedRenderer()
    dirty = renderer.render(surface, view, ui)
    assert dirty == [surface.get_rect()]
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 37) for y in range(0, size[1], 23)}
    assert len(colours) > 3, f"{name} looks blank"
    assert renderer.render(surface, view, ui) == []  # the same frame again: nothing to redraw


def test_shared_layout_fits_the_surface() -> None:
    for size in [(800, 480), (1024, 600), (1280, 720), (1920, 1080), (1080, 1920)]:
        layout = grid_layout(size)
        bounds = (0, 0, *size)
        for cell in layout.cells:
            assert cell.width > 40 and cell.height > 30
            assert cell.clamp(bounds) == cell
            assert not cell.colliderect(layout.panel) and not cell.colliderect(layout.top)
        assert len(layout.cells) == 25
        assert len({(c.x, c.y) for c in layout.cells}) == 25
    assert len(grid_layout((800, 480), 5, 4, pictures=True).cells) == 20


def test_shared_guess_redraws_only_what_changed(pg) -> None:
    state = scenes.mid_game()
    view = public_view(state)
    ui = PlayUi(cursors=(Cursor("A", 3), Cursor("B", 7)), message="B devine")
    surface = _surface(pg, (1280, 720))
    renderer = SharedRenderer()
    renderer.render(surface, view, ui)
    card = next(i for i, c in enumerate(state.key.a) if c == "G" and i not in state.found)
    after, _ = duet.apply(state, Guess("B", card))
    dirty = renderer.render(surface, public_view(after), replace(ui, message="B devine encore"))
    names = set(renderer.last_regions)
    assert f"card{card}" in names
    assert not {f"card{i}" for i in range(25)} - {f"card{card}"} & names
    # the bank did not change; of the history only the row of the clue being guessed
    assert names == {f"card{card}", "agents", "clue0", "agents_B", "clue0_B", "bar_top", "bar_bottom"}
    assert len(dirty) == len(names)
    # and the picture equals a from-scratch drawing of the same frame
    fresh = _surface(pg, (1280, 720))
    SharedRenderer().render(fresh, public_view(after), replace(ui, message="B devine encore"))
    assert pg.image.tobytes(fresh, "RGB") == pg.image.tobytes(surface, "RGB")


def test_shared_cursor_move_redraws_two_cards(pg) -> None:
    view = public_view(scenes.new_state())
    surface = _surface(pg, (800, 480))
    renderer = SharedRenderer()
    renderer.render(surface, view, PlayUi(cursors=(Cursor("A", 3),)))
    renderer.render(surface, view, PlayUi(cursors=(Cursor("A", 4),)))
    assert set(renderer.last_regions) == {"card3", "card4"}
    renderer.render(surface, view, PlayUi(cursors=(Cursor("A", 4),), hold=Hold("A", 4, 0.5)))
    assert renderer.last_regions == ["card4"]


def test_shared_cursors_of_the_two_seats_differ_in_shape(pg) -> None:
    view = public_view(scenes.new_state())
    layout = grid_layout((800, 480))
    rect = layout.cells[12]
    images = {}
    for seat in ("A", "B"):
        surface = _surface(pg, (800, 480))
        render_shared(surface, view, PlayUi(cursors=(Cursor(seat, 12),)))
        sub = surface.subsurface(rect)
        images[seat] = {(x, y) for x in range(rect.width) for y in range(rect.height)
                        if tuple(sub.get_at((x, y)))[:3] in ((70, 156, 255), (255, 146, 40))}
    mirrored_b = {(rect.width - 1 - x, rect.height - 1 - y) for x, y in images["B"]}
    assert images["A"] != mirrored_b  # not just the same frame turned round: solid vs dashed


def test_shared_upright_orientation_writes_each_word_once(pg) -> None:
    view = public_view(scenes.new_state())
    table, upright = _surface(pg, (800, 480)), _surface(pg, (800, 480))
    render_shared(table, view, PlayUi(orientation="table"))
    render_shared(upright, view, PlayUi(orientation="upright"))
    rect = grid_layout((800, 480)).cells[0]
    top_half = rect.inflate(-10, -rect.height // 2 - 6).move(0, -rect.height // 4)
    ink = lambda s: sum(1 for x in range(top_half.left, top_half.right) for y in range(top_half.top, top_half.bottom)  # noqa: E731
                        if sum(tuple(s.get_at((x, y)))[:3]) < 300)
    assert ink(table) > 20 and ink(upright) < ink(table)


def test_shared_keys_appear_only_when_the_model_carries_them(pg) -> None:
    state = scenes.assassin_loss()
    view = public_view(state)
    hidden, shown = _surface(pg, (800, 480)), _surface(pg, (800, 480))
    render_shared(hidden, view, GameOverUi(title="Perdu"))
    render_shared(shown, view, GameOverUi(title="Perdu", keys=revealed_keys(state)))
    assert pg.image.tobytes(hidden, "RGB") != pg.image.tobytes(shown, "RGB")
    again = _surface(pg, (800, 480))
    render_shared(again, view, GameOverUi(title="Perdu"))
    assert pg.image.tobytes(hidden, "RGB") == pg.image.tobytes(again, "RGB")


def test_shared_unknown_model_is_refused(pg) -> None:
    with pytest.raises(TypeError):
        render_shared(_surface(pg, (800, 480)), None, object())  # type: ignore[arg-type]


def test_shared_survives_pygame_restart(pg) -> None:
    view, ui = samples.menu()
    render_shared(_surface(pg, (800, 480)), view, ui)
    pg.quit()
    pg.init()
    render_shared(_surface(pg, (800, 480)), view, ui)
