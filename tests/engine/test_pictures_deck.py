"""The bundled Codenames Pictures deck (rules §3) and its checker, `duetbox pictures check`."""

from __future__ import annotations

import json
import random
import re
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device.commands import pictures as pictures_command
from engine.pictures_deck import (
    MIN_PICTURES,
    Picture,
    check_deck,
    deck_directory,
    draw_pictures,
    get_picture,
    load_deck,
    picture_path,
    png_problem,
    read_deck,
)

Deck = tuple[Path, list[dict[str, str]]]


def make_png(width: int = 128, height: int = 128, colour_type: int = 6, seed: int = 0) -> bytes:
    """A small valid PNG; ``seed`` changes one pixel so that images differ."""
    channels = {6: 4, 2: 3}[colour_type]
    row = b"\x00" + bytes(width * channels)
    raw = bytearray(row * height)
    raw[1:4] = seed.to_bytes(3, "big")

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw)))
            + chunk(b"IEND", b""))


def write_deck(folder: Path, count: int = MIN_PICTURES) -> list[dict[str, str]]:
    entries = [
        {"id": f"p{i:03d}", "label": f"thing {i}", "file": f"p{i:03d}-thing.png"} for i in range(1, count + 1)
    ]
    for i, entry in enumerate(entries):
        (folder / entry["file"]).write_bytes(make_png(seed=i))
    (folder / "deck.json").write_text(json.dumps({"pictures": entries}), encoding="utf-8")
    (folder / "LICENSE").write_text("licence text\n", encoding="utf-8")
    (folder / "ATTRIBUTION.md").write_text("by someone\n", encoding="utf-8")
    return entries


def rewrite(folder: Path, entries: list[dict[str, str]]) -> None:
    (folder / "deck.json").write_text(json.dumps({"pictures": entries}), encoding="utf-8")


@pytest.fixture
def deck(tmp_path: Path) -> Deck:
    entries = write_deck(tmp_path)
    assert check_deck(str(tmp_path)) == []
    return tmp_path, entries


# --- the bundled deck -----------------------------------------------------------------------------

def test_load_deck_bundled_has_enough_distinct_pictures() -> None:
    pictures = load_deck()
    assert len(pictures) >= 160
    assert len({p.id for p in pictures}) == len(pictures)
    assert len({p.label.casefold() for p in pictures}) == len(pictures)
    assert all(isinstance(p, Picture) and p.label.strip() for p in pictures)


def test_load_deck_ids_are_stable_numbers_matching_file_names() -> None:
    for number, picture in enumerate(load_deck(), start=1):
        assert picture.id == f"p{number:03d}"
        assert re.fullmatch(rf"{picture.id}-[a-z0-9-]+\.png", picture.file), picture.file


def test_check_deck_bundled_deck_is_clean() -> None:
    assert check_deck() == []


def test_check_deck_bundled_folder_by_path_is_clean() -> None:
    assert check_deck(str(deck_directory())) == []


def test_bundled_deck_licence_is_cc_by_with_attribution() -> None:
    folder = deck_directory()
    assert "Attribution 4.0 International" in folder.joinpath("LICENSE").read_text(encoding="utf-8")
    attribution = folder.joinpath("ATTRIBUTION.md").read_text(encoding="utf-8")
    assert "Twemoji" in attribution and "CC BY 4.0" in attribution and "Twitter" in attribution
    meta = json.loads(folder.joinpath("deck.json").read_text(encoding="utf-8"))
    assert all(entry["codepoint"].startswith("U+") and entry["source_name"] for entry in meta["pictures"])


def test_picture_path_reads_a_128px_png() -> None:
    first = load_deck()[0]
    data = picture_path(first.id).read_bytes()
    assert png_problem(data) == ""
    assert picture_path(first.id).name == first.file


def test_get_picture_unknown_id_raises_key_error() -> None:
    with pytest.raises(KeyError, match="p999x"):
        get_picture("p999x")
    with pytest.raises(KeyError):
        picture_path("nope")


# --- drawing --------------------------------------------------------------------------------------

def test_draw_pictures_same_seed_same_cards() -> None:
    assert draw_pictures(random.Random(7)) == draw_pictures(random.Random(7))
    assert draw_pictures(random.Random(7)) != draw_pictures(random.Random(8))


def test_draw_pictures_default_is_twenty_distinct_known_ids() -> None:
    drawn = draw_pictures(random.Random(1))
    assert len(drawn) == 20 and len(set(drawn)) == 20
    assert all(get_picture(pid).id == pid for pid in drawn)


@given(seed=st.integers(0, 2**32), n=st.integers(0, 25), excluded=st.integers(0, 100))
def test_draw_pictures_never_repeats_nor_uses_excluded(seed: int, n: int, excluded: int) -> None:
    exclude = [p.id for p in load_deck()[:excluded]]
    drawn = draw_pictures(random.Random(seed), n, exclude=exclude)
    assert len(drawn) == n == len(set(drawn))
    assert not set(drawn) & set(exclude)


def test_draw_pictures_more_than_available_raises() -> None:
    everything = [p.id for p in load_deck()]
    with pytest.raises(ValueError):
        draw_pictures(random.Random(0), 2, exclude=everything[1:])
    with pytest.raises(ValueError):
        draw_pictures(random.Random(0), -1)
    assert draw_pictures(random.Random(0), 1, exclude=everything[1:]) == (everything[0],)


# --- the checker on broken decks ------------------------------------------------------------------

def test_check_deck_listed_file_missing(deck: Deck) -> None:
    folder, entries = deck
    (folder / entries[3]["file"]).unlink()
    assert check_deck(str(folder)) == [f"{entries[3]['file']} (p004): listed but missing"]


def test_check_deck_unlisted_file(deck: Deck) -> None:
    folder, _ = deck
    (folder / "stray.png").write_bytes(make_png(seed=999))
    assert check_deck(str(folder)) == ["stray.png: not listed in deck.json"]


def test_check_deck_duplicate_ids_and_labels(deck: Deck) -> None:
    folder, entries = deck
    entries[5]["id"] = entries[4]["id"]
    entries[7]["label"] = entries[6]["label"].upper()
    rewrite(folder, entries)
    problems = check_deck(str(folder))
    assert len(problems) == 2
    assert "entry 6 repeats id 'p005' of entry 5" in problems[0]
    assert "entry 8 repeats label 'thing 7' of entry 7" in problems[1]


def test_check_deck_duplicate_images(deck: Deck) -> None:
    folder, entries = deck
    shutil.copyfile(folder / entries[0]["file"], folder / entries[9]["file"])
    assert check_deck(str(folder)) == [f"{entries[9]['file']} (p010): same image as {entries[0]['file']}"]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (make_png(width=64, height=64), "image is 64x64, expected 128x128"),
        (make_png(width=128, height=120), "image is 128x120, expected 128x128"),
        (make_png(colour_type=2), "not 8-bit RGBA"),
        (b"GIF89a" + bytes(100), "not a PNG file"),
        (make_png()[:-12], "truncated"),
        (b"\x89PNG\r\n\x1a\n" + bytes(10), "without a valid IHDR"),
    ],
)
def test_check_deck_image_not_a_128px_rgba_png(
    deck: Deck, data: bytes, expected: str
) -> None:
    folder, entries = deck
    (folder / entries[2]["file"]).write_bytes(data)
    problems = check_deck(str(folder))
    assert len(problems) == 1
    assert problems[0].startswith(f"{entries[2]['file']} (p003): ") and expected in problems[0]


def test_check_deck_too_few_pictures(tmp_path: Path) -> None:
    write_deck(tmp_path, MIN_PICTURES - 1)
    expected = f"deck.json: {MIN_PICTURES - 1} pictures, at least {MIN_PICTURES} needed"
    assert check_deck(str(tmp_path)) == [expected]


@pytest.mark.parametrize("name", ["LICENSE", "ATTRIBUTION.md"])
def test_check_deck_missing_licence_files(deck: Deck, name: str) -> None:
    folder, _ = deck
    (folder / name).unlink()
    assert check_deck(str(folder)) == [f"{name}: missing (the artwork's licence requires it)"]
    (folder / name).write_text("  \n", encoding="utf-8")
    assert check_deck(str(folder)) == [f"{name}: empty"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("{not json", "deck.json: unreadable"),
        ('{"cards": []}', 'deck.json: expected an object with a "pictures" list'),
    ],
)
def test_check_deck_broken_deck_json(deck: Deck, text: str, expected: str) -> None:
    folder, _ = deck
    (folder / "deck.json").write_text(text, encoding="utf-8")
    problems = check_deck(str(folder))
    assert len(problems) == 1 and problems[0].startswith(expected)
    with pytest.raises(ValueError):
        read_deck(str(folder))


def test_check_deck_bad_entries(deck: Deck) -> None:
    folder, entries = deck
    entries[0]["label"] = " "
    entries[1]["file"] = "../escape.png"
    rewrite(folder, entries)
    problems = check_deck(str(folder))
    assert problems[:2] == [
        'deck.json: entry 1 needs non-empty "id", "label" and "file"',
        "deck.json: entry 2 (p002): file '../escape.png' is not a plain file name",
    ]


def test_check_deck_missing_folder_raises_os_error(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        check_deck(str(tmp_path / "absent"))


# --- duetbox pictures check -----------------------------------------------------------------------

def test_pictures_command_bundled_deck_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert pictures_command.main(["check"]) == 0
    assert capsys.readouterr().out == f"{len(load_deck())} pictures, ok\n"


def test_pictures_command_folder_ok(deck: Deck, capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = deck
    assert pictures_command.main(["check", str(folder)]) == 0
    assert capsys.readouterr().out == f"{MIN_PICTURES} pictures, ok\n"


def test_pictures_command_problems_exit_1(deck: Deck, capsys: pytest.CaptureFixture[str]) -> None:
    folder, entries = deck
    (folder / entries[0]["file"]).unlink()
    (folder / "LICENSE").unlink()
    assert pictures_command.main(["check", str(folder)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == [
        "LICENSE: missing (the artwork's licence requires it)",
        f"{entries[0]['file']} (p001): listed but missing",
    ]
    assert len(out.err.splitlines()) == 1


def test_pictures_command_unreadable_folder_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pictures_command.main(["check", str(tmp_path / "absent")]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.splitlines()) == 1 and "absent" in out.err
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    assert pictures_command.main(["check", str(file)]) == 2


@pytest.mark.parametrize("argv", [[], ["verify"], ["check", "a", "b"]])
def test_pictures_command_bad_usage_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert pictures_command.main(argv) == 2
    assert capsys.readouterr().err.startswith("usage: duetbox pictures check")


# -- names (issue 16): every picture is named in the five languages; a clue may not name a visible picture ----------


def test_bundled_pictures_have_names_in_five_languages() -> None:
    from engine.pictures_deck import NAME_LANGUAGES, picture_names

    for picture in load_deck():
        for language in NAME_LANGUAGES:
            names = picture_names(picture.id, language)
            assert names and all(n.strip() for n in names), (picture.id, language)
    assert picture_names("p001", "fr")[0] == "fourmi" and picture_names("p001", "de")[0] == "Ameise"
    assert picture_names("p349", "fr")[0] == "cœur"


def test_check_deck_reports_a_picture_without_a_name(deck: Deck) -> None:
    folder, entries = deck
    names = {e["id"]: {lang: [e["label"]] for lang in ("fr", "en", "ro", "de", "it")} for e in entries}
    del names["p002"]["it"]
    names["p999"] = {"fr": ["x"]}
    (folder / "names.json").write_text(json.dumps({"names": names}), encoding="utf-8")
    problems = check_deck(str(folder))
    assert "names.json: p002 has no it name" in problems
    assert "names.json: p999 is not in deck.json" in problems
    assert not any("not listed" in p for p in problems)


@pytest.mark.parametrize(
    ("clue", "language", "strict"),
    [("fourmi", "fr", True), ("FOURMIS", "fr", False), ("ants", "en", False), ("furnici", "ro", True),
     ("Ameisen", "de", False), ("formiche", "it", True), ("COEUR", "fr", False)],
)
def test_a_clue_naming_a_visible_picture_is_refused(clue: str, language: str, strict: bool) -> None:
    from engine.clues import check_clue
    from engine.pictures_deck import visible_names

    visible = visible_names(["p001", "p349", "p060"], language)
    assert check_clue(clue, visible, language=language, strict=strict)
    assert not check_clue("insecte" if language == "fr" else "zzzz", visible, language=language, strict=strict)
