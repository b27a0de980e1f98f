"""Human association tables: for each pack word, the words a person thinks of for it, with a strength 1..5.

File format (``partner/data/assoc/<lang>.tsv``, written by the team): UTF-8; lines starting with ``#`` and blank
lines are comments; every other line is ``pack_word<TAB>associate<TAB>strength`` with strength an integer from 1
(loose) to 5 (strongest), lower case, pack words spelled as in ``engine/data/words/<lang>.txt``. A pair given twice
keeps its strongest strength.

The box uses the table three ways (docs/partner.md): the giver draws clue candidates from it, the guesser reads a
person's clue through it (a strong associate of a card points at that card), and pack words that share a vector
row are told apart by it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path

from partner.text import fold, normalize

MAX_STRENGTH = 5


class AssocError(ValueError):
    """A malformed table (one line: file, line number, what is wrong)."""


class AssocTable:
    """pack word → {associate: strength}, and the reverse index associate → {pack word: strength}."""

    def __init__(self, lang: str, pairs: Iterable[tuple[str, str, int]] = ()) -> None:
        self.lang = lang
        self.forward: dict[str, dict[str, int]] = {}
        self.reverse: dict[str, dict[str, int]] = {}
        self._folded: dict[str, str] = {}
        for word, assoc, strength in pairs:
            self.add(word, assoc, strength)

    def add(self, word: str, assoc: str, strength: int) -> None:
        word, assoc = normalize(word), normalize(assoc)
        if not word or not assoc or word == assoc:
            return
        s = max(self.forward.get(word, {}).get(assoc, 0), int(strength))
        self.forward.setdefault(word, {})[assoc] = s
        self.reverse.setdefault(assoc, {})[word] = s
        self._folded.setdefault(fold(assoc), assoc)

    def __len__(self) -> int:
        return sum(len(v) for v in self.forward.values())

    def __bool__(self) -> bool:
        return bool(self.forward)

    def associates(self, word: str) -> dict[str, int]:
        """The associates of a pack word (empty when the table is silent about it)."""
        return self.forward.get(normalize(word), {})

    def strength(self, clue: str, card: str) -> int:
        """How strongly `clue` makes a person think of the pack word `card` (0 = the table says nothing).

        Either direction counts: the clue listed under the card, or the card listed under the clue (when the clue
        is itself a pack word). An unknown accentless spelling is matched through its folded form.
        """
        clue, card = normalize(clue), normalize(card)
        s = self.forward.get(card, {}).get(clue, 0)
        if not s:
            alt = self._folded.get(fold(clue))
            if alt is not None:
                s = self.forward.get(card, {}).get(alt, 0)
        return max(s, self.forward.get(clue, {}).get(card, 0))

    def pointed(self, clue: str) -> dict[str, int]:
        """Pack words that `clue` is an associate of, with the strength (the guesser's reading of a clue)."""
        clue = normalize(clue)
        out = dict(self.reverse.get(clue) or self.reverse.get(self._folded.get(fold(clue), ""), {}))
        for card, s in self.forward.get(clue, {}).items():
            out[card] = max(out.get(card, 0), s)
        return out

    def all_associates(self) -> list[str]:
        return list(self.reverse)

    @classmethod
    def parse(cls, lang: str, lines: Iterable[str], source: str = "<table>") -> AssocTable:
        return cls(lang, _pairs(lines, source))

    @classmethod
    def load(cls, path: str | Path, lang: str | None = None) -> AssocTable:
        """Read a table file. Raises AssocError (malformed) or OSError (missing)."""
        path = Path(path)
        with path.open(encoding="utf-8") as fh:
            return cls.parse(lang or path.stem, fh, str(path))

    @classmethod
    def bundled(cls, lang: str, clue_table: bool = True) -> AssocTable | None:
        """The table shipped in partner/data/assoc/<lang>.tsv, with the clue-centred table of
        partner/data/cluetable/<lang>.tsv merged in (read card → clue; `clue_table=False`: the card table alone),
        or None when there is no card table."""
        try:
            data = resources.files("partner").joinpath("data")
            ref = data.joinpath("assoc", f"{lang}.tsv")
            if not ref.is_file():
                return None
            table = cls.parse(lang, ref.read_text("utf-8").splitlines(), f"partner/data/assoc/{lang}.tsv")
            more = data.joinpath("cluetable", f"{lang}.tsv")
            if clue_table and more.is_file():
                for clue, card, strength in _pairs(more.read_text("utf-8").splitlines(), f"cluetable/{lang}.tsv"):
                    table.add(card, clue, strength)
            return table
        except (OSError, ModuleNotFoundError):
            return None


def _pairs(lines: Iterable[str], source: str) -> Iterator[tuple[str, str, int]]:
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\n").rstrip("\r")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 3:
            raise AssocError(f"{source}:{number}: expected word<TAB>associate<TAB>strength, got {line[:60]!r}")
        word, assoc, strength = (p.strip() for p in parts)
        if not strength.isdigit() or not 1 <= int(strength) <= MAX_STRENGTH:
            raise AssocError(f"{source}:{number}: strength must be an integer from 1 to {MAX_STRENGTH}")
        yield word, assoc, int(strength)
