"""A game saved by the box's code before the restructure of issue 12 (tests/data/saved_main/) still resumes: same
move, same screen state, and the same pixels as that code drew right after resuming it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from boxscript import run_box
from PIL import Image

from device.storage import Storage

SAVED = Path(__file__).resolve().parents[1] / "data" / "saved_main"


def _data(tmp: Path, name: str) -> Path:
    data = tmp / "data"
    data.mkdir(parents=True)
    shutil.copy(SAVED / f"{name}.db", data / "duetbox.db")
    return data


@pytest.mark.parametrize("name", ["duet", "entry", "classic", "hotseat"])
def test_saved_main_game_resumes_with_the_same_pixels(tmp_path: Path, name: str) -> None:
    code, snaps, data = run_box(tmp_path, "snapshot resumed\n", data=_data(tmp_path, name))
    assert code == 0
    for part in ("shared", "oled-A", "oled-B"):
        now = Image.open(snaps / f"resumed-{part}.png")
        then = Image.open(SAVED / f"{name}-{part}.png")
        assert now.size == then.size and now.tobytes() == then.tobytes(), f"{name} {part}"


def test_saved_main_duet_resumes_where_it_stood(tmp_path: Path) -> None:
    # the saved game: A gave a spoken clue of 2, B found one green, then A's cursor went to 7 and B's to 3
    code, _, data = run_box(tmp_path, "press B.up\nwait 100\n", data=_data(tmp_path, "duet"))
    assert code == 0
    storage = Storage(data)
    try:
        row = storage.current_game()
        assert row is not None and row.status == "playing"
        actions = storage.actions(row.id)
        assert [a["type"] for a in actions] == ["clue", "guess"]
        ui = storage.load_ui(row.id)
        assert ui is not None and ui["screen"] == "play"
        # B's joystick is reversed (it sits across the table): up moves B's cursor one row down, from 3 to 8
        assert ui["cursors"] == {"A": 7, "B": 8}
        assert storage.settings()["brightness"] == 0.8
    finally:
        storage.close()


def test_saved_main_classic_resumes_and_plays_on(tmp_path: Path) -> None:
    # the saved classic game: one accepted clue ZEBRA 2; the guessers' cursor on card 6, whose colour is known
    code, _, data = run_box(tmp_path, "hold B.ok 700\nwait 100\n", data=_data(tmp_path, "classic"))
    assert code == 0
    storage = Storage(data)
    try:
        row = storage.current_game()
        assert row is not None
        actions = storage.actions(row.id)
        assert actions[0]["type"] == "clue" and actions[0]["word"] == "ZEBRA"
        assert actions[1] == {"type": "guess", "team": actions[0]["team"], "card": 6}
    finally:
        storage.close()
