"""Classic Codenames and Pictures played through the scripted mock box (spymasters on seat A, guessers on B)."""

from __future__ import annotations

import random
from pathlib import Path

from boxscript import WORDS, Table, exported, run_box
from PIL import Image

from engine.classic import random_classic_key
from engine.pictures_deck import load_deck


def _record(kind: str, variant: str, seed: int) -> dict:
    pictures_key = "source"
    key = random_classic_key(random.Random(seed), kind, pictures_key)  # type: ignore[arg-type]
    if kind == "pictures":
        cards = [p.id for p in load_deck()[:20]]
    else:
        cards = list(WORDS)
    return {"format": "duetbox-record/1", "mode": kind, "language": "en", "cards": cards, "key": key.cards,
            "start": key.start, "variant": variant, "pictures_key": pictures_key, "rules": {"clues": "strict"},
            "seed": seed, "actions": []}


def _of(record: dict, colour: str) -> list[int]:
    return [i for i, c in enumerate(record["key"]) if c == colour]


def _unlimited_clue(t: Table) -> Table:
    # seat A's OLED: OK opens the picker at 1; nine ups reach "unlimited" (10); OK; no word
    return t.add("press A.ok", *["press A.up"] * 9, "press A.ok", "type A \\n")


def test_app_classic_win_all_found(tmp_path: Path) -> None:
    record = _record("classic", "standard", 5)
    start = record["start"]
    t = Table()
    t.cursor["B"] = 0
    _unlimited_clue(t)
    for card in _of(record, start):
        t.guess("B", card)
    t.add("snapshot won")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    saved = exported(data, "1")
    assert saved["_status"] == "over" and saved["_result"] == f"won_{start}"
    assert saved["actions"][0] == {"type": "clue", "team": start, "word": None, "number": "unlimited"}
    assert len([a for a in saved["actions"] if a["type"] == "guess"]) == 9
    assert Image.open(snaps / "won-shared.png").size == (1280, 720)


def test_app_classic_clue_with_word_and_other_team_turn(tmp_path: Path) -> None:
    record = _record("classic", "standard", 6)
    start = record["start"]
    other = "B" if start == "R" else "R"
    t = Table()
    t.cursor["B"] = 0
    t.add("press A.ok", "press A.ok", "type A fruit", "press A.ok")  # clue "fruit" 1
    t.guess("B", _of(record, "N")[0])  # a bystander ends the turn
    t.add("snapshot turn")
    code, _snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    actions = exported(data, "1")["actions"]
    assert actions == [{"type": "clue", "team": start, "word": "fruit", "number": 1},
                       {"type": "guess", "team": start, "card": _of(record, "N")[0]}]
    from engine.record import load_classic, replay

    state = replay(dict(record, actions=actions)).state
    assert state.turn == other and state == replay(dict(record, actions=actions)).state
    assert load_classic(record)[0].turn == start


def test_app_pictures_duo_cover_then_assassin_loss(tmp_path: Path) -> None:
    record = _record("pictures", "duo", 7)
    players = record["start"]
    t = Table()
    t.cursor["B"] = 0
    _unlimited_clue(t)
    t.guess("B", _of(record, players)[0])
    t.stop("B")
    t.add("wait 500", "snapshot covering", "wait 1000", "snapshot covered")
    _unlimited_clue(t)
    t.guess("B", _of(record, "X")[0])
    t.add("snapshot lost")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    saved = exported(data, "1")
    kinds = [a["type"] for a in saved["actions"]]
    assert kinds == ["clue", "guess", "stop", "cover", "clue", "guess"]
    assert saved["_result"] == "lost"
    covering = Image.open(snaps / "covering-shared.png").tobytes()
    covered = Image.open(snaps / "covered-shared.png").tobytes()
    assert covering != covered


def test_app_classic_penalty_from_pause_menu(tmp_path: Path) -> None:
    record = _record("classic", "standard", 8)
    start = record["start"]
    other = "B" if start == "R" else "R"
    t = Table()
    t.add("press A.ok", "press A.ok", "type A \\n")  # a spoken clue, 1
    t.add("hold menu 100", "press A.down", "press A.down", "press A.ok", "snapshot after")  # pause: penalty
    code, _snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    last = exported(data, "1")["actions"][-1]
    assert last["type"] == "penalty" and last["team"] == start
    assert record["key"][last["cover"]] == other
