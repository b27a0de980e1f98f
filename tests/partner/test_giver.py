from __future__ import annotations

import numpy as np
from tiny_space import BOARD

from partner import Partner, Turn
from partner.giver import BoardScores, GiverParams, Vocabulary, choose_clue
from partner.legal import candidate_mask
from partner.space import VectorSpace
from partner.turns import ME


def side(greens: list[int], assassins: list[int] = ()) -> str:  # type: ignore[assignment]
    return "".join("G" if i in greens else "X" if i in assassins else "N" for i in range(25))


def test_legal_mask_rejects_visible_word_family_parts_and_shared_row() -> None:
    vecs = {
        "pomme": [1, 0, 0],
        "pommes": [0, 1, 0],
        "pommier": [0, 0, 1],
        "pom": [1, 1, 0],
        "arbre": [1, 2, 3],
        "verger": [1, 2, 3],
        "fruit": [3, 1, 1],
        "table": [0, 3, 1],
    }
    space = VectorSpace.from_vectors("fr", "t", vecs, ["pommes", "pommier", "pom", "verger", "fruit", "table"])
    vocab = Vocabulary([space])
    ok = candidate_mask(vocab.fold, vocab.stem, vocab.rows, ["pomme", "arbre"], [space], "fr")
    allowed = {w for w, keep in zip(vocab.words, ok, strict=True) if keep}
    # pommes: same family; pommier: contains the word; pom: part of it; verger: same vector row as arbre
    assert allowed == {"fruit", "table"}


def test_giver_clues_a_theme_with_its_targets(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    choice = p.give_clue(BOARD, side([0, 1, 2, 3, 9]), covered=set())
    assert choice is not None
    assert choice.word == "fruit"
    assert set(choice.targets) <= {0, 1, 2, 3}
    assert choice.number == len(choice.targets) >= 2


def test_giver_margin_keeps_the_clue_away_from_an_assassin(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    choice = p.give_clue(BOARD, side([0, 1, 2, 12, 13], assassins=[3]), covered=set())
    assert choice is not None
    assert choice.word != "fruit"  # cerise (an assassin) is as close to it as the greens
    assert set(choice.targets) <= {12, 13}


def test_giver_number_is_capped_at_two_unless_the_margin_is_large(tiny: VectorSpace) -> None:
    vocab = Vocabulary([tiny])
    scores = BoardScores(vocab, BOARD, "fr")
    targets = [0, 1, 2, 3]
    strict = GiverParams(max_n=2, hard_max_n=4, big_margin=50.0)
    loose = GiverParams(max_n=2, hard_max_n=4, big_margin=0.0, margin_n=0.0, margin_a=0.0, min_z=0.5)
    by = [i for i in range(4, 25)]
    a = choose_clue(scores, vocab, targets, by, [], BOARD, strict)
    b = choose_clue(scores, vocab, targets, by, [], BOARD, loose)
    assert a is not None and b is not None
    assert a.number <= 2
    assert b.number > 2


def test_giver_never_repeats_a_clue_that_failed(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    my_side = side([0, 1, 2, 12, 13])
    first = p.give_clue(BOARD, my_side, covered=set())
    assert first is not None
    failed = Turn(ME, first.word, first.number, guesses=((5, "N"),))
    again = p.give_clue(BOARD, my_side, covered=set(), history=[failed])
    assert again is not None and again.word != first.word
    fresh = Partner("fr", [tiny])  # a fresh partner learns it from the history alone
    third = fresh.give_clue(BOARD, my_side, covered=set(), history=[failed])
    assert third is not None and third.word != first.word


def test_giver_prefers_re_cluing_words_left_over(tiny: VectorSpace) -> None:
    vocab = Vocabulary([tiny])
    scores = BoardScores(vocab, BOARD, "fr")
    targets = [0, 1, 12, 13]
    bystanders = [i for i in range(4, 25) if i not in (12, 13, 14, 15)]  # banane, cerise: out of play
    params = GiverParams(leftover_bonus=5.0)
    sky = choose_clue(scores, vocab, targets, bystanders, [], BOARD, params, leftovers={12})
    fruit = choose_clue(scores, vocab, targets, bystanders, [], BOARD, params, leftovers={0})
    assert sky is not None and fruit is not None
    assert sky.word == "astronomie" and set(sky.targets) == {12, 13}
    assert fruit.word == "fruit" and set(fruit.targets) == {0, 1}


def test_giver_consensus_needs_targets_close_in_every_space(tiny: VectorSpace) -> None:
    # a second space where "fruit" means nothing: the consensus clue must come from elsewhere
    vecs = {w: tiny.vector(w) for w in BOARD + ["fruit", "orchestre", "océan", "astronomie", "guerre", "zoo"]}
    rng = np.random.default_rng(5)
    vecs["fruit"] = rng.normal(size=len(vecs["pomme"]))
    other = VectorSpace.from_vectors("fr", "other", vecs, ["fruit", "orchestre", "océan", "astronomie", "guerre"])
    p = Partner("fr", [tiny, other])
    choice = p.give_clue(BOARD, side([0, 1, 8, 9]), covered=set())
    assert choice is not None
    assert choice.word == "orchestre"


def test_giver_returns_none_without_greens(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    assert p.give_clue(BOARD, side([0, 1]), covered={0, 1}) is None
