"""Detection and false-refusal rates of the clue checker on the corpora in tests/data/clues (docs/rules.md).

Built by tools/clue_corpora.py; checked by test_clue_corpora.py; `python tools/clue_corpora.py --report` prints them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.clues import check_clue

DATA = Path(__file__).resolve().parent.parent / "data" / "clues"


@dataclass
class Rates:
    language: str
    refuse: int = 0
    detected: int = 0
    hand: int = 0  # of ``refuse``, the pairs written by hand (families, irregular forms, compound parts)
    hand_detected: int = 0
    accept: int = 0
    refused: int = 0  # accept pairs refused by the family / forms / compound logic (false refusals)
    lookalike: int = 0  # accept pairs refused because a visible word of 4+ letters is inside the clue or around it
    missed: list[tuple[str, str]] = field(default_factory=list)
    false: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def detection(self) -> float:
        return self.detected / self.refuse if self.refuse else 1.0

    @property
    def false_refusal(self) -> float:
        return self.refused / self.accept if self.accept else 0.0

    @property
    def lookalike_rate(self) -> float:
        return self.lookalike / self.accept if self.accept else 0.0

    def summary(self) -> str:
        return (f"{self.language}: detected {self.detected}/{self.refuse} = {100 * self.detection:.1f} % "
                f"(hand-written {self.hand_detected}/{self.hand}); "
                f"falsely refused {self.refused}/{self.accept} = {100 * self.false_refusal:.1f} %; "
                f"look-alikes refused {self.lookalike}/{self.accept} = {100 * self.lookalike_rate:.1f} %")


def _rows(path: Path) -> list[list[str]]:
    lines = path.read_text("utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]


def rates(language: str) -> Rates:
    """Run the checker (strict rules) over ``language``'s corpora."""
    result = Rates(language)
    for clue, shown, source in _rows(DATA / f"{language}-refuse.tsv"):
        result.refuse += 1
        result.hand += source == "hand"
        if check_clue(clue, [shown], language=language):
            result.detected += 1
            result.hand_detected += source == "hand"
        else:
            result.missed.append((clue, shown))
    related = {(row[0].casefold(), row[1].casefold()) for row in _rows(DATA / f"{language}-related.tsv")}
    for clue, board in _rows(DATA / f"{language}-accept.tsv"):
        words = [word for word in board.split(",") if (clue.casefold(), word.casefold()) not in related]
        result.accept += 1
        problems = check_clue(clue, words, language=language)
        if not problems:
            continue
        if any(p.code == "same_stem" for p in problems):
            result.refused += 1
            result.false.extend((clue, p.word, p.code) for p in problems if p.code == "same_stem")
        else:
            result.lookalike += 1
    return result


@dataclass
class PairRates:
    """The checker on the hand-written pair corpora (issue #30): <lang>-must-refuse.tsv and <lang>-must-accept.tsv,
    one clue against one visible word a line."""

    language: str
    refuse: int = 0
    refused: int = 0
    accept: int = 0
    wrongly_refused: int = 0
    missed: list[tuple[str, str]] = field(default_factory=list)
    false: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def detection(self) -> float:
        return self.refused / self.refuse if self.refuse else 1.0

    @property
    def false_refusal(self) -> float:
        return self.wrongly_refused / self.accept if self.accept else 0.0

    def summary(self) -> str:
        return (f"{self.language}: must-refuse refused {self.refused}/{self.refuse} = {100 * self.detection:.1f} %; "
                f"unrelated refused {self.wrongly_refused}/{self.accept} = {100 * self.false_refusal:.1f} %")


def pair_rates(language: str) -> PairRates:
    """Run the checker (strict rules) over ``language``'s hand-written pair corpora."""
    result = PairRates(language)
    for clue, shown in _rows(DATA / f"{language}-must-refuse.tsv"):
        result.refuse += 1
        if check_clue(clue, [shown], language=language):
            result.refused += 1
        else:
            result.missed.append((clue, shown))
    for clue, shown in _rows(DATA / f"{language}-must-accept.tsv"):
        result.accept += 1
        problems = check_clue(clue, [shown], language=language)
        if problems:
            result.wrongly_refused += 1
            result.false.extend((clue, p.word, p.code) for p in problems)
    return result
