from __future__ import annotations

import numpy as np
import pytest
from tiny_space import BOARD

from partner import PARTNER, Partner, Turn
from partner.guesser import GuesserParams, assess, should_continue
from partner.prior import partner_prior
from partner.space import VectorSpace


def side(greens: list[int], assassins: list[int] = ()) -> str:  # type: ignore[assignment]
    return "".join("G" if i in greens else "X" if i in assassins else "N" for i in range(25))


def test_prior_follows_the_key_card_template() -> None:
    mine = "G" * 9 + "N" * 13 + "X" * 3
    p = partner_prior(mine)
    assert p[0] == pytest.approx([3 / 9, 5 / 9, 1 / 9])
    assert p[9] == pytest.approx([5 / 13, 7 / 13, 1 / 13])
    assert p[24] == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert p.sum(axis=1) == pytest.approx(np.ones(25))


def test_prior_updates_with_revealed_partner_labels() -> None:
    mine = "G" * 9 + "N" * 13 + "X" * 3
    p = partner_prior(mine, known={22: "G", 9: "N"})
    assert p[22] == pytest.approx([1, 0, 0])
    assert p[23] == pytest.approx([0, 1 / 2, 1 / 2])  # the assassin row's only green is found
    assert p[10] == pytest.approx([5 / 12, 6 / 12, 1 / 12])


def test_guesser_always_makes_a_first_guess(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    # an unknown clue word: no evidence at all, still one guess
    g = p.next_guess(BOARD, side([0]), "xyzzy", 1, covered=set(), marks_for_me=set())
    assert g is not None


def test_guesser_picks_the_clued_theme_and_stops_when_nothing_stands_out(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    my_side = side([20])
    g1 = p.next_guess(BOARD, my_side, "astronomie", 1, covered=set(), marks_for_me=set())
    assert g1 is not None and g1.card in (12, 13, 14, 15)
    g2 = p.next_guess(
        BOARD, my_side, "astronomie", 1, covered={g1.card}, marks_for_me=set(), turn_guesses=[(g1.card, "G")]
    )
    assert g2 is None
    assert any("I stopped" in line for line in p.explain(language="en"))
    assert any("je me suis arrêtée" in line for line in p.explain())


def test_guesser_goes_on_while_the_number_points_at_more(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny], guesser_params=GuesserParams(tau=0.2))
    g1 = p.next_guess(BOARD, side([20]), "astronomie", 3, covered=set(), marks_for_me=set())
    assert g1 is not None
    g2 = p.next_guess(
        BOARD,
        side([20]),
        "astronomie",
        3,
        covered={g1.card},
        marks_for_me=set(),
        turn_guesses=[(g1.card, "G")],
    )
    assert g2 is not None and g2.card in (12, 13, 14, 15) and g2.card != g1.card


def test_guesser_avoids_a_card_that_is_an_assassin_on_its_own_side() -> None:
    prior = partner_prior(side([0], assassins=[1]))
    touchable = np.ones(25, dtype=bool)
    z = np.zeros(25)
    z[1] = z[2] = 3.0  # two cards equally close to the clue; card 1 is an assassin on my side
    a = assess(prior, touchable, [(z, 1, 1.0)], GuesserParams())
    assert int(np.argmax(a.value)) == 2
    assert a.assassin[1] > a.assassin[2]


def test_guesser_sudden_death_raises_the_bar_and_never_stops() -> None:
    prior = partner_prior(side([0]))
    touchable = np.ones(25, dtype=bool)
    z = np.zeros(25)
    z[3] = 1.0
    normal = assess(prior, touchable, [(z, 1, 0.5)], GuesserParams(), sudden_death=False)
    sudden = assess(prior, touchable, [(z, 1, 0.5)], GuesserParams(), sudden_death=True)
    assert sudden.value[3] < normal.value[3]  # a bystander now loses the game too
    go, _ = should_continue(sudden, 3, GuesserParams(), hits_this_turn=2, sudden_death=True)
    assert go


def test_guesser_uses_earlier_clues_in_sudden_death(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    history = [Turn(PARTNER, "zoo", 2, guesses=((20, "G"),))]
    g = p.next_guess(BOARD, side([0]), None, None, covered={20}, marks_for_me=set(), history=history, sudden_death=True)
    assert g is not None and g.card in (21, 22, 23)


def test_guesser_never_touches_covered_or_marked_cards(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    g = p.next_guess(BOARD, side([0]), "astronomie", 1, covered={12, 13}, marks_for_me={14, 15})
    assert g is not None and g.card not in (12, 13, 14, 15)


def test_explain_tells_when_a_received_clue_ended_on_a_wrong_guess(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    g = p.next_guess(BOARD, side([0]), "zoo", 2, covered=set(), marks_for_me=set())
    assert g is not None
    history = [Turn(PARTNER, "zoo", 2, guesses=((g.card, "N"),))]
    line = p.explain(history, language="en")[0]
    assert line.startswith("You said ZOO 2: I weighed ")
    assert BOARD[g.card] in line and line.endswith("the turn ended on a wrong card")
    assert p.explain(history)[0].endswith("le tour s'est fini sur une mauvaise carte")


def test_guesser_reads_a_clue_typed_without_accents_or_in_the_plural(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    for typed in ("OCEAN", "océans"):
        g = p.next_guess(BOARD, side([0]), typed, 1, covered=set(), marks_for_me=set())
        assert g is not None and g.card in (4, 5, 6, 7), typed


def test_explain_lists_every_touched_card_among_those_weighed(tiny: VectorSpace) -> None:
    """A card touched later in the turn is in the list the box says it weighed (the first call's top four did
    not hold it: playtests saw 'I weighed SAW ...; I touched SAILOR')."""
    p = Partner("fr", [tiny], guesser_params=GuesserParams(tau=0.2))
    covered: set[int] = set()
    done: list[tuple[int, str]] = []
    for _ in range(5):
        g = p.next_guess(BOARD, side([20, 12, 13, 14, 15]), "astronomie", 5, covered=covered, marks_for_me=set(),
                         turn_guesses=done)
        if g is None:
            break
        covered.add(g.card)
        done.append((g.card, "G"))
    assert len(done) >= 2
    line = p.explain(language="en")[0]
    weighed, touched = line.split("; I touched ", 1)
    for card, _ in done:
        assert BOARD[card].upper() in weighed.upper(), (BOARD[card], line)
