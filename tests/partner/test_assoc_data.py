"""The human association tables (partner/data/assoc/*.tsv) pass tools/check_assoc.py against their packs."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
ASSOC = REPO / "partner" / "data" / "assoc"
WORDS = REPO / "engine" / "data" / "words"


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_assoc", REPO / "tools" / "check_assoc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_assoc"] = module
    spec.loader.exec_module(module)
    return module


check_assoc = _checker()
TABLES = sorted(ASSOC.glob("*.tsv"))


def test_the_tables_exist_with_their_licence() -> None:
    assert (ASSOC / "fr.tsv").is_file()
    licence = (ASSOC / "LICENSE").read_text(encoding="utf-8")
    assert "duetbox team" in licence and "MIT License" in licence


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.name)
def test_table_is_valid(table: Path) -> None:
    pack = check_assoc.pack_words([WORDS / f"{table.stem}.txt"])
    # Words no longer in the pack (moved to a themed pack, or dropped) are accepted; everything else is strict.
    report = check_assoc.check(table, pack, allow_extra=True, require_all=False)
    assert report.problems == []
    assert all(line.startswith("# ") or line == "#" for line in report.comments)
    assert any("MIT" in line for line in report.comments)


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.name)
def test_every_word_of_the_pack_has_associates_and_the_header_says_so(table: Path) -> None:
    # Issue 18: an association table for every pack word. Words of the themed packs may be there too.
    pack = check_assoc.pack_words([WORDS / f"{table.stem}.txt"])
    report = check_assoc.check(table, pack, allow_extra=True, require_all=True)
    assert report.problems == []
    assert sorted(pack - set(report.associates)) == []
    header = next(line for line in report.comments if line.startswith("# Covers: "))
    stated, total = re.match(r"# Covers: (\d+) of the (\d+) words", header).groups()  # type: ignore[union-attr]
    assert (int(stated), int(total)) == (len(pack), len(pack))


@pytest.mark.parametrize("table", TABLES, ids=lambda p: p.name)
def test_each_word_has_strong_associates_first_thing_anyone_says(table: Path) -> None:
    pack = check_assoc.pack_words([WORDS / f"{table.stem}.txt"])
    report = check_assoc.check(table, pack, allow_extra=True, require_all=False)
    weak = [w for w, a in report.associates.items() if max(a.values()) < 4]
    assert weak == []


def test_tables_stay_within_five_megabytes() -> None:
    assert sum(p.stat().st_size for p in TABLES) <= 5 * 1024 * 1024


def test_close_pack_words_are_told_apart() -> None:
    # Pairs that share a vector row in the spaCy space (issue 18): their strongest associates must differ.
    report = check_assoc.check(ASSOC / "fr.tsv", check_assoc.pack_words([WORDS / "fr.txt"]), require_all=False)
    groups = [("cochon", "cornichon"), ("rat", "cafard"), ("lapin", "kangourou", "pigeon", "perroquet", "hérisson")]
    for group in groups:
        present = [w for w in group if w in report.associates]
        for a in present:
            for b in present:
                if a < b:
                    strong_a = {x for x, s in report.associates[a].items() if s >= 4}
                    strong_b = {x for x, s in report.associates[b].items() if s >= 4}
                    assert strong_a - strong_b and strong_b - strong_a, (a, b)


def test_the_checker_finds_bad_lines(tmp_path: Path) -> None:
    table = tmp_path / "xx.tsv"
    good = [f"chat\tmot{chr(97 + i // 26)}{chr(97 + i % 26)}\t3" for i in range(20)]
    table.write_text(
        "# test\n" + "\n".join(good) + "\nchat\tchats\t5\nchat\tsouris\t9\nchat\tmot aa\t2\nchien\tos\t5\n"
        "chat\tmotaa\t2\nchat\tMiaou\t4\n",
        encoding="utf-8",
    )
    report = check_assoc.check(table, {"chat", "lapin"})
    text = "\n".join(report.problems)
    assert "'chats' is the pack word" in text
    assert "strength must be an integer 1..5" in text
    assert "'mot aa' is not a single word" in text
    assert "'chien' is not a pack word" in text
    assert "duplicate pair 'chat' 'motaa'" in text
    assert "not lowercase" in text
    assert "'chien' has 1 associates" in text
    assert "1 pack words have no associates: lapin" in text


def test_the_checker_command_exits_non_zero_on_a_bad_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "fr.tsv"
    table.write_text("# test\nchat\tsouris\n", encoding="utf-8")
    assert check_assoc.main([str(table), "--pack", str(WORDS / "fr.txt")]) == 1
    assert "expected 3 tab-separated fields" in capsys.readouterr().out
    assert check_assoc.main([str(tmp_path / "missing.tsv")]) == 2


def test_family_check() -> None:
    assert check_assoc.same_family("chanter", "chanteur")
    assert check_assoc.same_family("chat", "chats")
    assert check_assoc.same_family("chien", "chienne")
    assert not check_assoc.same_family("chat", "souris")
    assert not check_assoc.same_family("mer", "merle")


def test_the_clue_table_is_merged_into_the_card_table() -> None:
    """partner/data/cluetable/<lang>.tsv (what a clue word evokes, written by hand) is read with the card table:
    a pair only the clue table has is known to the bundled table, and the card table alone does not know it."""
    from pathlib import Path

    from partner.assoc import AssocTable

    folder = Path(__file__).resolve().parents[2] / "partner" / "data" / "cluetable"
    for lang in ("fr", "en"):
        cards = AssocTable.bundled(lang, clue_table=False)
        merged = AssocTable.bundled(lang)
        assert cards is not None and merged is not None
        rows = [line.split("\t") for line in (folder / f"{lang}.tsv").read_text("utf-8").splitlines()
                if line and not line.startswith("#")]
        assert len(rows) >= 2000
        only = [(c, w, int(s)) for c, w, s in rows if not cards.strength(c, w)]
        assert only, lang
        for clue, word, s in only:
            assert merged.strength(clue, word) >= s
            assert word in merged.pointed(clue)
