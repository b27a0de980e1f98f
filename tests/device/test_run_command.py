"""``duetbox run`` and ``duetbox export`` as commands: exit codes, one-line errors, the script language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from boxscript import make_record, run_box

from device.commands import export, run


@pytest.mark.parametrize("line", ["prss A.ok", "press C.ok", "press A.jump", "hold A.ok", "hold A.ok soon",
                                  "touch 25", "touch x", "type Z hello", "wait -5", "snapshot a/b", "release A.x"])
def test_run_command_bad_script_line_exits_2_naming_it(tmp_path: Path, line: str, capsys) -> None:  # type: ignore[no-untyped-def]
    code, _snaps, _data = run_box(tmp_path, f"# fine\npress A.ok\n{line}\n")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and ":3:" in err[0]


def test_run_command_script_parses_every_verb() -> None:
    ops = run.parse_script("press menu\ndown A.stop\nrelease\nrelease A.stop\nhold B.ok 700\ntouch 0\n"
                           "type A fleuve\\n\ntype - hello\nwait 250\nsnapshot x\n# c\n\n")
    assert [o.verb for o in ops] == ["press", "down", "release", "release", "hold", "touch", "type", "type",
                                     "wait", "snapshot"]
    assert ops[6].args == ("A", "fleuve\n") and ops[7].args == (None, "hello")


def test_run_command_bad_arguments_one_line(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert run.main(["--hardware", "toaster"]) == 2
    assert run.main(["--hardware", "mock", "--script", str(tmp_path / "none.txt")]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert run.main(["--hardware", "mock", "--script", str(script), "--start", str(bad),
                     "--data-dir", str(tmp_path / "d")]) == 2
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(dict(make_record(1), words=["a"] * 25)))
    assert run.main(["--hardware", "mock", "--script", str(script), "--start", str(wrong),
                     "--data-dir", str(tmp_path / "d2")]) == 2
    assert run.main(["--hardware", "mock", "--script", str(script), "--size", "12x"]) == 2
    for line in capsys.readouterr().err.strip().splitlines():
        assert line.startswith("duetbox run: ")


def test_run_command_emulator_rejects_script(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("wait 1\n")
    assert run.main(["--hardware", "emulator", "--script", str(script)]) == 2


def test_export_command_prints_the_record(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    record = make_record(2, actions=[{"type": "clue", "seat": "B", "word": None, "number": 3}])
    code, _snaps, data = run_box(tmp_path, "wait 10\n", record=record)
    assert code == 0
    capsys.readouterr()
    assert export.main(["--data-dir", str(data)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["actions"] == record["actions"] and printed["key"] == record["key"]
    assert export.main(["--data-dir", str(data), "--game", "1"]) == 0
    capsys.readouterr()
    assert export.main(["--data-dir", str(data), "--game", "7"]) == 2
    assert export.main(["--data-dir", str(data), "--game", "x"]) == 2
    assert export.main(["--data-dir", str(tmp_path / "empty")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 3
