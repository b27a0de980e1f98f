"""Clue checker: Rules §1 "Invalid clues" (strict and flexible rules)."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engine.clues import PROBLEM_CODES, STEMMER_LANGUAGES, ClueProblem, check_clue, normalize


def codes(word: str, visible: list[str], language: str = "fr", strict: bool = True) -> list[tuple[str, str]]:
    return [(p.code, p.word) for p in check_clue(word, visible, language=language, strict=strict)]


TABLE_FR = ["FLEUVE", "ROUAGE", "CHANTER", "POMME", "ÉCOLE", "ROUGE", "MARINE", "MERLE"]


def test_check_clue_accepts_an_unrelated_word() -> None:
    assert check_clue("eau", TABLE_FR) == ()
    assert check_clue("océan", TABLE_FR, strict=False) == ()


def test_check_clue_refuses_a_visible_word() -> None:
    assert codes("fleuve", TABLE_FR) == [("visible", "FLEUVE")]


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("ecole", "ÉCOLE", "fr"),
        ("École", "ecole", "fr"),
        ("  FLEUVE ", "fleuve", "fr"),
        ("scoala", "ȘCOALĂ", "ro"),
        ("şcoală", "ȘCOALĂ", "ro"),  # legacy cedilla letters
        ("MAIN", "main", "en"),
    ],
)
def test_check_clue_ignores_case_and_accents(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == [("visible", visible)]


@pytest.mark.parametrize(
    ("clue", "visible", "language", "code"),
    [
        ("fleuves", "FLEUVE", "fr", "contains"),
        ("chaton", "CHAT", "fr", "contains"),
        ("marin", "MARINE", "fr", "contained_in"),
        ("micro", "MICROUNDE", "ro", "contained_in"),  # the Romanian rulebook's compound example
        ("unde", "MICROUNDE", "ro", "contained_in"),
        ("ceasornic", "CEAS", "ro", "contains"),
        ("horse", "HORSESHOE", "en", "contained_in"),
        ("teacher", "TEACH", "en", "contains"),
        ("Bäume", "BAUM", "de", "contains"),
        ("girasole", "SOLE", "it", "contains"),
    ],
)
def test_check_clue_refuses_a_part_of_a_visible_word(
    clue: str, visible: str, language: str, code: str
) -> None:
    assert codes(clue, [visible], language) == [(code, visible)]


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("party", "ART", "en"),  # 3 letters: too short to count as a part
        ("băștinaș", "BAS", "ro"),  # allowed by the Romanian rulebook
        ("merle", "MER", "fr"),
        ("sparrow", "ROW", "en"),
        ("island", "ENGLAND", "en"),
    ],
)
def test_check_clue_allows_words_sharing_fewer_than_4_letters(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == []


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("chanteur", "CHANTER", "fr"),
        ("roue", "ROUAGE", "fr"),
        ("pommier", "POMME", "fr"),
        ("écolier", "ÉCOLE", "fr"),
        ("chevaux", "CHEVAL", "fr"),
        ("running", "RUNNER", "en"),
        ("cats", "CAT", "en"),
        ("painter", "PAINTING", "en"),
        ("cărți", "CARTE", "ro"),
        ("mașini", "MAȘINĂ", "ro"),
        ("stelele", "STEA", "ro"),
        ("munţi", "MUNTE", "ro"),
        ("pădurar", "PĂDURE", "ro"),
        ("Fahrer", "FAHRT", "de"),
        ("Wohnung", "WOHNEN", "de"),
        ("cantante", "CANTARE", "it"),
        ("gatti", "GATTO", "it"),
    ],
)
def test_check_clue_refuses_the_same_stem(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == [("same_stem", visible)]


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [("roue", "ROUGE", "fr"), ("rouge", "ROUE", "fr"), ("maison", "SAISON", "fr"), ("cart", "CARROT", "en")],
)
def test_check_clue_same_stem_ignores_lookalikes(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == []


def test_check_clue_reports_one_problem_per_visible_word_the_strongest() -> None:
    # "fleuves" both contains FLEUVE and shares its stem: only the containment is reported.
    assert codes("fleuves", ["FLEUVE", "ROUAGE", "ROUE"]) == [("contains", "FLEUVE")]
    assert codes("roue", ["ROUE", "ROUAGE", "ROUGE"]) == [("visible", "ROUE"), ("same_stem", "ROUAGE")]


@pytest.mark.parametrize("clue", ["pomme de", "arc-en-ciel", "New York", "porte\tclé", "top–down"])
def test_check_clue_refuses_several_words(clue: str) -> None:
    assert ("several_words", "") in codes(clue, [])


def test_check_clue_several_words_still_checks_the_table() -> None:
    assert codes("pomme de", TABLE_FR) == [("several_words", ""), ("contains", "POMME")]


@pytest.mark.parametrize("clue", ["r2d2", "007", "agent7"])
def test_check_clue_refuses_digits(clue: str) -> None:
    assert codes(clue, []) == [("digits", "")]


@pytest.mark.parametrize("clue", ["hi!", "a.b", "'tis", "l'", "bon_jour"])
def test_check_clue_refuses_symbols(clue: str) -> None:
    assert codes(clue, []) == [("not_a_word", "")]


@pytest.mark.parametrize("clue", ["aujourd'hui", "aujourd\u2019hui", "presqu'île", "ȘCOALĂ", "Straße"])
def test_check_clue_allows_apostrophes_and_letters_of_any_script(clue: str) -> None:
    assert codes(clue, ["FLEUVE"]) == []


@pytest.mark.parametrize("clue", ["", "   ", "\n"])
def test_check_clue_refuses_an_empty_clue(clue: str) -> None:
    assert codes(clue, TABLE_FR) == [("empty", "")]
    assert codes(clue, TABLE_FR, strict=False) == [("empty", "")]


def test_check_clue_flexible_keeps_the_visible_word_and_its_own_forms() -> None:
    assert codes("fleuve", TABLE_FR, strict=False) == [("visible", "FLEUVE")]
    assert codes("fleuves", TABLE_FR, strict=False) == [("same_stem", "FLEUVE")]  # a form of FLEUVE
    # compounds, multi-word names, derived words, homonyms: allowed in flexible rules
    for clue in ("chanteur", "roue", "pomme de", "pomme de terre", "arc-en-ciel", "r2d2", "hi!"):
        assert codes(clue, TABLE_FR, strict=False) == [], clue


def test_check_clue_ignores_blank_visible_entries() -> None:
    assert check_clue("fleuve", ["", "  "]) == ()


def test_check_clue_unknown_language_raises() -> None:
    with pytest.raises(ValueError, match="xx"):
        check_clue("fleuve", [], language="xx")
    with pytest.raises(ValueError):
        check_clue("fleuve", [], language="es", strict=False)


@pytest.mark.parametrize("language", sorted(STEMMER_LANGUAGES))
def test_check_clue_every_language_has_a_stemmer(language: str) -> None:
    assert check_clue("zzzz", ["qqqq"], language=language) == ()


def test_clue_problem_message_names_the_visible_word() -> None:
    assert ClueProblem("visible", "fleuve").message() == "FLEUVE is on the table"
    for code in PROBLEM_CODES:
        text = ClueProblem(code, "rouage").message()
        assert text and "\n" not in text and "Invalid clue" not in text
        if code in ("visible", "contains", "contained_in", "same_stem"):
            assert "ROUAGE" in text


def test_normalize_folds_case_accents_and_spaces() -> None:
    assert normalize("  École ") == "ecole"
    assert normalize("ȘȚĂÂÎ") == "staai"
    assert normalize("Straße") == "strasse"


@given(st.text(alphabet=st.characters(categories=["L", "M", "N", "P", "Zs"]), min_size=1, max_size=20))
def test_normalize_is_idempotent(word: str) -> None:
    assert normalize(normalize(word)) == normalize(word)


@given(
    st.text(alphabet=st.characters(categories=["L", "N", "P", "Zs"]), min_size=1, max_size=15),
    st.booleans(),
    st.sampled_from(sorted(STEMMER_LANGUAGES)),
)
@example("0\u16800", False, "de")  # an Ogham space mark inside the word (found by hypothesis)
def test_check_clue_always_refuses_the_word_itself(word: str, strict: bool, language: str) -> None:
    problems = check_clue(word, [word], language=language, strict=strict)
    expected = "visible" if word.strip() else "empty"
    assert expected in [p.code for p in problems]
    assert all(p.code in PROBLEM_CODES for p in problems)


# Issue 16: the examples players and rulebooks name, each refused in strict rules.
@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("ENCHANTER", "CHANTEUR", "fr"),  # the French rules' own family example
        ("DÉCROCHER", "CROCHET", "fr"),
        ("DECROCHER", "CROCHET", "fr"),  # typed without the accent
        ("CHEVAUX", "CHEVAL", "fr"),
        ("ROIS", "ROI", "fr"),
        ("YEUX", "ŒIL", "fr"),
        ("KNIVES", "KNIFE", "en"),
        ("MICE", "MOUSE", "en"),
        ("TEETH", "TOOTH", "en"),
        ("GEESE", "GOOSE", "en"),
        ("BUSES", "BUS", "en"),
        ("SNOWSHOE", "HORSESHOE", "en"),  # a part of a visible compound
        ("UNHORSED", "HORSESHOE", "en"),
        ("FLORI", "FLOARE", "ro"),
        ("ȘCOLI", "ȘCOALĂ", "ro"),
        ("ŞCOLI", "ŞCOALĂ", "ro"),  # legacy cedilla letters
        ("OAMENI", "OM", "ro"),
        ("APE", "APĂ", "ro"),
        ("COPII", "COPIL", "ro"),
        ("FERESTRE", "FEREASTRĂ", "ro"),
        ("MICROSCOP", "MICROUNDE", "ro"),  # the Romanian rules' compound example
        ("UNDUIRE", "MICROUNDE", "ro"),
        ("UOVA", "UOVO", "it"),
        ("UOMINI", "UOMO", "it"),
    ],
)
def test_check_clue_refuses_forms_families_and_compound_parts(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == [("same_stem", visible)]


@pytest.mark.parametrize(
    ("clue", "visible"),
    [("COEUR", "CŒUR"), ("coeur", "cœur"), ("OEUF", "ŒUF"), ("NOEUD", "NŒUD"), ("OEIL", "ŒIL"), ("CŒUR", "coeur")],
)
def test_check_clue_spells_ligatures_as_the_picker_does(clue: str, visible: str) -> None:
    assert codes(clue, [visible]) == [("visible", visible)]
    assert codes(clue, [visible], strict=False) == [("visible", visible)]


@pytest.mark.parametrize(("clue", "visible"), [("COEURS", "CŒUR"), ("OEUFS", "ŒUF"), ("NOEUDS", "NŒUD")])
def test_check_clue_ligature_plurals_are_forms_even_in_flexible_rules(clue: str, visible: str) -> None:
    assert codes(clue, [visible], strict=False) == [("same_stem", visible)]


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("CHIENS", "CHIEN", "fr"),
        ("CHEVAUX", "CHEVAL", "fr"),
        ("ROIS", "ROI", "fr"),
        ("KNIVES", "KNIFE", "en"),
        ("MICE", "MOUSE", "en"),
        ("BUSES", "BUS", "en"),
        ("FLORI", "FLOARE", "ro"),
        ("ȘCOLI", "ȘCOALĂ", "ro"),
        ("COPII", "COPIL", "ro"),
        ("Bäume", "BAUM", "de"),
        ("gatti", "GATTO", "it"),
    ],
)
def test_check_clue_flexible_refuses_a_visible_words_own_forms(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language, strict=False) == [("same_stem", visible)]


@pytest.mark.parametrize(
    ("clue", "visible", "language"),
    [
        ("microb", "MICROUNDE", "ro"),  # allowed by the Romanian rules
        ("tunde", "MICROUNDE", "ro"),
        ("mercredi", "MER", "fr"),  # judgement call (docs/rules.md): MER is too short to count as a part
        ("chaise", "CHAT", "fr"),
        ("copie", "COPIL", "ro"),
    ],
)
def test_check_clue_allows_lookalikes_the_rules_allow(clue: str, visible: str, language: str) -> None:
    assert codes(clue, [visible], language) == []


def test_check_clue_a_visible_word_inside_the_clue_counts_only_as_a_part() -> None:
    # docs/rules.md: the French rules' "part" is morphological (ROUE/ROUAGE): château is no chat + -eau, but
    # lunette is lune + -ette. Neither is one of the visible word's own forms (flexible rules allow both).
    assert codes("château", ["CHAT"]) == []
    assert codes("lunette", ["LUNE"]) == [("contains", "LUNE")]
    assert codes("lunette", ["LUNE"], strict=False) == []


def test_check_clue_romanian_rules_refuse_what_looks_like_a_visible_word() -> None:
    # "Dacă BAS este la vedere, nu poți spune contrabas, basculantă sau bastion. Dar băștinaș merge."
    for clue in ("bastion", "basculantă", "contrabas"):
        assert codes(clue, ["BAS"], "ro") != [], clue
    assert codes("băștinaș", ["BAS"], "ro") == []
    assert codes("bastion", ["BAS"], "fr") == []  # the French rules have no such sentence


def test_check_clue_flexible_keeps_typed_spaces() -> None:
    assert codes("pomme  de terre", ["POMME DE TERRE"], strict=False) == [("visible", "POMME DE TERRE")]
    assert codes("pomme de terre", ["POMMEDETERRE"], strict=False) == []
