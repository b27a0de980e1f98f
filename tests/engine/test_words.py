"""Word packs: bundled packs, the pack checker, drawing words, and `duetbox words check`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from device.cli import main as cli
from engine.clues import check_clue, normalize, related
from engine.words import (
    LANGUAGE_PACKS,
    MAX_WORD_LENGTH,
    THEMED_PACKS,
    WordPack,
    WordPackError,
    bundled_packs,
    check_pack_file,
    check_pack_text,
    draw_words,
    load_pack,
    parse_pack,
)

DATA = Path(__file__).resolve().parent.parent / "data" / "words"
BUNDLED = Path(__file__).resolve().parents[2] / "engine" / "data" / "words"
HEADER = "# language: fr\n"
WORDS_25 = [f"mot{letter}" for letter in "abcdefghijklmnopqrstuvwxy"]


def pack_text(words: list[str], header: str = HEADER) -> str:
    return header + "\n".join(words) + "\n"


def sample(name: str) -> str:
    return str(DATA / name)


# --- bundled packs ---


def test_bundled_packs_are_french_first_then_the_other_languages_then_themed() -> None:
    assert bundled_packs() == LANGUAGE_PACKS + THEMED_PACKS
    assert LANGUAGE_PACKS == ("fr", "en", "ro", "de", "it")
    assert {name.split("-")[0] for name in THEMED_PACKS} >= {"fr", "en"}
    assert {name.split("-")[1] for name in THEMED_PACKS} == {"food", "travel", "kids"}
    assert sorted(path.stem for path in BUNDLED.glob("*.txt")) == sorted(bundled_packs())


@pytest.mark.parametrize("name", bundled_packs())
def test_bundled_pack_passes_the_checker(name: str) -> None:
    pack = load_pack(name)
    assert pack.language == name.split("-")[0]
    # A game draws 25 words; the main packs last 40 games before a word repeats, themed packs 8.
    assert len(pack.words) >= (1000 if name in LANGUAGE_PACKS else 200)
    assert len({normalize(word) for word in pack.words}) == len(pack.words)
    assert all(0 < len(word) <= MAX_WORD_LENGTH for word in pack.words)
    text = (BUNDLED / f"{name}.txt").read_text("utf-8")
    assert check_pack_text(text) == []
    assert pack.name != name  # every bundled pack names itself for the set-up list


@pytest.mark.parametrize("name", bundled_packs())
def test_bundled_pack_words_are_single_words_of_letters(name: str) -> None:
    pack = load_pack(name)
    bad = [word for word in pack.words if check_clue(word, [], language=pack.language)]
    assert bad == []
    if pack.language == "de":  # German writes every noun with a capital (the checker folds case)
        assert [word for word in pack.words if word != word[:1].upper() + word[1:].lower()] == []
    else:
        assert [word for word in pack.words if word != word.lower()] == []


def _refused_pairs(words: tuple[str, ...], language: str) -> list[tuple[str, str, str]]:
    """Pairs of pack words that are forms, family or compound members of each other (``engine.clues.related``: what
    the strict checker refuses besides the Romanian "looks like" rule, which concerns clues, not two cards).

    Every refusal (containment, shared stem, a stem or root extending into the other word) needs the two folded
    words to share their first two letters or a run of three letters, so only such pairs are given to the
    checker (all pairs would take minutes per pack)."""
    folded = [normalize(word) for word in words]
    runs: dict[str, set[int]] = {}
    for i, word in enumerate(folded):
        for k in range(len(word) - 2):
            runs.setdefault(word[k : k + 3], set()).add(i)
        runs.setdefault("^" + word[:2], set()).add(i)
    refused = []
    for i, word in enumerate(words):
        near = set().union(*(runs.get(folded[i][k : k + 3], set()) for k in range(len(folded[i]) - 2)))
        near |= runs["^" + folded[i][:2]]
        near.discard(i)
        refused += [(word, words[j], "related") for j in sorted(near) if related(word, words[j], language)]
    return refused


def test_refused_pairs_finds_families_and_containment() -> None:
    words = ("chanter", "chanteur", "lune", "lunettes", "arbre", "pont", "chat", "chaton", "château", "toile",
             "étoile")
    found = {(a, b) for a, b, _ in _refused_pairs(words, "fr")}
    assert found >= {("chanter", "chanteur"), ("lunettes", "lune"), ("chaton", "chat")}
    # letters in common are no family (issue #30): château is no chat + -eau, étoile no é + toile
    assert not {"arbre", "pont", "château", "étoile", "toile"} & {a for a, _ in found}


@pytest.mark.parametrize("name", bundled_packs())
def test_bundled_pack_has_no_two_words_refused_together(name: str) -> None:
    """Two words of one family (chien/chienne) or one inside the other (chat/château) on one board forbid each
    other's clues, so no bundled pack holds such a pair: any 25 of its words make a fair board.

    Since the checker refuses a part of a visible compound (the rules' MICROUNDE / microscop, HORSESHOE / snowshoe),
    compounds sharing a part (strawberry / raspberry, télévision / téléphone) forbid each other too; a pack may keep
    a few of them (at most two pairs per 100 words, or 3): such a board is still fair, each a clue the other excludes.
    """
    pack = load_pack(name)
    pairs = {tuple(sorted((a, b))) for a, b, _ in _refused_pairs(pack.words, pack.language)}
    assert len(pairs) <= max(3, len(pack.words) // 50), sorted(pairs)


def test_bundled_romanian_pack_uses_comma_below_diacritics() -> None:
    words = load_pack("ro").words
    text = "".join(words)
    assert not set(text) & set("şţŞŢ")
    for letter in "șțăâî":
        assert letter in text
    assert {"școală", "țintă", "pădure", "câine", "înger"} <= set(words)


def test_bundled_german_and_italian_packs_keep_their_letters() -> None:
    german = set(load_pack("de").words)
    assert {"Straße", "Bär", "Löwe", "Schlüssel", "Hund"} <= german
    italian = set(load_pack("it").words)
    assert {"città", "caffè", "re", "cane", "gatto"} <= italian


# --- parsing ---


def test_parse_pack_reads_headers_comments_and_blank_lines() -> None:
    text = "\ufeff# name: Petit\n# language: FR\n\n# a comment: with a colon\n" + "\n".join(
        f"  {word}  # inline" for word in WORDS_25
    )
    pack = parse_pack(text, "fallback")
    assert pack == WordPack("Petit", "fr", tuple(WORDS_25))


def test_parse_pack_uses_the_given_name_without_a_name_header() -> None:
    assert parse_pack(pack_text(WORDS_25), "mine").name == "mine"


def test_parse_pack_normalizes_words_to_nfc() -> None:
    pack = parse_pack(pack_text(WORDS_25[:24] + ["e\u0301cole"]), "p")
    assert pack.words[-1] == "\u00e9cole"


def test_parse_pack_refuses_a_broken_pack_in_one_line() -> None:
    with pytest.raises(WordPackError) as info:
        parse_pack(pack_text(WORDS_25[:3]), "tiny")
    assert "\n" not in str(info.value)
    assert "tiny" in str(info.value) and "3 distinct words" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_parse_pack_counts_further_problems() -> None:
    with pytest.raises(WordPackError, match=r"and 1 more problem\)"):
        parse_pack("\n".join(WORDS_25[:3]), "tiny")


# --- checking ---


def test_check_pack_file_accepts_a_good_pack() -> None:
    assert check_pack_file(sample("good.txt")) == []
    pack = load_pack(sample("good.txt"))
    assert (pack.name, pack.language, len(pack.words)) == ("Petit paquet", "fr", 25)
    assert pack.words[:3] == ("arbre", "pont", "lune")


def test_check_pack_file_names_both_lines_of_a_duplicate() -> None:
    assert check_pack_file(sample("duplicates.txt")) == [
        "line 29: 'ecole' duplicates line 27 'École'",
        "line 30: 'MUSÉE' duplicates line 28 'musée'",
    ]


def test_check_pack_file_reports_a_word_too_long_for_a_card() -> None:
    assert check_pack_file(sample("too_long.txt")) == [
        "line 27: 'anticonstitutionnellement' has 25 letters (at most 12 fit a card)"
    ]


def test_check_pack_text_accepts_exactly_12_letters() -> None:
    assert check_pack_text(pack_text(WORDS_25[:24] + ["bibliothèque"])) == []
    assert len(check_pack_text(pack_text(WORDS_25[:24] + ["bibliothèques"]))) == 1


def test_check_pack_file_reports_too_few_words() -> None:
    assert check_pack_file(sample("too_few.txt")) == ["only 20 distinct words (a game needs 25)"]


def test_check_pack_text_counts_distinct_words_only() -> None:
    problems = check_pack_text(pack_text(WORDS_25[:24] + ["MOTA"]))
    assert problems == [
        "line 26: 'MOTA' duplicates line 2 'mota'",
        "only 24 distinct words (a game needs 25)",
    ]


def test_check_pack_file_reports_a_missing_language_header() -> None:
    assert check_pack_file(sample("no_language.txt")) == ["no '# language: xx' header line"]


def test_check_pack_file_reports_an_unknown_language() -> None:
    assert check_pack_file(sample("unknown_language.txt")) == [
        "line 1: unknown language 'xx' (known: de, en, fr, it, ro)"
    ]


def test_check_pack_file_reports_several_words_on_a_line() -> None:
    problems = check_pack_file(sample("several_words.txt"))
    assert problems[0] == "line 27: 'pomme de terre' is several words"


def test_check_pack_file_reports_a_file_that_is_not_utf8() -> None:
    problems = check_pack_file(sample("not_utf8.txt"))
    assert len(problems) == 1 and "not UTF-8" in problems[0]


def test_check_pack_file_reports_an_unreadable_file(tmp_path: Path) -> None:
    problems = check_pack_file(str(tmp_path / "missing.txt"))
    assert len(problems) == 1 and "cannot read" in problems[0]
    assert check_pack_file(str(tmp_path))[0].endswith(")")  # a folder is unreadable too


def test_load_pack_refuses_a_broken_file_in_one_line(tmp_path: Path) -> None:
    for name in ("duplicates.txt", "too_long.txt", "no_language.txt", "not_utf8.txt"):
        with pytest.raises(WordPackError) as info:
            load_pack(sample(name))
        assert "\n" not in str(info.value)
    with pytest.raises(WordPackError, match="cannot read"):
        load_pack(str(tmp_path / "nope.txt"))


# --- drawing ---


def small_pack(size: int = 40) -> WordPack:
    return WordPack("t", "fr", tuple(f"mot{i:02d}" for i in range(size)))


def test_draw_words_gives_25_distinct_words_from_the_pack() -> None:
    pack = load_pack("fr")
    words = draw_words(pack, random.Random(7))
    assert len(words) == 25 == len(set(words))
    assert set(words) <= set(pack.words)


def test_draw_words_depends_only_on_the_seed() -> None:
    pack = load_pack("en")
    assert draw_words(pack, random.Random(42)) == draw_words(pack, random.Random(42))
    assert draw_words(pack, random.Random(42)) != draw_words(pack, random.Random(43))


def test_draw_words_leaves_the_global_random_alone() -> None:
    state = random.getstate()
    draw_words(load_pack("ro"), random.Random(1))
    assert random.getstate() == state


def test_draw_words_avoids_excluded_words_while_enough_remain() -> None:
    pack = small_pack(60)
    excluded = pack.words[:35]
    for seed in range(20):
        assert not set(draw_words(pack, random.Random(seed), exclude=excluded)) & set(excluded)


def test_draw_words_compares_excluded_words_folded() -> None:
    pack = WordPack("t", "fr", tuple(WORDS_25) + ("école",))
    words = draw_words(pack, random.Random(3), exclude=[w.upper() for w in WORDS_25[:1]])
    assert "mota" not in words and "école" in words


def test_draw_words_falls_back_to_the_whole_pack() -> None:
    pack = small_pack(40)
    excluded = pack.words[:30]
    for seed in range(20):
        words = draw_words(pack, random.Random(seed), exclude=excluded)
        assert len(set(words)) == 25
        assert set(pack.words[30:]) <= set(words)  # every fresh word is used first


def test_draw_words_other_sizes_and_too_small_pack() -> None:
    assert len(draw_words(small_pack(), random.Random(0), n=20)) == 20
    with pytest.raises(ValueError, match="cannot draw 41"):
        draw_words(small_pack(), random.Random(0), n=41)


# --- duetbox words check ---


def test_words_check_command_accepts_a_good_pack(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["words", "check", sample("good.txt")]) == 0
    out, err = capsys.readouterr()
    assert out == f"{sample('good.txt')}: 25 words, ok\n" and err == ""


@pytest.mark.parametrize("name", bundled_packs())
def test_words_check_command_accepts_the_bundled_packs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BUNDLED / f"{name}.txt")
    assert cli(["words", "check", path]) == 0
    assert capsys.readouterr().out.endswith(" words, ok\n")


def test_words_check_command_prints_one_line_per_problem(capsys: pytest.CaptureFixture[str]) -> None:
    path = sample("duplicates.txt")
    assert cli(["words", "check", path]) == 1
    out, _ = capsys.readouterr()
    assert out.splitlines() == [
        f"{path}: line 29: 'ecole' duplicates line 27 'École'",
        f"{path}: line 30: 'MUSÉE' duplicates line 28 'musée'",
    ]


@pytest.mark.parametrize("name", ["too_long.txt", "too_few.txt", "no_language.txt", "unknown_language.txt"])
def test_words_check_command_fails_on_broken_packs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["words", "check", sample(name)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and err == ""


@pytest.mark.parametrize("name", ["missing.txt", "not_utf8.txt"])
def test_words_check_command_unreadable_file_exits_2(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["words", "check", sample(name)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [[], ["check"], ["check", "a", "b"], ["list"], ["chek", "x"]])
def test_words_check_command_bad_usage_exits_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["words", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.strip().startswith("usage: duetbox words check FILE")
