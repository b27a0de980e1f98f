"""A restarted box shows the same screen and the same step of the clue entry (Duet, classic, game over)."""

from __future__ import annotations

from pathlib import Path

import pytest
from boxscript import Table, cards, make_record, run_box
from PIL import Image
from test_app_classic import _record


def _same(snaps: Path, a: str, b: str) -> None:
    for part in ("shared", "oled-A", "oled-B"):
        first, second = Image.open(snaps / f"{a}-{part}.png"), Image.open(snaps / f"{b}-{part}.png")
        assert first.tobytes() == second.tobytes(), part


@pytest.mark.parametrize("steps", [
    ["press A.ok", "press A.up", "press A.up"],  # the number picker at 3
    ["press A.ok", "press A.ok", "press A.right", "press A.ok", "press A.right"],  # letter picker, a letter typed
    ["press A.ok", "press A.ok", "type A apple", "press A.ok"],  # the checker's refusal with its choice
])
def test_app_resume_duet_clue_entry_step(tmp_path: Path, steps: list[str]) -> None:
    record = make_record(51)
    code, snaps, data = run_box(tmp_path, "\n".join([*steps, "snapshot before"]) + "\n", record=record)
    assert code == 0
    code, snaps, data = run_box(tmp_path, "snapshot after\n", data=data)
    assert code == 0
    _same(snaps, "before", "after")


def test_app_resume_classic_entry(tmp_path: Path) -> None:
    record = _record("classic", "standard", 9)
    code, snaps, data = run_box(tmp_path, "press A.ok\npress A.up\npress B.right\nsnapshot before\n", record=record)
    assert code == 0
    code, snaps, data = run_box(tmp_path, "snapshot after\n", data=data)
    assert code == 0
    _same(snaps, "before", "after")


def test_app_resume_guess_cursor_and_continue(tmp_path: Path) -> None:
    record = make_record(52)
    greens = cards(record, "A", "G")
    t = Table().clue("A", 2)
    t.move("B", greens[0])
    t.add("snapshot before")
    code, snaps, data = run_box(tmp_path, t, record=record)
    assert code == 0
    code, snaps, data = run_box(tmp_path, "snapshot after\nhold B.ok 700\nsnapshot guessed\n", data=data)
    assert code == 0
    _same(snaps, "before", "after")
    from boxscript import exported

    assert exported(data)["actions"][-1] == {"type": "guess", "seat": "B", "card": greens[0]}
