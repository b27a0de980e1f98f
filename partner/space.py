"""One exported word-vector space, loaded with numpy only."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from partner.text import fold, normalize, stems


class SpaceError(RuntimeError):
    """An export is missing or unreadable."""


class VectorSpace:
    """Unit word vectors, a word → row table (words sharing a row are identical to the box), clue vocabulary.

    Similarities are reported in units of the space's spread: z = (cos - mu) / sigma, where mu and sigma are
    the mean and standard deviation of the cosine between random clue words. That makes thresholds portable
    between
    spaces of different dimension.
    """

    def __init__(
        self,
        lang: str,
        name: str,
        words: Sequence[str],
        word_row: np.ndarray,
        vectors: np.ndarray,
        clue_idx: np.ndarray,
        clue_zipf: np.ndarray,
        clue_stem: Sequence[str],
        clue_fold: Sequence[str],
        mu: float,
        sigma: float,
    ) -> None:
        self.lang = lang
        self.name = name
        self.mu = float(mu)
        self.sigma = float(sigma) if sigma > 0 else 1.0
        self._index = {w: i for i, w in enumerate(words)}
        self._word_row = np.asarray(word_row, dtype=np.int64)
        self.vectors = vectors  # float16 or float32 unit rows
        clue_idx = np.asarray(clue_idx, dtype=np.int64)
        self.clue_words: list[str] = [str(words[i]) for i in clue_idx]
        self.clue_rows = self._word_row[clue_idx]
        self.clue_vecs = np.asarray(vectors[self.clue_rows], dtype=np.float32)
        self.clue_zipf = np.asarray(clue_zipf, dtype=np.float32)
        self.clue_stem = np.asarray(clue_stem)
        self.clue_fold = np.asarray(clue_fold)
        self.clue_pos = {w: i for i, w in enumerate(self.clue_words)}

    @property
    def key(self) -> str:
        return f"{self.lang}-{self.name}"

    @classmethod
    def load(cls, path: str | Path) -> VectorSpace:
        """Load an export written by `duetbox partner build`. Raises SpaceError."""
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                return cls(
                    meta["lang"],
                    meta["space"],
                    data["words"].tolist(),
                    data["word_row"],
                    data["vectors"],
                    data["clue_idx"],
                    data["clue_zipf"],
                    data["clue_stem"].tolist(),
                    data["clue_fold"].tolist(),
                    meta["mu"],
                    meta["sigma"],
                )
        except FileNotFoundError as exc:
            raise SpaceError(f"{path}: not built (run `duetbox partner build`)") from exc
        except (OSError, KeyError, ValueError) as exc:
            raise SpaceError(f"{path}: unreadable export ({exc})") from exc

    @classmethod
    def from_vectors(
        cls,
        lang: str,
        name: str,
        vectors: Mapping[str, Sequence[float]],
        clue_words: Sequence[str],
        zipf: Mapping[str, float] | None = None,
        sample_sigma: bool = True,
    ) -> VectorSpace:
        """Build a space in memory (tests, tools). Identical vectors share a row, as in spaCy's tables."""
        words = [normalize(w) for w in vectors]
        rows: dict[bytes, int] = {}
        mats: list[np.ndarray] = []
        word_row = []
        for w in vectors:
            v = np.asarray(vectors[w], dtype=np.float32)
            n = float(np.linalg.norm(v)) or 1.0
            v = v / n
            k = v.tobytes()
            if k not in rows:
                rows[k] = len(mats)
                mats.append(v)
            word_row.append(rows[k])
        matrix = np.stack(mats)
        index = {w: i for i, w in enumerate(words)}
        seen: set[int] = set()
        clue_idx = []
        for w in (normalize(c) for c in clue_words):
            if w in index and word_row[index[w]] not in seen:
                seen.add(word_row[index[w]])
                clue_idx.append(index[w])
        clue_list = [words[i] for i in clue_idx]
        if sample_sigma and len(clue_idx) > 2:
            cv = matrix[[word_row[i] for i in clue_idx]]
            sims = cv @ cv.T
            off = sims[~np.eye(len(clue_idx), dtype=bool)]
            mu, sigma = float(off.mean()), float(off.std())
        else:
            mu, sigma = 0.0, 1.0
        z = zipf or {}
        return cls(
            lang,
            name,
            words,
            np.array(word_row),
            matrix,
            np.array(clue_idx, dtype=np.int64),
            np.array([z.get(w, 4.0) for w in clue_list], dtype=np.float32),
            stems(clue_list, lang),
            [fold(w) for w in clue_list],
            mu,
            sigma,
        )

    def perturbed(self, noise: float, seed: int = 0) -> VectorSpace:
        """A copy whose vectors get Gaussian noise (relative to their unit length): an evaluation partner that
        mostly, not fully, agrees with this space. Clue statistics are measured again."""
        rng = np.random.default_rng(seed)
        vecs = np.asarray(self.vectors, dtype=np.float32)
        vecs = vecs + noise * rng.normal(size=vecs.shape).astype(np.float32) / np.sqrt(vecs.shape[1])
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        clone = object.__new__(VectorSpace)
        clone.__dict__.update(self.__dict__)
        clone.name = f"{self.name}~{noise:g}"
        clone.vectors = vecs
        clone.clue_vecs = vecs[self.clue_rows]
        sample = clone.clue_vecs[rng.integers(0, len(self.clue_rows), 2000)]
        sims = sample @ sample.T
        off = sims[~np.eye(len(sample), dtype=bool)]
        clone.mu, clone.sigma = float(off.mean()), float(off.std())
        return clone

    def row(self, word: str) -> int | None:
        i = self._index.get(normalize(word))
        return None if i is None else int(self._word_row[i])

    def __contains__(self, word: str) -> bool:
        return normalize(word) in self._index

    def vector(self, word: str) -> np.ndarray | None:
        r = self.row(word)
        return None if r is None else np.asarray(self.vectors[r], dtype=np.float32)

    def board_matrix(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """(unit vectors, known mask) for board words; unknown words get a zero vector (z = -mu/sigma)."""
        out = np.zeros((len(words), self.vectors.shape[1]), dtype=np.float32)
        known = np.zeros(len(words), dtype=bool)
        for i, w in enumerate(words):
            v = self.vector(w)
            if v is not None:
                out[i] = v
                known[i] = True
        return out, known

    def z(self, cos: np.ndarray) -> np.ndarray:
        return (cos - self.mu) / self.sigma

    def word_z(self, word: str, board: np.ndarray) -> np.ndarray | None:
        """z-similarity of one word to each row of a board matrix, or None if the word is unknown."""
        v = self.vector(word)
        return None if v is None else self.z(board @ v)
