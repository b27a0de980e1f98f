"""Bad input that escaped the first hostile-file suite (issue 26): a picture deck whose LICENSE cannot be read, a
clue word of most of a megabyte in a record, a script's `wait` of a huge number, rules named by something else
than strings. Each: one line on stderr, exit 2, in bounded time (never a traceback, never a hang)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers_reliability import ROOT, child_env, duetbox, one_line_error

from common.userfiles import DECK_LIMIT
from device.cli import main as cli
from engine.actions import MAX_CLUE_LENGTH
from engine.errors import BadRecord
from engine.pictures_deck import deck_directory
from engine.record import replay
from engine.session import SetupError, session_from_record

RECORD = ROOT / "docs" / "scripts" / "records" / "duet.json"


def _big(path: Path) -> None:
    with path.open("wb") as fh:
        fh.write(b"licence\n")
        fh.truncate(DECK_LIMIT + 1)


def _loop(path: Path) -> None:
    other = path.with_name("LICENSE.other")
    path.symlink_to(other)
    other.symlink_to(path)


LICENCES: dict[str, Callable[[Path], None]] = {
    "too_large": _big,
    "directory": lambda p: p.mkdir(),
    "device": lambda p: p.symlink_to("/dev/zero"),
    "symlink_loop": _loop,
    "dangling_link": lambda p: p.symlink_to(p.with_name("gone")),
}


@pytest.mark.parametrize("kind", sorted(LICENCES))
def test_bad_deck_licence_is_one_line_exit_2(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "deck"
    shutil.copytree(Path(str(deck_directory())), deck)
    (deck / "LICENSE").unlink()
    LICENCES[kind](deck / "LICENSE")
    started = time.monotonic()
    assert cli(["pictures", "check", str(deck)]) == 2
    assert time.monotonic() - started < 30
    line = one_line_error(capsys.readouterr().err)
    assert line.startswith("duetbox pictures: ") and "LICENSE" in line


def test_bad_deck_missing_licence_is_a_problem_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "deck"
    shutil.copytree(Path(str(deck_directory())), deck)
    (deck / "LICENSE").unlink()
    assert cli(["pictures", "check", str(deck)]) == 1
    assert "LICENSE: missing" in capsys.readouterr().out


def _record_with_clue(word: str) -> dict[str, Any]:
    record = json.loads(RECORD.read_text("utf-8"))
    record["actions"] = [{"type": "clue", "seat": "A", "word": word, "number": 2}]
    return record


def test_bad_record_clue_word_of_most_of_a_megabyte_is_refused_by_replay_and_run_start(tmp_path: Path) -> None:
    path = tmp_path / "clue.json"
    path.write_text(json.dumps(_record_with_clue("a" * 900_000)), "utf-8")  # under the 1 MiB record limit
    assert path.stat().st_size < 1 << 20
    started = time.monotonic()
    got = duetbox("replay", str(path), timeout=60)
    assert got.returncode == 2
    assert "at most 64" in one_line_error(got.stderr)
    script = tmp_path / "s.txt"
    script.write_text("wait 100\n", "utf-8")
    got = duetbox("run", "--hardware", "mock", "--start", str(path), "--script", str(script), "--data-dir",
                  str(tmp_path / "data"), timeout=60)
    assert got.returncode == 2
    assert "at most 64" in one_line_error(got.stderr)
    assert time.monotonic() - started < 60  # replay took ~14 s and run --start hung before


def test_bad_record_clue_word_of_several_megabytes_on_stdin_is_refused(tmp_path: Path) -> None:
    text = json.dumps(_record_with_clue("a" * 3_000_000))
    got = subprocess.run([sys.executable, "-m", "device.cli", "replay", "-"], input=text, cwd=ROOT,
                         env=child_env(), capture_output=True, text=True, timeout=60)
    assert got.returncode == 2
    one_line_error(got.stderr)


def test_bad_record_clue_word_limit_is_the_engines_and_the_longest_word_passes() -> None:
    word = "Donaudampfschifffahrtsgesellschaftskapitän"  # 42 letters: a real German word, under the limit
    assert len(word) <= MAX_CLUE_LENGTH
    record = _record_with_clue(word)
    record["language"] = "de"
    replay(record)  # accepted (refused by the clue checker at most: not a length problem)
    with pytest.raises(BadRecord, match="at most 64"):
        replay(_record_with_clue("b" * (MAX_CLUE_LENGTH + 1)))


def test_bad_record_clue_word_too_long_is_refused_by_the_engine_itself() -> None:
    from engine.actions import Clue
    from engine.errors import IllegalAction

    session, _ = session_from_record(json.loads(RECORD.read_text("utf-8")))
    with pytest.raises(IllegalAction, match="at most 64"):
        session.apply(Clue("A", "x" * 10_000, 2, override=True), session.version)


@pytest.mark.parametrize("number", ["9" * 27, "9" * 5000, "86400001"])
def test_bad_script_wait_of_a_huge_number_is_one_line_exit_2(number: str, tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"press A.ok\nwait {number}\n", "utf-8")
    got = duetbox("run", "--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path / "d"),
                  timeout=60)
    assert got.returncode == 2
    line = one_line_error(got.stderr)
    assert "s.txt:2" in line and "more than a day" in line and len(line) < 300


def test_bad_script_a_day_long_wait_ends_in_bounded_time(tmp_path: Path) -> None:
    """The longest wait a script may ask for, on the attract screen (animated: a deadline every frame), is cut
    at a bounded number of loop steps (it ran for minutes)."""
    script = tmp_path / "s.txt"
    script.write_text("wait 86400000\nhold A.ok 86400000\n", "utf-8")
    got = duetbox("run", "--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path / "d"),
                  timeout=120)
    assert got.returncode == 0, got.stderr[-500:]


@pytest.mark.parametrize("rules", [{1: 9}, {1: 9, "tokens": 9}, {None: True}, {("a",): 1}],
                         ids=["int", "int-and-str", "none", "tuple"])
@pytest.mark.parametrize("mode", ["duet", "classic"])
def test_bad_record_rules_with_non_string_keys_are_refused(rules: dict[Any, Any], mode: str) -> None:
    """A record handed over as an object (the remote link, a caller of the engine), not parsed from JSON: rule
    names that are not strings are a BadRecord, never a TypeError from sorting them or an accepted record."""
    record = json.loads(RECORD.read_text("utf-8")) if mode == "duet" else _classic_record()
    record["rules"] = rules
    with pytest.raises(BadRecord, match="string"):
        replay(record)
    with pytest.raises(SetupError):
        session_from_record(record)


def _classic_record() -> dict[str, Any]:
    import random

    from engine.session import ClassicSession

    words = tuple(json.loads(RECORD.read_text("utf-8"))["words"])
    session = ClassicSession.create("classic", words, random.Random(1), language="fr")
    return dict(session.setup, actions=[])
