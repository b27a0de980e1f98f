"""The clue picker's letters (issue 16): Œ for French, an apostrophe and a space everywhere; a typed space is kept,
so flexible rules can take a multi-word clue."""

from __future__ import annotations

from pathlib import Path

from boxscript import exported, make_record, run_box

from device.screens.play import DELETE, DONE, SKIP, SPACE, letters_for, picked
from engine.keyboard import typed


def test_french_picker_has_oe_apostrophe_and_space() -> None:
    letters = letters_for("fr")
    for letter in ("Œ", "É", "Ç", "'", SPACE):
        assert letter in letters
    assert letters[-3:] == (DELETE, DONE, SKIP)
    assert picked(SPACE) == " " and picked("Œ") == "Œ"


def test_every_language_has_its_letters() -> None:
    assert {"Ă", "Â", "Î", "Ș", "Ț"} <= set(letters_for("ro"))
    assert {"Ä", "Ö", "Ü", "ß"} <= set(letters_for("de"))
    assert {"À", "È", "É", "Ì", "Ò", "Ù"} <= set(letters_for("it"))
    assert "Œ" not in letters_for("en") and "'" in letters_for("en") and SPACE in letters_for("en")


def test_typed_spells_words_as_the_picker_does() -> None:
    assert typed("château", "fr") == "CHATEAU"  # no Â on the French picker
    assert typed("cœur", "fr") == "CŒUR"
    assert typed("cœur", "en") == "COEUR"
    assert typed("școală", "ro") == "ȘCOALĂ"
    assert typed("pomme de terre", "fr") == "POMME DE TERRE"


def test_a_typed_space_is_kept_in_flexible_rules(tmp_path: Path) -> None:
    record = make_record(3, language="fr")
    record["rules"]["clues"] = "flexible"
    script = "press A.ok\npress A.ok\ntype A pomme de terre\npress A.ok\n"
    code, _, data = run_box(tmp_path, script, record=record)
    assert code == 0
    clue = exported(data)["actions"][0]
    assert clue["type"] == "clue" and clue["word"] == "pomme de terre"
