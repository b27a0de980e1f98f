"""The playtest corpus (partner/data/playtests/*.jsonl, logged by `duetbox partner play`) replayed through the
box's guesser: how many of the person's agents it takes on their clues, and how many wrong cards."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from tiny_space import BOARD

from engine.keycard import random_key
from engine.words import WordPack
from partner import Partner
from partner.console import Console
from partner.paths import built_spaces
from partner.replay import ReplayStats, read_logs, replay, replay_game
from partner.space import VectorSpace

CORPUS = Path(__file__).resolve().parents[2] / "partner" / "data" / "playtests"


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


def test_the_playtest_corpus_replays() -> None:
    files = sorted(CORPUS.glob("*.jsonl"))
    if not files:
        pytest.skip("no playtest logs in partner/data/playtests")
    # the suite is hermetic (its data dir is its own): the built vectors are named explicitly, read only
    data_dir = os.environ.get("DUETBOX_REPLAY_DATA")
    langs = {str(r.get("lang", "fr")) for r in read_logs(files)}
    if not data_dir or not all(built_spaces(lang, data_dir) for lang in langs):
        pytest.skip("set DUETBOX_REPLAY_DATA to a data dir with the partner's vectors built to replay the corpus")
    boxes: dict[str, Partner] = {}

    def box_for(lang: str) -> Partner:
        if lang not in boxes:
            boxes[lang] = Partner.load(lang, data_dir)
        return boxes[lang]

    result = replay(list(read_logs(files)), box_for)
    for lang, stats in result.items():
        print(lang, *stats.lines(), sep="\n")
        assert stats.clues > 0
        # the targets are benchmarks (docs/partner.md); the test guards against a collapse
        if 2 in stats.by_number:
            assert stats.agents_per_clue(2) >= 1.0
        assert stats.wrong_share() <= 0.5
