"""Which clue candidates are legal on a board (vectorised), plus the engine's clue checker when present."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine.clues import check_clue
from partner.space import VectorSpace
from partner.text import fold, stem

PREFIX = 5  # a clue sharing its first 5 letters with a visible word is treated as the same family

Checker = Callable[[str, Sequence[str]], bool]


class LegalIndex:
    """The look-up tables of candidate_mask for one candidate list (built once, reused for every board)."""

    def __init__(self, cand_fold: np.ndarray, cand_stem: np.ndarray) -> None:
        self.index = {w: i for i, w in enumerate(cand_fold.tolist())}
        self.by_stem: dict[str, list[int]] = {}
        for i, st in enumerate(cand_stem.tolist()):
            self.by_stem.setdefault(st, []).append(i)
        self.prefixes = np.array([w[:PREFIX] for w in cand_fold.tolist()])


def _rule_out(ok: np.ndarray, word: str, f: str, cand_fold: np.ndarray, cand_stem: np.ndarray,
              tables: LegalIndex, lang: str) -> None:
    """Clear in ``ok`` the candidates of the visible ``word`` (folded ``f``): its family, part of it, containing
    it, or the word itself."""
    index, by_stem, prefixes = tables.index, tables.by_stem, tables.prefixes
    root = stem(word, lang)
    ok &= cand_stem != root
    # one word's stem running on into the other word (pomme → pommier) is the same family too
    if len(root) >= 4:
        ok &= ~np.char.startswith(cand_fold, root)
    for j in range(4, len(f) + 1):
        for k in by_stem.get(f[:j], ()):
            ok[k] = False
    if len(f) >= PREFIX:
        ok &= prefixes != f[:PREFIX]
    if len(f) >= 3:
        ok &= np.char.find(cand_fold, f) < 0
    # candidates that are a piece of the visible word (≥ 3 letters): look its substrings up
    for i in range(len(f)):
        for j in range(i + 3, len(f) + 1):
            piece = index.get(f[i:j])
            if piece is not None:
                ok[piece] = False
    whole = index.get(f)
    if whole is not None:
        ok[whole] = False


def candidate_mask(
    cand_fold: np.ndarray,
    cand_stem: np.ndarray,
    cand_rows: Sequence[np.ndarray],
    visible: Sequence[str],
    spaces: Sequence[VectorSpace],
    lang: str,
    tables: LegalIndex | None = None,
) -> np.ndarray:
    """True for candidates that are not a visible word, its family, part of it, containing it, or its row."""
    ok = np.ones(len(cand_fold), dtype=bool)
    if not len(cand_fold):
        return ok
    tables = tables or LegalIndex(cand_fold, cand_stem)
    for word in visible:
        f = fold(word)
        if f:
            _rule_out(ok, word, f, cand_fold, cand_stem, tables, lang)
    for space, rows in zip(spaces, cand_rows, strict=True):
        board_rows = [r for r in (space.row(w) for w in visible) if r is not None]
        if board_rows:
            ok &= ~np.isin(rows, board_rows)
    return ok


def engine_checker(lang: str, strict: bool = True) -> Checker | None:
    """The engine's check_clue as a yes/no function (callers also accept None: playing without a checker)."""

    def check(word: str, visible: Sequence[str]) -> bool:
        try:
            return not check_clue(word, list(visible), language=lang, strict=strict)
        except Exception:  # a checker failure must not stop the box from playing
            return True

    return check
