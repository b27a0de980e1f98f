from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tiny_space import BOARD, make_vectors

from engine import duet
from engine.actions import Clue, Guess, Stop
from engine.keycard import random_key
from partner import Partner, PartnerUnavailable, available_languages
from partner.build import murmur64a, write_space
from partner.evaluate import Summary, play_game
from partner.paths import data_dir, space_path
from partner.play import box_action
from partner.space import VectorSpace


def _export(tmp_path: Path, name: str = "spacy") -> Path:
    vectors = make_vectors()
    words = list(vectors)
    matrix = np.stack([vectors[w] for w in words])
    rows = {w: i for i, w in enumerate(words)}
    clue = ["fruit", "océan", "orchestre", "astronomie", "guerre", "zoo", "table", "maison"]
    path = space_path("fr", name, tmp_path)
    write_space(path, "fr", name, matrix, rows, clue, {w: 4.0 for w in words}, "test vectors")
    return path


def test_murmur64a_matches_spacy_string_keys() -> None:
    # known spaCy hashes of "apple" and "coffee" (StringStore keys)
    assert murmur64a(b"apple") == 8566208034543834098
    assert murmur64a(b"coffee") == 3197928453018144401


def test_data_dir_prefers_explicit_then_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DUETBOX_DATA_DIR", str(tmp_path / "a"))
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "b"))
    assert data_dir(tmp_path / "x") == tmp_path / "x"
    assert data_dir() == tmp_path / "a"
    monkeypatch.delenv("DUETBOX_DATA_DIR")
    assert data_dir() == tmp_path / "b"


def test_export_round_trips_and_makes_the_language_available(tmp_path: Path) -> None:
    assert available_languages(str(tmp_path)) == []
    path = _export(tmp_path)
    space = VectorSpace.load(path)
    assert available_languages(str(tmp_path)) == ["fr"]
    assert "pomme" in space and space.vector("POMME") is not None
    assert space.clue_words[0] in {
        "fruit",
        "océan",
        "orchestre",
        "astronomie",
        "guerre",
        "zoo",
        "table",
        "maison",
    }
    assert space.vectors.dtype == np.float16
    p = Partner.load("fr", str(tmp_path))
    assert p.give_clue(BOARD, "GGGG" + "N" * 21, covered=set()) is not None


def test_load_raises_a_one_line_reason(tmp_path: Path) -> None:
    with pytest.raises(PartnerUnavailable, match="not built") as e1:
        Partner.load("fr", str(tmp_path))
    with pytest.raises(PartnerUnavailable, match="no word-vector model") as e2:
        Partner.load("ro", str(tmp_path))
    assert "\n" not in str(e1.value) + str(e2.value)
    path = space_path("fr", "spacy", tmp_path)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a zip")
    with pytest.raises(PartnerUnavailable, match="unreadable"):
        Partner.load("fr", str(tmp_path))


def test_explain_lists_the_words_meant(tiny: VectorSpace) -> None:
    p = Partner("fr", [tiny])
    choice = p.give_clue(BOARD, "GGGG" + "N" * 21, covered=set())
    assert choice is not None
    lines = p.explain(language="en")
    assert lines[0].startswith(f"I said {choice.word.upper()} {choice.number}: I meant ")
    assert all(BOARD[i] in lines[0] for i in choice.targets)
    # the partner's own language by default (French here), any interface language on request
    assert p.explain()[0].startswith(f"J'ai dit {choice.word.upper()} {choice.number} : je pensais à ")
    assert p.explain(language="ro")[0].startswith(f"Am spus {choice.word.upper()} {choice.number}: ")
    p.new_game()
    assert p.explain() == []


def test_box_plays_a_whole_engine_game_with_legal_actions(tiny: VectorSpace, tiny2: VectorSpace) -> None:
    rng = random.Random(4)
    words = list(BOARD)
    rng.shuffle(words)
    box = {"A": Partner("fr", [tiny]), "B": Partner("fr", [tiny, tiny2])}
    state = duet.new_game(tuple(words), random_key(rng), duet.DuetRules(tokens=9, language="fr"))
    for _ in range(300):
        if state.over:
            break
        if state.phase == "clue":
            seat = duet.clue_givers(state)[0]
        elif state.phase == "guess":
            seat = state.guesser
        else:
            seat = duet.sudden_death_guessers(state)[0]
        assert seat is not None
        action = box_action(box[seat], state, seat)
        assert action is not None
        assert isinstance(action, Clue | Guess | Stop)
        state, _ = duet.apply(state, action)  # raises if the box ever tries something illegal
    assert state.over
    assert box["B"].explain()


def test_play_game_reports_the_figures(tiny: VectorSpace) -> None:
    rng = random.Random(9)
    partner = Partner("fr", [tiny])
    summary = Summary()
    result = play_game(
        BOARD,
        random_key(rng),
        {"A": partner, "B": partner},
        {"A": partner, "B": partner},
        11,
        "fr",
        rng,
        summary,
    )
    summary.add(result)
    assert 0 <= result.greens <= 15
    assert result.good_guesses <= result.guesses
    assert 1 <= result.tokens_used <= 11
    assert summary.clue_ms and summary.board_ms
    assert any(line.startswith("win rate") for line in summary.lines())
