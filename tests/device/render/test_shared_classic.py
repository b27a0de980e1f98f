"""Classic and Pictures on the shared display, from the engine's own public views."""

from __future__ import annotations

import random

import render_scenes as scenes

from device.render.models import ClassicPlayUi, Cursor, HotSeatUi
from device.render.shared import SharedRenderer, classic_cards, grid_layout
from engine import classic as cl


def _classic_game(kind: str = "classic") -> cl.ClassicState:
    rng = random.Random(5)
    key = cl.random_classic_key(rng, kind)  # type: ignore[arg-type]
    if kind == "pictures":
        cards: tuple[str, ...] = tuple(f"p{n:03d}" for n in range(1, 21))
    else:
        cards = scenes.WORDS
    state = cl.new_classic_game(cards, key, cl.ClassicRules(kind=kind))  # type: ignore[arg-type]
    team = key.start
    state = cl.apply_classic(state, cl.TeamClue(team, None, 2))
    own = next(i for i, c in enumerate(key.cards) if c == team)
    state = cl.apply_classic(state, cl.TeamGuess(team, own))
    return state


def test_shared_classic_reads_the_engine_view(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    cards = classic_cards(view, ClassicPlayUi(team="R", team_colour="R"))
    assert [c.content for c in cards] == list(state.cards)
    assert [c.colour for c in cards if c.colour] == [state.key.cards[i] for i in sorted(state.covered)]
    surface = pg.Surface((1280, 720))
    renderer = SharedRenderer()
    renderer.render(surface, view, ClassicPlayUi(team="Rouges", team_colour=state.turn, cursors=(Cursor("B", 3),)))
    covered = next(iter(state.covered))
    cell = grid_layout((1280, 720)).cells[covered]
    assert tuple(surface.get_at(cell.center))[:3] != tuple(surface.get_at(grid_layout((1280, 720)).cells[
        next(i for i in range(25) if i not in state.covered and i != 3)].center))[:3]


def test_shared_pictures_grid_is_five_by_four(pg) -> None:
    state = _classic_game("pictures")
    view = cl.classic_public_view(state)
    surface = pg.Surface((800, 480))
    renderer = SharedRenderer()
    renderer.render(surface, view, ClassicPlayUi(team="Bleus", team_colour="B"))
    names = {n for n in renderer.last_regions if n.startswith("card")}
    assert names == {f"card{i}" for i in range(20)}


def test_shared_hot_seat_classic_key(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    surface = pg.Surface((800, 480))
    SharedRenderer().render(surface, view, HotSeatUi(stage="key", seat="A", key=state.key.cards))
    plain = pg.Surface((800, 480))
    SharedRenderer().render(plain, view, HotSeatUi(stage="key", seat="A", key=None))
    assert pg.image.tobytes(surface, "RGB") != pg.image.tobytes(plain, "RGB")
