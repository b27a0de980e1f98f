"""Whole games played through ``duetbox run --hardware mock --script`` (the scripted-run contract)."""

from __future__ import annotations

from pathlib import Path

from boxscript import Table, cards, exported, make_record, replayed, run_box
from PIL import Image


def _greens_left_for(record: dict, side: str, found: set[int]) -> list[int]:
    return [c for c in cards(record, side, "G") if c not in found]


def test_app_duet_win_with_score(tmp_path: Path) -> None:
    record = make_record(7)
    a_greens = cards(record, "A", "G")
    t = Table().add("snapshot start")
    t.clue("A", 9, "fruit")
    for card in a_greens:
        t.guess("B", card)
    t.stop("B")
    rest = _greens_left_for(record, "B", set(a_greens))
    t.clue("B", len(rest))
    for card in rest:
        t.guess("A", card)
    t.add("snapshot over")
    t.add("press A.ok", "press B.ok", "snapshot keys")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    saved = exported(data, "1")
    summary = replayed(saved)
    assert summary["status"] == "won" and summary["error"] is None
    assert saved["_result"] == "won"
    # 2 turns used (a stop and the winning turn): bank 7, 2 tokens taken
    assert summary["score"] == 3 * 7 + 2 == saved["_score"]
    assert (snaps / "keys-shared.png").exists()
    over = Image.open(snaps / "over-shared.png")
    keys = Image.open(snaps / "keys-shared.png")
    assert over.tobytes() != keys.tobytes()  # both seats confirmed: the keys appear


def test_app_assassin_loss(tmp_path: Path) -> None:
    record = make_record(8)
    assassin = cards(record, "A", "X")[0]
    t = Table().clue("A", 2).guess("B", assassin).add("snapshot lost")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    summary = replayed(exported(data, "1"))
    assert summary["status"] == "lost" and summary["reason"] == "assassin"
    assert (snaps / "lost-oled-B.png").exists()


def test_app_refused_clue_accepted_anyway(tmp_path: Path) -> None:
    record = make_record(9)
    t = Table()
    t.add("press A.ok", "press A.ok", f"type A {record['words'][3]}", "press A.ok", "snapshot refused")
    t.add("press A.right", "press A.ok")  # "accept anyway" is the other choice: "change the clue" is preselected
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    actions = exported(data, "1")["actions"]
    word = record["words"][3]
    assert actions == [{"type": "clue", "seat": "A", "word": word, "number": 1, "override": True}]


def test_app_mission_two_token_mistake(tmp_path: Path) -> None:
    # Berlin: 11 turns, 2 innocent-face tokens; the third mistake costs two case-closed ones.
    record = make_record(10, mission="Berlin")
    a_bystanders = cards(record, "A", "N")
    b_bystanders = cards(record, "B", "N")
    t = Table()
    t.clue("A", 1).guess("B", a_bystanders[0])
    t.clue("B", 1).guess("A", b_bystanders[0])
    t.clue("A", 1).guess("B", a_bystanders[1])
    t.add("snapshot double")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    summary = replayed(exported(data, "1"))
    assert summary["error"] is None
    assert summary["tokens_left"] == 11 - 2 - 2
    assert summary["mistakes_left"] == 0


def test_app_sudden_death_win(tmp_path: Path) -> None:
    record = make_record(11, tokens=2)
    t = Table()
    t.clue("A", 1).guess("B", cards(record, "A", "N")[0])
    t.clue("B", 1).guess("A", cards(record, "B", "N")[0])
    t.add("snapshot sudden")
    found: set[int] = set()
    for card in cards(record, "A", "G"):  # B finds A's greens
        t.guess("B", card)
        found.add(card)
    for card in _greens_left_for(record, "B", found):  # A finds the rest of B's
        t.guess("A", card)
    t.add("snapshot won")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    summary = replayed(exported(data, "1"))
    assert summary["status"] == "won" and summary["error"] is None
    sudden = Image.open(snaps / "sudden-shared.png")
    assert sudden.size == (1280, 720)


def test_app_hotseat_game_by_touch(tmp_path: Path) -> None:
    # menu: Duet, missions, classic, pictures, duet with pictures, hot-seat
    t = Table().add("press A.down", "press A.down", "press A.down", "press A.down", "press A.down",
                    "press A.ok", "press A.ok", "snapshot privacy",
                    "down A.ok", "wait 700", "snapshot key", "release A.ok", "snapshot hidden",
                    "type A 2", "type A \\n", "type A \\n", "snapshot clue")
    code, snaps, data = run_box(tmp_path, t, seed=3)
    assert code == 0
    record = exported(data)
    assert record["actions"] == [{"type": "clue", "seat": "A", "word": None, "number": 2}]
    privacy = Image.open(snaps / "privacy-shared.png").tobytes()
    key = Image.open(snaps / "key-shared.png").tobytes()
    hidden = Image.open(snaps / "hidden-shared.png").tobytes()
    assert privacy != key and hidden != key
    # B chooses a card by touching it, then guesses it by holding a finger on it (a tap never guesses)
    green = cards(record, "A", "G")[0]
    code, snaps, data = run_box(tmp_path, f"touch {green}\ntouch {green}\nwait 2000\nsnapshot chosen\n",
                                data=data)
    assert code == 0
    assert exported(data)["actions"][-1]["type"] == "clue"
    code, snaps, data = run_box(tmp_path, f"touch {green}\ntouch {green} 700\nsnapshot guessed\n", data=data)
    assert code == 0
    assert exported(data)["actions"][-1] == {"type": "guess", "seat": "B", "card": green}


def test_app_mission_campaign_win_ticks_the_city(tmp_path: Path) -> None:
    from device.storage import Storage

    # menu: Duet, missions; a new team sheet named with a keyboard; the map starts on Prague
    first = "press A.down\npress A.ok\npress A.ok\ntype A les as\\n\nsnapshot map\npress A.ok\nsnapshot mission\n"
    code, snaps, data = run_box(tmp_path, first, seed=12)
    assert code == 0
    record = exported(data)
    assert record["mission"] == "Prague"
    a_greens = cards(record, "A", "G")
    t = Table()
    t.clue("A", 9)
    for card in a_greens:
        t.guess("B", card)
    t.stop("B")
    rest = _greens_left_for(record, "B", set(a_greens))
    t.clue("B", len(rest))
    for card in rest:
        t.guess("A", card)
    t.add("press A.ok", "press B.ok", "press A.ok", "snapshot after")
    code, snaps, data = run_box(tmp_path, t, data=data)
    assert code == 0
    storage = Storage(data)
    try:
        assert storage.sheets() == [(1, "LES AS")]
        assert storage.mission_log(1) == [("Prague", True)]
    finally:
        storage.close()
    before = Image.open(snaps / "map-shared.png").tobytes()
    after = Image.open(snaps / "after-shared.png").tobytes()
    assert before != after  # back on the map, Prague now ticked


def test_app_hotseat_touch_and_keyboard_only(tmp_path: Path) -> None:
    # hot-seat from the menu, then nothing but touches (a finger held to see the key) and keyboard text
    t = Table().add(*["press A.down"] * 5, "press A.ok", "press A.ok", "snapshot privacy",
                    "touch 0 700", "snapshot hidden", "type - 3\\n\\n")
    code, snaps, data = run_box(tmp_path, t, seed=4)
    assert code == 0
    record = exported(data)
    assert record["actions"] == [{"type": "clue", "seat": "A", "word": None, "number": 3}]
    # a finger held 0.7 s showed the key and, lifted, opened the entry: the display shows the entry, not the key
    assert Image.open(snaps / "hidden-shared.png").tobytes() != Image.open(snaps / "privacy-shared.png").tobytes()


def test_app_hotseat_whole_game(tmp_path: Path) -> None:
    # a hot-seat game from the menu; its key is read back from the saved game to script the rest
    code, _snaps, data = run_box(tmp_path, "\n".join(["press A.down"] * 5 + ["press A.ok", "press A.ok"]) + "\n",
                                 seed=61)
    assert code == 0
    record = exported(data)
    t = Table().add("touch 0 700", "type - 9\\n\\n")  # seat A holds a finger to see its key, gives "9"
    a_greens = cards(record, "A", "G")
    for card in a_greens:
        t.add(f"touch {card}", f"touch {card} 700")  # B chooses each card by touch, then holds a finger on it
    t.stop("B")
    rest = _greens_left_for(record, "B", set(a_greens))
    t.add("down B.ok", "wait 700", "release B.ok", f"type - {len(rest)}\\n\\n")  # B holds OK for its key
    for card in rest:
        t.add(f"touch {card}", f"touch {card} 700")
    t.add("snapshot over", "touch 0", "touch 0", "snapshot keys")
    code, snaps, data = run_box(tmp_path, t, data=data)
    assert code == 0
    saved = exported(data)
    assert replayed(saved)["status"] == "won" and saved["_score"] == 3 * 7 + 2
    over = Image.open(snaps / "over-shared.png").tobytes()
    assert over != Image.open(snaps / "keys-shared.png").tobytes()
