"""Solo Duet: the box sits at seat B and plays with the `partner` package.

Secrecy: the partner is handed only what seat B may know — the public view (words, covered cards, tokens, the
clues and their public results) and seat B's own key side from ``seat_view(state, "B")``. It never sees the
engine state, so it cannot read seat A's side. ``BoxSeat`` is the whole adapter; the screens in
``device/screens/solo.py`` decide *when* it thinks.

Timing: the partner is loaded (about 1 s for French) and thinks (a clue or a guess: a few ms to ~0.3 s) inside one
loop step, right after a frame that says so ("the box thinks…") has been drawn. No worker thread: the work is
short, and doing it on the loop keeps the single-thread rule and the fake clock of the tests exact.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from engine.keycard import TOTAL_GREENS
from engine.seats import Seat, other
from engine.views import PublicView, SeatView

if TYPE_CHECKING:  # the partner (numpy) is imported when solo is played, not when the box starts
    from partner import Partner
    from partner.turns import Turn

log = logging.getLogger("duetbox.solo")

#: the seat the box plays; the human is the other one
BOX: Seat = "B"
HUMAN: Seat = other(BOX)
#: the partner's languages (partner.paths.SPACES); Romanian has no usable model, so no solo in Romanian
#: the set-up's difficulties, the first one preselected. Normal has 11 timer tokens, the rulebook's easier bank
#: (rules §1 allow 10 or 11): blind playtests and the person model found 9 out of reach with the box as partner
#: (docs/partner.md, "The solo default"); hard keeps the rulebook's 9. Easy adds the partner's cautious clues.
DIFFICULTIES = ("normal", "hard", "easy")
TOKENS = {"normal": 11, "hard": 9, "easy": 11}


def partner_dirs(storage_dir: Path | str | None) -> list[Path]:
    """Where the built spaces may be: the box's data directory, then the partner's default one (where
    `duetbox partner build` writes without --data-dir: $DUETBOX_DATA_DIR, $STATE_DIRECTORY, ~/.local/share)."""
    dirs: list[Path] = []
    if storage_dir is not None:
        dirs.append(Path(storage_dir))
    try:
        from partner.paths import data_dir

        default = data_dir()
    except ImportError:  # pragma: no cover - the partner package ships with the box
        return dirs
    if default not in dirs:
        dirs.append(default)
    return dirs


@dataclass(frozen=True)
class Availability:
    """Whether solo can be played in a language here; ``reason`` is a catalog key when not."""

    language: str
    ok: bool
    reason: str = ""  # "solo.no_model" (no model exists for the language), "solo.not_built", "solo.no_numpy"
    directory: Path | None = None


def availability(language: str, storage_dir: Path | str | None) -> Availability:
    if importlib.util.find_spec("numpy") is None:
        return Availability(language, False, "solo.no_numpy")
    from partner.paths import SPACES, built_spaces

    if language not in SPACES:
        return Availability(language, False, "solo.no_model")
    for directory in partner_dirs(storage_dir):
        if built_spaces(language, directory):
            return Availability(language, True, directory=directory)
    return Availability(language, False, "solo.not_built")


def solo_languages(storage_dir: Path | str | None) -> list[str]:
    """Languages with a built model, in the partner's order."""
    if importlib.util.find_spec("numpy") is None:
        return []
    from partner.paths import SPACES

    return [lang for lang in SPACES if availability(lang, storage_dir).ok]


def load_partner(language: str, directory: Path, difficulty: str) -> Partner:
    """Partner.load; raises partner.PartnerUnavailable (one line) when it cannot."""
    from partner import Partner

    return Partner.load(language, str(directory), "easy" if difficulty == "easy" else "normal")


# -- what the box may know, as the partner's plain data ----------------------------------------------------------

def _result(view: PublicView, card: int, guesser: Seat) -> str:
    """A guess's result on the clue giver's side, from public facts: a bystander leaves the guesser's mark, the
    assassin ends the game, anything else was an agent."""
    info = view.cards[card]
    if guesser in info.marks:
        return "N"
    if info.assassin:
        return "X"
    return "G"


def turns(view: PublicView, meant: Mapping[int, Sequence[int]] | None = None) -> tuple[list[Turn], Turn | None]:
    """(finished turns, the running turn or None) from the box's point of view, public facts only.
    ``meant``: clue index → the cards the box meant with it (its own clues)."""
    from partner.turns import ME, PARTNER, Turn

    meant = meant or {}
    out: list[Turn] = []
    for i, clue in enumerate(view.clues):
        guesser = HUMAN if clue.seat == BOX else BOX
        out.append(Turn(ME if clue.seat == BOX else PARTNER, clue.word or "", clue.number,
                        tuple((c, _result(view, c, guesser)) for c in clue.guesses),
                        tuple(meant.get(i, ()))))
    if view.phase == "guess" and out:
        return out[:-1], out[-1]
    return out, None


def covered(view: PublicView) -> set[int]:
    """Cards out of play for both seats: agents, and bystanders marked for both."""
    return {c.index for c in view.cards if c.agent or (HUMAN in c.marks and BOX in c.marks)}


def marked_for_box(view: PublicView) -> set[int]:
    return {c.index for c in view.cards if BOX in c.marks}


@dataclass(frozen=True)
class BoxMove:
    kind: str  # "clue", "guess", "stop"
    word: str | None = None
    number: int = 0
    card: int | None = None
    targets: tuple[int, ...] = ()


class BoxSeat:
    """The box's decisions from (public view, seat B's view). Holds the partner object and nothing secret."""

    def __init__(self, partner: Partner) -> None:
        self.partner = partner
        self._board: tuple[str, ...] = ()

    def _prepare(self, words: tuple[str, ...]) -> None:
        if words != self._board:
            self._board = words
            self.partner.prepare_board(list(words))

    def clue(self, view: PublicView, mine: SeatView, meant: Mapping[int, Sequence[int]]) -> BoxMove:
        words = tuple(c.word for c in view.cards)
        self._prepare(words)
        done, _ = turns(view, meant)
        choice = self.partner.give_clue(list(words), mine.key, covered(view), done, tokens=view.bank)
        if choice is None:  # nothing of the box's left to clue: a clue without a word ("pass")
            return BoxMove("clue", None, 1)
        return BoxMove("clue", choice.word, int(choice.number), targets=tuple(choice.targets))

    def guess(self, view: PublicView, mine: SeatView, meant: Mapping[int, Sequence[int]]) -> BoxMove:
        words = tuple(c.word for c in view.cards)
        self._prepare(words)
        done, running = turns(view, meant)
        sudden = view.phase == "sudden_death"
        word = running.word if running is not None and not sudden else None
        number = running.number if running is not None and not sudden else None
        # the agents left on the table (both sides: 15 minus those found) tell sudden death where to look
        left = TOTAL_GREENS - sum(1 for c in view.cards if c.agent)
        choice = self.partner.next_guess(list(words), mine.key, word, number, covered(view),
                                         marked_for_box(view), done, sudden,
                                         turn_guesses=running.guesses if running is not None else (),
                                         tokens=view.bank, agents_left=left)
        if choice is not None:
            return BoxMove("guess", card=int(choice.card))
        if view.can_stop:
            return BoxMove("stop")
        # The rules need a guess (none yet this turn, or sudden death): the likeliest touchable card.
        blocked = covered(view) | marked_for_box(view)
        free = [i for i in range(len(view.cards)) if i not in blocked]
        log.warning("the partner declined a guess it must make; touching card %s", free[0] if free else None)
        return BoxMove("guess", card=free[0]) if free else BoxMove("stop")

    def explain(self, view: PublicView, meant: Mapping[int, Sequence[int]]) -> list[str]:
        done, running = turns(view, meant)
        return list(self.partner.explain(done + ([running] if running is not None else [])))
