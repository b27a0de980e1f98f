"""Seat OLED renderer: golden images for the main states of both seats, and the meaning-by-pattern rules."""

from __future__ import annotations

import pytest
import render_scenes as scenes
from PIL import Image

from device.render.models import ClueEntryUi, MenuItem, MenuUi, OledTextUi, SeatKeyUi, SpymasterUi
from device.render.oled import CELL, HEIGHT, WIDTH, cell_origin, render_oled
from engine.views import seat_view

MENU = MenuUi(
    title="Menu",
    items=tuple(MenuItem(x) for x in ("Duo", "Carte des missions", "Classique", "Images", "Statistiques")),
    selected=3,
)


def _cases() -> dict[str, tuple[object, object]]:
    mid, double, sudden, lost = (
        scenes.mid_game(),
        scenes.double_mark(),
        scenes.sudden_death(),
        scenes.assassin_loss(),
    )
    return {
        "key_mid_A_wait": (seat_view(mid, "A"), SeatKeyUi(role="attends que B devine", cursor=7)),
        "key_mid_B_guess": (seat_view(mid, "B"), SeatKeyUi(role="à toi de deviner", cursor=12)),
        "key_double_A_clue": (seat_view(double, "A"), SeatKeyUi(role="ton indice")),
        "key_double_B_picking": (seat_view(double, "B"), SeatKeyUi(role="Alege un număr", picking=4)),
        "key_sudden_A": (seat_view(sudden, "A"), SeatKeyUi(role="mort subite : devine")),
        "key_sudden_B": (seat_view(sudden, "B"), SeatKeyUi(role="mort subite : devine", cursor=24)),
        "key_lost_B": (seat_view(lost, "B"), SeatKeyUi(role="perdu")),
        "clue_number_A": (
            seat_view(mid, "A"),
            ClueEntryUi(stage="number", number=3, title="Combien ?", hint="OK : valider"),
        ),
        "clue_word_A": (
            seat_view(mid, "A"),
            ClueEntryUi(
                stage="word",
                number=3,
                word="rivi",
                letters=tuple("AÂBCDEÉÈFGHIÎJ"),
                letter=6,
                title="Mot (facultatif)",
                hint="OK lettre · STOP fin",
            ),
        ),
        "clue_refusal_B": (
            seat_view(mid, "B"),
            ClueEntryUi(
                stage="refusal",
                refusal="« fleuves » a la même racine que FLEUVE, qui est sur la table",
                choices=("accepter", "changer"),
                choice=0,
            ),
        ),
        "clue_confirm_B": (
            seat_view(mid, "B"),
            ClueEntryUi(stage="confirm", word="țară", number=2, title="Dai indiciul?", hint="OK: da"),
        ),
        "menu": (None, MENU),
        "text_inverted": (
            None,
            OledTextUi(title="Perdu", lines=("L'assassin a été touché.", "Regardez l'écran"), invert=True),
        ),
        "spymaster": (
            None,
            SpymasterUi(
                key="RRRBBBNNXRBNRBNRBNNRBBRRN",
                covered=(0, 3, 6, 8, 24),
                status="Rouges jouent : 2 essais",
                cursor=12,
            ),
        ),
        "spymaster_pictures": (
            None,
            SpymasterUi(key="RRBBNNXRBNRBNRBNNRBB", covered=(1, 2), columns=5, rows=4, status="Bleus"),
        ),
    }


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_oled_matches_golden(name: str, golden) -> None:
    view, ui = CASES[name]
    image = render_oled(view, ui)  # type: ignore[arg-type]
    assert image.mode == "1" and image.size == (WIDTH, HEIGHT)
    golden.check(f"oled-{name}", image)


def _cell(image: Image.Image, index: int, seat: str) -> tuple[int, ...]:
    x, y = cell_origin(index, seat)
    return tuple(1 if image.getpixel((x + dx, y + dy)) else 0 for dy in range(CELL) for dx in range(CELL))


def test_oled_key_patterns_differ_by_shape_not_intensity() -> None:
    state = scenes.new_state()
    view = seat_view(state, "A")
    image = render_oled(view, SeatKeyUi())
    g, n, x = (view.key.index(k) for k in "GNX")
    agent, bystander, assassin = _cell(image, g, "A"), _cell(image, n, "A"), _cell(image, x, "A")
    assert set(agent) == {1}  # filled
    assert bystander != agent and assassin != agent and assassin != bystander
    assert set(bystander) == {0, 1} and set(assassin) == {0, 1}  # one bit: only the shape tells them apart


def test_oled_seat_b_map_is_turned_half_a_turn() -> None:
    assert cell_origin(0, "A") == cell_origin(24, "B")
    assert cell_origin(24, "A") == cell_origin(0, "B")
    state = scenes.new_state()
    a, b = seat_view(state, "A"), seat_view(state, "B")
    image = render_oled(b, SeatKeyUi())
    for i in range(25):
        expected = render_oled(a.__class__(a.public, "A", b.key, b.greens_left), SeatKeyUi())
        assert _cell(image, i, "B") == _cell(expected, i, "A")


def test_oled_found_agent_and_marks_overlay_the_key() -> None:
    state = scenes.mid_game()
    view = seat_view(state, "A")
    before = render_oled(seat_view(scenes.new_state(), "A"), SeatKeyUi())
    after = render_oled(view, SeatKeyUi())
    found = sorted(state.found)
    for i in found:
        assert _cell(before, i, "A") != _cell(after, i, "A")
    marked = [c.index for c in view.public.cards if c.marks and not c.agent]
    for i in marked:
        assert _cell(before, i, "A") != _cell(after, i, "A")


def test_oled_mark_arrow_points_to_the_guessing_seat() -> None:
    state = scenes.double_mark()  # B guessed a bystander: the token's arrow points at B
    card = next(iter(state.marks_b))
    fresh = scenes.new_state()

    def rows(state_: object, seat: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        cell = _cell(render_oled(seat_view(state_, seat), SeatKeyUi()), card, seat)  # type: ignore[arg-type]
        return cell[: 3 * CELL], cell[-3 * CELL :]  # the top three rows and the bottom three rows of the cell

    a_top, a_bottom = rows(state, "A")
    a_top0, a_bottom0 = rows(fresh, "A")
    b_top, b_bottom = rows(state, "B")
    b_top0, b_bottom0 = rows(fresh, "B")
    # A sees the wedge on the far (top) edge of the cell, toward B; B sees it on its own (bottom) edge
    assert a_top != a_top0 and a_bottom == a_bottom0
    assert b_bottom != b_bottom0 and b_top == b_top0


def test_oled_status_shows_tokens_left_and_picked_number() -> None:
    state = scenes.mid_game()
    plain = render_oled(seat_view(state, "A"), SeatKeyUi(role="x"))
    picking = render_oled(seat_view(state, "A"), SeatKeyUi(role="x", picking=5))
    other = render_oled(seat_view(state, "A"), SeatKeyUi(role="x", picking=6))
    assert plain.tobytes() != picking.tobytes() != other.tobytes()


def test_oled_without_view_or_ui_is_blank() -> None:
    image = render_oled(None, None)
    assert image.getbbox() is None


def test_oled_cached_tiles_draw_exactly_what_direct_drawing_draws() -> None:
    """The fast path (pasted key cells and text tiles) against PIL drawing everything, over
    random mid-game states of both seats, every cursor and role texts of every length."""
    import random

    import device.render.oled as oled
    from engine import duet

    rng = random.Random(4)
    roles = ("", "attends que B devine", "à toi de deviner", "mort subite : devine", "perdu", "OK : donner l'indice",
             "Alege un număr — un texte bien trop long pour tenir sur trois lignes de l'écran")
    states = [scenes.mid_game(), scenes.double_mark(), scenes.sudden_death(), scenes.assassin_loss()]
    state = states[0]
    for _ in range(40):  # random legal play from the mid game
        if state.over:
            break
        state = duet.apply(state, rng.choice(duet.legal_actions(state)))[0]
        states.append(state)
    for state in states:
        for seat in ("A", "B"):
            view = seat_view(state, seat)
            for _ in range(6):
                ui = SeatKeyUi(role=rng.choice(roles), cursor=rng.choice([None, *range(25)]),
                               picking=rng.choice([None, None, rng.randrange(10)]))
                slow = render_oled(view, ui, fast=False)
                fast = render_oled(view, ui)
                again = render_oled(view, ui)  # the tiles cached by the first: the same pixels
                assert slow.tobytes() == fast.tobytes() == again.tobytes(), (seat, ui)
    assert oled._cell_tile.cache_info().hits > 0  # the fast frames really were pasted from tiles


def test_oled_name_entry_shows_no_number_and_menu_values_clear_the_arrows() -> None:
    from device.render.models import ClueEntryUi, MenuItem, MenuUi
    from device.render.oled import WIDTH, render_oled

    named = render_oled(None, ClueEntryUi("word", None, word="LES AS", letters=("A", "B"), title="Nom"))
    numbered = render_oled(None, ClueEntryUi("word", 0, word="LES AS", letters=("A", "B"), title="Nom"))
    corner = (WIDTH - 12, 0, WIDTH, 11)
    assert named.crop(corner).getbbox() is None  # no stray "0"
    assert numbered.crop(corner).getbbox() is not None
    items = tuple(MenuItem(f"Réglage {k}", value="Français") for k in range(8))
    image = render_oled(None, MenuUi("Réglages", items, selected=0))
    # the arrow column (the right 9 px) holds only the arrows: no value pixel reaches it on the rows
    for y in range(13, 58):  # (the down arrow is below, at y 59)
        row = [image.getpixel((x, y)) for x in range(WIDTH - 9, WIDTH)]
        assert not any(row), y


def test_each_seats_key_shows_its_own_letter() -> None:
    """The shared display's bars name the seats ("B devine"); each seat's OLED says which letter is its own: a
    lit tile in the top right corner with the letter in black, clear of the status figures."""
    state = scenes.mid_game()
    tiles = {}
    for seat in "AB":
        image = render_oled(seat_view(state, seat), SeatKeyUi("attends"))  # type: ignore[arg-type]
        tile = image.crop((WIDTH - 9, 0, WIDTH, 12))
        lit = sum(1 for p in tile.getdata() if p)
        assert 9 * 12 * 0.5 < lit < 9 * 12, seat  # a lit tile with a dark letter in it
        assert image.getpixel((WIDTH - 10, 5)) == 0, seat  # a dark column parts it from the figures
        tiles[seat] = tuple(tile.getdata())
    assert tiles["A"] != tiles["B"]
