"""`duetbox partner play`: a whole solo game typed through the console, on the tiny space."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from tiny_space import BOARD

from engine.keycard import DuetKey, random_key
from engine.words import WordPack
from partner import Partner
from partner.console import Console, run
from partner.space import VectorSpace


def _console(tiny: VectorSpace, lines: list[str], log: Path, out: list[str]) -> Console:
    it: Iterator[str] = iter(lines)

    def ask(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    pack = WordPack("tiny", "fr", tuple(BOARD))
    return Console(Partner("fr", [tiny]), pack, "fr", seed=5, log_path=log, input_fn=ask, print_fn=out.append)


def test_bad_input_is_answered_and_quitting_logs_the_game(tiny: VectorSpace, tmp_path: Path) -> None:
    out: list[str] = []
    log = tmp_path / "games.jsonl"
    lines = ["", "help", "nonsense", "pomme 2", "océan 0", "océan 99", "océan two", "océan 1"]
    console = _console(tiny, lines, log, out)
    assert run(console) == 0
    text = "\n".join(out)
    assert "How to play" in text
    assert "not allowed" in text  # pomme is on the table
    assert "from 1 to 9" in text
    assert "Please type one word" in text
    assert "You say: OCÉAN 1" in text
    record = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert record["result"] == "quit" and record["words"] and record["key_a"] and record["key_b"]
    assert record["clues"][0]["word"] == "océan" and record["clues"][0]["number"] == 1
    assert record["clues"][0]["guesses"], "the box touched a card on the clue"


def test_a_whole_game_by_script_ends_and_is_logged(tiny: VectorSpace, tmp_path: Path) -> None:
    """Random but legal play to the end: the log holds every touch and the result."""
    import random

    rng = random.Random(1)
    log = tmp_path / "g.jsonl"
    out: list[str] = []
    console = _console(tiny, [], log, out)
    clues = iter(["zoo 1", "orchestre 1", "astronomie 1", "guerre 1", "fruit 1", "table 1", "maison 1",
                  "voiture 1", "jardin 1", "livre 1", "école 1"] * 3)

    def ask(prompt: str) -> str:
        out.append(prompt)
        if prompt.startswith("Your clue"):
            return next(clues)
        if prompt.startswith("Another"):
            return "n"
        return str(rng.randint(1, 25))

    console.input_fn = ask
    key: DuetKey = random_key(random.Random(2))
    record = console.play(tuple(BOARD), key)
    assert record["finished"] and record["result"] in ("won", "lost")
    saved = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert saved["result"] == record["result"] and saved["key_b"] == key.b
    touches = sum(len(c["guesses"]) for c in saved["clues"]) + len(saved["sudden_death"])
    assert touches >= 1
