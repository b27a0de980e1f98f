"""Custom word packs on the box (issue 16): `duetbox words add`, the packs folder, an import from a folder
standing in for a USB stick through the admin menu, and a game played with the imported pack."""

from __future__ import annotations

from pathlib import Path

import pytest
from boxscript import Table, exported, run_box

from device import packs
from device.cli import main
from device.pin import PinStore

KIDS = ["apple", "ball", "cat", "dog", "egg", "fish", "goat", "hat", "ink", "jam", "kite", "lamp", "moon", "nest",
        "owl", "pen", "queen", "rain", "sun", "tree", "van", "wolf", "box", "yak", "zoo", "bell", "cake", "drum"]


def _pack(folder: Path, name: str = "kids", language: str = "en", words: list[str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.txt"
    path.write_text(f"# language: {language}\n" + "\n".join(words or KIDS) + "\n", encoding="utf-8")
    return path


def test_words_add_checks_then_copies_into_the_packs_folder(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    source = _pack(tmp_path / "src")
    data = tmp_path / "data"
    assert main(["words", "add", str(source), "--data-dir", str(data)]) == 0
    assert "kids: 28 words (en)" in capsys.readouterr().out
    assert (data / "packs" / "kids.txt").read_text("utf-8") == source.read_text("utf-8")
    assert packs.pack_names(data)[-1] == "kids" and packs.pack_label("kids", data) == "kids (28)"


def test_words_add_lists_every_problem_of_a_bad_pack_and_copies_nothing(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    source = _pack(tmp_path / "src", words=["cat", "dog", "hot dog", "CAT"])
    data = tmp_path / "data"
    assert main(["words", "add", str(source), "--data-dir", str(data)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.removeprefix(f"{source}: ") for line in out] == [
        "line 4: 'hot dog' is several words",
        "line 5: 'CAT' duplicates line 2 'cat'",
        "only 3 distinct words (a game needs 25)",
    ]
    assert not (data / "packs").exists() or not list((data / "packs").iterdir())
    assert main(["words", "add", "--data-dir", str(data)]) == 2


def test_words_check_and_add_exit_alike(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    good, bad = _pack(tmp_path / "src"), _pack(tmp_path / "src", "bad", words=["cat"])
    missing = tmp_path / "src" / "missing.txt"
    for path, code in ((good, 0), (bad, 1), (missing, 2), (tmp_path / "src", 2)):
        assert main(["words", "check", str(path)]) == code, path
        assert main(["words", "add", str(path), "--force", "--data-dir", str(data)]) == code, path
    capsys.readouterr()


def test_one_word_is_said_in_the_singular_in_every_language(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    source = _pack(tmp_path / "src", words=["cat"])
    expected = {"en": "only 1 distinct word (", "fr": "seulement 1 mot distinct (", "de": "nur 1 verschiedenes Wort (",
                "it": "solo 1 parola distinta (", "ro": "doar 1 cuvânt distinct ("}
    for language, text in expected.items():
        monkeypatch.setenv("DUETBOX_LANG", language)
        assert main(["words", "check", str(source)]) == 1
        assert text in capsys.readouterr().out
    monkeypatch.setenv("DUETBOX_LANG", "ro")
    few = _pack(tmp_path / "src", "few", words=["cat", "dog", "hen"])
    assert main(["words", "check", str(few)]) == 1
    assert "doar 3 cuvinte distincte" in capsys.readouterr().out  # Romanian's "few" form


def test_a_pack_of_the_same_name_is_replaced_only_when_confirmed_or_forced(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    first = _pack(tmp_path / "a")
    second = _pack(tmp_path / "b", words=KIDS + ["extra"])
    assert main(["words", "add", str(first), "--data-dir", str(data)]) == 0
    monkeypatch.setattr("sys.stdin", _Tty(""))  # Enter: the default is no
    assert main(["words", "add", str(second), "--data-dir", str(data)]) == 1
    assert "kept (--force replaces it)" in capsys.readouterr().out
    assert (data / "packs" / "kids.txt").read_text("utf-8") == first.read_text("utf-8")
    monkeypatch.setattr("sys.stdin", _Tty("y"))
    assert main(["words", "add", str(second), "--data-dir", str(data)]) == 0
    assert (data / "packs" / "kids.txt").read_text("utf-8") == second.read_text("utf-8")
    monkeypatch.setattr("sys.stdin", _Tty("", tty=False))  # a script: never asked, kept
    assert main(["words", "add", str(first), "--data-dir", str(data)]) == 1
    assert main(["words", "add", str(first), "--force", "--data-dir", str(data)]) == 0
    assert (data / "packs" / "kids.txt").read_text("utf-8") == first.read_text("utf-8")


class _Tty:
    def __init__(self, answer: str, tty: bool = True) -> None:
        self.answer, self.tty = answer, tty

    def isatty(self) -> bool:
        return self.tty

    def readline(self) -> str:
        return self.answer + "\n"


def test_a_pack_named_like_a_bundled_one_does_not_replace_it(tmp_path: Path) -> None:
    pack = packs.add_pack(tmp_path / "data", _pack(tmp_path / "src", name="fr", language="en"))
    assert pack.name == "my-fr"
    assert packs.load(tmp_path / "data", "fr").language == "fr"
    assert packs.load(tmp_path / "data", "my-fr").language == "en"


def test_dropped_files_are_listed_when_good_and_left_out_when_bad(tmp_path: Path) -> None:
    data = tmp_path / "data"
    _pack(data / "packs", "animals")
    (data / "packs" / "broken.txt").write_text("no header\n", encoding="utf-8")
    assert [p.name for p in packs.custom_packs(data)] == ["animals"]
    with pytest.raises(packs.WordPackError):
        packs.load(data, "broken")
    with pytest.raises(packs.WordPackError):
        packs.load(data, "../etc")


def test_import_folders_copies_good_packs_and_names_the_bad_ones(tmp_path: Path) -> None:
    usb = tmp_path / "usb"
    _pack(usb, "kids")
    (usb / "bad.txt").write_text("# language: xx\nfoo\n", encoding="utf-8")
    imported, refused = packs.import_folders(tmp_path / "data", [usb])
    assert [p.name for p in imported] == ["kids"]
    assert len(refused) == 1 and refused[0].startswith("bad.txt: ") and "unknown language 'xx'" in refused[0]


def test_the_pack_follows_the_interface_language_unless_chosen() -> None:
    assert packs.following_language("fr", "fr", "en") == "en"
    assert packs.following_language("kids", "fr", "en") == "kids"  # the players chose it
    assert packs.following_language("ro", "fr", "en") == "ro"


def test_a_pack_imported_from_a_usb_folder_is_played_in_a_scripted_run(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    usb = tmp_path / "usb"
    _pack(usb, "kids")
    monkeypatch.setenv("DUETBOX_USB", str(usb))
    (tmp_path / "data").mkdir()
    PinStore(tmp_path / "data").set("0000")  # the admin PIN (no default: `duetbox pin set` on a real box)
    t = Table()
    # the admin chord, PIN 0000, then six rows up from the first row: "import packs"
    t.add("down menu", "down A.stop", "down B.stop", "wait 5200", "release", *["press A.ok"] * 4)
    t.add(*["press A.up"] * 6, "press A.ok", "snapshot imported", "press A.stop")
    # main menu: Duet; its set-up opens on "start": up to "words", left to the last pack (the custom one), start
    t.add("press A.ok", *["press A.up"] * 3, "press A.left", "snapshot setup", *["press A.down"] * 3, "press A.ok")
    t.clue("A", 1, "animal")
    t.guess("B", 12)
    code, snaps, data = run_box(tmp_path, t)
    assert code == 0
    assert (data / "packs" / "kids.txt").is_file()
    record = exported(data)
    assert record["language"] == "en"
    assert set(record["words"]) <= set(KIDS) and len(record["words"]) == 25
    kinds = [a["type"] for a in record["actions"]]
    assert kinds[:2] == ["clue", "guess"] and record["actions"][0]["word"] == "animal"
    assert (snaps / "setup-shared.png").is_file()
