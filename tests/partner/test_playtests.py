"""The playtest corpus (partner/data/playtests/*.jsonl, logged by `duetbox partner play`) replayed through the
box's guesser: how many of the person's agents it takes on their clues, and how many wrong cards."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
from tiny_space import BOARD

from engine.keycard import random_key
from engine.words import WordPack
from partner import Partner
from partner.assoc import AssocTable
from partner.console import Console
from partner.replay import ReplayStats, read_logs, replay, replay_game
from partner.space import VectorSpace
from partner.text import normalize

CORPUS = Path(__file__).resolve().parents[2] / "partner" / "data" / "playtests"
REPLAY = CORPUS / "replay"


def _logged_game(tiny: VectorSpace, log: Path) -> None:
    rng = random.Random(3)
    clues = iter(["zoo 2", "orchestre 2", "astronomie 2", "guerre 2", "océan 2", "fruit 2"] * 3)

    def ask(prompt: str) -> str:
        if prompt.startswith("Your clue"):
            return next(clues)
        if prompt.startswith("Another"):
            return "n"
        return str(rng.randint(1, 25))

    console = Console(Partner("fr", [tiny]), WordPack("tiny", "fr", tuple(BOARD)), "fr", seed=2, log_path=log,
                      input_fn=ask, print_fn=lambda _line: None)
    console.play(tuple(BOARD), random_key(random.Random(4)))


def test_a_logged_game_replays_through_the_box(tiny: VectorSpace, tmp_path: Path) -> None:
    log = tmp_path / "fr-test.jsonl"
    _logged_game(tiny, log)
    records = list(read_logs([log]))
    stats = ReplayStats()
    replay_game(records[0], Partner("fr", [tiny]), stats)
    person_clues = [c for c in records[0]["clues"] if c["seat"] == "A"]
    assert stats.games == 1 and stats.clues == len(person_clues) > 0
    assert stats.touches >= stats.clues  # the box touches at least one card on every clue
    assert 2 in stats.by_number


def _replay_box(lang: str) -> Partner | None:
    """The box as it ships, on the small replay space committed with the corpus (tools/replay_space.py)."""
    paths = sorted(REPLAY.glob(f"{lang}-*.npz"))
    if not paths:
        return None
    return Partner.box(lang, [VectorSpace.load(paths[0])], assoc=AssocTable.bundled(lang))


def _covered(record: dict[str, Any]) -> bool:
    """Whether the replay space holds every word of this game (a log added since it was made is left out)."""
    lang = str(record.get("lang", "fr"))
    paths = sorted(REPLAY.glob(f"{lang}-*.npz"))
    if not paths:
        return False
    with np.load(paths[0], allow_pickle=False) as data:
        known = set(json.loads(str(data["meta"])).get("corpus", []))
    clues = record.get("clues", [])
    words = [str(w) for w in record.get("words", [])]
    words += [str(c["word"]) for c in clues if c.get("word")]
    return all(normalize(w) in known for w in words)


def test_the_playtest_corpus_replays() -> None:
    """Every person clue of the corpus, read by the box on the committed replay space (no build, no network):
    a guard on the figures of docs/partner.md (French: 1.4 agents a person 2-clue, 10 % wrong touches; English:
    1.3, 19 %), well under them so that a tuning may move them, well over a collapse."""
    files = sorted(CORPUS.glob("*.jsonl"))
    assert files, "no playtest logs in partner/data/playtests"
    records = [r for r in read_logs(files) if _covered(r)]
    assert len(records) >= 40, "regenerate the replay spaces: python tools/replay_space.py --data-dir D"
    boxes: dict[str, Partner | None] = {}

    def box_for(lang: str) -> Partner | None:
        if lang not in boxes:
            boxes[lang] = _replay_box(lang)
        return boxes[lang]

    result = replay(records, box_for)
    assert set(result) == {"fr", "en"}
    for lang, stats in result.items():
        print(lang, *stats.lines(), sep="\n")
        assert stats.by_number[2][0] >= 50  # the person 2-clues are read
        assert stats.agents_per_clue(2) >= 1.25, lang
        assert stats.wrong_share() <= 0.25, lang
        assert stats.assassins <= 0.03 * stats.touches, lang  # a share: the corpus grows (1.6 % en, 0.9 % fr)
