"""The issue-18 behaviours on the tiny vector space and a tiny association table: the blocklist, clues drawn from
the table, a person's clue read through it, shared vector rows told apart, and the noise-aware choice."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from tiny_space import BOARD, OTHER_CLUES, THEMES, make_vectors

from partner import Partner
from partner import clean as cleanmod
from partner.assoc import AssocError, AssocTable
from partner.giver import BoardScores, Vocabulary
from partner.messages import MESSAGES
from partner.noisy import NoiseParams, choose_noisy, simulate
from partner.space import VectorSpace

# A tiny table in the format of partner/data/assoc/<lang>.tsv (pack_word, associate, strength 1..5)
TINY_TABLE = """\
# tiny association table for the tests
pomme\tverger\t5
poire\tverger\t4
cerise\tverger\t4
banane\tverger\t2
pomme\tcompote\t5
pomme\ttarte\t4
lion\tcrinière\t5
"""


def side(greens: list[int], assassins: tuple[int, ...] = ()) -> str:
    return "".join("G" if i in greens else "X" if i in assassins else "N" for i in range(25))


@pytest.fixture()
def table() -> AssocTable:
    return AssocTable.parse("fr", TINY_TABLE.splitlines())


def space_with(extra: dict[str, np.ndarray], clues: list[str] | None = None) -> VectorSpace:
    vectors = make_vectors()
    vectors.update(extra)
    clue_words = clues if clues is not None else [c for c, _ in THEMES.values()] + OTHER_CLUES
    return VectorSpace.from_vectors("fr", "tiny", vectors, clue_words)


# ---------------------------------------------------------------- the table file


def test_table_loader_reads_the_format_and_both_directions(tmp_path: Path, table: AssocTable) -> None:
    assert table.associates("pomme") == {"verger": 5, "compote": 5, "tarte": 4}
    assert table.strength("verger", "poire") == 4
    assert table.strength("VERGER", "chaise") == 0
    assert table.pointed("verger") == {"pomme": 5, "poire": 4, "cerise": 4, "banane": 2}
    assert table.pointed("criniere") == {"lion": 5}  # typed without the accent
    assert len(table) == 7
    path = tmp_path / "fr.tsv"
    path.write_text(TINY_TABLE, encoding="utf-8")
    assert AssocTable.load(path).associates("lion") == {"crinière": 5}


@pytest.mark.parametrize("line", ["pomme\tverger", "pomme\tverger\t6", "pomme\tverger\tfort", "a\tb\t0"])
def test_table_loader_rejects_a_malformed_line_with_its_number(line: str) -> None:
    with pytest.raises(AssocError, match=r"<table>:2:"):
        AssocTable.parse("fr", ["# comment", line])


# ---------------------------------------------------------------- clean vocabulary


def test_blocklist_files_hold_the_obvious_words_and_the_filter_uses_them() -> None:
    for lang, word in (("fr", "merde"), ("fr", "salope"), ("en", "fuck"), ("en", "whore")):
        assert word in cleanmod.blocklist(lang)
        assert not cleanmod.allowed(word, lang)
    for lang, word in (("fr", "par"), ("fr", "mme"), ("en", "the")):
        assert cleanmod.is_blocked(word, lang)  # function words and abbreviations
    assert cleanmod.allowed("orchestre", "fr") and cleanmod.allowed("piano", "en")
    # the generated vocabulary has no plurals, first names or adjectives of the research's list
    allow = cleanmod.allowlist("fr")
    assert allow is not None
    for word in ("animaux", "yeux", "chevaux", "grande", "dit", "thomas", "pour"):
        assert word not in allow


def test_box_never_says_a_blocklisted_word_even_when_it_is_the_best_clue() -> None:
    fruit_axis = np.zeros(24)
    fruit_axis[0] = 1.0
    # "merde" sits right on the fruit theme, closer than "fruit" itself
    space = space_with({"merde": fruit_axis.copy()}, ["merde"] + [c for c, _ in THEMES.values()] + OTHER_CLUES)
    raw = Partner("fr", [space])  # the legacy giver without the clean vocabulary takes it
    first = raw.give_clue(BOARD, side([0, 1, 2, 3]), covered=set())
    assert first is not None and first.word == "merde"
    box = Partner.box("fr", [space])
    for greens in ([0, 1, 2, 3], [0, 1], [2]):
        box.new_game()
        choice = box.give_clue(BOARD, side(greens), covered=set())
        assert choice is not None and choice.word != "merde"
        assert cleanmod.allowed(choice.word, "fr")
    assert "merde" not in box.vocab.position


# ---------------------------------------------------------------- the table in the giver and the guesser


def test_giver_draws_a_clue_from_the_table(table: AssocTable) -> None:
    # "verger" has a vector (a lookup word) but is not in the export's clue vocabulary; "fruit" is not a clue
    # word either: without the table nothing points at the fruits
    axis = np.zeros(24)
    axis[0] = 1.0
    rng = np.random.default_rng(5)
    clues = [c for c, _ in THEMES.values() if c != "fruit"] + OTHER_CLUES
    space = space_with({"verger": axis + 0.3 * rng.normal(size=24)}, clues)
    greens = [0, 1, 3]  # pomme, poire, cerise (banane, linked at 2 only, is a bystander)
    without = Partner.box("fr", [space])
    plain = without.give_clue(BOARD, side(greens), covered=set())
    assert plain is None or plain.word != "verger"
    box = Partner.box("fr", [space], assoc=table)
    assert box.vocab.from_table[box.vocab.position["verger"]]
    choice = box.give_clue(BOARD, side(greens), covered=set())
    assert choice is not None and choice.word == "verger"
    assert set(choice.targets) <= {0, 1, 3} and choice.number >= 1
    # with cerise a bystander, a person would touch it for "verger" (strength 4): the box does not say it
    box.new_game()
    choice = box.give_clue(BOARD, side([0, 1, 2]), covered=set())
    assert choice is None or choice.word != "verger"


def test_guesser_reads_a_persons_clue_through_the_table(tiny: VectorSpace, table: AssocTable) -> None:
    # "compote" has no vector at all: only the table knows it points at pomme (card 0)
    box = Partner.box("fr", [tiny], assoc=table)
    g = box.next_guess(BOARD, side([20]), "compote", 1, covered=set(), marks_for_me=set())
    assert g is not None and g.card == 0
    # a plural typed by the person is read through the table too
    box.new_game()
    g = box.next_guess(BOARD, side([20]), "compotes", 1, covered=set(), marks_for_me=set())
    assert g is not None and g.card == 0
    # without the table the word says nothing: the box does not single pomme out
    blind = Partner.box("fr", [tiny])
    g = blind.next_guess(BOARD, side([20]), "compote", 1, covered=set(), marks_for_me=set())
    assert g is not None and g.green < 0.9


def test_table_tells_apart_pack_words_sharing_a_vector_row(table: AssocTable) -> None:
    vectors = make_vectors()
    space = space_with({"poire": vectors["pomme"].copy(), "tarte": vectors["pomme"] + 0.05})
    assert space.row("pomme") == space.row("poire")
    box = Partner.box("fr", [space], assoc=table)
    # the person says "tarte": to the vectors pomme and poire are one word; the table names pomme
    g = box.next_guess(BOARD, side([20]), "tarte", 1, covered=set(), marks_for_me=set())
    assert g is not None and g.card == 0
    # the giver: the shared-row penalty is lifted for the card the table names, not for its twin
    scores = BoardScores(box.vocab, BOARD, "fr", table, 0.0)
    k = box.vocab.position["tarte"] if "tarte" in box.vocab.position else None
    if k is not None:
        assert scores.low[k, 0] > scores.low[k, 1]


# ---------------------------------------------------------------- the noise-aware choice


def test_simulate_counts_greens_assassins_and_bystanders() -> None:
    rng = np.random.default_rng(0)
    z = np.array([[5.0, 5.0, -5.0, -5.0], [5.0, -5.0, 4.9, -5.0]], dtype=np.float32)
    labels = np.array([0, 0, 2, 1])
    greens, p_x, p_n = simulate(z, labels, 0.01, 50, 2, rng)
    assert greens[0].tolist() == pytest.approx([1.0, 2.0])
    assert p_x[0].tolist() == pytest.approx([0.0, 0.0])
    # second clue: one green, then the assassin with the second guess
    assert greens[1].tolist() == pytest.approx([1.0, 1.0])
    assert p_x[1].tolist() == pytest.approx([0.0, 1.0])
    assert p_n.max() == 0.0


def test_noise_aware_choice_prefers_a_safe_clue_over_a_risky_one() -> None:
    dim = 24
    e = np.eye(dim)
    vectors = {
        "pomme": e[0], "poire": e[1], "lion": e[2],  # two greens and the assassin
        "risque": e[0] + e[1] + 0.8 * e[2],  # close to both greens, and not far from the assassin
        "sûr": e[0] + 0.15 * e[5],  # close to one green only
    }
    rng = np.random.default_rng(1)
    board = ["pomme", "poire", "lion"] + [f"mot{i}" for i in range(22)]
    for w in board[3:]:
        vectors[w] = rng.normal(size=dim) / np.sqrt(dim)
    for i in range(40):
        vectors[f"autre{i}"] = rng.normal(size=dim) / np.sqrt(dim)
    space = VectorSpace.from_vectors("fr", "t", vectors, ["risque", "sûr"] + [f"autre{i}" for i in range(40)])
    vocab = Vocabulary([space])
    scores = BoardScores(vocab, board, "fr")
    args = (scores, vocab, [0, 1], list(range(3, 25)), [2], board)
    # a box that trusts its reader to see exactly what it sees goes for two cards
    sharp = choose_noisy(*args, NoiseParams(sigma=0.05, assassin=8.0))
    assert sharp is not None and sharp.word == "risque" and sharp.number == 2
    # with the measured reading noise, the assassin risk of "risque" outweighs its second card
    careful = choose_noisy(*args, NoiseParams(sigma=1.1, assassin=8.0))
    assert careful is not None and careful.word == "sûr" and careful.targets == (0,)


# ---------------------------------------------------------------- texts


def test_every_partner_text_exists_in_every_language() -> None:
    keys = set(MESSAGES["en"])
    for lang, table in MESSAGES.items():
        assert set(table) == keys, lang


# ---------------------------------------------------------------- the eval setups


def test_wilson_interval_matches_the_textbook_values() -> None:
    from partner.evaluate import wilson

    lo, hi = wilson(0, 300)
    assert lo == 0.0 and hi == pytest.approx(0.0126, abs=5e-4)  # the "0 % [0, 1.3]"
    lo, hi = wilson(6, 300)
    assert (lo, hi) == (pytest.approx(0.0092, abs=5e-4), pytest.approx(0.0430, abs=5e-4))  # "2.0 % [0.9, 4.3]"


def test_solo_setup_seats_the_box_at_b_and_one_stand_in_at_a(tiny: VectorSpace, tiny2: VectorSpace) -> None:
    from engine.words import WordPack
    from partner.evaluate import evaluate, seats_for, standin

    made: list[str] = []

    def box() -> Partner:
        made.append("box")
        return Partner.box("fr", [tiny])

    def person() -> Partner:
        made.append("person")
        return standin("fr", tiny2)

    givers, guessers, box_seats = seats_for("solo", box, person)
    assert made == ["person", "box"] and box_seats == ("B",)
    assert givers["A"] is guessers["A"] and givers["B"] is guessers["B"]  # one player per seat, both jobs
    assert guessers["A"].assoc is None and guessers["A"].noise is None  # the stand-in: no table, no noise model
    assert givers["B"].noise is not None
    pack = WordPack(name="tiny", language="fr", words=tuple(BOARD))
    summary = evaluate(pack, givers, guessers, 3, 9, 5, "fr", box_seats=box_seats)
    figures = summary.figures()
    assert figures["games"] == 3
    assert summary.box_clues >= 1 and figures["box_clues_blocked"] == 0
    during = figures["assassin_during_play"]
    by_seat = figures["assassin_during_play_by_seat"]
    assert isinstance(during, dict) and isinstance(by_seat, dict)
    assert during["count"] == sum(v["count"] for v in by_seat.values())
    assert set(figures["guess_precision_by_seat_pct"]) <= {"A", "B"}  # type: ignore[arg-type]
    g2, u2, seats2 = seats_for("clues", box, person)
    assert seats2 == ("A", "B") and g2["A"] is not g2["B"] and u2["A"].assoc is None
    with pytest.raises(ValueError):
        seats_for("cross", box, person)


def test_what_i_meant_says_when_a_clue_came_from_the_table(table: AssocTable) -> None:
    axis = np.zeros(24)
    axis[0] = 1.0
    rng = np.random.default_rng(5)
    clues = [c for c, _ in THEMES.values() if c != "fruit"] + OTHER_CLUES
    space = space_with({"verger": axis + 0.3 * rng.normal(size=24)}, clues)
    box = Partner.box("fr", [space], assoc=table, language="en")
    choice = box.give_clue(BOARD, side([0, 1, 3]), covered=set())
    assert choice is not None and choice.word == "verger"
    line = box.explain()[0]
    assert line.startswith("I said VERGER") and "(a word people link with " in line
    assert "(un mot qu'on associe à " in box.explain(language="fr")[0]
