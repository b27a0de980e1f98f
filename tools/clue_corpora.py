"""Build the clue checker's two corpora per language from the word packs (re-run it when the packs change).

    .venv/bin/python tools/clue_corpora.py            # writes tests/data/clues/<lang>-refuse.tsv and -accept.tsv
    .venv/bin/python tools/clue_corpora.py --report   # also prints the rates (tests/engine/test_clue_corpora.py)

Needs simplemma (the box's dependency) and wordfreq (the `ai` extra) - maintainers only.

(a) refuse: clues the rules refuse, each against a board holding the word it comes from. Two sources:
    - inflections: forms that simplemma's table maps to a pack word (chevaux -> cheval; letters only, 3 or
      more with a vowel, which leaves out the table's abbreviations such as MTN -> mountain), at most
      ``FORMS_PER_WORD`` per word, typed as the box's picker spells them (CHÂTEAUX -> CHATEAUX);
    - families: pairs we wrote by hand in tests/data/clues/<lang>-families.tsv (derived words, irregular plurals,
      compound parts), kept as they are.
(b) accept: unrelated (clue, board) pairs: a frequent word of the language (wordfreq ranks ``FREQ_FROM`` to
    ``FREQ_TO``, letters only, 4 to 12 long, its own lemma) against 25 random pack words, leaving out pairs where the
    clue is a pack word or the lemma table maps it to a board word, and pairs listed as related by hand in
    tests/data/clues/<lang>-related.tsv (a review of the refusals the checker made: each line says why).

Pack words come from engine/data/words/<lang>.txt, or, for a language without a pack yet, from the Pictures deck's
names in that language (engine/data/pictures/names.json).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.keyboard import typed  # noqa: E402
from engine.languages import CODES  # noqa: E402

LANGUAGES = CODES
OUT = ROOT / "tests" / "data" / "clues"
FORMS_PER_WORD = 3
BOARD = 25
ACCEPT_PAIRS = 1000
FREQ_FROM, FREQ_TO = 300, 8000
SEED = 16


def pack_words(language: str) -> list[str]:
    """The words of ``language``'s pack (or of the picture names), in file order."""
    path = ROOT / "engine" / "data" / "words" / f"{language}.txt"
    if path.exists():
        words = [line.split("#")[0].strip() for line in path.read_text("utf-8").splitlines()]
        return [w for w in words if w]
    names = json.loads((ROOT / "engine" / "data" / "pictures" / "names.json").read_text("utf-8"))
    return sorted({name for entry in names["names"].values() for name in entry.get(language, [])[:1]
                   if " " not in name and "-" not in name})


def _plausible(form: str) -> bool:
    """A real inflected form, not one of the table's abbreviations or symbols (MTN for mountain, FE for fier)."""
    return form.isalpha() and len(form) >= 3 and any(ch in "aeiouyăâîàâéèêëïîôûùüöäœæ" for ch in form.lower())


def _inflections(language: str, words: list[str]) -> list[tuple[str, str]]:
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    table = DefaultDictionaryFactory().get_dictionary(language)
    by_lemma: dict[str, list[str]] = {}
    wanted = {w.lower(): w for w in words}
    for form, lemma in table.items():
        key = lemma.lower()
        if key in wanted and form.lower() != key and _plausible(form):
            by_lemma.setdefault(key, []).append(form)
    taken = {w.lower() for w in words}
    rng = random.Random(SEED)
    pairs: list[tuple[str, str]] = []
    for low, word in wanted.items():
        forms = sorted({f.lower() for f in by_lemma.get(low, [])} - taken)
        for form in rng.sample(forms, min(FORMS_PER_WORD, len(forms))):
            pairs.append((typed(form, language), word))
    return pairs


def _families(language: str) -> list[tuple[str, str]]:
    path = OUT / f"{language}-families.tsv"
    if not path.exists():
        return []
    pairs = []
    for line in path.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            clue, shown = line.split("\t")[:2]
            pairs.append((clue.strip(), shown.strip()))
    return pairs


def _related(language: str) -> set[tuple[str, str]]:
    path = OUT / f"{language}-related.tsv"
    if not path.exists():
        return set()
    found = set()
    for line in path.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            clue, shown = line.split("\t")[:2]
            found.add((clue.strip().lower(), shown.strip().lower()))
    return found


def _accept(language: str, words: list[str]) -> list[tuple[str, list[str]]]:
    import wordfreq
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    table = DefaultDictionaryFactory().get_dictionary(language)
    pack = {w.lower() for w in words}
    candidates = []
    for word in wordfreq.top_n_list(language, FREQ_TO)[FREQ_FROM:]:
        if not (word.isalpha() and 4 <= len(word) <= 12) or word.lower() in pack:
            continue
        lemma = table.get(word) or table.get(word.capitalize())
        if lemma is not None and lemma.lower() != word.lower():
            continue  # an inflected form: keep base forms, as a player's clue usually is
        candidates.append(word)
    rng = random.Random(SEED)
    related = _related(language)
    pairs: list[tuple[str, list[str]]] = []
    while len(pairs) < ACCEPT_PAIRS:
        clue = rng.choice(candidates)
        board = rng.sample(words, BOARD)
        lemma = (table.get(clue) or clue).lower()
        if any(lemma == w.lower() or (clue.lower(), w.lower()) in related for w in board):
            continue
        pairs.append((typed(clue, language), board))
    return pairs


def build(language: str) -> None:
    words = pack_words(language)
    refuse = [(c, w, "table") for c, w in _inflections(language, words)]
    refuse += [(c, w, "hand") for c, w in _families(language)]
    OUT.mkdir(parents=True, exist_ok=True)
    head = (f"# built by tools/clue_corpora.py from {len(words)} pack words; "
            "clue<TAB>visible word<TAB>source (table: simplemma's forms; hand: our families file)\n")
    (OUT / f"{language}-refuse.tsv").write_text(
        head + "".join(f"{c}\t{w}\t{src}\n" for c, w, src in refuse), "utf-8")
    accept = _accept(language, words)
    head = f"# built by tools/clue_corpora.py from {len(words)} pack words; clue<TAB>25 board words\n"
    (OUT / f"{language}-accept.tsv").write_text(
        head + "".join(f"{c}\t{','.join(b)}\n" for c, b in accept), "utf-8")
    print(f"{language}: {len(words)} pack words, {len(refuse)} to refuse, {len(accept)} pairs to accept")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("languages", nargs="*", default=list(LANGUAGES))
    parser.add_argument("--report", action="store_true", help="print the rates after building")
    args = parser.parse_args()
    for language in args.languages:
        build(language)
    if args.report:
        sys.path.insert(0, str(ROOT / "tests" / "engine"))
        from clue_rates import rates

        for language in args.languages:
            print(rates(language).summary())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
