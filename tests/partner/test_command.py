from __future__ import annotations

from pathlib import Path

import pytest

from device.commands import partner as command


def test_command_eval_without_a_build_is_one_line_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = command.main(["eval", "--giver", "spacy", "--guesser", "spacy", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1 and "not built" in err


def test_command_rejects_unknown_space_and_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert command.main(["eval", "--giver", "word2vec", "--guesser", "spacy", "--data-dir", str(tmp_path)]) == 2
    assert "unknown space" in capsys.readouterr().err
    assert command.main(["eval", "--giver", "spacy"]) == 2
    assert command.main([]) == 2


def test_command_build_refuses_a_language_without_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert command.main(["build", "--lang", "ro", "--data-dir", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no word-vector model" in err


def test_command_eval_setups_need_a_build_and_check_their_flags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = command.main(["eval", "--setup", "solo", "--data-dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "not built" in err
    assert command.main(["eval", "--setup", "clues", "--noise", "-1", "--data-dir", str(tmp_path)]) == 2
    assert "--noise" in capsys.readouterr().err
    assert command.main(["eval", "--setup", "duo"]) == 2
    assert command.main(["eval"]) == 2  # neither a setup nor spaces
    assert "--setup" in capsys.readouterr().err
    assert command.main(["eval", "--setup", "solo", "--set", "nonsense=1", "--data-dir", str(tmp_path)]) in (1, 2)


def test_command_play_refuses_bad_arguments_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from device.commands import partner as command

    assert command.main(["play", "--lang", "ro", "--data-dir", str(tmp_path)]) == 2
    assert command.main(["play", "--tokens", "12", "--data-dir", str(tmp_path)]) == 2
    assert command.main(["play", "--lang", "fr", "--data-dir", str(tmp_path)]) == 1  # not built here
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("duetbox partner:") for line in err)
