"""The clue checker both ways (issue #30): the rulebooks' and the issue's examples, and the hand-written pair corpora
(tests/data/clues/<lang>-must-refuse.tsv and -must-accept.tsv) with the rates docs/rules.md reports."""

from __future__ import annotations

import pytest
from clue_rates import pair_rates  # tests/engine is on sys.path (pytest rootdir mode)

from engine import lemmas
from engine.clues import check_clue

LANGUAGES = ("fr", "en", "de", "it", "ro")

# Must be accepted: letters in common, no morphology (the list, then the Romanian rulebook's own).
ACCEPT = [
    ("chat", "CHÂTEAU", "fr"), ("rose", "GROSEILLE", "fr"), ("roue", "ROUGE", "fr"),
    ("ring", "STRING", "en"), ("light", "FLIGHT", "en"), ("row", "SPARROW", "en"), ("car", "CARPET", "en"),
    ("Horn", "AHORN", "de"), ("Eis", "EISEN", "de"), ("Rad", "RADIO", "de"),
    ("casă", "CASTEL", "ro"), ("carte", "CARTOF", "ro"), ("microb", "MICROUNDE", "ro"), ("tunde", "MICROUNDE", "ro"),
    ("băștinaș", "BAS", "ro"),
    ("pastore", "PASTA", "it"), ("mulino", "MULO", "it"), ("lettura", "LETTO", "it"), ("pesce", "PESCO", "it"),
]

# Must be refused: forms, families, compound members (3-letter ones too), Ablaut, vowel changes.
REFUSE = [
    ("arc", "ARC-EN-CIEL", "fr"), ("ciel", "ARC-EN-CIEL", "fr"), ("roue", "ROUAGE", "fr"),
    ("enchanter", "CHANTEUR", "fr"), ("chaton", "CHAT", "fr"), ("lunette", "LUNE", "fr"),
    ("Rad", "FAHRRAD", "de"), ("Räder", "FAHRRAD", "de"), ("singen", "SÄNGER", "de"), ("Gesang", "SÄNGER", "de"),
    ("fliegen", "FLUGZEUG", "de"), ("Flug", "FLUGZEUG", "de"), ("Hand", "HANDSCHUH", "de"),
    ("bastion", "BAS", "ro"), ("contrabas", "BAS", "ro"), ("micro", "MICROUNDE", "ro"), ("unde", "MICROUNDE", "ro"),
    ("microscop", "MICROUNDE", "ro"), ("unduire", "MICROUNDE", "ro"), ("ploios", "PLOAIE", "ro"),
    ("ploios", "PLOI", "ro"), ("căsuță", "CASĂ", "ro"),
    ("lives", "LIFE", "en"), ("horse", "HORSESHOE", "en"), ("snowshoe", "HORSESHOE", "en"), ("sun", "SUNFLOWER", "en"),
    ("song", "SING", "en"), ("runner", "RUN", "en"),
    ("gattino", "GATTO", "it"), ("casetta", "CASA", "it"), ("sole", "GIRASOLE", "it"), ("pioggia", "PARAPIOGGIA", "it"),
]


@pytest.mark.parametrize(("clue", "visible", "language"), ACCEPT)
def test_unrelated_words_sharing_letters_are_accepted(clue: str, visible: str, language: str) -> None:
    assert check_clue(clue, [visible], language=language) == ()


@pytest.mark.parametrize(("clue", "visible", "language"), REFUSE)
def test_parts_forms_and_families_are_refused(clue: str, visible: str, language: str) -> None:
    assert check_clue(clue, [visible], language=language) != ()


@pytest.mark.parametrize(("clue", "visible", "language"), ACCEPT + REFUSE)
def test_a_refusal_names_the_visible_word(clue: str, visible: str, language: str) -> None:
    # the same pair on a fuller board: the answer is about that word only
    board = [visible, "ZZZ", "QQQQ"]
    problems = check_clue(clue, board, language=language)
    assert {p.word for p in problems} <= {visible}


# What each language's corpora must at least reach (docs/rules.md "Measured" gives the figures themselves):
# the targets of issue #30 are 97 % and 1 %; a language below them is listed here with its floor, so that a
# change making it worse fails, and docs/rules.md says what is missing.
FLOORS = {"fr": (0.86, 0.01), "en": (0.97, 0.01), "de": (0.96, 0.01), "it": (0.90, 0.01), "ro": (0.90, 0.01)}


@pytest.mark.parametrize("language", LANGUAGES)
def test_pair_corpora_rates(language: str) -> None:
    if not lemmas.available(language):
        pytest.skip("simplemma is not installed")
    result = pair_rates(language)
    lemmas.unload(language)  # one table at a time in memory
    assert result.refuse >= 300 and result.accept >= 300, result.summary()
    detection, false_refusal = FLOORS[language]
    assert result.detection >= detection, (result.summary(), result.missed[:30])
    assert result.false_refusal <= false_refusal, (result.summary(), result.false[:30])
