"""Helpers for tests that play the box through ``duetbox run --hardware mock --script``.

``Table`` writes script lines the way players would act: a clue given on the OLED with the joystick, a card
reached with the joystick (seat B's joystick is reversed: it sits across the table) and touched by holding
OK.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from device.commands import run as run_command  # noqa: E402
from device.screens.play import START_CURSORS  # noqa: E402
from engine.keycard import random_key  # noqa: E402

WORDS = ["apple", "bridge", "castle", "dragon", "engine", "forest", "garden", "harbor", "island", "jungle",
         "kettle", "ladder", "magnet", "needle", "orange", "pirate", "rocket", "saddle", "temple", "umbrella",
         "violin", "walnut", "yogurt", "zipper", "anchor"]


def make_record(seed: int = 7, *, tokens: int = 9, mistakes: int | None = None,
                mission: str | None = None, actions: list[dict[str, Any]] | None = None,
                language: str = "en") -> dict[str, Any]:
    key = random_key(random.Random(seed))
    record: dict[str, Any] = {"format": "duetbox-record/1", "mode": "duet", "language": language,
                              "words": list(WORDS), "key": {"A": key.a, "B": key.b},
                              "rules": {"tokens": tokens,
                                        "mistakes": tokens if mistakes is None else mistakes,
                                        "clues": "strict", "several_clues": False},
                              "actions": list(actions or [])}
    if mission:
        record["mission"] = mission
        del record["rules"]["tokens"], record["rules"]["mistakes"]
    return record


def cards(record: dict[str, Any], side: str, kind: str) -> list[int]:
    """Cards whose identity on ``side`` ("A"/"B") is ``kind`` (G/N/X)."""
    return [i for i, c in enumerate(record["key"][side]) if c == kind]


class Table:
    """Builds a script; tracks each seat's grid cursor (from where the play screen starts it)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.cursor = dict(START_CURSORS)

    def add(self, *lines: str) -> Table:
        self.lines.extend(lines)
        return self

    def clue(self, seat: str, number: int, word: str | None = None) -> Table:
        self.add(f"press {seat}.ok")  # open clue entry on this seat's OLED
        self.add(*[f"press {seat}.up"] * (number - 1) if number >= 1 else [f"press {seat}.down"])
        self.add(f"press {seat}.ok")  # number chosen: the word step
        if word:
            self.add(f"type {seat} {word}", f"press {seat}.ok")
        else:
            self.add(f"type {seat} \\n")  # no word: a spoken clue
        return self

    def move(self, seat: str, card: int) -> Table:
        r0, c0 = divmod(self.cursor[seat], 5)
        r1, c1 = divmod(card, 5)
        flip = seat == "B"
        dr, dc = r1 - r0, c1 - c0
        vertical = ("down" if (dr > 0) != flip else "up") if dr else None
        horizontal = ("right" if (dc > 0) != flip else "left") if dc else None
        if vertical:
            self.add(*[f"press {seat}.{vertical}"] * abs(dr))
        if horizontal:
            self.add(*[f"press {seat}.{horizontal}"] * abs(dc))
        self.cursor[seat] = card
        return self

    def guess(self, seat: str, card: int) -> Table:
        self.move(seat, card)
        return self.add(f"hold {seat}.ok 700")

    def stop(self, seat: str) -> Table:
        return self.add(f"hold {seat}.stop 700")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def run_box(tmp: Path, script: str | Table, *, record: dict[str, Any] | None = None, seed: int = 1,
            data: Path | None = None, extra: list[str] | None = None) -> tuple[int, Path, Path]:
    """Run the box in-process on the mock backend. Returns (exit code, snapshots dir, data dir)."""
    text = script.text() if isinstance(script, Table) else script
    tmp.mkdir(parents=True, exist_ok=True)
    n = len(list(tmp.glob("script-*.txt")))
    script_file = tmp / f"script-{n}.txt"
    script_file.write_text(text)
    snaps = tmp / "snaps"
    data = data or tmp / "data"
    argv = ["--hardware", "mock", "--script", str(script_file), "--snapshots", str(snaps), "--data-dir",
            str(data), "--seed", str(seed)]
    if record is not None:
        record_file = tmp / f"record-{n}.json"
        record_file.write_text(json.dumps(record))
        argv += ["--start", str(record_file)]
    code = run_command.main(argv + list(extra or []))
    return code, snaps, data


def exported(data: Path, game: str = "current") -> dict[str, Any]:
    from device.storage import Storage

    storage = Storage(data)
    try:
        row = storage.current_game() or storage.last_game() if game == "current" else storage.game(int(game))
        assert row is not None
        return dict(row.setup, actions=storage.actions(row.id), _status=row.status, _result=row.result,
                    _score=row.score)
    finally:
        storage.close()


def replayed(record: dict[str, Any]) -> dict[str, Any]:
    from engine.record import replay, summary

    clean = {k: v for k, v in record.items() if not k.startswith("_")}
    return summary(replay(clean))


def mock_app(tmp: Path, *, seed: int = 5, language: str | None = None) -> Any:
    """The real app on the mock box with a fresh data directory under ``tmp`` (``language`` set when given);
    the caller shuts it down."""
    from device.app import App
    from device.storage import Storage
    from hardware.factory import open_box

    storage = Storage(tmp / "data")
    if language is not None:
        storage.set_setting("language", language)
    return App(open_box("mock"), storage, seed=seed)


def step(app: Any, *events: str, advance: float = 0.0) -> None:
    """Press or release buttons ("press A.ok", "release B.stop"), run the loop once, then (``advance`` s later)
    once more."""
    for name in events:
        kind, button = name.split(" ")
        (app.box.press if kind == "press" else app.box.release)(button)
    app.step(0)
    if advance:
        app.box.advance(advance)
        app.step(0)
