"""Non-interference at pixel level: the same public history with different hidden keys gives identical shared
display images and ring frames (only the OLEDs, which show each seat its own key side, may differ)."""

from __future__ import annotations

import json
from pathlib import Path

from boxscript import Table, cards, make_record, run_box
from PIL import Image


def _swap_hidden(record: dict, keep: set[int]) -> dict:
    """The same record with two untouched cards' key pairs swapped (still a valid key card)."""
    a, b = list(record["key"]["A"]), list(record["key"]["B"])
    free = [i for i in range(25) if i not in keep]
    for i in free:
        for j in free:
            if (a[i], b[i]) != (a[j], b[j]):
                a[i], a[j], b[i], b[j] = a[j], a[i], b[j], b[i]
                other = dict(record, key={"A": "".join(a), "B": "".join(b)})
                return other
    raise AssertionError("no two different untouched cards")


def _play(tmp: Path, record: dict, moves: list[int]) -> Path:
    t = Table().clue("A", 2, "fruit")
    t.guess("B", moves[0])
    t.add("snapshot one")
    t.move("B", moves[1])
    t.add("down B.ok", "wait 300", "snapshot holding", "release B.ok", "wait 400")
    t.guess("B", moves[1])
    t.add("snapshot two", "wait 200", "snapshot later")
    code, snaps, _ = run_box(tmp, t, record=record)
    assert code == 0
    return snaps


def test_app_secrecy_shared_and_ring_ignore_hidden_key(tmp_path: Path) -> None:
    first = make_record(41)
    greens = cards(first, "A", "G")
    bystander = cards(first, "A", "N")[0]
    moves = [greens[0], bystander]
    second = _swap_hidden(first, set(moves))
    assert second["key"] != first["key"]
    snaps1 = _play(tmp_path / "one", first, moves)
    snaps2 = _play(tmp_path / "two", second, moves)
    for name in ("one", "holding", "two", "later"):
        shared1 = Image.open(snaps1 / f"{name}-shared.png").tobytes()
        shared2 = Image.open(snaps2 / f"{name}-shared.png").tobytes()
        assert shared1 == shared2, name
        ring1 = json.loads((snaps1 / f"{name}-ring.json").read_text())
        ring2 = json.loads((snaps2 / f"{name}-ring.json").read_text())
        assert ring1 == ring2, name
    # the OLEDs do show the keys, so the two games really differ
    differs = [Image.open(snaps1 / f"one-oled-{s}.png").tobytes()
               != Image.open(snaps2 / f"one-oled-{s}.png").tobytes() for s in ("A", "B")]
    assert any(differs)


def test_app_secrecy_classic_shared_and_ring_ignore_hidden_key(tmp_path: Path) -> None:
    from test_app_classic import _record

    first = _record("classic", "standard", 12)
    key = list(first["key"])
    start = first["start"]
    guessed = key.index(start)
    free = [i for i in range(25) if i != guessed]
    i = next(i for i in free if key[i] == "N")
    j = next(j for j in free if key[j] == "X")
    key[i], key[j] = key[j], key[i]
    second = dict(first, key="".join(key))
    t = Table()
    t.cursor["B"] = 0
    t.add("press A.ok", "press A.up", "press A.ok", "type A fruit", "press A.ok")
    t.guess("B", guessed)
    t.add("snapshot one", "wait 300", "snapshot two")
    snaps = []
    for name, record in (("a", first), ("b", second)):
        code, s, _ = run_box(tmp_path / name, t, record=record)
        assert code == 0
        snaps.append(s)
    for name in ("one", "two"):
        assert (Image.open(snaps[0] / f"{name}-shared.png").tobytes()
                == Image.open(snaps[1] / f"{name}-shared.png").tobytes()), name
        assert (json.loads((snaps[0] / f"{name}-ring.json").read_text())
                == json.loads((snaps[1] / f"{name}-ring.json").read_text())), name
    # the spymasters' OLED shows the key, so it differs
    assert (Image.open(snaps[0] / "one-oled-A.png").tobytes()
            != Image.open(snaps[1] / "one-oled-A.png").tobytes())
