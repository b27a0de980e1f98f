"""The Codenames Pictures deck in ``engine/data/pictures`` (rules §3): ids, labels, files and a checker.

The deck is a folder holding ``deck.json`` (``{"pictures": [{"id", "label", "file", ...}, ...]}``), one
128x128 RGBA PNG per picture, and the ``LICENSE`` and ``ATTRIBUTION.md`` the artwork's licence asks for.
Only the standard library is used: PNG headers are read by hand, package data through importlib.resources.
"""

from __future__ import annotations

import errno
import functools
import json
import random
import struct
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from common.userfiles import DECK_LIMIT, UnreadableFile, read_bytes, read_json
from engine.languages import CODES

MIN_PICTURES = 150
SIZE = 128
DECK_FILE = "deck.json"
NAMES_FILE = "names.json"  # {"names": {id: {language: [name, other names...]}}}: what a clue may not name
NAME_LANGUAGES = CODES  # every language names every picture (engine.languages)
LICENCE_FILES = ("LICENSE", "ATTRIBUTION.md")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_RGBA = 6


class PictureDeckError(ValueError):
    """The bundled deck cannot be read (missing or malformed ``deck.json``)."""


@dataclass(frozen=True)
class Picture:
    id: str
    label: str
    file: str


def deck_directory() -> Traversable:
    """The bundled deck folder."""
    return resources.files("engine").joinpath("data", "pictures")


def _entries(raw: object) -> Iterator[tuple[int, dict[str, object] | None]]:
    pictures = raw.get("pictures") if isinstance(raw, dict) else None
    if not isinstance(pictures, list):
        raise PictureDeckError(f'{DECK_FILE}: expected an object with a "pictures" list')
    for number, entry in enumerate(pictures, start=1):
        yield number, entry if isinstance(entry, dict) else None


def _read_deck(directory: Traversable) -> list[tuple[int, Picture | None, str]]:
    """Parse ``deck.json``: (position, picture or None, problem) per entry. Raises PictureDeckError."""
    source = directory.joinpath(DECK_FILE)
    try:
        if isinstance(source, Path):  # a user's folder: bounded, regular files only
            if not source.exists() and not source.is_symlink():
                raise FileNotFoundError(DECK_FILE)
            raw = read_json(source, DECK_LIMIT)
        else:  # the bundled deck inside the package
            raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise PictureDeckError(f"{DECK_FILE}: missing") from exc
    except UnreadableFile as exc:
        raise PictureDeckError(f"{DECK_FILE}: unreadable ({exc})") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PictureDeckError(f"{DECK_FILE}: unreadable ({exc})") from exc
    result: list[tuple[int, Picture | None, str]] = []
    for number, entry in _entries(raw):
        fields = [entry.get(key) for key in ("id", "label", "file")] if entry is not None else []
        if len(fields) != 3 or not all(isinstance(f, str) and f.strip() for f in fields):
            problem = f'{DECK_FILE}: entry {number} needs non-empty "id", "label" and "file"'
            result.append((number, None, problem))
            continue
        pid, label, file = (str(f) for f in fields)
        if "/" in file or "\\" in file or file.startswith("."):
            problem = f"{DECK_FILE}: entry {number} ({pid}): file {file!r} is not a plain file name"
            result.append((number, None, problem))
            continue
        result.append((number, Picture(pid, label, file), ""))
    return result


def read_deck(directory: str | Traversable) -> tuple[Picture, ...]:
    """The pictures listed in a deck folder's ``deck.json``. Raises PictureDeckError if it is broken."""
    folder = Path(directory) if isinstance(directory, str) else directory
    pictures: list[Picture] = []
    for _, picture, problem in _read_deck(folder):
        if picture is None:
            raise PictureDeckError(problem)
        pictures.append(picture)
    return tuple(pictures)


@functools.cache
def load_deck() -> tuple[Picture, ...]:
    """The bundled pictures in deck order. Raises PictureDeckError if ``deck.json`` is broken."""
    return read_deck(deck_directory())


@functools.cache
def _by_id() -> dict[str, Picture]:
    return {picture.id: picture for picture in load_deck()}


def get_picture(picture_id: str) -> Picture:
    """The picture with this id. Raises KeyError for an unknown id."""
    try:
        return _by_id()[picture_id]
    except KeyError:
        raise KeyError(f"unknown picture id {picture_id!r}") from None


def picture_path(picture_id: str) -> Traversable:
    """The PNG of one bundled picture (open it with ``.open("rb")`` or ``importlib.resources.as_file``)."""
    return deck_directory().joinpath(get_picture(picture_id).file)


def draw_pictures(rng: random.Random, n: int = 20, exclude: Collection[str] = ()) -> tuple[str, ...]:
    """``n`` distinct picture ids, drawn with ``rng`` from the deck less ``exclude``, in drawn order.

    Raises ValueError when ``n`` is negative or larger than the pictures left to draw from.
    """
    excluded = set(exclude)
    pool = [picture.id for picture in load_deck() if picture.id not in excluded]
    if n < 0 or n > len(pool):
        raise ValueError(f"cannot draw {n} pictures from {len(pool)}")
    return tuple(rng.sample(pool, n))


def png_problem(data: bytes) -> str:
    """Why ``data`` is not a 128x128 8-bit RGBA PNG, or "" if it is (reads the header and the last chunk)."""
    if not data.startswith(_PNG_SIGNATURE):
        return "not a PNG file"
    header = data[8:33]
    if len(header) < 25 or header[4:8] != b"IHDR" or struct.unpack(">I", header[:4])[0] != 13:
        return "PNG without a valid IHDR header"
    width, height, depth, colour = struct.unpack(">IIBB", header[8:18])
    if (width, height) != (SIZE, SIZE):
        return f"image is {width}x{height}, expected {SIZE}x{SIZE}"
    if (depth, colour) != (8, _RGBA):
        return f"image is not 8-bit RGBA (bit depth {depth}, colour type {colour})"
    if not data.endswith(b"IEND\xaeB`\x82"):
        return "PNG is truncated (no IEND chunk at the end)"
    return ""


def _file_bytes(item: Traversable) -> bytes:
    """A file of a deck: bounded and regular files only in a user's folder (a FIFO must not hang the check)."""
    if isinstance(item, Path):
        return read_bytes(item, DECK_LIMIT)
    return item.read_bytes()


def check_deck(directory: str | None = None) -> list[str]:
    """Problems of a deck folder (the bundled one by default), one line each; empty when the deck is fine.

    Checks: ``deck.json`` readable; every entry has an id, a label and a file; no duplicate ids, labels,
    files or images (same bytes); every listed file exists and is a 128x128 RGBA PNG; no unlisted file;
    at least MIN_PICTURES pictures; ``LICENSE`` and ``ATTRIBUTION.md`` present and not empty.
    Raises OSError when ``directory`` itself is missing or cannot be listed.
    """
    folder = _deck_folder(directory)
    present = {item.name for item in folder.iterdir()}
    problems: list[str] = []
    for name in LICENCE_FILES:
        if name not in present:
            problems.append(f"{name}: missing (the artwork's licence requires it)")
        elif not _file_bytes(folder.joinpath(name)).strip():
            problems.append(f"{name}: empty")
    try:
        entries = _read_deck(folder)
    except PictureDeckError as exc:
        return [*problems, str(exc)]

    seen_ids: dict[str, int] = {}
    seen_labels: dict[str, int] = {}
    seen_files: dict[str, int] = {}
    seen_hashes: dict[str, str] = {}
    count = 0
    for number, picture, problem in entries:
        if picture is None:
            problems.append(problem)
            continue
        count += 1
        keys = (("id", picture.id, seen_ids), ("label", picture.label.casefold(), seen_labels),
                ("file", picture.file, seen_files))
        for kind, key, seen in keys:
            if key in seen:
                problems.append(f"{DECK_FILE}: entry {number} repeats {kind} {key!r} of entry {seen[key]}")
            else:
                seen[key] = number
        problems += _image_problems(folder, present, picture, seen_hashes)
    if NAMES_FILE in present or directory is None:
        problems += _names_problems(folder, list(seen_ids))
    known = set(seen_files) | {DECK_FILE, NAMES_FILE, *LICENCE_FILES}
    problems += [f"{name}: not listed in {DECK_FILE}" for name in sorted(present - known)]
    if count < MIN_PICTURES:
        problems.append(f"{DECK_FILE}: {count} pictures, at least {MIN_PICTURES} needed")
    return problems


def _deck_folder(directory: str | None) -> Traversable:
    """The bundled deck, or ``directory`` (OSError when it is missing or not a folder)."""
    if directory is None:
        return deck_directory()
    folder = Path(directory)
    if not folder.exists():
        raise FileNotFoundError(errno.ENOENT, "no such folder", directory)
    if not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a folder", directory)
    return folder


def _image_problems(folder: Traversable, present: set[str], picture: Picture,
                    seen_hashes: dict[str, str]) -> list[str]:
    """One listed picture's file: present, readable, a valid PNG, not the same image as an earlier one
    (``seen_hashes``, sha256 → file, gains this one)."""
    where = f"{picture.file} ({picture.id})"
    if picture.file not in present:
        return [f"{where}: listed but missing"]
    try:
        data = _file_bytes(folder.joinpath(picture.file))
    except UnreadableFile as exc:
        return [f"{where}: {exc}"]
    problems: list[str] = []
    bad = png_problem(data)
    if bad:
        problems.append(f"{where}: {bad}")
    import hashlib  # only when a deck is checked: not in the box's start-up (OpenSSL, ~3.5 MB)

    digest = hashlib.sha256(data).hexdigest()
    if digest in seen_hashes and seen_hashes[digest] != picture.file:
        problems.append(f"{where}: same image as {seen_hashes[digest]}")
    seen_hashes.setdefault(digest, picture.file)
    return problems


def _read_names(folder: Traversable) -> dict[str, dict[str, list[str]]]:
    raw = json.loads(folder.joinpath(NAMES_FILE).read_text(encoding="utf-8"))
    names = raw.get("names") if isinstance(raw, dict) else None
    if not isinstance(names, dict):
        raise PictureDeckError(f'{NAMES_FILE}: expected an object with a "names" object')
    return names


def _names_problems(folder: Traversable, ids: list[str]) -> list[str]:
    """Every listed picture has at least one name per language in ``names.json``; no unknown ids."""
    try:
        names = _read_names(folder)
    except FileNotFoundError:
        return [f"{NAMES_FILE}: missing (a clue naming a visible picture could not be refused)"]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, PictureDeckError) as exc:
        return [f"{NAMES_FILE}: unreadable ({exc})"]
    problems: list[str] = []
    for pid in ids:
        entry = names.get(pid)
        for language in NAME_LANGUAGES:
            given = entry.get(language) if isinstance(entry, dict) else None
            if not (isinstance(given, list) and given and all(isinstance(n, str) and n.strip() for n in given)):
                problems.append(f"{NAMES_FILE}: {pid} has no {language} name")
    problems += [f"{NAMES_FILE}: {pid} is not in {DECK_FILE}" for pid in names if pid not in set(ids)]
    return problems


@functools.cache
def _names() -> dict[str, dict[str, list[str]]]:
    try:
        return _read_names(deck_directory())
    except (OSError, ValueError):
        return {}


def picture_names(picture_id: str, language: str) -> tuple[str, ...]:
    """The names of a bundled picture in ``language`` (the first is the one shown), () when it has none."""
    entry = _names().get(picture_id, {})
    return tuple(entry.get(language, ())) if isinstance(entry, dict) else ()


def visible_names(picture_ids: Collection[str], language: str) -> tuple[str, ...]:
    """Every name of the given pictures in ``language``: the clue checker's visible words in Pictures (rules §3)."""
    return tuple(name for pid in picture_ids for name in picture_names(pid, language))
