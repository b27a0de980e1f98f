"""Word packs: plain UTF-8 text, one word a line, ``#`` comments, a ``# language: xx`` header.

Bundled packs live in ``engine/data/words/<name>.txt`` (French is the default): one main pack per game
language (fr, en, ro, de, it; at least 1,000 words each) and themed packs named ``<language>-<theme>``
(fr-food, en-kids, ...; at least 200 words each). A pack is valid when it
names a known language, has at least 25 words, no word longer than ``MAX_WORD_LENGTH`` letters, no word of
several words, and no two words equal after case and accent folding (the clue checker could not tell them
apart).

Besides the bundled data, ``read_pack_text`` (used by ``load_pack`` and ``check_pack_file``) reads a file
given by path: the only I/O here, needed by ``duetbox words check`` and custom packs.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

from common.userfiles import PACK_LIMIT, UnreadableFile, read_bytes
from engine.clues import STEMMER_LANGUAGES, normalize
from engine.languages import REGISTRY

MAX_WORD_LENGTH = 12
MIN_WORDS = 25
DEFAULT_PACK = "fr"
LANGUAGE_PACKS = tuple(lang.pack for lang in REGISTRY)
THEMED_PACKS = ("fr-food", "fr-travel", "fr-kids", "en-food", "en-travel", "en-kids", "de-food", "de-travel",
                "de-kids", "it-food", "it-travel", "it-kids", "ro-food", "ro-travel", "ro-kids")
_BUNDLED = LANGUAGE_PACKS + THEMED_PACKS


class WordPackError(ValueError):
    """A word pack that cannot be used; the message is one line."""


class PackProblem(str):
    """One problem of a pack's text: the English line (it is a ``str``), plus the catalog key ``key`` (the
    ``[words]`` section of device/locales) and its ``fields``, so that the command line can say it in any language
    with the right plural ("only 1 distinct word")."""

    key: str
    fields: dict[str, object]

    def __new__(cls, text: str, key: str, **fields: object) -> PackProblem:
        problem = super().__new__(cls, text)
        problem.key = key
        problem.fields = fields
        return problem


@dataclass(frozen=True)
class WordPack:
    name: str
    language: str
    words: tuple[str, ...]

    @cached_property
    def folded(self) -> tuple[str, ...]:
        """Each word folded for comparison (``normalize``), in the pack's order: worked out once per pack, not at
        every deal."""
        return tuple(normalize(word) for word in self.words)


@dataclass(frozen=True)
class _Parsed:
    name: str | None
    language: str | None
    entries: tuple[tuple[int, str], ...]  # (line number, word)
    problems: tuple[PackProblem, ...]


def bundled_packs() -> tuple[str, ...]:
    """Names of the packs shipped with duetbox: the default first, then the other language packs, then the themed."""
    return _BUNDLED


def load_pack(name_or_path: str) -> WordPack:
    """Load a bundled pack by name ("fr") or a pack file by path.

    Raises WordPackError (one line) when the file cannot be read, is not UTF-8 or has any problem of
    ``check_pack_text``.
    """
    if name_or_path in _BUNDLED:
        return _bundled(name_or_path)
    text = read_pack_text(name_or_path)
    return parse_pack(text, Path(name_or_path).stem)


@cache
def _bundled(name: str) -> WordPack:
    """A bundled pack, read and parsed once per process (the files ship with the box and never change; a deal
    re-read and re-parsed its pack, ~35 ms here)."""
    text = resources.files("engine").joinpath("data", "words", f"{name}.txt").read_text("utf-8")
    return parse_pack(text, name)


def parse_pack(text: str, name: str) -> WordPack:
    """Build a pack from its text; ``name`` is used unless a ``# name:`` header gives one.

    Raises WordPackError naming the first problem (and how many more there are).
    """
    parsed = _parse(text)
    if parsed.problems or parsed.language is None:
        more = len(parsed.problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise WordPackError(f"word pack {name!r}: {parsed.problems[0]}{suffix}")
    return WordPack(parsed.name or name, parsed.language, tuple(word for _, word in parsed.entries))


def check_pack_text(text: str) -> list[PackProblem]:
    """Every problem of a pack's text, one line each; [] for a good pack."""
    return list(_parse(text).problems)


def check_pack_file(path: str) -> list[str]:
    """``check_pack_text`` for a file, plus a single problem when it cannot be read or is not UTF-8."""
    try:
        text = read_pack_text(path)
    except WordPackError as exc:
        return [str(exc)]
    return list(check_pack_text(text))


def draw_words(
    pack: WordPack, rng: random.Random, n: int = MIN_WORDS, exclude: Collection[str] = ()
) -> tuple[str, ...]:
    """Draw ``n`` distinct words with ``rng`` (seeded by the game), in table order.

    Words in ``exclude`` (compared after case and accent folding; e.g. the last games' words) are avoided
    while enough others remain; otherwise every other word is used and the rest is drawn from the excluded.
    Raises ValueError when the pack has fewer than ``n`` words.
    """
    if n < 0 or n > len(pack.words):
        raise ValueError(f"cannot draw {n} words from pack {pack.name!r} of {len(pack.words)} words")
    avoided = {normalize(word) for word in exclude}
    folded = pack.folded
    fresh = [word for word, key in zip(pack.words, folded, strict=True) if key not in avoided]
    if len(fresh) >= n:
        return tuple(rng.sample(fresh, n))
    used = [word for word, key in zip(pack.words, folded, strict=True) if key in avoided]
    chosen = fresh + rng.sample(used, n - len(fresh))
    rng.shuffle(chosen)
    return tuple(chosen)


def read_pack_text(path: str) -> str:
    """The text of a pack file; WordPackError (one line) when unreadable or not UTF-8."""
    try:
        data = read_bytes(path, PACK_LIMIT)
    except UnreadableFile as exc:
        raise WordPackError(str(exc)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise WordPackError(f"{path}: not UTF-8 text (bad byte at offset {exc.start})") from None


def _parse(text: str) -> _Parsed:
    name: str | None = None
    language: str | None = None
    language_line = 0
    entries: list[tuple[int, str]] = []
    problems: list[PackProblem] = []
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        content, _, comment = line.partition("#")
        if not content.strip():
            key, sep, value = comment.partition(":")
            key = key.strip().casefold()
            if sep and key == "language" and language is None:
                language, language_line = value.strip().casefold(), number
            elif sep and key == "name" and name is None:
                name = value.strip() or None
            continue
        entries.append((number, unicodedata.normalize("NFC", content.strip())))
    if language is None:
        problems.append(PackProblem("no '# language: xx' header line", "no_header"))
    elif language not in STEMMER_LANGUAGES:
        known = ", ".join(sorted(STEMMER_LANGUAGES))
        problems.append(PackProblem(f"line {language_line}: unknown language {language!r} (known: {known})",
                                    "unknown_language", line=language_line, language=language, known=known))
    problems += _word_problems(entries)
    return _Parsed(name, language, tuple(entries), tuple(problems))


def _word_problems(entries: list[tuple[int, str]]) -> list[PackProblem]:
    problems: list[PackProblem] = []
    first_seen: dict[str, tuple[int, str]] = {}
    for number, word in entries:
        if len(word.split()) > 1:
            problems.append(PackProblem(f"line {number}: {word!r} is several words", "several_words",
                                        line=number, word=word))
        if any(unicodedata.category(ch).startswith("C") for ch in word):
            problems.append(PackProblem(f"line {number}: {word!r} holds a control or invisible character",
                                        "control", line=number, word=word))
        if len(word) > MAX_WORD_LENGTH:
            problems.append(PackProblem(
                f"line {number}: {word!r} has {len(word)} letters (at most {MAX_WORD_LENGTH} fit a card)",
                "too_long", line=number, word=word, n=len(word), most=MAX_WORD_LENGTH))
        key = normalize(word)
        if key in first_seen:
            earlier_line, earlier = first_seen[key]
            problems.append(PackProblem(f"line {number}: {word!r} duplicates line {earlier_line} {earlier!r}",
                                        "duplicate", line=number, word=word, earlier=earlier_line, first=earlier))
        else:
            first_seen[key] = (number, word)
    if len(first_seen) < MIN_WORDS:
        count = len(first_seen)
        noun = "word" if count == 1 else "words"  # the English line; other languages through the catalogs
        problems.append(PackProblem(f"only {count} distinct {noun} (a game needs {MIN_WORDS})", "too_few",
                                    n=count, need=MIN_WORDS))
    return problems
