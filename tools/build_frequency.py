"""Write engine/data/frequency/<lang>.txt.gz: the language's most frequent words, one a line, most frequent first.

    .venv/bin/python tools/build_frequency.py     # needs wordfreq (the `ai` extra) - maintainers only

The clue checker takes a compound's member only among these words (a member of a real compound is a common word:
horse + shoe, Fahr + Rad; the lemma table alone also knows junk such as "becue" that splits BARBECUE), and the pack
test checks each bundled pack word against them (a word a native speaker knows). wordfreq (Robyn Speer, Apache-2.0
code; its word lists are CC BY-SA 4.0, see engine/data/frequency/README.md) gives the ranks; only the rank order of
the first ``TOP`` words that are written with letters is kept.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import wordfreq

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.languages import CODES  # noqa: E402

OUT = ROOT / "engine" / "data" / "frequency"
LANGUAGES = CODES
TOP = 50_000


def build(language: str) -> int:
    words = [w for w in wordfreq.top_n_list(language, TOP * 2) if w.isalpha()][:TOP]
    OUT.mkdir(parents=True, exist_ok=True)
    data = ("\n".join(words) + "\n").encode("utf-8")
    (OUT / f"{language}.txt.gz").write_bytes(gzip.compress(data, 9, mtime=0))
    return len(words)


if __name__ == "__main__":
    for lang in LANGUAGES:
        print(lang, build(lang))
