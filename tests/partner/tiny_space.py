"""A tiny hand-made vector space: six themes, four board words each, and one clue word per theme."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from partner.space import VectorSpace

THEMES: dict[str, tuple[str, list[str]]] = {
    # clue word: board words (all French, so the French stemmer and checks apply)
    "fruit": ("fruit", ["pomme", "poire", "banane", "cerise"]),
    "mer": ("océan", ["bateau", "vague", "plage", "sirène"]),
    "musique": ("orchestre", ["piano", "violon", "tambour", "flûte"]),
    "ciel": ("astronomie", ["lune", "étoile", "comète", "planète"]),
    "arme": ("guerre", ["épée", "canon", "bouclier", "lance"]),
    "animal": ("zoo", ["lion", "tigre", "girafe", "singe"]),
}
EXTRA = ["chaise"]  # the 25th board word, far from every theme
OTHER_CLUES = ["table", "maison", "voiture", "jardin", "livre", "école", "pommier"]
BOARD = [w for _, words in THEMES.values() for w in words] + EXTRA


def make_vectors(seed: int = 3, noise: float = 0.12, dim: int = 24) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    vectors: dict[str, np.ndarray] = {}
    for i, (clue, words) in enumerate(THEMES.values()):
        axis = np.zeros(dim)
        axis[i] = 1.0
        vectors[clue] = axis + 0.15 * rng.normal(size=dim)
        for w in words:
            vectors[w] = axis + noise * rng.normal(size=dim)
    for w in EXTRA + OTHER_CLUES:
        vectors[w] = rng.normal(size=dim) / np.sqrt(dim) * 1.2
    return vectors


def make_space(name: str = "tiny", seed: int = 3, noise: float = 0.12) -> VectorSpace:
    vectors = make_vectors(seed, noise)
    clues = [clue for clue, _ in THEMES.values()] + OTHER_CLUES
    return VectorSpace.from_vectors("fr", name, vectors, clues)


def export_tiny(data: Path) -> None:
    """The tiny space saved where `duetbox partner build` would put the French model (``data``/partner/)."""
    from partner.build import write_space
    from partner.paths import space_path

    vectors = make_vectors()
    words = list(vectors)
    matrix = np.stack([vectors[w] for w in words])
    rows = {w: i for i, w in enumerate(words)}
    clue = [clue for clue, _ in THEMES.values()] + ["table", "maison"]
    write_space(space_path("fr", "spacy", data), "fr", "spacy", matrix, rows, clue, {w: 4.0 for w in words},
                "test vectors")
