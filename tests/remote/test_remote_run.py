"""`duetbox run --remote host|join`: the command line of two boxes on one desktop (here on the mock backend)."""

from __future__ import annotations

from pathlib import Path

import pytest
from remotebox import Broker

from device.commands import run as run_command
from device.remote.pairing import ALPHABET
from device.storage import Storage


def _config(tmp_path: Path, broker: Broker) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(f'[remote]\nhost = "127.0.0.1"\nport = {broker.port}\n', encoding="utf-8")
    return path


def test_run_remote_host_offers_a_game_and_prints_its_code(tmp_path: Path, broker: Broker,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("wait 200\n", encoding="utf-8")
    data = tmp_path / "data"
    code = run_command.main(["--hardware", "mock", "--remote", "host", "--config", str(_config(tmp_path, broker)),
                             "--data-dir", str(data), "--script", str(script), "--seed", "3"])
    assert code == 0
    out = capsys.readouterr().out
    assert "remote game code: " in out
    printed = out.split("remote game code: ")[1].split()[0]
    assert len(printed) == 6 and set(printed) <= set(ALPHABET)
    storage = Storage(data)
    try:  # no partner came: nothing was dealt (the card is drawn when the guest's box is there)
        assert storage.current_game() is None
    finally:
        storage.close()


def test_run_remote_join_with_a_bad_code_is_one_line_and_exit_2(tmp_path: Path, broker: Broker,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "script.txt"
    script.write_text("wait 10\n", encoding="utf-8")
    code = run_command.main(["--hardware", "mock", "--remote", "join", "--code", "HELLO1",
                             "--config", str(_config(tmp_path, broker)), "--data-dir", str(tmp_path / "d"),
                             "--script", str(script)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--code" in err[0] and "Traceback" not in err[0]
