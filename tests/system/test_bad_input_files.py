"""Bad input, the classes an attacker or a careless guest tries on every file-reading command: deep nesting,
huge integers, a FIFO, /dev/zero, a symlink loop, an oversized file, a NUL byte, an over-long name, absurd numbers
on the command line, a 100,000-letter clue and a 6-million-word pack. Each ends in one clear line (or the checker's
own problem lines) and a non-zero exit: never a traceback, never a hang, never unbounded memory."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers_reliability import duetbox, one_line_error

from common.userfiles import MAX_DEPTH, PACK_LIMIT, RECORD_LIMIT, UnreadableFile, loads_json, read_text
from device.cli import main as cli
from device.render.text import ellipsize, fit_size
from engine.pictures_deck import deck_directory

DEEP = 100_000  # far past Python's recursion limit


def deep_json() -> str:
    return "[" * DEEP + "]" * DEEP


def deep_toml() -> str:
    return "[display]\nwidth = " + "[" * DEEP + "]" * DEEP + "\n"


def huge_int_json() -> str:
    return '{"format": "duetbox-record/1", "seed": ' + "9" * 5000 + "}"


def huge_int_toml() -> str:
    return "[ring]\ncount = " + "9" * 5000 + "\n"


def make_fifo(tmp: Path, name: str) -> Path:
    path = tmp / name
    os.mkfifo(path)
    return path


def make_loop(tmp: Path, name: str) -> Path:
    path = tmp / name
    other = tmp / (name + ".other")
    path.symlink_to(other)
    other.symlink_to(path)
    return path


def make_big(tmp: Path, name: str, size: int, head: bytes = b"") -> Path:
    path = tmp / name
    with path.open("wb") as fh:
        fh.write(head)
        fh.truncate(size)  # sparse: big on paper, nothing on the disk
    return path


def write(tmp: Path, name: str, text: str) -> Path:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return path


#: Every kind of bad file, built in a temporary folder (name, builder).
FILES: dict[str, Callable[[Path, str], Path]] = {
    "fifo": make_fifo,
    "dev_zero": lambda tmp, name: Path("/dev/zero"),
    "symlink_loop": make_loop,
    "oversized": lambda tmp, name: make_big(tmp, name, 64 << 20, b"{"),
    "deep_json": lambda tmp, name: write(tmp, name, deep_json()),
    "huge_int_json": lambda tmp, name: write(tmp, name, huge_int_json()),
}
TOML_FILES: dict[str, Callable[[Path, str], Path]] = {
    "fifo": make_fifo,
    "dev_zero": lambda tmp, name: Path("/dev/zero"),
    "symlink_loop": make_loop,
    "oversized": lambda tmp, name: make_big(tmp, name, 64 << 20, b"[display]\n"),
    "deep_toml": lambda tmp, name: write(tmp, name, deep_toml()),
    "huge_int_toml": lambda tmp, name: write(tmp, name, huge_int_toml()),
}


@pytest.fixture
def ok_script(tmp_path: Path) -> Path:
    return write(tmp_path, "ok.txt", "press A.ok\n")


@pytest.mark.parametrize("kind", sorted(FILES))
def test_bad_file_replay_one_line_exit_2(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = FILES[kind](tmp_path, "record.json")
    assert cli(["replay", str(path)]) == 2
    assert one_line_error(capsys.readouterr().err).startswith("duetbox replay: ")


@pytest.mark.parametrize("kind", sorted(FILES))
def test_bad_file_run_start_one_line_exit_2(kind: str, tmp_path: Path, ok_script: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = FILES[kind](tmp_path, "record.json")
    code = cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(tmp_path / "d"),
                "--start", str(path)])
    assert code == 2
    assert one_line_error(capsys.readouterr().err).startswith("duetbox run: ")


@pytest.mark.parametrize("kind", sorted(FILES))
def test_bad_file_run_script_one_line_exit_2(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = FILES[kind](tmp_path, "script.txt")
    code = cli(["run", "--hardware", "mock", "--script", str(path), "--data-dir", str(tmp_path / "d")])
    assert code == 2
    one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("kind", sorted(TOML_FILES))
def test_bad_file_run_config_one_line_exit_2(kind: str, tmp_path: Path, ok_script: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = TOML_FILES[kind](tmp_path, "config.toml")
    code = cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(tmp_path / "d"),
                "--config", str(path)])
    assert code == 2
    one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("kind", sorted(TOML_FILES))
def test_bad_file_hw_test_config_one_line_exit_2(kind: str, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = TOML_FILES[kind](tmp_path, "config.toml")
    assert cli(["hw-test", "--hardware", "mock", "--config", str(path), "--seconds", "0"]) == 2
    one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("kind", sorted(TOML_FILES))
def test_bad_file_config_check_one_problem_line_exit_1(kind: str, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # `duetbox config check` lists problems on stdout and exits 1 (its documented contract), never a traceback
    path = TOML_FILES[kind](tmp_path, "config.toml")
    assert cli(["config", "check", str(path)]) == 1
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 1 and out.out.startswith(f"{path}: ")
    assert "Traceback" not in out.err


@pytest.mark.parametrize("kind", ["fifo", "symlink_loop", "oversized", "deep_json", "huge_int_json"])
def test_bad_file_picture_deck_json_is_a_problem_line(kind: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    deck = tmp_path / "deck"
    shutil.copytree(Path(str(deck_directory())), deck)
    (deck / "deck.json").unlink()
    FILES[kind](deck, "deck.json")
    assert cli(["pictures", "check", str(deck)]) == 1
    out = capsys.readouterr()
    assert any(line.startswith("deck.json: unreadable") for line in out.out.splitlines()), out.out
    assert "Traceback" not in out.err


@pytest.mark.parametrize("kind", ["fifo", "dev_zero", "symlink_loop"])
def test_bad_file_word_pack_one_line_exit_2(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = FILES[kind](tmp_path, "pack.txt")
    assert cli(["words", "check", str(path)]) == 2
    one_line_error(capsys.readouterr().err)


def test_bad_file_six_million_word_pack_is_refused_by_size(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    # 6,000,000 words of about 8 letters: ~54 MB. Refused on its size before a word is read (bounded memory).
    path = make_big(tmp_path, "huge.txt", 6_000_000 * 9, b"# language: fr\n")
    assert cli(["words", "check", str(path)]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert "2 MiB" in line and str(path) in line


def test_bad_file_pack_limit_leaves_room_for_big_real_packs() -> None:
    assert PACK_LIMIT >= 100_000 * 10  # 100,000 words of 9 letters and a newline


def test_bad_file_script_with_a_nul_byte_and_a_long_snapshot_name(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("press A.ok\nsnapshot a\x00b\n", "snapshot " + "x" * 300 + "\n", "snapshot ../up\n"):
        script = write(tmp_path, "s.txt", text)
        code = cli(["run", "--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path / "d"),
                    "--snapshots", str(tmp_path / "snaps")])
        assert code == 2, text[:20]
        assert "s.txt:" in one_line_error(capsys.readouterr().err)


def test_bad_file_snapshot_folder_not_writable_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = write(tmp_path, "file", "x")  # a file where the snapshot folder should be
    script = write(tmp_path, "s.txt", "snapshot one\n")
    code = cli(["run", "--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path / "d"),
                "--snapshots", str(blocker / "sub")])
    assert code == 2
    assert "snapshot" in one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("argv", [
    ["--pace", "-5"], ["--pace", "1e20"], ["--pace", "1" + "0" * 30], ["--pace", "99999999"],
    ["--seed", "-1"], ["--seed", "9" * 5000], ["--seed", "1e3"],
])
def test_bad_file_absurd_run_numbers_are_one_line(argv: list[str], tmp_path: Path, ok_script: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code = cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(tmp_path), *argv])
    assert code == 2
    assert argv[0] in one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("game", ["99999999999999999999", "9" * 5000, "-3", "1.5"])
def test_bad_file_export_absurd_game_number_is_one_line(game: str, tmp_path: Path, ok_script: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert cli(["export", "--data-dir", str(tmp_path), "--game", game]) == 2
    one_line_error(capsys.readouterr().err)


def test_bad_file_replay_from_a_fifo_on_the_real_command_line_does_not_hang(tmp_path: Path) -> None:
    fifo = make_fifo(tmp_path, "pipe.json")
    got = duetbox("replay", str(fifo), timeout=30)
    assert got.returncode == 2
    assert "not a regular file" in one_line_error(got.stderr)


def test_bad_file_readers_bound_what_they_read(tmp_path: Path) -> None:
    big = make_big(tmp_path, "big.json", RECORD_LIMIT + 1)
    with pytest.raises(UnreadableFile, match="larger than 1 MiB"):
        read_text(big, RECORD_LIMIT)
    exact = make_big(tmp_path, "exact.json", RECORD_LIMIT)
    assert len(read_text(exact, RECORD_LIMIT)) == RECORD_LIMIT
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads_json(nested, "ok") == json.loads(nested)
    with pytest.raises(UnreadableFile, match="nested"):
        loads_json("[" + nested + "]", "deep")


def test_bad_file_ellipsize_a_100000_letter_word_measures_a_few_short_strings() -> None:
    calls: list[int] = []

    def measure(text: str) -> int:
        calls.append(len(text))
        return 7 * len(text)

    word = "x" * 100_000
    out = ellipsize(word, 140, measure)
    assert out == "x" * 19 + "…" and measure(out) <= 140
    assert len(calls) <= 30 and max(calls) <= 2 * 140 + 9
    # the same answer as cutting one letter at a time
    for width in (0, 7, 20, 70, 71, 300):
        slow = word[:200]
        while slow and measure(slow + "…") > width:
            slow = slow[:-1]
        assert ellipsize(word[:200], width, measure) == slow + "…"
    assert ellipsize("short", 140, measure) == "short"


def test_bad_file_fit_size_of_a_100000_letter_word_is_the_smallest() -> None:
    assert fit_size("x" * 100_000, 200, 40) == 6
