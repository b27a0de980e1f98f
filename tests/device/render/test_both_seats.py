"""Both sides of the table: what a seat must read faces it (or is printed twice), in Duet, classic and
Pictures; the reveal, the banners and the history say what they should. Texts are read back from a
recording surface (``device.render.text.record_texts``): each drawn text's box and whether it is turned."""

from __future__ import annotations

from dataclasses import replace

import render_scenes as scenes
from test_shared_classic import _classic_game

from device.render import cards as C
from device.render.models import ClassicPlayUi, Cursor, GameOverUi, MapCity, MapUi, PlayUi
from device.render.shared import SharedRenderer, grid_layout
from device.render.text import record_texts
from engine import classic as cl
from engine.views import public_view

SIZE = (800, 480)


def _texts(view: object, ui: object, size: tuple[int, int] = SIZE) -> list:  # type: ignore[type-arg]
    renderer = SharedRenderer()
    surface = record_texts(renderer.text, size)
    renderer.full(surface, view, ui)  # type: ignore[arg-type]
    return surface.texts  # type: ignore[attr-defined,no-any-return]


def _both_ways(texts: list, word: str) -> tuple[int, int]:  # type: ignore[type-arg]
    upright = sum(1 for t in texts if t.text == word and not t.turned)
    turned = sum(1 for t in texts if t.text == word and t.turned)
    return upright, turned


def test_classic_words_and_prompt_face_both_seats(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    ui = ClassicPlayUi(team="Rouges", team_colour="R", message="Les Rouges devinent (siège B)",
                       cursors=(Cursor("B", 3),))
    texts = _texts(view, ui)
    for i, word in enumerate(state.cards):
        if i in state.covered:
            continue
        assert _both_ways(texts, word) == (1, 1), word
    prompts = [t for t in texts if t.text == ui.message]
    assert sorted(t.turned for t in prompts) == [False, True]
    layout = grid_layout(SIZE)
    turned_prompt = next(t for t in prompts if t.turned)
    assert layout.top.contains(turned_prompt.box)  # the turned one is in the bar facing seat B


def test_classic_panel_is_printed_for_each_seat(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    texts = _texts(view, ClassicPlayUi(team="Rouges", team_colour="R", clue="fleuve 2"))
    panel = grid_layout(SIZE).panel
    for word in ("fleuve 2", "Rouges"):
        mine = [t for t in texts if t.text == word and panel.contains(t.box)]
        assert {t.turned for t in mine} == {False, True}, word
        for t in mine:  # upright in the lower half (A), turned in the upper half (B)
            assert (t.box[1] >= panel.centery) == (not t.turned)


def test_covered_card_labels_are_printed_twice(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    texts = _texts(view, ClassicPlayUi(team="Rouges", team_colour="R"))
    covered = next(iter(state.covered))
    assert _both_ways(texts, state.cards[covered]) == (1, 1)
    assert all(t.size >= C.MIN_TEXT_PX for t in texts if t.text == state.cards[covered])
    duet = public_view(scenes.mid_game())
    found = next(i for i, c in enumerate(duet.cards) if c.agent)
    assert _both_ways(_texts(duet, PlayUi()), duet.cards[found].word) == (1, 1)


def test_duet_panel_and_history_face_both_seats(pg) -> None:
    view = public_view(scenes.mid_game())
    texts = _texts(view, PlayUi(labels={"clues": "Indices"}))
    clue = view.clues[-1]
    row = [t for t in texts if t.text.startswith(clue.word)]
    assert {t.turned for t in row} == {False, True}
    assert {t.turned for t in texts if t.text == "Indices"} == {False, True}


def test_history_says_how_many_clues_it_leaves_out(pg) -> None:
    view = public_view(scenes.mid_game())
    many = replace(view, clues=tuple(view.clues[-1:]) * 14)
    texts = [t.text for t in _texts(many, PlayUi())]
    assert sum(1 for t in [x.text for x in _texts(view, PlayUi())] if t.startswith(view.clues[-1].word)) == 2
    signs = [t for t in texts if t.startswith("… +")]
    assert signs and all(int(s.split("+")[1]) > 0 for s in signs)
    shown = sum(1 for t in texts if t.startswith(view.clues[-1].word)) // 2  # each row twice (A and B)
    assert shown + int(signs[0].split("+")[1]) == 14
    few = [t.text for t in _texts(view, PlayUi(), (1280, 720))]
    assert not any(t.startswith("… +") for t in few)


def test_game_over_panel_faces_both_seats(pg) -> None:
    view = public_view(scenes.mid_game())
    texts = _texts(view, GameOverUi(title="Gagné !", prompt="OK : continuer", won=True))
    assert {t.turned for t in texts if t.text == "Gagné !"} == {False, True}


def test_waiting_cursor_is_quieter_than_the_guessers(pg) -> None:
    view = public_view(scenes.mid_game())
    assert view.guessers, "the scene must be in a guess phase"
    guesser = view.guessers[0]
    waiting = "B" if guesser == "A" else "A"
    surface = pg.Surface((1280, 720))
    SharedRenderer().full(surface, view, PlayUi(cursors=(Cursor(guesser, 0), Cursor(waiting, 6))))
    cells = grid_layout((1280, 720)).cells

    def coloured(cell: object, seat: str) -> int:
        colour = C.SEAT_COLOUR[seat]
        return sum(1 for x in range(cell.left, cell.right) for y in (cell.top + 1, cell.top + 3, cell.bottom - 3)  # type: ignore[attr-defined]
                   if tuple(surface.get_at((x, y)))[:3] == colour)

    assert coloured(cells[0], guesser) > 2 * coloured(cells[6], waiting)


def test_classic_winner_bar_is_in_the_winners_colour_and_duo_cover_in_the_box_teams(pg) -> None:
    state = _classic_game()
    view = cl.classic_public_view(state)
    won = replace(view, phase="won", winner="B")
    surface = pg.Surface(SIZE)
    SharedRenderer().full(surface, won, ClassicPlayUi(team="Bleus", team_colour="B", banner="Les Bleus gagnent"))
    top = grid_layout(SIZE).top
    assert tuple(surface.get_at((top.right - 3, top.centery)))[:3] == C.TEAM_BLUE
    # duo: the box covers one of the team to play's own cards, in that team's colour
    free = next(i for i in range(25) if i not in state.covered)
    surface = pg.Surface(SIZE)
    SharedRenderer().full(surface, view, ClassicPlayUi(team="Rouges", team_colour="R", cover=(free, 1.0)))
    cell = grid_layout(SIZE).cells[free]
    assert tuple(surface.get_at((cell.left + 3, cell.centery)))[:3] in (C.TEAM_RED, C.TEAM_RED_DARK)


def test_pictures_reveal_keeps_the_pictures(pg) -> None:
    state = _classic_game("pictures")
    view = cl.classic_public_view(state)
    covered = next(iter(state.covered))
    plain, framed = pg.Surface(SIZE), pg.Surface(SIZE)
    ui = ClassicPlayUi(team="Bleus", team_colour="B", pictures=True)
    SharedRenderer().full(framed, view, ui)
    cell = grid_layout(SIZE, 5, 4, True).cells[covered]
    xs = range(cell.left + cell.width // 4, cell.right - cell.width // 4, 3)
    ys = range(cell.top + cell.height // 4, cell.bottom - cell.height // 4, 3)
    colours = {tuple(framed.get_at((x, y)))[:3] for x in xs for y in ys}
    assert len(colours) > 12, "a covered picture is more than a plain tile"
    del plain


def test_map_labels_every_city_in_the_interface_language(pg) -> None:
    from engine.missions import default_map

    cities = tuple(MapCity(c.name, c.name, c.turns, c.mistakes, "locked", pos=(c.x, c.y))  # type: ignore[arg-type]
                   for c in default_map().cities)
    ui = MapUi("Carte", "", cities, (), selected=cities[0].id, language="fr")
    texts = {t.text for t in _texts(None, ui, (800, 480))}
    for name in ("Washington", "Monte-Carlo", "Bangkok", "Le Caire", "Londres", "Madrid"):
        assert name in texts, name
    assert "London" not in texts


def test_game_over_keeps_the_clue_history(pg) -> None:
    view = public_view(scenes.mid_game())
    ui = GameOverUi(title="Perdu", reason="L'assassin a été touché", score_line="Score : 0",
                    verdict="Continue à t'entraîner", won=False, prompt="A et B : OK pour voir les clés",
                    summary=("2 indices", "1 agent sur 15", "Jetons restants : 7, pris : 2"))
    texts = [t.text for t in _texts(view, ui, (1280, 720))]
    newest = view.clues[-1]
    assert any(t.startswith(f"{newest.seat} · {newest.word}") for t in texts)
