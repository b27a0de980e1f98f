"""engine.lemmas (simplemma's tables, loaded once and in the background) and engine.families (prefix roots,
compound parts)."""

from __future__ import annotations

import pytest

from engine import families, lemmas


@pytest.mark.parametrize(
    ("form", "language", "lemma"),
    [("chevaux", "fr", "cheval"), ("yeux", "fr", "œil"), ("knives", "en", "knife"), ("mice", "en", "mouse"),
     ("flori", "ro", "floare"), ("școli", "ro", "școală"), ("ferestre", "ro", "fereastră"), ("oameni", "ro", "om"),
     ("copii", "ro", "copil"), ("Bäume", "de", "baum"), ("uova", "it", "uovo"), ("COEURS", "fr", "cœur")],
)
def test_lemmas_of_irregular_forms(form: str, language: str, lemma: str) -> None:
    assert lemma in lemmas.lemmas(form, language)


def test_german_case_tells_nouns_from_verbs() -> None:
    assert "schwimmen" not in lemmas.lemmas("Schwamm", "de")  # der Schwamm, a sponge
    assert "schwimmen" in lemmas.lemmas("schwamm", "de")  # er schwamm, he swam
    assert "schwimmen" in lemmas.lemmas("SCHWAMM", "de")  # typed in capitals: both readings


def test_preload_runs_in_the_background_and_answers_the_same() -> None:
    lemmas.unload("it")
    lemmas.preload("it")
    lemmas.preload("it")  # a second call while loading does nothing
    assert "uomo" in lemmas.lemmas("uomini", "it")  # waits for the table
    assert lemmas.ready("it") and (lemmas.load_seconds("it") or 0) >= 0
    lemmas.preload("xx")  # unknown: nothing
    assert not lemmas.ready("xx") and lemmas.lemmas("uomini", "xx") == frozenset()


def test_spellings_restore_the_ligatures_the_picker_cannot_type() -> None:
    assert "cœur" in lemmas.spellings("COEUR", "fr")
    assert "straße" in lemmas.spellings("strasse", "de")
    assert "școală" in lemmas.spellings("şcoală", "ro")


@pytest.mark.parametrize(
    ("word", "language", "root"),
    [("enchanter", "fr", "chanter"), ("décrocher", "fr", "crocher"), ("accrocher", "fr", "crocher"),
     ("unhappy", "en", "happy"), ("nefericire", "ro", "fericire"), ("verkaufen", "de", "kaufen"),
     ("rifare", "it", "fare")],
)
def test_roots_under_known_prefixes(word: str, language: str, root: str) -> None:
    assert root in families.roots(word, language)


def test_roots_need_a_word_after_the_prefix() -> None:
    assert families.roots("repas", "fr") == ()  # "pas" is too short
    assert families.roots("entrée", "fr") == ()


@pytest.mark.parametrize(
    ("word", "language", "parts"),
    [("microunde", "ro", {"micro", "unde"}), ("horseshoe", "en", {"horse", "shoe"}),
     ("handschuh", "de", {"hand", "schuh"}), ("sonnenblume", "de", {"blume"})],
)
def test_parts_of_compounds(word: str, language: str, parts: set[str]) -> None:
    assert parts <= set(families.parts(word, language))


def test_no_parts_where_a_suffix_or_short_piece_would_be_one() -> None:
    assert families.parts("kirschen", "de") == ()  # -chen is an ending, not a word
    assert families.parts("chateau", "fr") == ()  # chat + eau: "eau" is too short to count


def test_the_lemma_set_in_one_string_answers_as_a_set_would() -> None:
    import random

    from engine.lemmas import Words

    rng = random.Random(3)
    letters = "abcdeéèœßăîșțäöü"
    kept = {"".join(rng.choice(letters) for _ in range(rng.randrange(1, 9))) for _ in range(3000)}
    words = Words(kept)
    assert len(words) == len(kept)
    for _ in range(3000):
        probe = "".join(rng.choice(letters) for _ in range(rng.randrange(0, 9)))
        assert (probe in words) == (probe in kept)
    assert all(w in words for w in kept) and "" not in Words() and 3 not in words
    assert Words(utf8={w.encode() for w in kept})._blob == words._blob
